#pragma once
// What a step's trace needs from a row of logits without the whole row: the largest logit,
// log-sum-exp, entropy in nats and the best tokens (by logit, ties to the smaller id). The CPU
// computes it here; the CUDA backend on the device (cuda/ops/logit_stats.cu), checked against this.
#include <cstdint>
#include <span>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

struct LogitRowStats {
    float maxLogit = 0.0f;
    float logSumExp = 0.0f;
    float entropy = 0.0f;          // nats
    std::vector<TokenId> topIds;   // best first
    std::vector<float> topLogits;
};

// rows: (nRows, nVocab) row-major; topN in 0..32 (more is cut to 32).
std::vector<LogitRowStats> logitRowStats(std::span<const float> rows, int64_t nVocab, int topN);

}  // namespace dlab
