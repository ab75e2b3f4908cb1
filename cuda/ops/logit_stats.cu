// Logit statistics: kernels -> launcher. Two grids, so a 49,152-token row is read by ~200 warps
// instead of one block:
//   partials: a grid of (parts, R) blocks of 8 warps; warp w of a row takes a contiguous slice of
//             it and writes the slice's max m, s = sum exp(x - m), u = sum exp(x - m) (x - m) and its
//             top-32 (by logit, ties to the smaller id), kept sorted across the warp's lanes.
//   merge:    a block per row combines the partials' (m, s, u) and merges their top lists.
// A warp's top list holds one (logit, id) per lane, lane j the j-th best. A batch of 32 new values
// that cannot enter the first topN (a warp vote against entry topN - 1) is skipped; otherwise it is
// sorted across the lanes (a bitonic sort by shuffles) and merged (the lane-wise better of the list
// and the reversed batch is a bitonic sequence holding the best 32 of both; a bitonic merge sorts it).
#include <climits>

#include "cuda/ops/common.cuh"
#include "cuda/ops/logit_stats.h"

namespace dlab::cuda {

namespace {
constexpr int kWarpsPerBlock = 8;
constexpr int kElemsPerBlock = 2048;   // a warp's slice: 256 logits (8 batches of 32)
constexpr int kMaxParts = 64;

__device__ __forceinline__ bool better(float a, int ia, float b, int ib) { return a > b || (a == b && ia < ib); }

// One compare-exchange step between lanes lane and lane ^ j: the lower lane keeps the better
// entry when `descending`, the worse otherwise.
__device__ __forceinline__ void exchange(float& v, int& id, int j, bool descending) {
    const float ov = __shfl_xor_sync(kFullMask, v, j);
    const int oi = __shfl_xor_sync(kFullMask, id, j);
    const bool lower = (threadIdx.x & j) == 0;
    const bool takeOther = lower == descending ? better(ov, oi, v, id) : better(v, id, ov, oi);
    if (takeOther) v = ov, id = oi;
}

// Sorts a bitonic sequence across the warp's lanes into descending order.
__device__ __forceinline__ void bitonicMerge(float& v, int& id) {
    for (int j = 16; j > 0; j >>= 1) exchange(v, id, j, true);
}

// Sorts 32 values (one per lane) into descending order.
__device__ __forceinline__ void bitonicSort(float& v, int& id) {
    const int lane = threadIdx.x & 31;
    for (int k = 2; k <= 32; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) exchange(v, id, j, (lane & k) == 0);
}

// The list (v, id) becomes the best 32 of itself and the sorted batch (bv, bi).
__device__ __forceinline__ void mergeSorted(float& v, int& id, float bv, int bi) {
    const int lane = threadIdx.x & 31;
    const float rv = __shfl_sync(kFullMask, bv, 31 - lane);
    const int ri = __shfl_sync(kFullMask, bi, 31 - lane);
    if (better(rv, ri, v, id)) v = rv, id = ri;
    bitonicMerge(v, id);
}

// Whether any lane's (x, i) would enter the list's first topN entries. Warp-uniform.
__device__ __forceinline__ bool entersTop(float v, int id, float x, int i, int topN) {
    const float kv = __shfl_sync(kFullMask, v, topN - 1);
    const int ki = __shfl_sync(kFullMask, id, topN - 1);
    return __any_sync(kFullMask, better(x, i, kv, ki));
}

struct Partials {
    float* stats;   // (R, W, 3): m, s, u
    float* vals;    // (R, W, 32)
    int32_t* ids;   // (R, W, 32)
};

__global__ void __launch_bounds__(32 * kWarpsPerBlock) logitPartialsKernel(const float* logits, int n, int topN, int W, Partials p) {
    const int r = blockIdx.y, lane = threadIdx.x & 31;
    const int w = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    const int per = ((n + W - 1) / W + 31) / 32 * 32;
    const int begin = w * per, end = begin + per < n ? begin + per : n;   // warp-uniform; begin >= end: an empty slice
    const float* x = logits + static_cast<size_t>(r) * n;

    float m = -INFINITY, v = -INFINITY;
    int id = INT_MAX;
    for (int i0 = begin; i0 < end; i0 += 32) {
        const int i = i0 + lane;
        const float xi = i < end ? x[i] : -INFINITY;
        const int ii = i < end ? i : INT_MAX;
        m = fmaxf(m, xi);
        if (topN > 0 && entersTop(v, id, xi, ii, topN)) {
            float bv = xi;
            int bi = ii;
            bitonicSort(bv, bi);
            mergeSorted(v, id, bv, bi);
        }
    }
    m = warpMax(m);
    float s = 0.0f, u = 0.0f;
    for (int i = begin + lane; i < end; i += 32) {
        const float xi = x[i];
        if (xi == -INFINITY) continue;
        const float e = expf(xi - m);
        s += e;
        u += e * (xi - m);
    }
    s = warpSum(s);
    u = warpSum(u);
    const size_t at = static_cast<size_t>(r) * W + w;
    if (lane == 0) {
        p.stats[at * 3 + 0] = m;
        p.stats[at * 3 + 1] = s;
        p.stats[at * 3 + 2] = u;
    }
    if (topN > 0) {
        p.vals[at * 32 + lane] = v;
        p.ids[at * 32 + lane] = id;
    }
}

__global__ void __launch_bounds__(32 * kWarpsPerBlock) logitMergeKernel(int W, int topN, Partials p, LogitStatsOut out) {
    const int r = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const float* st = p.stats + static_cast<size_t>(r) * W * 3;
    float M = -INFINITY;
    for (int w = threadIdx.x; w < W; w += blockDim.x) M = fmaxf(M, st[w * 3]);
    M = blockMax(M);
    // Each slice's sums rescaled to the row's max: s' = s e^(m - M), u' = e^(m - M) (u + s (m - M)).
    float S = 0.0f, U = 0.0f;
    for (int w = threadIdx.x; w < W; w += blockDim.x) {
        const float m = st[w * 3], s = st[w * 3 + 1], u = st[w * 3 + 2];
        if (s == 0.0f) continue;   // a slice of -inf (or an empty one)
        const float f = expf(m - M);
        S += s * f;
        U += f * (u + s * (m - M));
    }
    S = blockSum(S);
    U = blockSum(U);
    if (threadIdx.x == 0) {
        out.stats[r * 3 + 0] = M;
        out.stats[r * 3 + 1] = M + logf(S);
        out.stats[r * 3 + 2] = logf(S) - U / S;   // H = lse - E[x] = log S - E[x - M]
    }
    if (topN <= 0) return;

    // Warp k merges the lists k, k + 8, ...; then warp 0 merges the eight results.
    float v = -INFINITY;
    int id = INT_MAX;
    const float* pv = p.vals + static_cast<size_t>(r) * W * 32;
    const int32_t* pi = p.ids + static_cast<size_t>(r) * W * 32;
    for (int w = warp; w < W; w += kWarpsPerBlock) {
        const float bv = lane < topN ? pv[w * 32 + lane] : -INFINITY;
        const int bi = lane < topN ? pi[w * 32 + lane] : INT_MAX;
        if (entersTop(v, id, bv, bi, topN)) mergeSorted(v, id, bv, bi);
    }
    __shared__ float sv[kWarpsPerBlock][32];
    __shared__ int si[kWarpsPerBlock][32];
    sv[warp][lane] = v;
    si[warp][lane] = id;
    __syncthreads();
    if (warp != 0) return;
    for (int k = 1; k < kWarpsPerBlock; ++k) {
        const float bv = lane < topN ? sv[k][lane] : -INFINITY;
        const int bi = lane < topN ? si[k][lane] : INT_MAX;
        if (entersTop(v, id, bv, bi, topN)) mergeSorted(v, id, bv, bi);
    }
    if (lane < topN) {
        out.topIds[r * topN + lane] = id == INT_MAX ? -1 : id;
        out.topLogits[r * topN + lane] = v;
    }
}

int partsFor(int nVocab) {
    const int parts = (nVocab + kElemsPerBlock - 1) / kElemsPerBlock;
    return parts < 1 ? 1 : parts > kMaxParts ? kMaxParts : parts;
}

Partials carveScratch(void* scratch, int R, int W) {
    auto* f = static_cast<float*>(scratch);
    const size_t rw = static_cast<size_t>(R) * W;
    return {f, f + rw * 3, reinterpret_cast<int32_t*>(f + rw * 3 + rw * 32)};
}
}  // namespace

size_t logitStatsScratchBytes(int R, int nVocab) {
    const size_t W = static_cast<size_t>(partsFor(nVocab)) * kWarpsPerBlock;
    return static_cast<size_t>(R > 0 ? R : 0) * W * (3 + 32 + 32) * 4;
}

void logitStatsLaunch(const float* logits, int R, int nVocab, int topN, const LogitStatsOut& out, void* scratch, cudaStream_t stream) {
    if (R <= 0 || nVocab <= 0) return;
    topN = topN < 0 ? 0 : topN > kMaxTopN ? kMaxTopN : topN;
    const int parts = partsFor(nVocab), W = parts * kWarpsPerBlock;
    const Partials p = carveScratch(scratch, R, W);
    logitPartialsKernel<<<dim3(parts, R), 32 * kWarpsPerBlock, 0, stream>>>(logits, nVocab, topN, W, p);
    logitMergeKernel<<<R, 32 * kWarpsPerBlock, 0, stream>>>(W, topN, p, out);
}

}  // namespace dlab::cuda
