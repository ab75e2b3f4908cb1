#pragma once
// The name a model is shown under. Users know a model by the name it was published as, which is
// what its file is called ("SmolLM2-135M-Instruct.Q4_1.gguf"), not by its general.name metadata
// (often a training-run label such as "Smollm2 135M 8k Lc100K Mix1 Ep2").
#include <QString>

namespace dlab::ui {

// The file name without ".gguf" and without a trailing quantization label (".Q4_1", "-q8_0",
// ".Q4_K_M", ".f16", ".bf16"): "SmolLM2-135M-Instruct.Q4_1.gguf" -> "SmolLM2-135M-Instruct".
QString modelDisplayName(const QString& path);

}  // namespace dlab::ui
