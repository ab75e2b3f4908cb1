#pragma once
// AVX-512 activation preparation for Q4_0 / Q4_1 / Q8_0 weights. Same values as the scalar rule
// (activations.cpp), in the layouts the AVX-512 kernels read:
//   pair layout (Q4_0, Q4_1): per pair of blocks b, b + 1, 64 bytes
//       [b 0..15 | b+1 0..15 | b 16..31 | b+1 16..31]
//     which is what unpacking the two blocks' nibbles in one register gives (low nibbles hold
//     elements 0..15, high nibbles 16..31);
//   natural layout + corr (Q8_0): corr lane k of a pair = -128 · Σ of its bytes 4k .. 4k + 3, the
//     term that undoes the +128 bias the Q8_0 kernel adds to the weights to make them unsigned.
// All of them carry the interleaved (d, s) pairs (kQ8Ds) the matvec reads. For Q4_0, s is
// -8 · d · Σq exactly (Q4_0's offset of -8 moved to the activation side).
#include "quant/x86/avx512_common.h"

namespace dlab::quant {
namespace {

// 32 floats -> elements 0..15 and 16..31 as int32 by ggml's x86 Q8 rule; returns Σq, d unrounded.
inline int quantBlockAvx512(const float* x, __m512i& lo, __m512i& hi, float& d) {
    const __m512 v0 = _mm512_loadu_ps(x), v1 = _mm512_loadu_ps(x + 16);
    const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(v0), _mm512_abs_ps(v1)));
    d = amax / 127.0f;
    const __m512 id = _mm512_set1_ps(amax != 0.0f ? 127.0f / amax : 0.0f);
    lo = _mm512_cvt_roundps_epi32(_mm512_mul_ps(v0, id), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    hi = _mm512_cvt_roundps_epi32(_mm512_mul_ps(v1, id), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    return _mm512_reduce_add_epi32(_mm512_add_epi32(lo, hi));
}

// Writes block b's scale and sum term to d, s and the interleaved ds.
inline void storeScales(const Q8RowLayout& l, uint8_t* row, int64_t b, float d, float s) {
    reinterpret_cast<float*>(row + l.dOff)[b] = d;
    reinterpret_cast<float*>(row + l.sOff)[b] = s;
    reinterpret_cast<float*>(row + l.dsOff)[2 * b] = d;
    reinterpret_cast<float*>(row + l.dsOff)[2 * b + 1] = s;
}

template <Q4Sum S>
void prepQ8PairAvx512(const float* x, int64_t cols, uint8_t* row) {
    const Q8RowLayout l = q8RowLayout(cols, kQ8Ds);
    for (int64_t b = 0; b < l.nbPad; ++b) {
        uint8_t* pair = row + (b / 2) * 64 + (b % 2) * 16;
        if (b >= l.nb) {
            std::memset(pair, 0, 16);
            std::memset(pair + 32, 0, 16);
            storeScales(l, row, b, 0.0f, 0.0f);
            continue;
        }
        __m512i lo, hi;
        float db;
        const int sum = quantBlockAvx512(x + b * kQK, lo, hi, db);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(pair), _mm512_cvtsepi32_epi8(lo));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(pair + 32), _mm512_cvtsepi32_epi8(hi));
        const float d = roundThroughHalf(db);
        storeScales(l, row, b, d,
                    S == Q4Sum::Q8_1 ? roundThroughHalf(db * static_cast<float>(sum)) : -8.0f * d * static_cast<float>(sum));
    }
}

void prepQ8CorrAvx512(const float* x, int64_t cols, uint8_t* row) {
    const Q8RowLayout l = q8RowLayout(cols, kQ8Ds | kQ8Corr);
    for (int64_t b = 0; b < l.nbPad; ++b) {
        uint8_t* q = row + b * kQK;
        if (b >= l.nb) {
            std::memset(q, 0, kQK);
            storeScales(l, row, b, 0.0f, 0.0f);
            continue;
        }
        __m512i lo, hi;
        float db;
        quantBlockAvx512(x + b * kQK, lo, hi, db);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q), _mm512_cvtsepi32_epi8(lo));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q + 16), _mm512_cvtsepi32_epi8(hi));
        storeScales(l, row, b, roundThroughHalf(db), 0.0f);
    }
    auto* corr = reinterpret_cast<int32_t*>(row + l.corrOff);
    for (int64_t p = 0; p < l.nbPad / 2; ++p) {
        const __m512i v = _mm512_load_si512(row + 64 * p);
        const __m512i sum4 = _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_set1_epi8(1), v);
        _mm512_store_si512(corr + 16 * p, _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_slli_epi32(sum4, 7)));
    }
}

}  // namespace
}  // namespace dlab::quant
