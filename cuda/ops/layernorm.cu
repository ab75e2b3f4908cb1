// LayerNorm (gpt2): kernel -> launcher. One block per row; mean first, then the variance about it
// (two passes, as the CPU reference does, so large means do not cancel).
#include <cuda_fp16.h>

#include "cuda/ops/common.cuh"
#include "cuda/ops/norm.h"

namespace dlab::cuda {

namespace {
__global__ void layernormKernel(const float* x, const int32_t* rows, const float* w, const float* b, float* out, __half* outHalf,
                                int n, float eps) {
    const int r = blockIdx.x;
    const float* xr = x + static_cast<size_t>(rows ? rows[r] : r) * n;
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += xr[i];
    const float mean = blockSum(s) / static_cast<float>(n);
    float v2 = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v2 += (xr[i] - mean) * (xr[i] - mean);
    const float var = blockSum(v2) / static_cast<float>(n);
    const float scale = 1.0f / sqrtf(var + eps);
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const float v = (xr[i] - mean) * scale * w[i] + b[i];
        if (out) out[static_cast<size_t>(r) * n + i] = v;
        if (outHalf) outHalf[static_cast<size_t>(r) * n + i] = __float2half_rn(v);
    }
}
}  // namespace

void layernormLaunch(const float* x, const int32_t* rows, const float* w, const float* b, float* out, uint16_t* outHalf, int R,
                     int n, float eps, cudaStream_t stream) {
    if (R <= 0) return;
    layernormKernel<<<R, 256, 0, stream>>>(x, rows, w, b, out, reinterpret_cast<__half*>(outHalf), n, eps);
}

}  // namespace dlab::cuda
