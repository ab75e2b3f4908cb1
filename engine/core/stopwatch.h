#pragma once
// Milliseconds since a steady-clock time point: how the engine times its forward passes and runs.
#include <chrono>

namespace dlab {

inline double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace dlab
