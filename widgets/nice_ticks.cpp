#include "widgets/nice_ticks.h"

#include <cmath>

namespace dlab::widgets {

int64_t niceStep(double rough) {
    if (!(rough > 1.0)) return 1;
    double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    for (;;) {
        for (double m : {1.0, 2.0, 5.0})
            if (m * magnitude >= rough - 1e-9) return int64_t(std::llround(m * magnitude));
        magnitude *= 10.0;
    }
}

std::vector<int64_t> niceTicks(int64_t extent, int maxTicks) {
    std::vector<int64_t> ticks;
    if (extent <= 0 || maxTicks < 1) return ticks;
    // Ticks at 0, s, 2s, … <= extent-1 number floor((extent-1)/s) + 1: the smallest nice s with at most maxTicks.
    int64_t step = niceStep(double(extent - 1) / double(maxTicks));
    while ((extent - 1) / step + 1 > maxTicks) step = niceStep(double(step) + 1.0);
    for (int64_t t = 0; t < extent; t += step) ticks.push_back(t);
    return ticks;
}

}  // namespace dlab::widgets
