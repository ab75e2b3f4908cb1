#pragma once
// decoding-lab-cli make-tiny-model: writes a tiny random-weights GGUF model (see gguf/tiny_model.h)
//   --arch llama|qwen2|gpt2 --out PATH [--seed N] [--type f32|f16|q8_0|q4_1] [--tied]
#include <string>
#include <vector>

namespace dlab::cli {

// args: everything after the subcommand name. Returns the exit code; throws dlab::Error for bad options.
int runMakeTinyModel(const std::vector<std::string>& args);

}  // namespace dlab::cli
