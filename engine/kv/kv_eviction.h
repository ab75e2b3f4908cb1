#pragma once
// Long context on a bounded cache, measured (StreamingLLM, Xiao et al. 2023): a text is read one
// token at a time and, before each token, the cache evicts down to
//   the first `sinks` positions (the attention sinks) + the `window` most recent ones,
// so every query sees at most sinks + window positions, itself included. Plain window eviction
// is sinks = 0. Kept keys stay at the positions they were computed at (KvBlockPool::evict): a
// query at position p sees a kept key at its true distance. StreamingLLM instead renumbers
// positions inside the cache so a model can run past its trained context; within the trained
// context (what this lesson runs) both give every kept key its real relative position.
//
// Each policy reads the same tokens in its own sequence; the first policy given is the
// reference its KL is measured against (normally "full": window = 0, nothing evicted).
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "model/backend.h"

namespace dlab {

struct EvictionPolicy {
    std::string name;                // "full", "sinks 4 + window 252", ...
    int64_t sinks = 0;
    int64_t window = 0;              // 0 = keep everything
    bool evicts() const { return window > 0; }
};

struct EvictionResult {
    EvictionPolicy policy;
    std::vector<float> nll;          // per predicted token i + 1 (i = 0 .. n - 2), nats
    std::vector<float> kl;           // KL(p_reference || p_policy) per prediction, nats
    double perplexity = 0.0;         // exp(mean nll) over the predictions after `scoreFrom`
    double meanKl = 0.0;             // over the same predictions
    int64_t maxSlots = 0;            // the most positions the cache held
    int64_t bytesPeak = 0;           // K and V of those slots
    int64_t evicted = 0;             // positions dropped in all
};

struct EvictionOptions {
    int64_t scoreFrom = 0;           // predictions before this token index are not scored (all caches still equal there)
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int64_t done, int64_t total)> progress;   // every 16 tokens
    KvType type = KvType::F16;
};

// Throws dlab::Error for fewer than 2 tokens, no policy, a sink count with no window, or a window
// below 1; a raised cancel flag returns the predictions made so far.
std::vector<EvictionResult> runEvictionExperiment(const Model& model, Backend& backend, const std::vector<TokenId>& tokens,
                                                  const std::vector<EvictionPolicy>& policies, const EvictionOptions& options = {});

}  // namespace dlab
