#pragma once
// AVX2 dot products of Q4_K / Q5_K / Q6_K rows with Q8_K activations (one row, one token).
// Within a super-block the sub-block scales are small integers, so the sums stay in int32 until
// the block's float scale is applied; the min / offset terms come from Q8_K's bsums.
#include "quant/x86/avx2_common.h"

namespace dlab::quant {
namespace {

// The 8 six-bit scales and mins of a Q4_K / Q5_K block (unpackScalesK4 for j = 0..7).
inline void scalesMinsK4(const uint8_t* s, uint8_t* sc, uint8_t* m) {
    for (int j = 0; j < 4; ++j) {
        sc[j] = s[j] & 63;
        m[j] = s[j + 4] & 63;
        sc[j + 4] = (s[j + 8] & 0xF) | ((s[j] >> 6) << 4);
        m[j + 4] = (s[j + 8] >> 4) | ((s[j + 4] >> 6) << 4);
    }
}

template <bool Five>
float dotQ45KAvx2(const uint8_t* row, const BlockQ8_K* x, int64_t nb) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    __m256 acc = _mm256_setzero_ps();
    float mins = 0.0f;
    for (int64_t i = 0; i < nb; ++i) {
        const uint8_t *scales, *qs, *qh = nullptr;
        float d, dmin;
        if constexpr (Five) {
            const auto* w = reinterpret_cast<const BlockQ5_K*>(row) + i;
            d = halfAt(reinterpret_cast<const uint8_t*>(&w->d)), dmin = halfAt(reinterpret_cast<const uint8_t*>(&w->dmin));
            scales = w->scales, qs = w->qs, qh = w->qh;
        } else {
            const auto* w = reinterpret_cast<const BlockQ4_K*>(row) + i;
            d = halfAt(reinterpret_cast<const uint8_t*>(&w->d)), dmin = halfAt(reinterpret_cast<const uint8_t*>(&w->dmin));
            scales = w->scales, qs = w->qs;
        }
        uint8_t sc[8], m[8];
        scalesMinsK4(scales, sc, m);
        int summ = 0;
        for (int j = 0; j < 8; ++j) summ += m[j] * (x[i].bsums[2 * j] + x[i].bsums[2 * j + 1]);
        mins += x[i].d * dmin * static_cast<float>(summ);

        __m256i hbits;
        if constexpr (Five) hbits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qh));
        __m256i sumi = _mm256_setzero_si256();
        for (int c = 0; c < 4; ++c) {
            const __m256i q4 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * c));
            __m256i lo = _mm256_and_si256(q4, low4);
            __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q4, 4), low4);
            if constexpr (Five) {  // bits 2c, 2c + 1 of qh, brought down to bits 0, 1 by the shifts below
                lo = _mm256_or_si256(lo, _mm256_slli_epi16(_mm256_and_si256(hbits, _mm256_set1_epi8(1)), 4));
                hi = _mm256_or_si256(hi, _mm256_slli_epi16(_mm256_and_si256(hbits, _mm256_set1_epi8(2)), 3));
                hbits = _mm256_srli_epi16(hbits, 2);
            }
            const __m256i xl = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[i].qs + 64 * c));
            const __m256i xh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[i].qs + 64 * c + 32));
            const __m256i pl = _mm256_madd_epi16(_mm256_maddubs_epi16(lo, xl), _mm256_set1_epi16(sc[2 * c]));
            const __m256i ph = _mm256_madd_epi16(_mm256_maddubs_epi16(hi, xh), _mm256_set1_epi16(sc[2 * c + 1]));
            sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(pl, ph));
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(x[i].d * d), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum8(acc) - mins;
}

float dotQ6KAvx2(const uint8_t* row, const BlockQ8_K* x, int64_t nb) {
    const __m256i low4 = _mm256_set1_epi8(0x0F), two = _mm256_set1_epi8(3);
    float acc = 0.0f;
    for (int64_t i = 0; i < nb; ++i) {
        const auto* w = reinterpret_cast<const BlockQ6_K*>(row) + i;
        // Σ (q - 32) x = Σ q x - 32 Σ x; the second sum per sub-block is bsums.
        int corr = 0;
        for (int j = 0; j < 16; ++j) corr += w->scales[j] * x[i].bsums[j];
        __m256i sumi = _mm256_setzero_si256();
        for (int h = 0; h < 2; ++h) {
            const __m256i ql0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->ql + 64 * h));
            const __m256i ql1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->ql + 64 * h + 32));
            const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->qh + 32 * h));
            __m256i q[4];  // elements 32g .. 32g + 31 of this half, 0..63
            q[0] = _mm256_or_si256(_mm256_and_si256(ql0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, two), 4));
            q[1] = _mm256_or_si256(_mm256_and_si256(ql1, low4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), two), 4));
            q[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), low4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), two), 4));
            q[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), low4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), two), 4));
            for (int g = 0; g < 4; ++g) {
                const int j = 8 * h + 2 * g;  // sub-blocks j (bytes 0..15) and j + 1 (16..31)
                const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[i].qs + 128 * h + 32 * g));
                const __m256i s = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi16(w->scales[j])),
                                                          _mm_set1_epi16(w->scales[j + 1]), 1);
                sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(_mm256_maddubs_epi16(q[g], xv), s));
            }
        }
        // Reduced in int32 before the offset comes off: Σ q x and 32 Σ x nearly cancel.
        const int isum = hsum8i(sumi) - 32 * corr;
        acc += x[i].d * halfAt(reinterpret_cast<const uint8_t*>(&w->d)) * static_cast<float>(isum);
    }
    return acc;
}

// Every (row, token) pair through Dot, tokens in chunks of 8 so their Q8_K rows stay in L1.
template <float (*Dot)(const uint8_t*, const BlockQ8_K*, int64_t)>
void gemmKAvx2(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
               float* y, int64_t ldy) {
    const int64_t nb = w.cols / kQKK;
    if (nTok == 1) {
        const RowPrefetch pf(w, 1);
        pf.start(r0, r1);
        for (int64_t r = r0; r < r1; ++r) {
            pf.next(r, r1);
            y[r] = Dot(w.data + r * w.rowBytes, reinterpret_cast<const BlockQ8_K*>(act), nb);
        }
        return;
    }
    for (int64_t t0 = 0; t0 < nTok; t0 += 8) {
        const int64_t t1 = minI64(nTok, t0 + 8);
        for (int64_t r = r0; r < r1; ++r)
            for (int64_t t = t0; t < t1; ++t)
                y[t * ldy + r] = Dot(w.data + r * w.rowBytes, reinterpret_cast<const BlockQ8_K*>(act + t * stride), nb);
    }
}

}  // namespace
}  // namespace dlab::quant
