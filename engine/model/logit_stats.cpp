#include "model/logit_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dlab {

std::vector<LogitRowStats> logitRowStats(std::span<const float> rows, int64_t nVocab, int topN) {
    std::vector<LogitRowStats> out;
    if (nVocab <= 0) return out;
    topN = std::clamp(topN, 0, 32);
    std::vector<int32_t> ids;
    for (size_t r = 0; r + nVocab <= rows.size(); r += static_cast<size_t>(nVocab)) {
        const float* x = rows.data() + r;
        LogitRowStats s;
        s.maxLogit = *std::max_element(x, x + nVocab);
        double sum = 0.0, sumX = 0.0;
        for (int64_t i = 0; i < nVocab; ++i) {
            if (x[i] == -INFINITY) continue;
            const double e = std::exp(double(x[i]) - s.maxLogit);
            sum += e;
            sumX += e * (double(x[i]) - s.maxLogit);
        }
        s.logSumExp = static_cast<float>(s.maxLogit + std::log(sum));
        s.entropy = static_cast<float>(std::log(sum) - sumX / sum);
        const int n = static_cast<int>(std::min<int64_t>(topN, nVocab));
        ids.resize(static_cast<size_t>(nVocab));
        std::iota(ids.begin(), ids.end(), 0);
        std::partial_sort(ids.begin(), ids.begin() + n, ids.end(),
                          [x](int32_t a, int32_t b) { return x[a] > x[b] || (x[a] == x[b] && a < b); });
        for (int i = 0; i < n; ++i) {
            s.topIds.push_back(ids[i]);
            s.topLogits.push_back(x[ids[i]]);
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace dlab
