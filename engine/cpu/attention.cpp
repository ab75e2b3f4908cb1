#include "cpu/attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cpu/ops.h"
#include "core/cpu_features.h"
#include "quant/fp16.h"

#if defined(DLAB_X86)
#include <immintrin.h>
#define DLAB_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace dlab {

namespace {

// Converts `n` cached rows of one KV head (headDim values each, rows `stride` elements apart)
// into dst (n, headDim) f32.
void loadRows(const uint8_t* base, size_t strideBytes, bool f16, int64_t n, int64_t D, float* dst) {
    for (int64_t r = 0; r < n; ++r) {
        const uint8_t* row = base + r * strideBytes;
        if (f16) {
            const auto* h = reinterpret_cast<const uint16_t*>(row);
            for (int64_t d = 0; d < D; ++d) dst[r * D + d] = fp16ToFp32(h[d]);
        } else {
            std::memcpy(dst + r * D, row, D * sizeof(float));
        }
    }
}

#if defined(DLAB_X86)
DLAB_TARGET_AVX2 void loadRowsAvx2(const uint8_t* base, size_t strideBytes, bool f16, int64_t n, int64_t D, float* dst) {
    if (!f16 || D % 8 != 0) return loadRows(base, strideBytes, f16, n, D, dst);
    for (int64_t r = 0; r < n; ++r) {
        const auto* h = reinterpret_cast<const uint16_t*>(base + r * strideBytes);
        for (int64_t d = 0; d < D; d += 8)
            _mm256_storeu_ps(dst + r * D + d, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + d))));
    }
}

// scores[j] = scale * dot(q, rows[j]) for 8 rows; the eight horizontal sums are reduced together.
DLAB_TARGET_AVX2 void dot8Avx2(const float* q, const float* rows, int64_t D, float scale, float* scores) {
    __m256 acc[8];
    for (int j = 0; j < 8; ++j) acc[j] = _mm256_setzero_ps();
    for (int64_t d = 0; d < D; d += 8) {
        const __m256 qv = _mm256_loadu_ps(q + d);
        for (int j = 0; j < 8; ++j) acc[j] = _mm256_fmadd_ps(qv, _mm256_loadu_ps(rows + j * D + d), acc[j]);
    }
    // Transpose-reduce: after three rounds of hadd, lane j of the 128-bit halves holds row j's sum.
    const __m256 s01 = _mm256_hadd_ps(acc[0], acc[1]), s23 = _mm256_hadd_ps(acc[2], acc[3]);
    const __m256 s45 = _mm256_hadd_ps(acc[4], acc[5]), s67 = _mm256_hadd_ps(acc[6], acc[7]);
    const __m256 s0123 = _mm256_hadd_ps(s01, s23), s4567 = _mm256_hadd_ps(s45, s67);
    const __m256 lo = _mm256_permute2f128_ps(s0123, s4567, 0x20), hi = _mm256_permute2f128_ps(s0123, s4567, 0x31);
    _mm256_storeu_ps(scores, _mm256_mul_ps(_mm256_add_ps(lo, hi), _mm256_set1_ps(scale)));
}

// out += sum_j w[j] * rows[j] for 8 rows of D floats.
DLAB_TARGET_AVX2 void axpy8Avx2(const float* w, const float* rows, int64_t D, float* out) {
    for (int64_t d = 0; d < D; d += 8) {
        __m256 acc = _mm256_loadu_ps(out + d);
        for (int j = 0; j < 8; ++j) acc = _mm256_fmadd_ps(_mm256_set1_ps(w[j]), _mm256_loadu_ps(rows + j * D + d), acc);
        _mm256_storeu_ps(out + d, acc);
    }
}

const bool kAvx2 = cpuHasAvx2Set();
#endif

void dot8(const float* q, const float* rows, int64_t D, float scale, float* scores) {
#if defined(DLAB_X86)
    if (kAvx2 && D % 8 == 0) return dot8Avx2(q, rows, D, scale, scores);
#endif
    for (int j = 0; j < 8; ++j) scores[j] = scale * ops::dotF32(q, rows + j * D, D);
}

void axpy8(const float* w, const float* rows, int64_t D, float* out) {
#if defined(DLAB_X86)
    if (kAvx2 && D % 8 == 0) return axpy8Avx2(w, rows, D, out);
#endif
    for (int j = 0; j < 8; ++j) ops::axpyF32(w[j], rows + j * D, out, D);
}

void load(const uint8_t* base, size_t strideBytes, bool f16, int64_t n, int64_t D, float* dst) {
#if defined(DLAB_X86)
    if (kAvx2) return loadRowsAvx2(base, strideBytes, f16, n, D, dst);
#endif
    loadRows(base, strideBytes, f16, n, D, dst);
}

}  // namespace

void causalAttention(const float* q, float* out, int64_t T, int64_t pos0, const KvCache& cache, int64_t layer,
                     const AttentionShape& s, ThreadPool& pool, AttentionScratch& scratch) {
    const int64_t D = s.headDim, G = s.nHead / s.nHeadKv, qDim = s.nHead * D, nCtx = cache.capacity();
    const bool f16 = cache.type() == KvType::F16;
    const size_t stride = static_cast<size_t>(cache.kvDim()) * cache.elementBytes();
    const size_t scoresPerThread = static_cast<size_t>(G) * nCtx;
    const size_t rowsPerThread = static_cast<size_t>(8) * D;
    if (scratch.scores.size() < scoresPerThread * pool.size()) scratch.scores.resize(scoresPerThread * pool.size());
    if (scratch.rows.size() < rowsPerThread * pool.size()) scratch.rows.resize(rowsPerThread * pool.size());

    // One work item = one query token × one KV head (its G query heads together). Later tokens
    // attend to more positions, so items are dealt round-robin to keep the threads balanced.
    pool.run([&](int ith, int nth) {
        float* scores = scratch.scores.data() + ith * scoresPerThread;  // (G, nCtx)
        float* rows = scratch.rows.data() + ith * rowsPerThread;        // (8, D)
        for (int64_t item = ith; item < T * s.nHeadKv; item += nth) {
            const int64_t t = item / s.nHeadKv, kvh = item % s.nHeadKv;
            const int64_t nPos = pos0 + t + 1;
            const uint8_t* kBase = cache.kRow(layer, 0) + kvh * D * cache.elementBytes();
            const uint8_t* vBase = cache.vRow(layer, 0) + kvh * D * cache.elementBytes();
            const float* qg = q + t * qDim + kvh * G * D;  // (G, D)

            // scores (G, nPos) = scale · q · Kᵀ, eight positions at a time (the tail padded).
            for (int64_t p = 0; p < nPos; p += 8) {
                const int64_t n = std::min<int64_t>(8, nPos - p);
                load(kBase + p * stride, stride, f16, n, D, rows);
                if (n < 8) std::fill(rows + n * D, rows + 8 * D, 0.0f);
                float tmp[8];
                for (int64_t h = 0; h < G; ++h) {
                    dot8(qg + h * D, rows, D, s.scale, tmp);
                    std::copy(tmp, tmp + n, scores + h * nCtx + p);
                }
            }
            for (int64_t h = 0; h < G; ++h) ops::softmax(scores + h * nCtx, nPos);

            // out (G, D) = scores · V
            float* og = out + t * qDim + kvh * G * D;
            std::fill(og, og + G * D, 0.0f);
            for (int64_t p = 0; p < nPos; p += 8) {
                const int64_t n = std::min<int64_t>(8, nPos - p);
                load(vBase + p * stride, stride, f16, n, D, rows);
                for (int64_t h = 0; h < G; ++h) {
                    float w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                    std::copy(scores + h * nCtx + p, scores + h * nCtx + p + n, w);
                    if (n < 8) std::fill(rows + n * D, rows + 8 * D, 0.0f);
                    axpy8(w, rows, D, og + h * D);
                }
            }
        }
    });
}

}  // namespace dlab
