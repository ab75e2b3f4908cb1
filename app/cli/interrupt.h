#pragma once
// Ctrl-C for the long commands (generate, bench, perplexity, branch, compare): the first SIGINT
// raises a flag that the engine checks between steps and between layers, so the command stops at
// the next check, prints what it did (marked as interrupted) and exits with kInterruptedExit. A
// second SIGINT ends the process at once (the default action), for when the first is not enough.
#include <atomic>

namespace dlab::cli {

constexpr int kInterruptedExit = 130;  // 128 + SIGINT, what shells report for a Ctrl-C'd command

// Installs the handler (idempotent); returns the flag it raises, for the engine's cancel checks.
const std::atomic<bool>* installInterruptHandler();
bool interrupted();

}  // namespace dlab::cli
