#pragma once
// decoding-lab-cli compare: several decoding runs (greedy, sample, beam) side by side on one
// prompt, sharing its KV blocks; a table or JSON.
#include "args.h"

namespace dlab::cli {

int runCompare(Args& args);

}  // namespace dlab::cli
