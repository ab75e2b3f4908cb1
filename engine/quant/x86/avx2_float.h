#pragma once
// AVX2 kernels for F32 / F16 / BF16 weights: f32 FMA over register tiles of rows x tokens.
// The activations were already rounded to the weight type's precision (as ggml converts them).
#include "quant/x86/avx2_common.h"

namespace dlab::quant {
namespace {

template <GgmlType WT>
inline __m256 loadW8(const uint8_t* row, int64_t k) {
    if constexpr (WT == GgmlType::F32) return _mm256_loadu_ps(reinterpret_cast<const float*>(row) + k);
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 2 * k));
    if constexpr (WT == GgmlType::F16) return _mm256_cvtph_ps(h);
    else return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

template <GgmlType WT>
inline float loadW1(const uint8_t* row, int64_t k) {
    if constexpr (WT == GgmlType::F32) {
        float f;
        std::memcpy(&f, row + 4 * k, 4);
        return f;
    } else {
        uint16_t h;
        std::memcpy(&h, row + 2 * k, 2);
        if constexpr (WT == GgmlType::F16) return _cvtsh_ss(h);
        const uint32_t u = uint32_t(h) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
}

struct FTileArgs {
    const uint8_t* w;  // first row
    size_t rowBytes;
    const float* x;  // first token
    size_t xStride;  // floats between tokens
    int64_t n;
    float* y;
    int64_t ldy;
};

template <GgmlType WT>
struct FloatTileAvx2 {
    template <int R, int T>
    static void tile(const FTileArgs& a) {
        __m256 acc[R][T];
        for (int r = 0; r < R; ++r)
            for (int t = 0; t < T; ++t) acc[r][t] = _mm256_setzero_ps();
        int64_t k = 0;
        for (; k + 8 <= a.n; k += 8) {
            __m256 w[R];
            for (int r = 0; r < R; ++r) w[r] = loadW8<WT>(a.w + r * a.rowBytes, k);
            for (int t = 0; t < T; ++t) {
                const __m256 xv = _mm256_loadu_ps(a.x + t * a.xStride + k);
                for (int r = 0; r < R; ++r) acc[r][t] = _mm256_fmadd_ps(w[r], xv, acc[r][t]);
            }
        }
        for (int r = 0; r < R; ++r)
            for (int t = 0; t < T; ++t) {
                float v = hsum8(acc[r][t]);
                for (int64_t j = k; j < a.n; ++j) v += loadW1<WT>(a.w + r * a.rowBytes, j) * a.x[t * a.xStride + j];
                a.y[t * a.ldy + r] = v;
            }
    }
};

template <GgmlType WT>
void gemmFloatAvx2(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
                   float* y, int64_t ldy) {
    const auto* x = reinterpret_cast<const float*>(act);
    const size_t xs = stride / sizeof(float);
    auto args = [&](int64_t r, int64_t t) {
        return FTileArgs{w.data + r * w.rowBytes, w.rowBytes, x + t * xs, xs, w.cols, y + t * ldy + r, ldy};
    };
    if (nTok == 1) {  // 4 rows at a time, one token
        const RowPrefetch pf(w, 4);
        pf.start(r0, r1);
        for (int64_t r = r0; r < r1; r += 4) {
            pf.next(r, r1);
            dispatchTile<FloatTileAvx2<WT>, 4, 1>(static_cast<int>(minI64(4, r1 - r)), 1, args(r, 0));
        }
        return;
    }
    // Token chunks whose activations stay in L2; 2 rows x 4 tokens tiles within.
    int64_t tc = static_cast<int64_t>((256 * 1024) / stride) & ~int64_t(3);
    if (tc < 4) tc = 4;
    for (int64_t t0 = 0; t0 < nTok; t0 += tc) {
        const int64_t t1 = minI64(nTok, t0 + tc);
        for (int64_t r = r0; r < r1; r += 2)
            for (int64_t t = t0; t < t1; t += 4)
                dispatchTile<FloatTileAvx2<WT>, 2, 4>(static_cast<int>(minI64(2, r1 - r)),
                                                      static_cast<int>(minI64(4, t1 - t)), args(r, t));
    }
}

}  // namespace
}  // namespace dlab::quant
