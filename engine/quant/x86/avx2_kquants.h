#pragma once
// AVX2 dot products of Q4_K / Q5_K / Q6_K rows with Q8_K activations: one row against T tokens
// (T <= 4), so each super-block is decoded once per T tokens. Within a super-block the sub-block
// scales are small integers, so sums stay in int32 until the block's float scale is applied;
// the min / offset terms come from Q8_K's bsums.
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

// out[t] = row · x[t] for t < T; x[t] points at token t's nb Q8_K blocks.
template <bool Five, int T>
void dotQ45KAvx2(const uint8_t* row, const BlockQ8_K* const* x, int64_t nb, float* out) {
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    __m256 acc[T];
    float mins[T];
    for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps(), mins[t] = 0.0f;
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
        for (int t = 0; t < T; ++t) {
            int summ = 0;
            for (int j = 0; j < 8; ++j) summ += m[j] * (x[t][i].bsums[2 * j] + x[t][i].bsums[2 * j + 1]);
            mins[t] += x[t][i].d * dmin * static_cast<float>(summ);
        }
        __m256i hbits;
        if constexpr (Five) hbits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qh));
        __m256i sumi[T];
        for (int t = 0; t < T; ++t) sumi[t] = _mm256_setzero_si256();
        for (int c = 0; c < 4; ++c) {
            const __m256i q4 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * c));
            __m256i lo = _mm256_and_si256(q4, low4);  // sub-block 2c
            __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q4, 4), low4);  // sub-block 2c + 1
            if constexpr (Five) {  // bits 2c, 2c + 1 of qh, brought down to bits 0, 1 by the shift below
                lo = _mm256_or_si256(lo, _mm256_slli_epi16(_mm256_and_si256(hbits, _mm256_set1_epi8(1)), 4));
                hi = _mm256_or_si256(hi, _mm256_slli_epi16(_mm256_and_si256(hbits, _mm256_set1_epi8(2)), 3));
                hbits = _mm256_srli_epi16(hbits, 2);
            }
            const __m256i sl = _mm256_set1_epi16(sc[2 * c]), sh = _mm256_set1_epi16(sc[2 * c + 1]);
            for (int t = 0; t < T; ++t) {
                const __m256i xl = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[t][i].qs + 64 * c));
                const __m256i xh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[t][i].qs + 64 * c + 32));
                const __m256i pl = _mm256_madd_epi16(_mm256_maddubs_epi16(lo, xl), sl);
                const __m256i ph = _mm256_madd_epi16(_mm256_maddubs_epi16(hi, xh), sh);
                sumi[t] = _mm256_add_epi32(sumi[t], _mm256_add_epi32(pl, ph));
            }
        }
        for (int t = 0; t < T; ++t)
            acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(x[t][i].d * d), _mm256_cvtepi32_ps(sumi[t]), acc[t]);
    }
    for (int t = 0; t < T; ++t) out[t] = hsum8(acc[t]) - mins[t];
}

template <int T>
void dotQ6KAvx2(const uint8_t* row, const BlockQ8_K* const* x, int64_t nb, float* out) {
    const __m256i low4 = _mm256_set1_epi8(0x0F), low2 = _mm256_set1_epi8(3);
    float acc[T];
    for (int t = 0; t < T; ++t) acc[t] = 0.0f;
    for (int64_t i = 0; i < nb; ++i) {
        const auto* w = reinterpret_cast<const BlockQ6_K*>(row) + i;
        __m256i sumi[T];
        for (int t = 0; t < T; ++t) sumi[t] = _mm256_setzero_si256();
        for (int h = 0; h < 2; ++h) {
            const __m256i ql0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->ql + 64 * h));
            const __m256i ql1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->ql + 64 * h + 32));
            const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->qh + 32 * h));
            __m256i q[4];  // elements 32g .. 32g + 31 of this half, 0..63
            q[0] = _mm256_or_si256(_mm256_and_si256(ql0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, low2), 4));
            q[1] = _mm256_or_si256(_mm256_and_si256(ql1, low4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), low2), 4));
            q[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), low4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), low2), 4));
            q[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), low4),
                                   _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), low2), 4));
            for (int g = 0; g < 4; ++g) {
                const int j = 8 * h + 2 * g;  // sub-blocks j (bytes 0..15) and j + 1 (16..31)
                const __m256i s = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi16(w->scales[j])),
                                                          _mm_set1_epi16(w->scales[j + 1]), 1);
                for (int t = 0; t < T; ++t) {
                    const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[t][i].qs + 128 * h + 32 * g));
                    sumi[t] = _mm256_add_epi32(sumi[t], _mm256_madd_epi16(_mm256_maddubs_epi16(q[g], xv), s));
                }
            }
        }
        const float d = halfAt(reinterpret_cast<const uint8_t*>(&w->d));
        for (int t = 0; t < T; ++t) {
            // Σ (q - 32) x = Σ q x - 32 Σ x, the second per sub-block from bsums. Reduced in int32
            // before the offset comes off: the two nearly cancel.
            int corr = 0;
            for (int j = 0; j < 16; ++j) corr += w->scales[j] * x[t][i].bsums[j];
            acc[t] += x[t][i].d * d * static_cast<float>(hsum8i(sumi[t]) - 32 * corr);
        }
    }
    for (int t = 0; t < T; ++t) out[t] = acc[t];
}

template <template <int> class Dot>
struct KTile {
    struct Args {
        const uint8_t* row;
        const BlockQ8_K* const* x;
        int64_t nb;
        float* out;
    };
    template <int R, int T>  // R is always 1: one row against T tokens
    static void tile(const Args& a) { Dot<T>::run(a.row, a.x, a.nb, a.out); }
};
template <bool Five>
struct Q45K {
    template <int T>
    struct Dot {
        static void run(const uint8_t* row, const BlockQ8_K* const* x, int64_t nb, float* out) {
            dotQ45KAvx2<Five, T>(row, x, nb, out);
        }
    };
};
template <int T>
struct Q6KDot {
    static void run(const uint8_t* row, const BlockQ8_K* const* x, int64_t nb, float* out) { dotQ6KAvx2<T>(row, x, nb, out); }
};

// Rows against 4-token groups; tokens in chunks of 16 so their Q8_K rows stay in L1 / L2.
template <template <int> class Dot>
void gemmKAvx2(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
               float* y, int64_t ldy) {
    const int64_t nb = w.cols / kQKK;
    auto token = [&](int64_t t) { return reinterpret_cast<const BlockQ8_K*>(act + t * stride); };
    if (nTok == 1) {
        const BlockQ8_K* x = token(0);
        const RowPrefetch pf(w, 1);
        pf.start(r0, r1);
        for (int64_t r = r0; r < r1; ++r) {
            pf.next(r, r1);
            Dot<1>::run(w.data + r * w.rowBytes, &x, nb, y + r);
        }
        return;
    }
    for (int64_t t0 = 0; t0 < nTok; t0 += 16) {
        const int64_t t1 = minI64(nTok, t0 + 16);
        for (int64_t r = r0; r < r1; ++r)
            for (int64_t t = t0; t < t1; t += 4) {
                const int tt = static_cast<int>(minI64(4, t1 - t));
                const BlockQ8_K* x[4] = {};
                float out[4];
                for (int k = 0; k < tt; ++k) x[k] = token(t + k);
                dispatchTile<KTile<Dot>, 1, 4>(1, tt, typename KTile<Dot>::Args{w.data + r * w.rowBytes, x, nb, out});
                for (int k = 0; k < tt; ++k) y[(t + k) * ldy + r] = out[k];
            }
    }
}

}  // namespace
}  // namespace dlab::quant
