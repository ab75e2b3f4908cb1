#pragma once
// decoding-lab-cli branch: generate, then go back to one step, force another token there and
// continue — the prefix's KV blocks are shared by both branches, not recomputed.
#include "args.h"

namespace dlab::cli {

int runBranch(Args& args);

}  // namespace dlab::cli
