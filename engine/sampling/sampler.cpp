#include "sampling/sampler.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace dlab {

void SamplerParams::validate() const {
    if (!(temperature >= 0.0f && temperature <= 100.0f))
        throw Error("--temperature must be between 0 and 100 (0 = greedy); got " + std::to_string(temperature));
    if (topK < 0) throw Error("--top-k must be 0 (off) or a positive number of tokens; got " + std::to_string(topK));
    if (!(topP > 0.0f && topP <= 1.0f))
        throw Error("--top-p must be greater than 0 and at most 1 (1 = off); got " + std::to_string(topP));
}

Sampler::Sampler(const SamplerParams& params) : params_(params), rng_(params.seed) { params_.validate(); }

TokenId argmax(std::span<const float> logits) {
    if (logits.empty()) throw Error("cannot pick a token from an empty distribution");
    size_t best = 0;
    for (size_t i = 1; i < logits.size(); ++i)
        if (logits[i] > logits[best]) best = i;
    if (!std::isfinite(logits[best])) throw Error("the model produced non-finite logits (NaN or infinity)");
    return static_cast<TokenId>(best);
}

std::vector<Candidate> Sampler::distribution(std::span<const float> logits) const {
    std::vector<Candidate> c;
    c.reserve(logits.size());
    for (size_t i = 0; i < logits.size(); ++i) {
        if (std::isnan(logits[i])) throw Error("the model produced a NaN logit for token " + std::to_string(i));
        c.push_back({static_cast<TokenId>(i), logits[i], 0.0f});
    }
    auto byLogit = [](const Candidate& a, const Candidate& b) { return a.logit > b.logit || (a.logit == b.logit && a.id < b.id); };
    // top-k first only bounds the sort; it keeps the same set whatever the temperature.
    if (params_.topK > 0 && static_cast<size_t>(params_.topK) < c.size()) {
        std::partial_sort(c.begin(), c.begin() + params_.topK, c.end(), byLogit);
        c.resize(params_.topK);
    } else {
        std::sort(c.begin(), c.end(), byLogit);
    }
    // temperature + softmax
    const double invT = 1.0 / params_.temperature;
    double sum = 0.0;
    for (auto& k : c) {
        const double e = std::exp((double(k.logit) - double(c.front().logit)) * invT);
        k.p = static_cast<float>(e);
        sum += e;
    }
    for (auto& k : c) k.p = static_cast<float>(k.p / sum);
    // top-p: smallest prefix whose mass reaches p (at least one token)
    if (params_.topP < 1.0f) {
        double cum = 0.0;
        size_t keep = 0;
        while (keep < c.size()) {
            cum += c[keep].p;
            ++keep;
            if (cum >= params_.topP) break;
        }
        c.resize(keep);
        double kept = 0.0;
        for (auto& k : c) kept += k.p;
        for (auto& k : c) k.p = static_cast<float>(k.p / kept);
    }
    return c;
}

TokenId Sampler::sample(std::span<const float> logits) {
    if (params_.temperature == 0.0f) return argmax(logits);
    const auto c = distribution(logits);
    const double r = rng_.uniform();
    double cum = 0.0;
    for (const auto& k : c) {
        cum += k.p;
        if (r < cum) return k.id;
    }
    return c.back().id;
}

}  // namespace dlab
