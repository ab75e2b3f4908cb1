#pragma once
// decoding-lab-cli kv: how much memory the KV cache of a model takes (presets or a GGUF file).
#include "args.h"

namespace dlab::cli {

int runKv(Args& args);

}  // namespace dlab::cli
