#pragma once
// AVX2 kernels for Q4_0 / Q4_1 / Q8_0 weights against Q8 activations (natural layout with the
// interleaved (d, s) pairs, see activations.h). Q4_0 runs through the Q4_1 code (see Q4Sum).
//
// nTok == 1: a matvec straight from the file's blocks, two rows at a time.
// nTok <= kFewTokensAvx2 (batched decode): the same a row at a time, each pair of blocks decoded
// once for up to 4 tokens, bit-identical to the one-token kernel.
// More tokens: a row pair is unpacked once into a panel (bytes + float scales) and multiplied with
// token tiles of 4, so each weight byte is decoded once per token chunk instead of per token.
#include "quant/aligned_buffer.h"
#include "quant/x86/q_block.h"

namespace dlab::quant {
namespace {

struct Q8Act {
    const int8_t* qs;
    const float* d;
    const float* s;
    const float* ds;
};
inline Q8Act q8Act(const uint8_t* row, const Q8RowLayout& l) {
    return {reinterpret_cast<const int8_t*>(row), reinterpret_cast<const float*>(row + l.dOff),
            reinterpret_cast<const float*>(row + l.sOff), reinterpret_cast<const float*>(row + l.dsOff)};
}

inline float dotF32Avx2(const float* a, const float* b, int64_t n) {
    __m256 acc = _mm256_setzero_ps();
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + k), _mm256_loadu_ps(b + k), acc);
    float s = hsum8(acc);
    for (; k < n; ++k) s += a[k] * b[k];
    return s;
}

// --- nTok == 1 ----------------------------------------------------------------------------------

template <QKind K>
inline __m256 blockDot(const uint8_t* block, __m256i xv) {
    if constexpr (K == QKind::Q8_0) {
        const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + QBlock<K>::qsOff));
        return dotU8S8(_mm256_sign_epi8(wv, wv), _mm256_sign_epi8(xv, wv));
    } else {
        return dotU8S8(nibbles32(block + QBlock<K>::qsOff), xv);
    }
}

// Two blocks per step, their four scale products from one conversion.
template <QKind K, int R>
void gemvRowsAvx2(const uint8_t* w0, size_t rowBytes, const Q8Act& x, int64_t nb, float* y) {
    using B = QBlock<K>;
    __m256 acc[R];
    __m128 macc[R];  // Σ m·s in lanes 1 and 3
    for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps(), macc[r] = _mm_setzero_ps();
    for (int64_t b = 0; b < nb; b += 2) {
        const bool single = b + 1 == nb;
        const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs + b * kQK));
        const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs + (b + 1) * kQK));  // zero padding if single
        for (int r = 0; r < R; ++r) {
            const uint8_t* p = w0 + r * rowBytes + b * B::bytes;
            const __m128 sc = pairScales<K>(p, single, x.ds + 2 * b);
            const __m256 sc256 = _mm256_castps128_ps256(sc);
            acc[r] = _mm256_fmadd_ps(blockDot<K>(p, x0), _mm256_permutevar8x32_ps(sc256, _mm256_setzero_si256()), acc[r]);
            if (!single)
                acc[r] = _mm256_fmadd_ps(blockDot<K>(p + B::bytes, x1), _mm256_permutevar8x32_ps(sc256, _mm256_set1_epi32(2)), acc[r]);
            if constexpr (B::hasMin) macc[r] = _mm_add_ps(macc[r], sc);
        }
    }
    for (int r = 0; r < R; ++r) {
        float v = hsum8(acc[r]);
        if constexpr (B::hasMin) {  // lanes 1 + 3
            const __m128 odd = _mm_movehdup_ps(macc[r]);
            v += _mm_cvtss_f32(_mm_add_ss(odd, _mm_movehl_ps(odd, odd)));
        }
        y[r] = v;
    }
}

// --- 1 < nTok <= kFewTokensAvx2: batched decode --------------------------------------------------

// Up to this many tokens go through gemvFewAvx2 (the file's blocks, each decoded once per group of
// 4 tokens) instead of the panels below, whose unpacking costs more than a few tokens' dots.
constexpr int64_t kFewTokensAvx2 = 16;

// One row x T <= 4 tokens straight from the file's blocks: a pair of weight blocks is loaded,
// unpacked and its scales converted once for all T tokens. Per token the same operations in the
// same order as gemvRowsAvx2 (dw·dx as the product of the broadcast factors; the m·s lanes of
// tokens 2i and 2i + 1 side by side in one 8-lane accumulator), so every y equals the one-token
// kernel's bit for bit.
template <QKind K, int T>
void gemvFewAvx2(const uint8_t* row, const Q8Act* x, int64_t nb, float* y, int64_t ldy) {
    static_assert(T >= 1 && T <= 4);
    using B = QBlock<K>;
    constexpr int P = (T + 1) / 2;
    __m256 acc[T];
    __m256 macc[P];  // token 2i's Σ m·s terms in lanes 0..3, token 2i + 1's in 4..7
    for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps();
    for (int i = 0; i < P; ++i) macc[i] = _mm256_setzero_ps();
    for (int64_t b = 0; b < nb; b += 2) {
        const bool single = b + 1 == nb;
        const uint8_t* p = row + b * B::bytes;
        const __m128 f = pairFactors<K>(p, single);  // [dw, m, dw', m']
        const __m256 f256 = _mm256_castps128_ps256(f);
        const __m256 sw0 = _mm256_permutevar8x32_ps(f256, _mm256_setzero_si256());
        const __m256 sw1 = _mm256_permutevar8x32_ps(f256, _mm256_set1_epi32(2));
        __m256i w0, w1;  // Q4: the nibbles as bytes; Q8_0: the quants (their signs go onto x)
        if constexpr (K == QKind::Q8_0) {
            w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + B::qsOff));
            w1 = single ? _mm256_setzero_si256() : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + B::bytes + B::qsOff));
        } else {
            w0 = nibbles32(p + B::qsOff);
            w1 = single ? _mm256_setzero_si256() : nibbles32(p + B::bytes + B::qsOff);
        }
        if constexpr (B::hasMin) {
            const __m256 f2 = _mm256_insertf128_ps(f256, f, 1);
            for (int i = 0; i < P; ++i) {
                const __m128 lo = _mm_loadu_ps(x[2 * i].ds + 2 * b);
                const __m128 hi = 2 * i + 1 < T ? _mm_loadu_ps(x[2 * i + 1].ds + 2 * b) : _mm_setzero_ps();
                // Multiplied, then added, as the one-token kernel does (GCC would fuse the two here).
                __m256 prod = _mm256_mul_ps(f2, _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1));
                __asm__("" : "+x"(prod));
                macc[i] = _mm256_add_ps(macc[i], prod);
            }
        }
        for (int t = 0; t < T; ++t) {
            const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[t].qs + b * kQK));
            __m256 dot0;
            if constexpr (K == QKind::Q8_0) dot0 = dotU8S8(_mm256_sign_epi8(w0, w0), _mm256_sign_epi8(x0, w0));
            else dot0 = dotU8S8(w0, x0);
            acc[t] = _mm256_fmadd_ps(dot0, _mm256_mul_ps(sw0, _mm256_broadcast_ss(x[t].d + b)), acc[t]);
            if (!single) {
                const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[t].qs + (b + 1) * kQK));
                __m256 dot1;
                if constexpr (K == QKind::Q8_0) dot1 = dotU8S8(_mm256_sign_epi8(w1, w1), _mm256_sign_epi8(x1, w1));
                else dot1 = dotU8S8(w1, x1);
                acc[t] = _mm256_fmadd_ps(dot1, _mm256_mul_ps(sw1, _mm256_broadcast_ss(x[t].d + b + 1)), acc[t]);
            }
        }
    }
    for (int t = 0; t < T; ++t) {
        float v = hsum8(acc[t]);
        if constexpr (B::hasMin) {  // lanes 1 + 3 of the token's half
            const __m128 m = t % 2 ? _mm256_extractf128_ps(macc[t / 2], 1) : _mm256_castps256_ps128(macc[t / 2]);
            const __m128 odd = _mm_movehdup_ps(m);
            v += _mm_cvtss_f32(_mm_add_ss(odd, _mm_movehl_ps(odd, odd)));
        }
        y[t * ldy] = v;
    }
}

template <QKind K>
void gemmFewAvx2(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
                 float* y, int64_t ldy, const Q8RowLayout& al) {
    const int64_t nb = w.cols / kQK;
    Q8Act x[kFewTokensAvx2];
    for (int64_t t = 0; t < nTok; ++t) x[t] = q8Act(act + t * stride, al);
    const RowPrefetch pf(w, 1, 4);
    pf.start(r0, r1);
    for (int64_t r = r0; r < r1; ++r) {
        pf.next(r, r1);
        const uint8_t* row = w.data + r * w.rowBytes;
        for (int64_t t = 0; t < nTok; t += 4) {  // the next group of 4 finds the row in L1
            float* yt = y + t * ldy + r;
            switch (minI64(4, nTok - t)) {
            case 1: gemvRowsAvx2<K, 1>(row, w.rowBytes, x[t], nb, yt); break;
            case 2: gemvFewAvx2<K, 2>(row, x + t, nb, yt, ldy); break;
            case 3: gemvFewAvx2<K, 3>(row, x + t, nb, yt, ldy); break;
            default: gemvFewAvx2<K, 4>(row, x + t, nb, yt, ldy); break;
            }
        }
    }
}

// --- nTok > 1: panels and register tiles --------------------------------------------------------

// One unpacked row: qs (nb * 32 bytes: nibbles as u8, or Q8_0's int8) | d (nb floats) | m (nb floats).
struct PanelLayout {
    size_t dOff, mOff, rowBytes;
};
inline PanelLayout panelLayout(int64_t nb) {
    const size_t dOff = static_cast<size_t>(nb) * kQK, mOff = dOff + nb * 4;
    return {dOff, mOff, (mOff + nb * 4 + 63) & ~size_t(63)};
}

template <QKind K>
void unpackRowAvx2(const uint8_t* row, int64_t nb, uint8_t* dst, const PanelLayout& pl) {
    using B = QBlock<K>;
    auto* d = reinterpret_cast<float*>(dst + pl.dOff);
    auto* m = reinterpret_cast<float*>(dst + pl.mOff);
    for (int64_t b = 0; b < nb; ++b) {
        const uint8_t* p = row + b * B::bytes;
        __m256i q;
        if constexpr (K == QKind::Q8_0) q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + B::qsOff));
        else q = nibbles32(p + B::qsOff);
        _mm256_store_si256(reinterpret_cast<__m256i*>(dst + b * kQK), q);
        d[b] = halfAt(p);
        if constexpr (B::hasMin) m[b] = B::min(p);
    }
}

struct QTileArgs {
    const uint8_t* panel;  // R unpacked rows, pl.rowBytes apart
    PanelLayout pl;
    const uint8_t* act;  // T token rows, actStride apart
    size_t actStride;
    Q8RowLayout al;
    int64_t nb;
    float* y;  // y of (first token, first row)
    int64_t ldy;
};

template <QKind K>
struct QTileAvx2 {
    template <int R, int T>
    static void tile(const QTileArgs& a) {
        __m256 acc[R][T];
        for (int r = 0; r < R; ++r)
            for (int t = 0; t < T; ++t) acc[r][t] = _mm256_setzero_ps();
        for (int64_t b = 0; b < a.nb; ++b) {
            __m256i w[R], aw[R];
            __m256 sw[R];
            for (int r = 0; r < R; ++r) {
                const uint8_t* pr = a.panel + r * a.pl.rowBytes;
                w[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(pr + b * kQK));
                if constexpr (K == QKind::Q8_0) aw[r] = _mm256_sign_epi8(w[r], w[r]);
                sw[r] = _mm256_broadcast_ss(reinterpret_cast<const float*>(pr + a.pl.dOff) + b);
            }
            for (int t = 0; t < T; ++t) {
                const uint8_t* xt = a.act + t * a.actStride;
                const __m256i xv = _mm256_load_si256(reinterpret_cast<const __m256i*>(xt + b * kQK));
                const __m256 sx = _mm256_broadcast_ss(reinterpret_cast<const float*>(xt + a.al.dOff) + b);
                for (int r = 0; r < R; ++r) {
                    __m256 dot;
                    if constexpr (K == QKind::Q8_0) dot = dotU8S8(aw[r], _mm256_sign_epi8(xv, w[r]));
                    else dot = dotU8S8(w[r], xv);
                    acc[r][t] = _mm256_fmadd_ps(dot, _mm256_mul_ps(sw[r], sx), acc[r][t]);
                }
            }
        }
        for (int t = 0; t < T; ++t) {
            const uint8_t* xt = a.act + t * a.actStride;
            for (int r = 0; r < R; ++r) {
                float v = hsum8(acc[r][t]);
                if constexpr (QBlock<K>::hasMin)
                    v += dotF32Avx2(reinterpret_cast<const float*>(a.panel + r * a.pl.rowBytes + a.pl.mOff),
                                    reinterpret_cast<const float*>(xt + a.al.sOff), a.nb);
                a.y[t * a.ldy + r] = v;
            }
        }
    }
};

template <QKind K>
void gemmQAvx2(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
               float* y, int64_t ldy) {
    const int64_t nb = w.cols / kQK;
    const Q8RowLayout al = q8RowLayout(w.cols, kQ8Ds);
    if (nTok == 1) {
        const Q8Act x = q8Act(act, al);
        const RowPrefetch pf(w, 2);
        int64_t r = r0;
        pf.start(r0, r1);
        for (; r + 2 <= r1; r += 2) {
            pf.next(r, r1);
            gemvRowsAvx2<K, 2>(w.data + r * w.rowBytes, w.rowBytes, x, nb, y + r);
        }
        if (r < r1) gemvRowsAvx2<K, 1>(w.data + r * w.rowBytes, w.rowBytes, x, nb, y + r);
        return;
    }
    if (nTok <= kFewTokensAvx2) return gemmFewAvx2<K>(w, r0, r1, act, stride, nTok, y, ldy, al);
    constexpr int R = 2, T = 4;
    const PanelLayout pl = panelLayout(nb);
    static thread_local AlignedBuffer panelBuffer;
    uint8_t* panel = panelBuffer.get(R * pl.rowBytes);
    const int64_t tc = tokenChunk(stride, T);
    for (int64_t t0 = 0; t0 < nTok; t0 += tc) {
        const int64_t t1 = minI64(nTok, t0 + tc);
        for (int64_t r = r0; r < r1; r += R) {
            const int rr = static_cast<int>(minI64(R, r1 - r));
            for (int i = 0; i < rr; ++i) unpackRowAvx2<K>(w.data + (r + i) * w.rowBytes, nb, panel + i * pl.rowBytes, pl);
            for (int64_t t = t0; t < t1; t += T) {
                const QTileArgs a{panel, pl, act + t * stride, stride, al, nb, y + t * ldy + r, ldy};
                dispatchTile<QTileAvx2<K>, R, T>(rr, static_cast<int>(minI64(T, t1 - t)), a);
            }
        }
    }
}

}  // namespace
}  // namespace dlab::quant
