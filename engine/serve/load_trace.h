#pragma once
// A request trace for the serving lab: arrival times from a Poisson process at a chosen rate,
// prompt and output lengths drawn uniformly from ranges, prompts cut from real text, optionally
// all starting with one shared system prompt. Seeded: the same settings give the same trace, so
// static and continuous batching can be run on exactly the same requests.
#include <cstdint>
#include <vector>

#include "model/model.h"

namespace dlab {

struct LoadSpec {
    int requests = 32;              // [1, 10000]
    double ratePerSecond = 4.0;     // mean arrivals per second (> 0); requests arrive independently
    int promptMin = 32, promptMax = 96;   // tokens after the system prompt, [1, 8192], min <= max
    int outputMin = 16, outputMax = 48;   // tokens to generate (each request runs to its length), [1, 8192]
    int systemPromptTokens = 0;     // shared prefix of every prompt; 0 = none
    uint64_t seed = 1;
    void validate() const;          // throws dlab::Error naming the setting
};

struct TracedRequest {
    double arrivalMs = 0.0;         // since the start of the run
    std::vector<TokenId> prompt;
    int outputTokens = 0;
};

std::vector<TracedRequest> makeLoadTrace(const Model& model, const LoadSpec& spec);

// Token ids of an English text (built in) cut from `offset` tokens in, `n` tokens long; the text
// repeats as needed. The serving lab's prompts and the shared system prompt come from here.
std::vector<TokenId> sampleTextTokens(const Model& model, int64_t offset, int64_t n);

}  // namespace dlab
