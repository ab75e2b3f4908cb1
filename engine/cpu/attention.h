#pragma once
// Causal multi-head attention over the KV cache, with grouped-query heads (GQA): the G = nHead /
// nHeadKv query heads of a group share one K/V head, so each cached K/V row is converted from
// f16 / q8_0 once and used for all G heads. K/V rows are read through the sequence's block table
// of a paged KvBlockPool.
#include <cstdint>
#include <vector>

#include "core/thread_pool.h"
#include "model/kv_block_pool.h"

namespace dlab {

struct AttentionShape {
    int64_t nHead;
    int64_t nHeadKv;
    int64_t headDim;
    float scale;  // usually 1 / sqrt(headDim)
};

// Per-thread scratch, sized on first use.
struct AttentionScratch {
    std::vector<float> scores;  // (nThreads, G, nCtx)
    std::vector<float> rows;    // (nThreads, 8, headDim) converted K or V rows
};

// Queries q (T, nHead * headDim) at positions pos0 .. pos0 + T - 1 attend to sequence seq's
// positions [0, pos0 + t]; writes out (T, nHead * headDim). The cache must already hold seq's rows
// up to pos0 + T - 1 for `layer` (its block table covering them).
// lastWeights, when not null, receives the softmax weights of the last query token:
//   (nHead, pos0 + T), head h's row at h * (pos0 + T).
void causalAttention(const float* q, float* out, int64_t T, int64_t pos0, const KvBlockPool& cache, SeqId seq, int64_t layer,
                     const AttentionShape& shape, ThreadPool& pool, AttentionScratch& scratch, float* lastWeights = nullptr);

}  // namespace dlab
