#pragma once
// Causal attention over the paged KV cache with grouped-query heads: token t of the pass (query
// at slot slot[t] of its sequence) attends to its sequence's slots 0 .. slot[t], reading K and V
// rows through the block table. One pass over the slots with an online softmax, so any context
// length works without a scores buffer.
#include <cuda_runtime_api.h>

#include "cuda/ops/paged_kv.h"

namespace dlab::cuda {

struct AttentionArgs {
    const float* q;   // (T, ldq) nHead heads of headDim, already rotated
    int ldq;
    float* out;       // (T, nHead * headDim)
    int nHead, nHeadKv, headDim;   // headDim <= 256
    float scale;
    int layer;
    PagedKv kv;
    PassSlots slots;
};
void attentionLaunch(const AttentionArgs& a, int T, cudaStream_t stream);

// The softmax weights of one token's query heads (for the KV heatmap, on request only):
//   weights: (nHead, nSlots) with nSlots = slot[t] + 1; row h is head h's attention over the slots.
// Writes the scaled scores, then softmaxRowsLaunch normalises them.
void attentionWeightsLaunch(const AttentionArgs& a, int t, int nSlots, float* weights, cudaStream_t stream);

}  // namespace dlab::cuda
