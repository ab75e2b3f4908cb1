#pragma once
// RMSNorm (llama, qwen2) and LayerNorm (gpt2) over rows of the residual stream.
#include <cuda_runtime_api.h>
#include <cstdint>

namespace dlab::cuda {

// out (R, n) = norm(x row src(r)) * w (+ b): src(r) = rows ? rows[r] : r.   x: (*, n) row-major.
// RMSNorm: x / sqrt(mean(x²) + eps) * w.  LayerNorm: (x - mean) / sqrt(var + eps) * w + b.
// outHalf, when not null, receives the same values as IEEE half (the GEMM path's input).
void rmsnormLaunch(const float* x, const int32_t* rows, const float* w, float* out, uint16_t* outHalf, int R, int n, float eps,
                   cudaStream_t stream);
void layernormLaunch(const float* x, const int32_t* rows, const float* w, const float* b, float* out, uint16_t* outHalf, int R,
                     int n, float eps, cudaStream_t stream);

}  // namespace dlab::cuda
