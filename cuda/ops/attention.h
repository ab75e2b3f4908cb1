#pragma once
// Causal attention over the paged KV cache with grouped-query heads: token t of the pass (query
// at slot slot[t] of its sequence) attends to its sequence's slots 0 .. slot[t], reading K and V
// rows through the block table. One pass over the slots with an online softmax, so any context
// length works without a scores buffer.
//
// Split context (flash-decoding): a decode step has few (token, head) pairs, one block each, so
// at long contexts a handful of SMs would walk thousands of slots while the rest idle. Past
// splitFrom slots each pair's context is cut into ranges of whole warp tiles, a block each; the
// blocks write their unnormalised outputs with their running max and sum to `partial`, and a merge
// kernel rescales and adds them (the same online-softmax algebra the block uses between warps).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/hd.h"
#include "cuda/ops/paged_kv.h"

namespace dlab::cuda {

// Context splitting. A token's context of n slots is cut into ranges by n alone, never by the
// batch it is in or the GPU it runs on, so its result stays the same bit for bit in any batch:
// up to splitFrom slots one range, beyond it ranges of attentionRangeSlots(n) slots, at most
// kMaxAttentionSplits of them. (A one-range token in a launch of several blocks per pair goes
// through the merge and comes out as the single block would write it.)
constexpr int kMaxAttentionSplits = 32;
constexpr int kAttentionSplitFrom = 512;      // the default: shorter contexts are one range
constexpr int kAttentionRangeMinSlots = 128;  // one warp tile for each of a block's 4 warps

DLAB_HD int attentionRangeSlots(int nSlots) {
    const int even = ((nSlots + kMaxAttentionSplits - 1) / kMaxAttentionSplits + 31) / 32 * 32;
    return even > kAttentionRangeMinSlots ? even : kAttentionRangeMinSlots;
}
// splitFrom <= 0: never split.
DLAB_HD int attentionRanges(int nSlots, int splitFrom) {
    if (splitFrom <= 0 || nSlots <= splitFrom) return 1;
    const int per = attentionRangeSlots(nSlots);
    return (nSlots + per - 1) / per;
}
// The launch's split count (grid z) for a pass whose longest context is maxSlots: its ranges,
// rounded up to a power of two so a decode graph is re-captured only a few times as a context
// grows (blocks past a token's ranges return at once).
inline int attentionGridSplits(int maxSlots, int splitFrom) {
    const int ranges = attentionRanges(maxSlots, splitFrom);
    int splits = 1;
    while (splits < ranges) splits *= 2;
    return splits;
}

// Floats of AttentionArgs::partial for a pass of T tokens.
inline size_t attentionPartialFloats(int T, int nHead, int splits, int headDim) {
    return splits > 1 ? static_cast<size_t>(T) * nHead * splits * (headDim + 2) : 0;
}

// The KV store folded into attention, for a pass in which every token is the last of its
// sequence (decode steps, batched or not): no token then reads a row that another block of the
// launch writes. Each block rotates its query head and its K/V head's new k (RoPE, rope.cuh's
// arithmetic), rounds that head's new K and V values to the cache's type in shared memory, and
// reads slot[t]'s K and V from there; the group's first query head, in range 0, writes them to the
// cache and to the staging buffer. The cache and the outputs come out bit for bit as from the KV
// store kernel followed by attention, with one kernel less per layer.
struct FoldedKvStore {
    const float* k = nullptr;   // (T, ldk) nHeadKv heads, not rotated
    const float* v = nullptr;   // (T, ldv)
    int ldk = 0, ldv = 0;
    int nLayer = 0;
    uint8_t* staging = nullptr;   // (T, nLayer, 2, rowBytes), as KvStoreArgs::staging
    int nRot = 0;                 // RoPE: 0 none; the pairs and tables as RopeArgs
    bool neox = false;
    const float* cosv = nullptr;  // (T, nRot / 2)
    const float* sinv = nullptr;
};

struct AttentionArgs {
    const float* q;   // (T, ldq) nHead heads of headDim, already rotated (not rotated with a folded store)
    int ldq;
    float* out;       // (T, nHead * headDim)
    int nHead, nHeadKv, headDim;   // headDim <= 256
    float scale;
    int layer;
    PagedKv kv;
    PassSlots slots;
    // Context splitting: splits >= attentionGridSplits(longest context of the pass, splitFrom);
    // splits == 1 takes every context whole, whatever splitFrom says.
    int splits = 1;            // grid z, 1 .. kMaxAttentionSplits
    int splitFrom = 0;
    float* partial = nullptr;  // splits > 1: (T, nHead, splits, headDim + 2): output sums, then max, sum
    bool foldStore = false;    // the KV store folded in (the pass's tokens each end their sequence)
    // A programmatic dependent launch (cuda/ops/pdl.cuh): the blocks may start while the kernel
    // before still runs, and wait for it before reading q, k, v or the cache.
    bool dependent = false;
    FoldedKvStore store{};
};
// Throws dlab::Error for a split count out of range or a folded store it cannot take (q8_0 with a
// head size that is not a multiple of 32).
void attentionLaunch(const AttentionArgs& a, int T, cudaStream_t stream);

// The softmax weights of one token's query heads (for the KV heatmap, on request only):
//   weights: (nHead, nSlots) with nSlots = slot[t] + 1; row h is head h's attention over the slots.
// Writes the scaled scores, then softmaxRowsLaunch normalises them.
void attentionWeightsLaunch(const AttentionArgs& a, int t, int nSlots, float* weights, cudaStream_t stream);

}  // namespace dlab::cuda
