#include "cpu/ops.h"

#include <cmath>
#include <limits>

#include "core/cpu_features.h"
#include "quant/fp16.h"

#if defined(DLAB_X86)
#include <immintrin.h>
#define DLAB_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace dlab::ops {

#if defined(DLAB_X86)
static const bool kHasAvx2 = cpuHasAvx2Set();
#endif

void rmsnorm(float* o, const float* x, const float* w, int64_t n, float eps) {
    // Accumulate in double: cheap at these sizes and keeps the result independent of n's size.
    double ss = 0.0;
    for (int64_t i = 0; i < n; ++i) ss += double(x[i]) * x[i];
    const float scale = 1.0f / std::sqrt(float(ss / double(n)) + eps);
    for (int64_t i = 0; i < n; ++i) o[i] = x[i] * scale * w[i];
}

void layernorm(float* o, const float* x, const float* w, const float* b, int64_t n, float eps) {
    double mean = 0.0;
    for (int64_t i = 0; i < n; ++i) mean += x[i];
    mean /= double(n);
    double var = 0.0;
    for (int64_t i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
    var /= double(n);
    const float scale = 1.0f / std::sqrt(float(var) + eps);
    const float m = float(mean);
    for (int64_t i = 0; i < n; ++i) o[i] = (x[i] - m) * scale * w[i] + b[i];
}

void addInPlace(float* x, const float* b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) x[i] += b[i];
}

void siluMul(float* x, const float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) x[i] = x[i] / (1.0f + std::exp(-x[i])) * y[i];
}

void gelu(float* x, int64_t n) {
    constexpr float kSqrt2OverPi = 0.79788456080286535588f;
    constexpr float kCoef = 0.044715f;
    for (int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        x[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * v * (1.0f + kCoef * v * v)));
    }
}

namespace {
#if defined(DLAB_X86)
// exp for x <= 0 (Cephes' single-precision polynomial, about 1 ulp); inputs below -87.3 give 0,
// so masked (-inf) entries vanish exactly.
DLAB_TARGET_AVX2 __m256 expNonPositiveAvx2(__m256 x) {
    const __m256 tooSmall = _mm256_cmp_ps(x, _mm256_set1_ps(-87.3f), _CMP_LT_OQ);
    x = _mm256_max_ps(x, _mm256_set1_ps(-87.3f));
    const __m256 fx = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(0.693359375f), x);
    x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(-2.12194440e-4f), x);
    __m256 y = _mm256_set1_ps(1.9875691500e-4f);
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.3981999507e-3f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(8.3334519073e-3f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(4.1665795894e-2f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.6666665459e-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(5.0000001201e-1f));
    y = _mm256_fmadd_ps(y, _mm256_mul_ps(x, x), _mm256_add_ps(x, _mm256_set1_ps(1.0f)));
    const __m256i pow2 = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(fx), _mm256_set1_epi32(127)), 23);
    return _mm256_andnot_ps(tooSmall, _mm256_mul_ps(y, _mm256_castsi256_ps(pow2)));
}

// x[i] = exp(x[i] - mx); returns the sum.
DLAB_TARGET_AVX2 double expShiftAvx2(float* x, int64_t n, float mx) {
    const __m256 m = _mm256_set1_ps(mx);
    __m256 acc = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 e = expNonPositiveAvx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), m));
        _mm256_storeu_ps(x + i, e);
        acc = _mm256_add_ps(acc, e);
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, acc);
    double sum = 0.0;
    for (float l : lanes) sum += l;
    for (; i < n; ++i) {
        x[i] = std::exp(x[i] - mx);
        sum += x[i];
    }
    return sum;
}
#endif
}  // namespace

void softmax(float* x, int64_t n) {
    float mx = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) mx = std::max(mx, x[i]);
    double sum = 0.0;
#if defined(DLAB_X86)
    if (kHasAvx2) {
        sum = expShiftAvx2(x, n, mx);
    } else
#endif
    {
        for (int64_t i = 0; i < n; ++i) {
            x[i] = std::exp(x[i] - mx);
            sum += x[i];
        }
    }
    const float inv = float(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

void ropeCache(float* cosOut, float* sinOut, int64_t pos, const RopeParams& p) {
    // Same recurrence as ggml's rope cache: theta_i = pos * scale * base^(-2i/nRot), computed by
    // repeated multiplication in float, divided by the per-dimension factor when the file has one.
    const float thetaScale = std::pow(p.freqBase, -2.0f / float(p.nRot));
    float theta = float(pos);
    for (int64_t i = 0; i < p.nRot / 2; ++i) {
        const float ff = p.freqFactors ? p.freqFactors[i] : 1.0f;
        const float t = p.freqScale * theta / ff;
        cosOut[i] = std::cos(t);
        sinOut[i] = std::sin(t);
        theta *= thetaScale;
    }
}

void ropeApply(float* x, int64_t nHeads, int64_t headDim, const float* cosv, const float* sinv, const RopeParams& p) {
    const int64_t half = p.nRot / 2;
    for (int64_t h = 0; h < nHeads; ++h) {
        float* v = x + h * headDim;
        for (int64_t i = 0; i < half; ++i) {
            const int64_t a = p.neox ? i : 2 * i;
            const int64_t b = p.neox ? i + half : 2 * i + 1;
            const float x0 = v[a], x1 = v[b];
            v[a] = x0 * cosv[i] - x1 * sinv[i];
            v[b] = x0 * sinv[i] + x1 * cosv[i];
        }
    }
}

namespace {

float dotF32Scalar(const float* a, const float* b, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}
float dotF16Scalar(const float* a, const uint16_t* b, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; ++i) s += a[i] * fp16ToFp32(b[i]);
    return s;
}
void axpyF16Scalar(float a, const uint16_t* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] += a * fp16ToFp32(x[i]);
}

#if defined(DLAB_X86)
DLAB_TARGET_AVX2 float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
DLAB_TARGET_AVX2 float dotF32Avx2(const float* a, const float* b, int64_t n) {
    __m256 acc = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc);
    float s = hsum(acc);
    for (; i < n; ++i) s += a[i] * b[i];
    return s;
}
DLAB_TARGET_AVX2 float dotF16Avx2(const float* a, const uint16_t* b, int64_t n) {
    __m256 acc = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 bf = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
        acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), bf, acc);
    }
    float s = hsum(acc);
    for (; i < n; ++i) s += a[i] * fp16ToFp32(b[i]);
    return s;
}
DLAB_TARGET_AVX2 void axpyF32Avx2(float a, const float* x, float* y, int64_t n) {
    const __m256 va = _mm256_set1_ps(a);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
    for (; i < n; ++i) y[i] += a * x[i];
}
DLAB_TARGET_AVX2 void axpyF16Avx2(float a, const uint16_t* x, float* y, int64_t n) {
    const __m256 va = _mm256_set1_ps(a);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 xf = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, xf, _mm256_loadu_ps(y + i)));
    }
    for (; i < n; ++i) y[i] += a * fp16ToFp32(x[i]);
}
#endif

}  // namespace

float dotF32(const float* a, const float* b, int64_t n) {
#if defined(DLAB_X86)
    if (kHasAvx2) return dotF32Avx2(a, b, n);
#endif
    return dotF32Scalar(a, b, n);
}
float dotF16(const float* a, const uint16_t* b, int64_t n) {
#if defined(DLAB_X86)
    if (kHasAvx2) return dotF16Avx2(a, b, n);
#endif
    return dotF16Scalar(a, b, n);
}
void axpyF32(float a, const float* x, float* y, int64_t n) {
#if defined(DLAB_X86)
    if (kHasAvx2) return axpyF32Avx2(a, x, y, n);
#endif
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}
void axpyF16(float a, const uint16_t* x, float* y, int64_t n) {
#if defined(DLAB_X86)
    if (kHasAvx2) return axpyF16Avx2(a, x, y, n);
#endif
    axpyF16Scalar(a, x, y, n);
}

}  // namespace dlab::ops
