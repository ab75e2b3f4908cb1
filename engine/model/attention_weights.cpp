#include "model/attention_weights.h"

namespace dlab {

std::vector<float> AttentionWeights::perKvGroup() const {
    const int64_t G = groupSize();
    std::vector<float> out(static_cast<size_t>(nLayer * nHeadKv * nSlots), 0.0f);
    if (G == 0) return out;
    for (int64_t l = 0; l < nLayer; ++l)
        for (int64_t h = 0; h < nHead; ++h) {
            float* dst = out.data() + (l * nHeadKv + h / G) * nSlots;
            const float* src = perHead.data() + (l * nHead + h) * nSlots;
            for (int64_t s = 0; s < nSlots; ++s) dst[s] += src[s] / static_cast<float>(G);
        }
    return out;
}

std::vector<float> AttentionWeights::meanOverHeads() const {
    std::vector<float> out(static_cast<size_t>(nLayer * nSlots), 0.0f);
    if (nHead == 0) return out;
    for (int64_t l = 0; l < nLayer; ++l)
        for (int64_t h = 0; h < nHead; ++h) {
            const float* src = perHead.data() + (l * nHead + h) * nSlots;
            for (int64_t s = 0; s < nSlots; ++s) out[l * nSlots + s] += src[s] / static_cast<float>(nHead);
        }
    return out;
}

}  // namespace dlab
