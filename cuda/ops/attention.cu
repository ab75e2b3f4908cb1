// Paged causal attention: kernel -> launcher. A block per (token, query head), four warps. A warp
// takes 32 slots at a time, a slot per lane: each lane reads its slot's whole K row (vector loads
// where the rows allow them) against the query in shared memory, so a warp has 32 rows in flight
// instead of one. The tile's scores update the warp's online softmax (running max m, sum l); then
// the lanes, each holding output dims lane, lane + 32, ..., add the tile's 32 V rows weighted by
// the probabilities they take from the slot's lane by shuffle. The block merges its four warps.
#include "cuda/ops/attention.h"
#include "cuda/ops/common.cuh"
#include "cuda/ops/softmax.h"
#include "cuda/quant_hd.h"

namespace dlab::cuda {

namespace {
constexpr int kWarps = 4;
constexpr int kMaxPerLane = 8;   // headDim <= 256

__device__ __forceinline__ int64_t cellOf(const AttentionArgs& a, const int32_t* table, int s) {
    return static_cast<int64_t>(table[s / a.kv.blockSize]) * a.kv.blockSize + s % a.kv.blockSize;
}

// Elements e .. e + 7 of a stored KV row of type KV (0 f32, 1 f16, 2 q8_0). A KV row is laid out as
// a weight row of the same type, so quant_hd.h's chunk reader does it: q8_0 from its 32-value
// block (e % 8 == 0 there), f32 / f16 from the element's address where that is 16-byte aligned
// (VEC), element by element otherwise.
template <int KV, bool VEC>
__device__ __forceinline__ void kvChunk8(const uint8_t* row, int e, float* out) {
    if constexpr (KV == 2) dequantChunk8<GgmlType::Q8_0>(row, e / 8, out);
    else if constexpr (VEC) dequantChunk8<KV == 0 ? GgmlType::F32 : GgmlType::F16>(row + e * (KV == 0 ? 4 : 2), 0, out);
    else for (int i = 0; i < 8; ++i) out[i] = kvElement(KV, row, e + i);
}

template <int KV, bool VEC>
__global__ void __launch_bounds__(32 * kWarps) attentionKernel(const AttentionArgs a) {
    const int t = blockIdx.x, h = blockIdx.y;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int D = a.headDim;
    const int e0 = h / (a.nHead / a.nHeadKv) * D;   // the KV head's first element in a row
    const int nSlots = a.slots.slot[t] + 1;
    const int32_t* table = a.slots.tables + a.slots.tableOf[a.slots.segOf[t]];

    __shared__ __align__(16) float qs[32 * kMaxPerLane];   // (headDim) this head's query
    const float* q = a.q + static_cast<size_t>(t) * a.ldq + h * D;
    for (int d = threadIdx.x; d < D; d += blockDim.x) qs[d] = q[d];
    __syncthreads();

    float acc[kMaxPerLane];
    for (int i = 0; i < kMaxPerLane; ++i) acc[i] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    for (int base = warp * 32; base < nSlots; base += kWarps * 32) {   // warp-uniform
        const int s = base + lane;
        const bool valid = s < nSlots;
        const long long cell = valid ? cellOf(a, table, s) : 0;
        float score = -INFINITY;
        if (valid) {
            const uint8_t* krow = a.kv.row(a.layer, 0, cell);
            float dot = 0.0f;
            int d = 0;
            for (; d + 8 <= D; d += 8) {
                float k[8];
                kvChunk8<KV, VEC>(krow, e0 + d, k);
                for (int i = 0; i < 8; ++i) dot += qs[d + i] * k[i];
            }
            for (; d < D; ++d) dot += qs[d] * kvElement(KV, krow, e0 + d);
            score = dot * a.scale;
        }
        const float mNew = fmaxf(m, warpMax(score));   // lane 0's slot is valid: finite unless a score is -inf
        const float corr = m == -INFINITY ? 0.0f : expf(m - mNew);
        const float p = valid && score != -INFINITY ? expf(score - mNew) : 0.0f;
        l = l * corr + warpSum(p);
        for (int i = 0; i < kMaxPerLane; ++i) acc[i] *= corr;
        const int n = nSlots - base < 32 ? nSlots - base : 32;
#pragma unroll 4
        for (int j = 0; j < n; ++j) {
            const float pj = __shfl_sync(kFullMask, p, j);
            const long long cj = __shfl_sync(kFullMask, cell, j);
            const uint8_t* vrow = a.kv.row(a.layer, 1, cj);
            for (int i = 0; i < kMaxPerLane; ++i) {
                const int d = lane + 32 * i;
                if (d < D) acc[i] += pj * kvElement(KV, vrow, e0 + d);
            }
        }
        m = mNew;
    }

    __shared__ float sm[kWarps], sl[kWarps];
    __shared__ float sacc[kWarps][32 * kMaxPerLane];
    if (lane == 0) {
        sm[warp] = m;
        sl[warp] = l;
    }
    for (int i = 0; i < kMaxPerLane; ++i) sacc[warp][lane + 32 * i] = acc[i];
    __syncthreads();
    float M = -INFINITY;
    for (int w = 0; w < kWarps; ++w) M = fmaxf(M, sm[w]);
    float L = 0.0f, f[kWarps];
    for (int w = 0; w < kWarps; ++w) {
        f[w] = sm[w] == -INFINITY ? 0.0f : expf(sm[w] - M);
        L += sl[w] * f[w];
    }
    float* out = a.out + static_cast<size_t>(t) * a.nHead * D + h * D;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float o = 0.0f;
        for (int w = 0; w < kWarps; ++w) o += sacc[w][d] * f[w];
        out[d] = o / L;
    }
}

// Scaled scores of token t's heads over its slots: a warp per slot, heads looped.
__global__ void attentionScoresKernel(const AttentionArgs a, int t, int nSlots, float* scores) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int s = blockIdx.x * kWarps + warp;
    if (s >= nSlots) return;
    const int D = a.headDim;
    const int32_t* table = a.slots.tables + a.slots.tableOf[a.slots.segOf[t]];
    const uint8_t* krow = a.kv.row(a.layer, 0, cellOf(a, table, s));
    for (int h = 0; h < a.nHead; ++h) {
        const int g = h / (a.nHead / a.nHeadKv);
        const float* q = a.q + static_cast<size_t>(t) * a.ldq + h * D;
        float dot = 0.0f;
        for (int d = lane; d < D; d += 32) dot += q[d] * kvElement(a.kv.kvType, krow, g * D + d);
        dot = warpSum(dot);
        if (lane == 0) scores[static_cast<size_t>(h) * nSlots + s] = dot * a.scale;
    }
}
}  // namespace

void attentionLaunch(const AttentionArgs& a, int T, cudaStream_t stream) {
    if (T <= 0) return;
    // 16-byte loads need every row and every head's first element on a 16-byte boundary (device
    // allocations are 256-byte aligned; the emulator faults a misaligned one).
    const size_t elemBytes = a.kv.kvType == 0 ? 4 : 2;
    const bool vec = a.kv.kvType != 2 && a.kv.rowBytes % 16 == 0 && (size_t(a.headDim) * elemBytes) % 16 == 0 &&
                     reinterpret_cast<uintptr_t>(a.kv.base) % 16 == 0;
    const dim3 grid(T, a.nHead);
    if (a.kv.kvType == 0) {
        if (vec) attentionKernel<0, true><<<grid, 32 * kWarps, 0, stream>>>(a);
        else attentionKernel<0, false><<<grid, 32 * kWarps, 0, stream>>>(a);
    } else if (a.kv.kvType == 1) {
        if (vec) attentionKernel<1, true><<<grid, 32 * kWarps, 0, stream>>>(a);
        else attentionKernel<1, false><<<grid, 32 * kWarps, 0, stream>>>(a);
    } else {
        attentionKernel<2, false><<<grid, 32 * kWarps, 0, stream>>>(a);
    }
}

void attentionWeightsLaunch(const AttentionArgs& a, int t, int nSlots, float* weights, cudaStream_t stream) {
    attentionScoresKernel<<<blocksFor(nSlots, kWarps), 32 * kWarps, 0, stream>>>(a, t, nSlots, weights);
    softmaxRowsLaunch(weights, a.nHead, nSlots, stream);
}

}  // namespace dlab::cuda
