#pragma once
// The simple face of the sampler chain: one object that owns its settings, chain and random state.
// Sampler(params).sample(logits, history) draws the next token; distribution() shows what it draws
// from. For the per-stage picture and re-sampling of cached steps use SamplerChain directly.
#include <span>
#include <vector>

#include "sampling/sampler_chain.h"
#include "sampling/sampler_params.h"

namespace dlab {

class Sampler {
public:
    explicit Sampler(const SamplerParams& params);  // throws dlab::Error for invalid settings
    TokenId sample(std::span<const float> logits, const History& history = {});
    const SamplerParams& params() const { return chain_.params(); }
    SamplerState& state() { return state_; }

    // The candidates the next draw would choose from, most probable first, p renormalised.
    // Does not advance the random state (XTC's coin is tossed on a copy).
    std::vector<Candidate> distribution(std::span<const float> logits, const History& history = {}) const;

private:
    SamplerChain chain_;
    SamplerState state_;
};

// The highest logit's token (ties to the lowest id). Throws for an empty span or a non-finite maximum.
TokenId argmax(std::span<const float> logits);

}  // namespace dlab
