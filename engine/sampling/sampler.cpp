#include "sampling/sampler.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace dlab {

Sampler::Sampler(const SamplerParams& params) : chain_(params, 0), state_(params.seed) {}

TokenId Sampler::sample(std::span<const float> logits, const History& history) {
    return chain_.sample(logits, history, state_, false).token;
}

std::vector<Candidate> Sampler::distribution(std::span<const float> logits, const History& history) const {
    SamplerChain chain(chain_.params(), 0);
    SamplerState state = state_;
    chain.sample(logits, history, state, false);
    std::vector<Candidate> out;
    for (const auto& c : chain.candidates())
        if (c.p > 0.0f) out.push_back(c);
    std::sort(out.begin(), out.end(), ranksAbove);
    return out;
}

TokenId argmax(std::span<const float> logits) {
    if (logits.empty()) throw Error("cannot pick a token from an empty distribution");
    size_t best = 0;
    for (size_t i = 1; i < logits.size(); ++i)
        if (logits[i] > logits[best]) best = i;
    if (!std::isfinite(logits[best])) throw Error("the model produced non-finite logits (NaN or infinity)");
    return static_cast<TokenId>(best);
}

}  // namespace dlab
