// SwiGLU / GELU / bias / half conversion: kernel -> launcher, grid-stride loops.
#include <cuda_fp16.h>

#include <algorithm>

#include "cuda/ops/activations.h"
#include "cuda/ops/common.cuh"
#include "cuda/quant_hd.h"

namespace dlab::cuda {

namespace {
constexpr int kThreads = 256;
unsigned gridFor(int64_t n) { return n <= 0 ? 1u : static_cast<unsigned>(std::min<int64_t>((n + kThreads - 1) / kThreads, 65535)); }

__global__ void siluMulKernel(float* x, const float* y, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
        x[i] = silu(x[i]) * y[i];
}
__global__ void geluKernel(float* x, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) x[i] = geluTanh(x[i]);
}
__global__ void addBiasKernel(float* rows, const float* bias, int n, int ld) {
    float* r = rows + static_cast<size_t>(blockIdx.x) * ld;
    for (int i = threadIdx.x; i < n; i += blockDim.x) r[i] += bias[i];
}
__global__ void toHalfKernel(const float* x, __half* out, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
        out[i] = __float2half_rn(x[i]);
}
}  // namespace

void siluMulLaunch(float* x, const float* y, int64_t n, cudaStream_t stream) { siluMulKernel<<<gridFor(n), kThreads, 0, stream>>>(x, y, n); }
void geluLaunch(float* x, int64_t n, cudaStream_t stream) { geluKernel<<<gridFor(n), kThreads, 0, stream>>>(x, n); }
void addBiasLaunch(float* rows, const float* bias, int T, int n, int ld, cudaStream_t stream) {
    if (T > 0) addBiasKernel<<<T, kThreads, 0, stream>>>(rows, bias, n, ld);
}
void toHalfLaunch(const float* x, uint16_t* out, int64_t n, cudaStream_t stream) {
    toHalfKernel<<<gridFor(n), kThreads, 0, stream>>>(x, reinterpret_cast<__half*>(out), n);
}

}  // namespace dlab::cuda
