// Paged causal attention: kernel -> launcher. A block per (token, query head), four warps. A warp
// takes 32 slots at a time, a slot per lane: each lane reads its slot's whole K row (vector loads
// where the rows allow them) against the query in shared memory, so a warp has 32 rows in flight
// instead of one. The tile's scores update the warp's online softmax (running max m, sum l); then
// the lanes, each holding output dims lane, lane + 32, ..., add the tile's 32 V rows weighted by
// the probabilities they take from the slot's lane by shuffle. The block merges its four warps.
// With the context split (attention.h), block z of (token, head) takes the z-th range of the
// token's slots and writes its partial result; attentionMergeKernel combines the ranges.
#include <string>

#include "core/error.h"
#include "cuda/ops/attention.h"
#include "cuda/ops/common.cuh"
#include "cuda/ops/kv_row.cuh"
#include "cuda/ops/pdl.cuh"
#include "cuda/ops/rope.cuh"
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

// The folded KV store's first part (attention.h), by the block of (token t, query head h, range
// split): rotates the query in qs, rotates the group's new k and rounds it and the new v to the
// cache's type into newK / newV (head-relative rows), and lets one block per (token, group) write
// both to the cache and to the staging buffer. The caller synchronises before reading them.
template <int KV>
__device__ __forceinline__ void foldedStore(const AttentionArgs& a, int t, int h, int split, float* qs, uint8_t* newK, uint8_t* newV) {
    const FoldedKvStore& st = a.store;
    const int D = a.headDim, g = h / (a.nHead / a.nHeadKv);
    __shared__ __align__(16) float kf[32 * kMaxPerLane];   // (headDim) the group's new k, rotated
    const float* k = st.k + static_cast<size_t>(t) * st.ldk + g * D;
    for (int d = threadIdx.x; d < D; d += blockDim.x) kf[d] = k[d];
    __syncthreads();   // qs and kf loaded
    if (st.nRot > 0) {
        const int half = st.nRot / 2;
        const float* c = st.cosv + static_cast<size_t>(t) * half;
        const float* sn = st.sinv + static_cast<size_t>(t) * half;
        for (int i = threadIdx.x; i < 2 * half; i += blockDim.x) rotatePair(i < half ? qs : kf, i % half, half, st.neox, c[i % half], sn[i % half]);
        __syncthreads();
    }
    storeKvValues(KV, kf, newK, nullptr, D);
    storeKvValues(KV, st.v + static_cast<size_t>(t) * st.ldv + g * D, newV, nullptr, D);
    if (split != 0 || h % (a.nHead / a.nHeadKv) != 0) return;
    __syncthreads();   // newK, newV complete (a uniform branch: the whole block writes or none of it)
    const int bytes = kvValueBytes(KV, D), at = g * bytes;   // the head's bytes within a row
    const int64_t cell = static_cast<int64_t>(a.slots.tables[a.slots.tableOf[a.slots.segOf[t]] + a.slots.slot[t] / a.kv.blockSize]) * a.kv.blockSize +
                         a.slots.slot[t] % a.kv.blockSize;
    for (int value = 0; value < 2; ++value) {
        const uint8_t* from = value ? newV : newK;
        uint8_t* dst = a.kv.row(a.layer, value, cell) + at;
        uint8_t* stage = st.staging + ((static_cast<size_t>(t) * st.nLayer + a.layer) * 2 + value) * a.kv.rowBytes + at;
        for (int i = threadIdx.x; i < bytes; i += blockDim.x) dst[i] = stage[i] = from[i];
    }
}

template <int KV, bool VEC>
__global__ void __launch_bounds__(32 * kWarps) attentionKernel(const AttentionArgs a) {
    allowNextGrid();   // the output projection after it may start loading its weights
    const int t = blockIdx.x, h = blockIdx.y, split = blockIdx.z;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int D = a.headDim;
    const int e0 = h / (a.nHead / a.nHeadKv) * D;   // the KV head's first element in a row
    const int nSlots = a.slots.slot[t] + 1;
    // This block's slots [s0, s1): range `split` of the token's context (attention.h); a block past
    // the token's ranges has nothing to do. One block per pair (splits == 1) takes the whole context.
    const int ranges = a.splits == 1 ? 1 : attentionRanges(nSlots, a.splitFrom);
    if (split >= ranges) return;   // the whole block, before any barrier
    const int per = ranges == 1 ? nSlots : attentionRangeSlots(nSlots);
    const int s0 = split * per, s1 = nSlots < s0 + per ? nSlots : s0 + per;
    const int32_t* table = a.slots.tables + a.slots.tableOf[a.slots.segOf[t]];
    // Launched dependent, the kernel before this one (the q/k/v matvec, or the KV store) may still
    // be running until here: above, only the pass's metadata was read, which no kernel writes.
    waitForPreviousGrid();

    __shared__ __align__(16) float qs[32 * kMaxPerLane];   // (headDim) this head's query
    const float* q = a.q + static_cast<size_t>(t) * a.ldq + h * D;
    for (int d = threadIdx.x; d < D; d += blockDim.x) qs[d] = q[d];
    // Folded store (attention.h): the new K and V values of this head's group, as the cache holds them.
    __shared__ __align__(16) uint8_t newK[32 * kMaxPerLane * 4], newV[32 * kMaxPerLane * 4];   // (headDim values)
    const int cur = nSlots - 1;   // the token's own slot
    if (a.foldStore) foldedStore<KV>(a, t, h, split, qs, newK, newV);
    __syncthreads();
    // newK / newV addressed as a whole row, so that element e0 + d of the head reads value d there:
    // the same reads as a cached row's (an address computed as an integer: the row would begin
    // before the array; only the head's own bytes are ever read).
    const uint8_t* ownK = reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(newK) - kvValueBytes(KV, e0));
    const uint8_t* ownV = reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(newV) - kvValueBytes(KV, e0));

    float acc[kMaxPerLane];
    for (int i = 0; i < kMaxPerLane; ++i) acc[i] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    for (int base = s0 + warp * 32; base < s1; base += kWarps * 32) {   // warp-uniform
        const int s = base + lane;
        const bool valid = s < s1;
        const long long cell = valid ? cellOf(a, table, s) : 0;
        float score = -INFINITY;
        if (valid) {
            // With the store folded in, the token's own row comes from shared memory.
            const bool own = a.foldStore && s == cur;
            const uint8_t* krow = own ? ownK : a.kv.row(a.layer, 0, cell);
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
        const int n = s1 - base < 32 ? s1 - base : 32;
#pragma unroll 4
        for (int j = 0; j < n; ++j) {
            const float pj = __shfl_sync(kFullMask, p, j);
            const long long cj = __shfl_sync(kFullMask, cell, j);
            const bool own = a.foldStore && base + j == cur;
            const uint8_t* vrow = own ? ownV : a.kv.row(a.layer, 1, cj);
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
    if (a.splits == 1) {
        float* out = a.out + static_cast<size_t>(t) * a.nHead * D + h * D;
        for (int d = threadIdx.x; d < D; d += blockDim.x) {
            float o = 0.0f;
            for (int w = 0; w < kWarps; ++w) o += sacc[w][d] * f[w];
            out[d] = o / L;
        }
        return;
    }
    // A range's partial: sums relative to its max M.
    float* part = a.partial + ((static_cast<size_t>(t) * a.nHead + h) * a.splits + split) * (D + 2);
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float o = 0.0f;
        for (int w = 0; w < kWarps; ++w) o += sacc[w][d] * f[w];
        part[d] = o;
    }
    if (threadIdx.x == 0) {
        part[D] = M;
        part[D + 1] = L;
    }
}

// Combines a (token, head)'s ranges: out = sum_z e^(M_z - M) o_z / sum_z e^(M_z - M) L_z. A token
// of one range comes out exactly as the attention kernel alone writes it (weight 1, nothing added).
__global__ void attentionMergeKernel(const AttentionArgs a) {
    allowNextGrid();
    const int t = blockIdx.x, h = blockIdx.y, D = a.headDim;
    const int ranges = attentionRanges(a.slots.slot[t] + 1, a.splitFrom);
    const float* part = a.partial + (static_cast<size_t>(t) * a.nHead + h) * a.splits * (D + 2);
    __shared__ float w[kMaxAttentionSplits];
    __shared__ float total;
    if (threadIdx.x == 0) {
        float M = -INFINITY;
        for (int z = 0; z < ranges; ++z) M = fmaxf(M, part[z * (D + 2) + D]);
        float L = 0.0f;
        for (int z = 0; z < ranges; ++z) {
            w[z] = expf(part[z * (D + 2) + D] - M);   // every range holds a slot: M_z finite
            L += w[z] * part[z * (D + 2) + D + 1];
        }
        total = L;
    }
    __syncthreads();
    float* out = a.out + static_cast<size_t>(t) * a.nHead * D + h * D;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float o = 0.0f;
        for (int z = 0; z < ranges; ++z) o += w[z] * part[z * (D + 2) + d];
        out[d] = o / total;
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
template <int KV, bool VEC>
void launchAttention(const AttentionArgs& a, dim3 grid, cudaStream_t stream) {
    if (a.dependent) launchDependent("attentionKernel", attentionKernel<KV, VEC>, grid, dim3(32 * kWarps), 0, stream, a);
    else attentionKernel<KV, VEC><<<grid, 32 * kWarps, 0, stream>>>(a);
}
}  // namespace

void attentionLaunch(const AttentionArgs& a, int T, cudaStream_t stream) {
    if (T <= 0) return;
    // 16-byte loads need every row and every head's first element on a 16-byte boundary (device
    // allocations are 256-byte aligned; the emulator faults a misaligned one).
    const size_t elemBytes = a.kv.kvType == 0 ? 4 : 2;
    const bool vec = a.kv.kvType != 2 && a.kv.rowBytes % 16 == 0 && (size_t(a.headDim) * elemBytes) % 16 == 0 &&
                     reinterpret_cast<uintptr_t>(a.kv.base) % 16 == 0;
    if (a.splits < 1 || a.splits > kMaxAttentionSplits || (a.splits > 1 && !a.partial))
        throw Error("attention: " + std::to_string(a.splits) + " context splits asked for (1 to " + std::to_string(kMaxAttentionSplits) +
                    ", more than 1 with a partial buffer)");
    if (a.foldStore && a.kv.kvType == 2 && a.headDim % 32 != 0)
        throw Error("attention: a q8_0 KV store folded into attention needs heads of whole 32-value blocks (" + std::to_string(a.headDim) + " values)");
    const dim3 grid(T, a.nHead, a.splits);
    if (a.kv.kvType == 0) vec ? launchAttention<0, true>(a, grid, stream) : launchAttention<0, false>(a, grid, stream);
    else if (a.kv.kvType == 1) vec ? launchAttention<1, true>(a, grid, stream) : launchAttention<1, false>(a, grid, stream);
    else launchAttention<2, false>(a, grid, stream);
    if (a.splits > 1) attentionMergeKernel<<<dim3(T, a.nHead), 64, 0, stream>>>(a);
}

void attentionWeightsLaunch(const AttentionArgs& a, int t, int nSlots, float* weights, cudaStream_t stream) {
    attentionScoresKernel<<<blocksFor(nSlots, kWarps), 32 * kWarps, 0, stream>>>(a, t, nSlots, weights);
    softmaxRowsLaunch(weights, a.nHead, nSlots, stream);
}

}  // namespace dlab::cuda
