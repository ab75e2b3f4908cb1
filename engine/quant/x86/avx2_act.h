#pragma once
// AVX2 activation preparation; the values match activations.cpp bit for bit.
#include "quant/x86/avx2_common.h"

namespace dlab::quant {
namespace {

// One block of 32 floats -> 32 int8 (natural order) by ggml's x86 Q8 rule; returns Σq, d unrounded.
inline int quantBlockQ8Avx2(const float* x, int8_t* q, float& d) {
    __m256 v0 = _mm256_loadu_ps(x), v1 = _mm256_loadu_ps(x + 8);
    __m256 v2 = _mm256_loadu_ps(x + 16), v3 = _mm256_loadu_ps(x + 24);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 m = _mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1));
    m = _mm256_max_ps(m, _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
    const float amax = hmax8(m);
    d = amax / 127.0f;
    const __m256 id = _mm256_set1_ps(amax != 0.0f ? 127.0f / amax : 0.0f);
    constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const __m256i i0 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v0, id), kRound));
    const __m256i i1 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v1, id), kRound));
    const __m256i i2 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v2, id), kRound));
    const __m256i i3 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v3, id), kRound));
    const int sum = hsum8i(_mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3)));
    // packs work per 128-bit lane: the dwords come out as 0 2 4 6 1 3 5 7 in 4-byte groups.
    const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(i0, i1), _mm256_packs_epi32(i2, i3));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q),
                        _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
    return sum;
}

// Natural layout with the interleaved (d, s) pairs (q8RowLayout(cols, kQ8Ds)).
template <Q4Sum S>
void prepQ8Avx2(const float* x, int64_t cols, uint8_t* row) {
    const Q8RowLayout l = q8RowLayout(cols, kQ8Ds);
    auto* qs = reinterpret_cast<int8_t*>(row);
    auto* d = reinterpret_cast<float*>(row + l.dOff);
    auto* s = reinterpret_cast<float*>(row + l.sOff);
    auto* ds = reinterpret_cast<float*>(row + l.dsOff);
    for (int64_t b = 0; b < l.nbPad; ++b) {
        if (b >= l.nb) {
            std::memset(qs + b * kQK, 0, kQK);
            d[b] = s[b] = ds[2 * b] = ds[2 * b + 1] = 0.0f;
            continue;
        }
        float db;
        const int sum = quantBlockQ8Avx2(x + b * kQK, qs + b * kQK, db);
        d[b] = ds[2 * b] = roundThroughHalf(db);
        s[b] = ds[2 * b + 1] = S == Q4Sum::Q8_1 ? roundThroughHalf(db * static_cast<float>(sum))
                                                : -8.0f * d[b] * static_cast<float>(sum);
    }
}

void prepQ8KAvx2(const float* x, int64_t cols, uint8_t* dst) {
    auto* y = reinterpret_cast<BlockQ8_K*>(dst);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t i = 0; i < cols / kQKK; ++i, x += kQKK) {
        __m256 m = _mm256_setzero_ps();
        for (int j = 0; j < kQKK; j += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)));
        const float amax = hmax8(m);
        BlockQ8_K& b = y[i];
        if (amax == 0.0f) {
            std::memset(&b, 0, sizeof b);
            continue;
        }
        float max = 0.0f;  // the first value of largest magnitude, as the scalar scan finds it
        for (int j = 0; j < kQKK; ++j)
            if (x[j] == amax || x[j] == -amax) {
                max = x[j];
                break;
            }
        const float iscale = -127.0f / max;
        const __m256 vs = _mm256_set1_ps(iscale);
        const __m256i top = _mm256_set1_epi32(127);
        for (int j = 0; j < kQKK; j += 32) {
            __m256i v[4];
            for (int k = 0; k < 4; ++k)
                v[k] = _mm256_min_epi32(top, _mm256_cvtps_epi32(_mm256_round_ps(
                                                 _mm256_mul_ps(vs, _mm256_loadu_ps(x + j + 8 * k)),
                                                 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
            // bsums of elements j..j+15 and j+16..j+31
            b.bsums[j / 16] = static_cast<int16_t>(hsum8i(_mm256_add_epi32(v[0], v[1])));
            b.bsums[j / 16 + 1] = static_cast<int16_t>(hsum8i(_mm256_add_epi32(v[2], v[3])));
            const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(b.qs + j),
                                _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
        }
        b.d = 1.0f / iscale;
    }
}

void prepF32Avx2(const float* x, int64_t cols, uint8_t* dst) { std::memcpy(dst, x, cols * sizeof(float)); }

void prepF16Avx2(const float* x, int64_t cols, uint8_t* dst) {
    auto* o = reinterpret_cast<float*>(dst);
    int64_t k = 0;
    for (; k + 8 <= cols; k += 8)
        _mm256_storeu_ps(o + k, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(x + k), _MM_FROUND_TO_NEAREST_INT)));
    for (; k < cols; ++k) o[k] = roundThroughHalf(x[k]);
}

// Round to nearest even at bit 16; NaNs stay quiet NaNs (as fp32ToBf16).
inline __m256i bf16RoundBits(__m256i u) {
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_add_epi32(u, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb));
    const __m256i isNan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                                             _mm256_set1_epi32(0x7f800000));
    const __m256i quiet = _mm256_or_si256(u, _mm256_set1_epi32(0x400000));
    return _mm256_and_si256(_mm256_blendv_epi8(rounded, quiet, isNan), _mm256_set1_epi32(int(0xffff0000u)));
}

void prepBf16Avx2(const float* x, int64_t cols, uint8_t* dst) {
    auto* o = reinterpret_cast<float*>(dst);
    int64_t k = 0;
    for (; k + 8 <= cols; k += 8)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + k),
                            bf16RoundBits(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + k))));
    for (; k < cols; ++k) {
        uint32_t u;
        std::memcpy(&u, x + k, 4);
        const __m256i r = bf16RoundBits(_mm256_set1_epi32(static_cast<int>(u)));
        u = static_cast<uint32_t>(_mm256_extract_epi32(r, 0));
        std::memcpy(o + k, &u, 4);
    }
}

}  // namespace
}  // namespace dlab::quant
