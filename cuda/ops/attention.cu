// Paged causal attention: kernel -> launcher. A block per (token, query head), four warps; warp w
// takes slots w, w + 4, ...; a slot's dot product is one warp reduction over headDim, and each
// warp keeps an online softmax (running max m, sum l, weighted values acc) that the block merges.
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

__global__ void attentionKernel(const AttentionArgs a) {
    const int t = blockIdx.x, h = blockIdx.y;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = h / (a.nHead / a.nHeadKv);
    const int D = a.headDim;
    const int nSlots = a.slots.slot[t] + 1;
    const int32_t* table = a.slots.tables + a.slots.tableOf[a.slots.segOf[t]];
    const float* q = a.q + static_cast<size_t>(t) * a.ldq + h * D;

    float qv[kMaxPerLane], acc[kMaxPerLane];
    for (int i = 0; i < kMaxPerLane; ++i) {
        const int d = lane + 32 * i;
        qv[i] = d < D ? q[d] : 0.0f;
        acc[i] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int s = warp; s < nSlots; s += kWarps) {
        const int64_t cell = cellOf(a, table, s);
        const uint8_t* krow = a.kv.row(a.layer, 0, cell);
        const uint8_t* vrow = a.kv.row(a.layer, 1, cell);
        float dot = 0.0f;
        for (int i = 0; i < kMaxPerLane; ++i) {
            const int d = lane + 32 * i;
            if (d < D) dot += qv[i] * kvElement(a.kv.kvType, krow, g * D + d);
        }
        const float score = warpSum(dot) * a.scale;
        const float mNew = fmaxf(m, score);
        const float corr = expf(m - mNew), p = expf(score - mNew);
        l = l * corr + p;
        for (int i = 0; i < kMaxPerLane; ++i) {
            const int d = lane + 32 * i;
            acc[i] = acc[i] * corr + (d < D ? p * kvElement(a.kv.kvType, vrow, g * D + d) : 0.0f);
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
    attentionKernel<<<dim3(T, a.nHead), 32 * kWarps, 0, stream>>>(a);
}

void attentionWeightsLaunch(const AttentionArgs& a, int t, int nSlots, float* weights, cudaStream_t stream) {
    attentionScoresKernel<<<blocksFor(nSlots, kWarps), 32 * kWarps, 0, stream>>>(a, t, nSlots, weights);
    softmaxRowsLaunch(weights, a.nHead, nSlots, stream);
}

}  // namespace dlab::cuda
