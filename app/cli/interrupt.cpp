#include "interrupt.h"

#include <csignal>

namespace dlab::cli {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler may only touch a lock-free atomic");

extern "C" void onSigint(int) {
    // Only async-signal-safe calls here: a second Ctrl-C gets the default action (termination).
    if (g_interrupted.exchange(true)) {
        std::signal(SIGINT, SIG_DFL);
        std::raise(SIGINT);
    }
}

}  // namespace

const std::atomic<bool>* installInterruptHandler() {
    struct sigaction sa {};
    sa.sa_handler = onSigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // a write to stdout in progress completes instead of failing with EINTR
    sigaction(SIGINT, &sa, nullptr);
    return &g_interrupted;
}

bool interrupted() { return g_interrupted.load(); }

}  // namespace dlab::cli
