#pragma once
// Turns one step's logits into the next token: temperature, top-k and top-p (Hugging Face order:
// temperature reshapes the distribution before the nucleus is chosen), then a seeded draw.
// Temperature 0 is exact greedy (argmax, ties to the lowest id).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sampling/rng.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

struct SamplerParams {
    float temperature = 0.8f;  // [0, 100]; 0 = greedy
    int topK = 40;             // 0 = off
    float topP = 0.95f;        // (0, 1]; 1 = off
    uint64_t seed = 0;

    // Throws dlab::Error naming the option and its valid range.
    void validate() const;
};

struct Candidate {
    TokenId id;
    float logit;
    float p;
};

class Sampler {
public:
    explicit Sampler(const SamplerParams& params);
    TokenId sample(std::span<const float> logits);
    const SamplerParams& params() const { return params_; }

    // The candidates that survive temperature/top-k/top-p with their renormalised probabilities,
    // most probable first (what sample() draws from).
    std::vector<Candidate> distribution(std::span<const float> logits) const;

private:
    SamplerParams params_;
    SamplingRng rng_;
};

TokenId argmax(std::span<const float> logits);

}  // namespace dlab
