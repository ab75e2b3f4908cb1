#pragma once
// Small element-wise kernels of the CPU forward pass (llama2.c style: out, in, weights, size).
#include <cstdint>

namespace dlab::ops {

// o = x / sqrt(mean(x²) + eps) * w                                          x, o, w: (n)
void rmsnorm(float* o, const float* x, const float* w, int64_t n, float eps);
// o = (x - mean) / sqrt(var + eps) * w + b                                  x, o, w, b: (n)
void layernorm(float* o, const float* x, const float* w, const float* b, int64_t n, float eps);
// x += b                                                                    (n)
void addInPlace(float* x, const float* b, int64_t n);
// x = silu(x) * y  (SwiGLU)                                                 (n)
void siluMul(float* x, const float* y, int64_t n);
// x = gelu(x), tanh approximation as in GPT-2 and ggml_gelu                 (n)
void gelu(float* x, int64_t n);
// Softmax over x in place; returns nothing. Handles -inf entries.           (n)
void softmax(float* x, int64_t n);

// Rotary embedding cache for one position: cos/sin for each rotated pair.   cs: (nRot / 2) pairs
struct RopeParams {
    int64_t nRot;
    float freqBase;
    float freqScale;
    const float* freqFactors;  // (nRot / 2) or nullptr
    bool neox;
};
void ropeCache(float* cosOut, float* sinOut, int64_t pos, const RopeParams& p);
// Rotates each of nHeads heads of size headDim in x using a cache from ropeCache.  x: (nHeads, headDim)
void ropeApply(float* x, int64_t nHeads, int64_t headDim, const float* cosv, const float* sinv, const RopeParams& p);

// Dot products and accumulation against stored KV rows (f32 or IEEE half).
float dotF32(const float* a, const float* b, int64_t n);
float dotF16(const float* a, const uint16_t* b, int64_t n);
void axpyF32(float a, const float* x, float* y, int64_t n);   // y += a * x
void axpyF16(float a, const uint16_t* x, float* y, int64_t n);

}  // namespace dlab::ops
