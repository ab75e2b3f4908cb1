#include "cpu/attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cpu/ops.h"
#include "core/cpu_features.h"
#include "quant/block_types.h"
#include "quant/fp16.h"

#if defined(DLAB_X86)
#include <immintrin.h>
#define DLAB_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace dlab {

namespace {

using quant::BlockQ8_0;
using quant::kQK;

// Converts `n` cached rows of one KV head (headDim values each, rows `strideBytes` apart) into
// dst (n, headDim) f32. q8_0 rows hold headDim / 32 blocks.
void loadRows(const uint8_t* base, size_t strideBytes, KvType type, int64_t n, int64_t D, float* dst) {
    for (int64_t r = 0; r < n; ++r) {
        const uint8_t* row = base + r * strideBytes;
        switch (type) {
            case KvType::F32: std::memcpy(dst + r * D, row, D * sizeof(float)); break;
            case KvType::F16: {
                const auto* h = reinterpret_cast<const uint16_t*>(row);
                for (int64_t d = 0; d < D; ++d) dst[r * D + d] = fp16ToFp32(h[d]);
                break;
            }
            case KvType::Q8_0: {
                const auto* b = reinterpret_cast<const BlockQ8_0*>(row);
                for (int64_t i = 0; i < D / kQK; ++i) {
                    const float scale = fp16ToFp32(b[i].d);
                    for (int j = 0; j < kQK; ++j) dst[r * D + i * kQK + j] = scale * b[i].qs[j];
                }
                break;
            }
        }
    }
}

#if defined(DLAB_X86)
DLAB_TARGET_AVX2 void loadRowsAvx2(const uint8_t* base, size_t strideBytes, KvType type, int64_t n, int64_t D, float* dst) {
    if (type == KvType::F32 || D % 8 != 0) return loadRows(base, strideBytes, type, n, D, dst);
    for (int64_t r = 0; r < n; ++r) {
        const uint8_t* row = base + r * strideBytes;
        if (type == KvType::F16) {
            const auto* h = reinterpret_cast<const uint16_t*>(row);
            for (int64_t d = 0; d < D; d += 8)
                _mm256_storeu_ps(dst + r * D + d, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + d))));
            continue;
        }
        const auto* b = reinterpret_cast<const BlockQ8_0*>(row);  // q8_0: D / 32 blocks
        for (int64_t i = 0; i < D / kQK; ++i) {
            const __m256 scale = _mm256_set1_ps(fp16ToFp32(b[i].d));
            for (int j = 0; j < kQK; j += 8) {
                const __m128i q8 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b[i].qs + j));
                const __m256 f = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(q8));
                _mm256_storeu_ps(dst + r * D + i * kQK + j, _mm256_mul_ps(scale, f));
            }
        }
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

void load(const uint8_t* base, size_t strideBytes, KvType type, int64_t n, int64_t D, float* dst) {
#if defined(DLAB_X86)
    if (kAvx2) return loadRowsAvx2(base, strideBytes, type, n, D, dst);
#endif
    loadRows(base, strideBytes, type, n, D, dst);
}

}  // namespace

void causalAttention(const float* q, float* out, int64_t T, int64_t pos0, const KvBlockPool& cache, SeqId seq, int64_t layer,
                     const AttentionShape& s, ThreadPool& pool, AttentionScratch& scratch, float* lastWeights) {
    // nCtx: the scores' row stride, the most positions any query of this call sees.
    const int64_t D = s.headDim, G = s.nHead / s.nHeadKv, qDim = s.nHead * D, nCtx = pos0 + T;
    const KvType type = cache.type();
    const size_t stride = cache.rowBytes(), headBytes = kvRowBytes(type, D);
    const int64_t bs = cache.blockSize();
    const std::span<const int32_t> table = cache.blockTable(seq);  // logical block -> pool block
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
            const float* qg = q + t * qDim + kvh * G * D;  // (G, D)
            // Up to eight positions from p on, not crossing a block boundary; kvh's part of their rows.
            auto span8 = [&](int64_t p, const uint8_t* (KvBlockPool::*blockBase)(int64_t, int32_t) const, int64_t& n) {
                n = std::min<int64_t>({8, nPos - p, bs - p % bs});
                return (cache.*blockBase)(layer, table[p / bs]) + (p % bs) * stride + kvh * headBytes;
            };

            // scores (G, nPos) = scale · q · Kᵀ, eight positions at a time (a short group padded).
            int64_t n = 0;
            for (int64_t p = 0; p < nPos; p += n) {
                const uint8_t* kRows = span8(p, &KvBlockPool::kBlock, n);
                load(kRows, stride, type, n, D, rows);
                if (n < 8) std::fill(rows + n * D, rows + 8 * D, 0.0f);
                float tmp[8];
                for (int64_t h = 0; h < G; ++h) {
                    dot8(qg + h * D, rows, D, s.scale, tmp);
                    std::copy(tmp, tmp + n, scores + h * nCtx + p);
                }
            }
            for (int64_t h = 0; h < G; ++h) ops::softmax(scores + h * nCtx, nPos);
            if (lastWeights && t == T - 1)  // nPos == nCtx here; each thread writes its own heads
                for (int64_t h = 0; h < G; ++h) std::copy(scores + h * nCtx, scores + h * nCtx + nPos, lastWeights + (kvh * G + h) * nCtx);

            // out (G, D) = scores · V
            float* og = out + t * qDim + kvh * G * D;
            std::fill(og, og + G * D, 0.0f);
            for (int64_t p = 0; p < nPos; p += n) {
                const uint8_t* vRows = span8(p, &KvBlockPool::vBlock, n);
                load(vRows, stride, type, n, D, rows);
                if (n < 8) std::fill(rows + n * D, rows + 8 * D, 0.0f);
                for (int64_t h = 0; h < G; ++h) {
                    float w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                    std::copy(scores + h * nCtx + p, scores + h * nCtx + p + n, w);
                    axpy8(w, rows, D, og + h * D);
                }
            }
        }
    });
}

}  // namespace dlab
