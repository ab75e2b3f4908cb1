// RMSNorm: kernel -> launcher (ggml-cuda's split). One block per row.
#include <cuda_fp16.h>

#include "cuda/ops/common.cuh"
#include "cuda/ops/norm.h"

namespace dlab::cuda {

namespace {
__global__ void rmsnormKernel(const float* x, const int32_t* rows, const float* w, float* out, __half* outHalf, int n, float eps) {
    const int r = blockIdx.x;
    const float* xr = x + static_cast<size_t>(rows ? rows[r] : r) * n;
    float ss = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) ss += xr[i] * xr[i];
    ss = blockSum(ss);
    const float scale = 1.0f / sqrtf(ss / static_cast<float>(n) + eps);
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const float v = xr[i] * scale * w[i];
        if (out) out[static_cast<size_t>(r) * n + i] = v;
        if (outHalf) outHalf[static_cast<size_t>(r) * n + i] = __float2half_rn(v);
    }
}
}  // namespace

void rmsnormLaunch(const float* x, const int32_t* rows, const float* w, float* out, uint16_t* outHalf, int R, int n, float eps,
                   cudaStream_t stream) {
    if (R <= 0) return;
    rmsnormKernel<<<R, 256, 0, stream>>>(x, rows, w, out, reinterpret_cast<__half*>(outHalf), n, eps);
}

}  // namespace dlab::cuda
