#pragma once
// Where the default model lives and how a command picks its model file.
#include <string>

namespace dlab {

// File name of the default model (SmolLM2-135M-Instruct, Q4_1) installed by scripts/setup.sh.
inline constexpr const char* kDefaultModelFile = "SmolLM2-135M-Instruct.Q4_1.gguf";

// ${XDG_DATA_HOME:-$HOME/.local/share}/decoding-lab/models
std::string modelDirectory();
// The explicit path if given, else $DECODING_LAB_MODEL, else the default model in modelDirectory().
// Throws dlab::Error saying how to install the default model when none of them exists.
std::string resolveModelPath(const std::string& explicitPath);

}  // namespace dlab
