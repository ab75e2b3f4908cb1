#pragma once
// Axis ticks at "nice" numbers: multiples of 1, 2 or 5 × 10^k, as few as needed so that at most
// `maxTicks` appear. Used by the KV heatmap's position axis (positions are whole numbers, so the
// step is at least 1).
#include <cstdint>
#include <vector>

namespace dlab::widgets {

// The smallest 1-2-5 step >= rough (and >= 1).
int64_t niceStep(double rough);
// 0, step, 2·step, … below `extent` (positions 0 … extent-1); empty for extent <= 0 or maxTicks < 1.
std::vector<int64_t> niceTicks(int64_t extent, int maxTicks);

}  // namespace dlab::widgets
