// Dequant-matvec: kernel -> launcher -> type dispatch. Blocks of four warps; WPR warps share an
// output row (4 / WPR rows a block), so a short row still keeps many warps in flight and a long
// one is not left to a single warp. Thread i of a row's group takes the row's chunks of eight
// elements i, i + 32 WPR, ..., dequantizes each once and multiplies it with every token's x; the
// warp's sums for all tokens at once (warpSum8), then (WPR > 1) a sum over the group's warps in
// shared memory. The first chunks' weights are loaded before anything else (they depend on no
// other kernel), then the kernel waits for the previous one when it was launched dependent.
#include <string>

#include "core/error.h"
#include "cuda/ops/common.cuh"
#include "cuda/ops/matvec.h"
#include "cuda/ops/pdl.cuh"
#include "cuda/ops/type_dispatch.h"
#include "cuda/quant_hd.h"

namespace dlab::cuda {

namespace {
constexpr int kWarps = 4;
constexpr int kPrefetch = 2;   // chunk rounds whose weights a thread loads first

// 8 values of x, times the RMSNorm weight g elementwise when g is not null.
__device__ __forceinline__ void load8(const float* x, const float* g, float* out) {
    const Floats4 a = loadAligned<Floats4>(x), b = loadAligned<Floats4>(x + 4);
    out[0] = a.x, out[1] = a.y, out[2] = a.z, out[3] = a.w, out[4] = b.x, out[5] = b.y, out[6] = b.z, out[7] = b.w;
    if (g) {
        const Floats4 c = loadAligned<Floats4>(g), d = loadAligned<Floats4>(g + 4);
        out[0] *= c.x, out[1] *= c.y, out[2] *= c.z, out[3] *= c.w, out[4] *= d.x, out[5] *= d.y, out[6] *= d.z, out[7] *= d.w;
    }
}

__device__ __forceinline__ float dot8(const float* w, const float* x) {
    return w[0] * x[0] + w[1] * x[1] + w[2] * x[2] + w[3] * x[3] + w[4] * x[4] + w[5] * x[5] + w[6] * x[6] + w[7] * x[7];
}

// The warp's sums of 8 per-lane values (one per token) in 9 shuffles instead of 8 × 5: each step
// hands the partner lane half of the values still held and keeps the other half, so lane l ends
// with token (l >> 2) & 7's sum. Each sum is the same butterfly (xor 16, 8, 4, 2, 1) as warpSum's,
// so it equals warpSum of that token bit for bit: a sequence's logits do not depend on its batch.
__device__ __forceinline__ float warpSum8(const float (&v)[kMatvecMaxT]) {
    static_assert(kMatvecMaxT == 8, "warpSum8 reduces 8 tokens");
    const int lane = threadIdx.x & 31;
    const bool h16 = lane & 16, h8 = lane & 8, h4 = lane & 4;
    float k4[4], k2[2];
    for (int i = 0; i < 4; ++i) k4[i] = (h16 ? v[i + 4] : v[i]) + __shfl_xor_sync(kFullMask, h16 ? v[i] : v[i + 4], 16);
    for (int i = 0; i < 2; ++i) k2[i] = (h8 ? k4[i + 2] : k4[i]) + __shfl_xor_sync(kFullMask, h8 ? k4[i] : k4[i + 2], 8);
    float s = (h4 ? k2[1] : k2[0]) + __shfl_xor_sync(kFullMask, h4 ? k2[0] : k2[1], 4);
    s += __shfl_xor_sync(kFullMask, s, 2);
    s += __shfl_xor_sync(kFullMask, s, 1);
    return s;
}

template <GgmlType TYPE, bool GATED, int WPR>
__global__ void __launch_bounds__(32 * kWarps) matvecKernel(const MatvecArgs a) {
    constexpr int kRows = kWarps / WPR;   // output rows a block
    const MatvecOut& o = a.out[blockIdx.y];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int sub = warp % WPR;           // this warp's share of its row
    const int row = blockIdx.x * kRows + warp / WPR;
    const bool active = row < o.rows;     // (warp-uniform; no early return: the group sums below)
    // The weights of this thread's first kPrefetch chunks (every chunk it has, up to 2,048 columns
    // with 4 warps a row), loaded before anything else: they depend on nothing the kernel computes,
    // so their DRAM latency overlaps the folded norm's pass over x instead of following it.
    const uint8_t* wr = o.w + static_cast<size_t>(active ? row : 0) * o.rowBytes;
    const uint8_t* ur = GATED ? a.up + static_cast<size_t>(active ? row : 0) * o.rowBytes : nullptr;
    const int chunks = a.cols / 8, c0 = sub * 32 + lane;
    float wPre[kPrefetch][8], uPre[kPrefetch][8];
#pragma unroll
    for (int p = 0; p < kPrefetch; ++p) {
        const int c = c0 + p * 32 * WPR;
        if (active && c < chunks) {
            dequantChunk8<TYPE>(wr, c, wPre[p]);
            if constexpr (GATED) dequantChunk8<TYPE>(ur, c, uPre[p]);
        }
    }
    // Launched dependent, the kernel before this one may still be running until here: nothing
    // above reads what a kernel writes. The next dependent kernel may start loading its weights.
    waitForPreviousGrid();
    allowNextGrid();
    // Folded RMSNorm: 1 / sqrt(mean(x²) + eps) of each token's row, a warp per token.
    __shared__ float rnorm[kMatvecMaxT];
    if (a.rmsWeight) {
        for (int t = warp; t < a.T; t += kWarps) {
            const float* x = a.x + static_cast<size_t>(t) * a.ldx;
            float ss = 0.0f;
            for (int i = lane; i < a.cols; i += 32) ss += x[i] * x[i];
            ss = warpSum(ss);
            if (lane == 0) rnorm[t] = 1.0f / sqrtf(ss / static_cast<float>(a.cols) + a.rmsEps);
        }
        __syncthreads();
    }
    float acc[kMatvecMaxT], accUp[kMatvecMaxT];
    for (int t = 0; t < kMatvecMaxT; ++t) acc[t] = accUp[t] = 0.0f;
    // The chunks in order, the same sums in the same order as without the prefetch.
    auto accumulateChunk = [&](int c, const float (&w)[8], const float (&u)[8]) {
#pragma unroll
        for (int t = 0; t < kMatvecMaxT; ++t) {
            if (t < a.T) {
                float x[8];
                load8(a.x + static_cast<size_t>(t) * a.ldx + c * 8, a.rmsWeight ? a.rmsWeight + c * 8 : nullptr, x);
                acc[t] += dot8(w, x);
                if constexpr (GATED) accUp[t] += dot8(u, x);
            }
        }
    };
    if (active) {
#pragma unroll
        for (int p = 0; p < kPrefetch; ++p)
            if (c0 + p * 32 * WPR < chunks) accumulateChunk(c0 + p * 32 * WPR, wPre[p], uPre[p]);
        for (int c = c0 + kPrefetch * 32 * WPR; c < chunks; c += 32 * WPR) {
            float w[8], u[8];
            dequantChunk8<TYPE>(wr, c, w);
            if constexpr (GATED) dequantChunk8<TYPE>(ur, c, u);
            accumulateChunk(c, w, u);
        }
    }
    // The warp's sums: one token (T == 1: lane 0 writes it) or up to 8 (lane l holds token
    // (l >> 2) & 7's, and lane 4·t writes token t).
    float v, vUp = 0.0f;
    int tok;
    if (a.T == 1) {
        v = warpSum(acc[0]);
        if constexpr (GATED) vUp = warpSum(accUp[0]);
        tok = 0;
    } else {
        v = warpSum8(acc);
        if constexpr (GATED) vUp = warpSum8(accUp);
        tok = (lane >> 2) & 7;
    }
    const bool writer = (a.T == 1 ? lane == 0 : (lane & 3) == 0) && tok < a.T;
    if constexpr (WPR > 1) {   // the row's other warps' sums, through shared memory
        __shared__ float part[kWarps][2][kMatvecMaxT];   // (warp, gate | up, token)
        if (writer) part[warp][0][tok] = v, part[warp][1][tok] = vUp;
        __syncthreads();
        if (sub != 0) return;
        if (writer)
            for (int k = 1; k < WPR; ++k) v += part[warp + k][0][tok], vUp += part[warp + k][1][tok];
    }
    if (!active || !writer) return;
    const float r = a.rmsWeight ? rnorm[tok] : 1.0f;
    float y = v * r;
    if constexpr (GATED) y = silu(y) * (vUp * r);
    if (o.bias) y += o.bias[row];
    float* dst = o.y + static_cast<size_t>(tok) * o.ldy + row;
    *dst = a.accumulate ? *dst + y : y;
}

template <GgmlType TYPE, int WPR>
void launchFor(const MatvecArgs& a, int rows, cudaStream_t stream) {
    const dim3 grid(blocksFor(rows, kWarps / WPR), a.nOut);
    if (a.dependent) launchDependent("matvecKernel", a.up ? matvecKernel<TYPE, true, WPR> : matvecKernel<TYPE, false, WPR>, grid, dim3(32 * kWarps), 0, stream, a);
    else if (a.up) matvecKernel<TYPE, true, WPR><<<grid, 32 * kWarps, 0, stream>>>(a);
    else matvecKernel<TYPE, false, WPR><<<grid, 32 * kWarps, 0, stream>>>(a);
}
}  // namespace

cudaError_t matvecLoadedCode(cudaFuncAttributes* attr) {
    return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(matvecKernel<GgmlType::F32, false, 1>));
}

void matvecLaunch(const MatvecArgs& a, cudaStream_t stream) {
    if (a.T < 1 || a.T > kMatvecMaxT)
        throw Error("matvec: " + std::to_string(a.T) + " tokens in one launch (1 to " + std::to_string(kMatvecMaxT) + ")");
    if (a.cols % 8 != 0) throw Error("matvec: rows of " + std::to_string(a.cols) + " elements are not a multiple of 8");
    int rows = 0;
    for (int i = 0; i < a.nOut; ++i) rows = a.out[i].rows > rows ? a.out[i].rows : rows;
    // Warps per row: about one to two chunks per thread (576 columns: 2, 1536: 4); half that for a
    // tall matrix (the output projection's 49,152 rows), whose rows alone give warps enough.
    const int chunks = a.cols / 8;
    int wpr = chunks >= 128 ? 4 : chunks >= 48 ? 2 : 1;
    if (rows >= 8192 && wpr > 1) wpr /= 2;
    dispatchWeightType(a.type, "matvec", [&](auto tag) {
        constexpr GgmlType T = decltype(tag)::value;
        if (wpr == 4) launchFor<T, 4>(a, rows, stream);
        else if (wpr == 2) launchFor<T, 2>(a, rows, stream);
        else launchFor<T, 1>(a, rows, stream);
    });
}

}  // namespace dlab::cuda
