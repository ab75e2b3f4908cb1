// Dequant-matvec: kernel -> launcher -> type dispatch. A warp per output row (four rows a block);
// lane i takes the row's chunks of eight elements i, i + 32, ..., dequantizes each once and
// multiplies it with every token's x; one warp reduction per token at the end.
#include <string>

#include "core/error.h"
#include "cuda/ops/common.cuh"
#include "cuda/ops/matvec.h"
#include "cuda/ops/type_dispatch.h"
#include "cuda/quant_hd.h"

namespace dlab::cuda {

namespace {
constexpr int kRowsPerBlock = 4;

__device__ __forceinline__ float dot8(const float* w, const float* x) {
    const float4 a = reinterpret_cast<const float4*>(x)[0], b = reinterpret_cast<const float4*>(x)[1];
    return w[0] * a.x + w[1] * a.y + w[2] * a.z + w[3] * a.w + w[4] * b.x + w[5] * b.y + w[6] * b.z + w[7] * b.w;
}

template <GgmlType TYPE, bool GATED>
__global__ void __launch_bounds__(32 * kRowsPerBlock) matvecKernel(const MatvecArgs a) {
    const MatvecOut& o = a.out[blockIdx.y];
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * kRowsPerBlock + (threadIdx.x >> 5);
    if (row >= o.rows) return;
    const uint8_t* wr = o.w + static_cast<size_t>(row) * o.rowBytes;
    const uint8_t* ur = GATED ? a.up + static_cast<size_t>(row) * o.rowBytes : nullptr;
    float acc[kMatvecMaxT], accUp[kMatvecMaxT];
    for (int t = 0; t < kMatvecMaxT; ++t) acc[t] = accUp[t] = 0.0f;
    const int chunks = a.cols / 8;
    for (int c = lane; c < chunks; c += 32) {
        float w[8], u[8];
        dequantChunk8<TYPE>(wr, c, w);
        if constexpr (GATED) dequantChunk8<TYPE>(ur, c, u);
#pragma unroll
        for (int t = 0; t < kMatvecMaxT; ++t) {
            if (t < a.T) {
                const float* x = a.x + static_cast<size_t>(t) * a.ldx + c * 8;
                acc[t] += dot8(w, x);
                if constexpr (GATED) accUp[t] += dot8(u, x);
            }
        }
    }
#pragma unroll
    for (int t = 0; t < kMatvecMaxT; ++t) {
        if (t >= a.T) break;
        float v = warpSum(acc[t]);
        if constexpr (GATED) v = silu(v) * warpSum(accUp[t]);
        if (lane == 0) {
            if (o.bias) v += o.bias[row];
            float* y = o.y + static_cast<size_t>(t) * o.ldy + row;
            *y = a.accumulate ? *y + v : v;
        }
    }
}
}  // namespace

void matvecLaunch(const MatvecArgs& a, cudaStream_t stream) {
    if (a.T < 1 || a.T > kMatvecMaxT)
        throw Error("matvec: " + std::to_string(a.T) + " tokens in one launch (1 to " + std::to_string(kMatvecMaxT) + ")");
    if (a.cols % 8 != 0) throw Error("matvec: rows of " + std::to_string(a.cols) + " elements are not a multiple of 8");
    int rows = 0;
    for (int i = 0; i < a.nOut; ++i) rows = a.out[i].rows > rows ? a.out[i].rows : rows;
    const dim3 grid(blocksFor(rows, kRowsPerBlock), a.nOut);
    dispatchWeightType(a.type, "matvec", [&](auto tag) {
        constexpr GgmlType T = decltype(tag)::value;
        if (a.up) matvecKernel<T, true><<<grid, 32 * kRowsPerBlock, 0, stream>>>(a);
        else matvecKernel<T, false><<<grid, 32 * kRowsPerBlock, 0, stream>>>(a);
    });
}

}  // namespace dlab::cuda
