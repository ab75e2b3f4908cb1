#pragma once
// What a step's trace needs from a row of logits, computed where the logits are: the largest
// logit, log-sum-exp, entropy (nats) and the top-N tokens (by logit, ties to the smaller id).
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace dlab::cuda {

constexpr int kMaxTopN = 32;

struct LogitStatsOut {
    float* stats;      // (R, 3): max, logSumExp, entropy
    int32_t* topIds;   // (R, topN)
    float* topLogits;  // (R, topN)
};
// Device scratch a launch over R rows of nVocab needs (the slices' partial results); allocate it
// once, outside any stream capture.
size_t logitStatsScratchBytes(int R, int nVocab);
// logits: (R, nVocab). topN in 0..kMaxTopN. scratch: logitStatsScratchBytes(R, nVocab) bytes.
void logitStatsLaunch(const float* logits, int R, int nVocab, int topN, const LogitStatsOut& out, void* scratch, cudaStream_t stream);

}  // namespace dlab::cuda
