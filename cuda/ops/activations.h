#pragma once
// Element-wise ops of the forward pass: SwiGLU, GELU, bias rows, f32 -> half for the GEMM path.
#include <cuda_runtime_api.h>
#include <cstdint>

namespace dlab::cuda {

void siluMulLaunch(float* x, const float* y, int64_t n, cudaStream_t stream);      // x = silu(x) * y   (n)
void geluLaunch(float* x, int64_t n, cudaStream_t stream);                         // x = gelu(x)       (n)
// rows (T, ld): rows[t * ld + i] += bias[i] for i < n.
void addBiasLaunch(float* rows, const float* bias, int T, int n, int ld, cudaStream_t stream);
void toHalfLaunch(const float* x, uint16_t* out, int64_t n, cudaStream_t stream);  // out = half(x)     (n)

}  // namespace dlab::cuda
