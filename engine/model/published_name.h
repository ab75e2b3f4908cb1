#pragma once
// The name a model goes by: the one it was published as, which is what its file is called
// ("SmolLM2-135M-Instruct.Q4_1.gguf"), not its general.name metadata (often a training-run label
// such as "Smollm2 135M 8k Lc100K Mix1 Ep2"). The app shows it, and the app's server and
// `decoding-lab-cli serve` both answer to it as the OpenAI model id, so a client written against
// one works against the other.
#include <string>

namespace dlab {

// The file name without ".gguf" and without a trailing quantization label (".Q4_1", "-q8_0",
// ".Q4_K_M", ".f16", ".bf16"): "SmolLM2-135M-Instruct.Q4_1.gguf" -> "SmolLM2-135M-Instruct".
// A name that is nothing but a label keeps it ("Q8_0.gguf" -> "Q8_0").
std::string publishedModelName(const std::string& path);

}  // namespace dlab
