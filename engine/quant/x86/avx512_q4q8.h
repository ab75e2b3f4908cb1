#pragma once
// AVX-512 VNNI kernels for Q4_0 / Q4_1 / Q8_0 weights (activation layouts in avx512_act.h).
// Each 512-bit step covers a pair of 32-element blocks: vpdpbusd multiplies unsigned weight
// bytes with signed activation bytes into 16 int32 lanes, which take the pair's two block scales
// (spread by a permute) in one FMA.
//   Q4_1: nibbles are unsigned already; Σ m·s comes from Q8_1's sum term, as in ggml.
//   Q4_0: run as Q4_1 with m = d and the activations' exact term -8·d·Σq in place of s.
//   Q8_0: weights get +128 (xor 0x80) to become unsigned; the accumulator starts at the
//         activations' -128·Σx lanes, so the int32 result is exactly Σ w·x.
//
// nTok == 1: a matvec straight from the file's blocks, 2 rows at a time. nTok <= kFewTokens
// (batched decode): the same from the file's blocks, each weight pair decoded once for a group
// of up to 8 tokens, bit-identical to the one-token kernel. More tokens: 4 rows are unpacked into a panel
// (pair-layout bytes, spread scales) and multiplied with 4-token tiles.
#include "quant/aligned_buffer.h"
#include "quant/x86/avx512_common.h"
#include "quant/x86/q_block.h"

namespace dlab::quant {
namespace {

// Loads the weight bytes of blocks b (and b + 1 unless `single`) as one 64-byte unsigned vector
// in the activations' layout for K.
template <QKind K>
inline __m512i weightPair(const uint8_t* block, bool single) {
    using B = QBlock<K>;
    const uint8_t* q = block + B::qsOff;
    if constexpr (K == QKind::Q8_0) {
        const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
        const __m256i hi = single ? _mm256_setzero_si256() : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + B::bytes));
        return _mm512_xor_si512(_mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1), _mm512_set1_epi8(char(0x80)));
    } else {
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        const __m128i hi = single ? _mm_setzero_si128() : _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + B::bytes));
        const __m256i y = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
        return _mm512_and_si512(_mm512_inserti64x4(_mm512_castsi256_si512(y), _mm256_srli_epi16(y, 4), 1),
                                _mm512_set1_epi8(0x0F));
    }
}

struct ActRow {  // one token's prepared activations
    const uint8_t* qs;
    const float* d;
    const float* s;
    const float* ds;
    const int32_t* corr;
};
inline ActRow actRow(const uint8_t* row, const Q8RowLayout& l) {
    return {row, reinterpret_cast<const float*>(row + l.dOff), reinterpret_cast<const float*>(row + l.sOff),
            reinterpret_cast<const float*>(row + l.dsOff), reinterpret_cast<const int32_t*>(row + l.corrOff)};
}

inline Q8RowLayout actLayout(QKind k, int64_t cols) { return q8RowLayout(cols, k == QKind::Q8_0 ? kQ8Ds | kQ8Corr : kQ8Ds); }

// The int32 accumulator a pair's dot starts from.
template <QKind K>
inline __m512i dotStart(const ActRow& x, int64_t pair) {
    if constexpr (K == QKind::Q8_0) return _mm512_load_si512(x.corr + 16 * pair);
    else return _mm512_setzero_si512();
}

// --- nTok == 1 ----------------------------------------------------------------------------------

template <QKind K, int R>
void gemvAvx512(const uint8_t* w0, size_t rowBytes, const ActRow& x, int64_t nb, float* y) {
    using B = QBlock<K>;
    const __m512i spread = _mm512_load_si512(K == QKind::Q8_0 ? kN02 : kZ02);
    __m512 acc[R];
    __m128 macc[R];  // Σ m·s in lanes 1 and 3
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps(), macc[r] = _mm_setzero_ps();
    for (int64_t b = 0; b < nb; b += 2) {
        const bool single = b + 1 == nb;
        const __m512i xv = _mm512_load_si512(x.qs + b * kQK);
        const __m512i start = dotStart<K>(x, b / 2);
        for (int r = 0; r < R; ++r) {
            const uint8_t* blk = w0 + r * rowBytes + b * B::bytes;
            const __m128 sc = pairScales<K>(blk, single, x.ds + 2 * b);
            const __m512i dot = _mm512_dpbusd_epi32(start, weightPair<K>(blk, single), xv);
            acc[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(sc)), acc[r]);
            if constexpr (B::hasMin) macc[r] = _mm_mask_add_ps(macc[r], 0xA, macc[r], sc);
        }
    }
    for (int r = 0; r < R; ++r) acc[r] = _mm512_add_ps(acc[r], _mm512_zextps128_ps512(macc[r]));
    if constexpr (R == 4) {
        _mm_storeu_ps(y, hsum16x4(acc[0], acc[1], acc[2], acc[3]));
    } else {
        for (int r = 0; r < R; ++r) y[r] = _mm512_reduce_add_ps(acc[r]);
    }
}

// --- 1 < nTok <= kFewTokens: batched decode ------------------------------------------------------

// Up to this many tokens go through gemvFewAvx512 (the file's blocks, each decoded once for a
// group of up to kFewGroup tokens) instead of the panels below, whose unpacking costs more than
// a few tokens' dots.
constexpr int64_t kFewTokens = 16;
constexpr int kFewGroup = 8;

// The activation side of gemvFewAvx512, per pair p, prepared once per call: token t's dx spread
// over the lanes (sx + (p * nTok + t) * 16), and for each group of 4 tokens their (d, s) pairs
// side by side (ds4 + (p * nQuads + q) * 16, token 4q + i in lanes 4i .. 4i + 3).
struct FewAct {
    const float* sx;
    const float* ds4;
    int64_t nTok, nQuads;
};

template <QKind K>
FewAct prepareFewAvx512(const ActRow* x, int64_t nTok, int64_t pairs, AlignedBuffer& buf) {
    const int64_t nQuads = (nTok + 3) / 4;
    auto* sx = reinterpret_cast<float*>(buf.get(static_cast<size_t>(pairs * (nTok + nQuads)) * 64));
    float* ds4 = sx + pairs * nTok * 16;
    const __m512i spread = _mm512_load_si512(K == QKind::Q8_0 ? kN02 : kZ02);
    for (int64_t p = 0; p < pairs; ++p) {
        for (int64_t t = 0; t < nTok; ++t)
            _mm512_store_ps(sx + (p * nTok + t) * 16, _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(_mm_loadu_ps(x[t].ds + 4 * p))));
        for (int64_t q = 0; q < nQuads; ++q)
            for (int i = 0; i < 4; ++i)
                _mm_store_ps(ds4 + (p * nQuads + q) * 16 + 4 * i, 4 * q + i < nTok ? _mm_loadu_ps(x[4 * q + i].ds + 4 * p) : _mm_setzero_ps());
    }
    return {sx, ds4, nTok, nQuads};
}

// R rows x T <= kFewGroup tokens (tokens t0 .. t0 + T - 1 of `a`; t0 a multiple of 4) straight from
// the file's blocks: each weight pair is loaded, unpacked and its scales converted once for all T
// tokens. Per token the same operations in the same order as gemvAvx512<K, R> (the spread scale
// product dw·dx is the product of the two spread factors; token t's m·s lanes are lanes
// 4(t % 4) + 1 and + 3 of its quad's accumulator), so every y equals the one-token kernel's bit for bit.
template <QKind K, int R, int T>
void gemvFewAvx512(const uint8_t* w0, size_t rowBytes, const ActRow* x, const FewAct& a, int64_t t0, int64_t nb,
                   float* y, int64_t ldy) {
    static_assert(T >= 1 && T <= kFewGroup);
    using B = QBlock<K>;
    constexpr int Q = (T + 3) / 4;
    const __m512i spread = _mm512_load_si512(K == QKind::Q8_0 ? kN02 : kZ02);
    __m512 acc[R][T];
    __m512 macc[R][Q];  // Σ m·s of token 4q + i in lanes 4i + 1 and 4i + 3
    for (int r = 0; r < R; ++r) {
        for (int q = 0; q < Q; ++q) macc[r][q] = _mm512_setzero_ps();
        for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
    }
    for (int64_t b = 0; b < nb; b += 2) {
        const bool single = b + 1 == nb;
        const int64_t p = b / 2;
        const float* sx = a.sx + (p * a.nTok + t0) * 16;
        const float* ds4 = a.ds4 + (p * a.nQuads + t0 / 4) * 16;
        for (int r = 0; r < R; ++r) {
            const uint8_t* blk = w0 + r * rowBytes + b * B::bytes;
            const __m128 f = pairFactors<K>(blk, single);  // [dw, m, dw', m']
            const __m512 sw = _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(f));
            const __m512i wv = weightPair<K>(blk, single);
            if constexpr (B::hasMin) {
                const __m512 f4 = _mm512_broadcast_f32x4(f);
                for (int q = 0; q < Q; ++q)
                    macc[r][q] = _mm512_mask_add_ps(macc[r][q], 0xAAAA, macc[r][q], _mm512_mul_ps(f4, _mm512_load_ps(ds4 + 16 * q)));
            }
            for (int t = 0; t < T; ++t) {
                const __m512i dot = _mm512_dpbusd_epi32(dotStart<K>(x[t0 + t], p), wv, _mm512_load_si512(x[t0 + t].qs + b * kQK));
                acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(sw, _mm512_load_ps(sx + 16 * t)), acc[r][t]);
            }
        }
    }
    for (int r = 0; r < R; ++r) {
        alignas(64) float m[Q * 16];
        for (int q = 0; q < Q; ++q) _mm512_store_ps(m + 16 * q, macc[r][q]);
        for (int t = 0; t < T; ++t) {
            __m512 v = acc[r][t];
            if constexpr (B::hasMin) v = _mm512_add_ps(v, _mm512_zextps128_ps512(_mm_load_ps(m + 4 * t)));
            y[t * ldy + r] = _mm512_reduce_add_ps(v);
        }
    }
}

// Rows r .. r + R - 1 for all tokens, a group at a time (the next group finds the rows in L1): up
// to 4 tokens with R rows at once, 5 to kFewGroup a row at a time (R x 8 accumulators would not
// fit in the registers); a lone token takes the one-token kernel.
template <QKind K, int R>
void fewRowsAvx512(const uint8_t* w0, size_t rowBytes, const ActRow* x, const FewAct& a, int64_t nb, float* y, int64_t ldy) {
    for (int64_t t = 0; t < a.nTok; t += kFewGroup) {
        float* yt = y + t * ldy;
        const int64_t n = minI64(kFewGroup, a.nTok - t);
        if (n > 4) {
            for (int r = 0; r < R; ++r) {
                const uint8_t* wr = w0 + r * rowBytes;
                switch (n) {
                case 5: gemvFewAvx512<K, 1, 5>(wr, rowBytes, x, a, t, nb, yt + r, ldy); break;
                case 6: gemvFewAvx512<K, 1, 6>(wr, rowBytes, x, a, t, nb, yt + r, ldy); break;
                case 7: gemvFewAvx512<K, 1, 7>(wr, rowBytes, x, a, t, nb, yt + r, ldy); break;
                default: gemvFewAvx512<K, 1, 8>(wr, rowBytes, x, a, t, nb, yt + r, ldy); break;
                }
            }
            continue;
        }
        switch (n) {
        case 1: gemvAvx512<K, R>(w0, rowBytes, x[t], nb, yt); break;
        case 2: gemvFewAvx512<K, R, 2>(w0, rowBytes, x, a, t, nb, yt, ldy); break;
        case 3: gemvFewAvx512<K, R, 3>(w0, rowBytes, x, a, t, nb, yt, ldy); break;
        default: gemvFewAvx512<K, R, 4>(w0, rowBytes, x, a, t, nb, yt, ldy); break;
        }
    }
}

template <QKind K>
void gemmFewAvx512(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
                   float* y, int64_t ldy, const Q8RowLayout& al) {
    const int64_t nb = w.cols / kQK;
    ActRow x[kFewTokens];
    for (int64_t t = 0; t < nTok; ++t) x[t] = actRow(act + t * stride, al);
    static thread_local AlignedBuffer fewBuffer;
    const FewAct a = prepareFewAvx512<K>(x, nTok, al.nbPad / 2, fewBuffer);
    constexpr int R = 2;
    const RowPrefetch pf(w, R, 4);
    int64_t r = r0;
    pf.start(r0, r1);
    for (; r + R <= r1; r += R) {
        pf.next(r, r1);
        fewRowsAvx512<K, R>(w.data + r * w.rowBytes, w.rowBytes, x, a, nb, y + r, ldy);
    }
    for (; r < r1; ++r) fewRowsAvx512<K, 1>(w.data + r * w.rowBytes, w.rowBytes, x, a, nb, y + r, ldy);
}

// --- nTok > kFewTokens ---------------------------------------------------------------------------

// One unpacked row: qs (nbPad * 32 bytes, activation layout, unsigned) | spread scales
// (16 floats per pair: any scale per 4-byte lane) | m (nMin floats: the offset terms, paired
// with the activations' s; one per block, or one per 16 elements for Q6_K; zero padded).
struct Panel512Layout {
    int64_t nbPad, nMin;
    size_t scaleOff, mOff, rowBytes;
};
inline Panel512Layout panel512Layout(int64_t nb, int minPerBlock = 1) {
    const int64_t nbPad = (nb + 1) & ~int64_t(1), nMin = nbPad * minPerBlock;
    const size_t scaleOff = static_cast<size_t>(nbPad) * kQK, mOff = scaleOff + nbPad * 32;
    return {nbPad, nMin, scaleOff, mOff, (mOff + nMin * 4 + 63) & ~size_t(63)};
}

template <QKind K>
void unpackRowAvx512(const uint8_t* row, int64_t nb, uint8_t* dst, const Panel512Layout& pl) {
    using B = QBlock<K>;
    auto* sc = reinterpret_cast<float*>(dst + pl.scaleOff);
    auto* m = reinterpret_cast<float*>(dst + pl.mOff);
    const __m512i idx = K == QKind::Q8_0 ? nIdx(0) : zIdx(0);
    for (int64_t b = 0; b < pl.nbPad; b += 2) {
        const bool single = b + 1 >= nb;
        const uint8_t* p = row + b * B::bytes;
        _mm512_store_si512(dst + b * kQK, weightPair<K>(p, single));
        const float d2[2] = {halfAt(p), single ? 0.0f : halfAt(p + B::bytes)};
        _mm512_store_ps(sc + 8 * b, pairScale(d2, idx));
        if constexpr (B::hasMin) {
            m[b] = B::min(p);
            m[b + 1] = single ? 0.0f : B::min(p + B::bytes);
        }
    }
}

struct Q512TileArgs {
    const uint8_t* panel;  // R unpacked rows, pl.rowBytes apart
    Panel512Layout pl;
    const uint8_t* act;  // T token rows, actStride apart
    size_t actStride;
    Q8RowLayout al;
    float* y;  // y of (first token, first row)
    int64_t ldy;
};

// A register tile of R panel rows x T tokens. PairLayout: bytes in the pair layout (else natural);
// CorrStart: dots start from the activations' corr lanes (else zero); Offsets: add Σ m·s.
// A register tile of R panel rows x T tokens. PairLayout: bytes in the pair layout (else natural);
// CorrStart: dots start from the activations' corr lanes (else zero); Offsets: add Σ m·s.
template <bool PairLayout, bool CorrStart, bool Offsets>
struct Tile512 {
    template <int R, int T>
    static void tile(const Q512TileArgs& a) {
        const int64_t pairs = a.pl.nbPad / 2;
        const __m512i sIdx = PairLayout ? zIdx(0) : nIdx(0);
        ActRow x[T];
        for (int t = 0; t < T; ++t) x[t] = actRow(a.act + t * a.actStride, a.al);
        __m512 acc[R][T];
        for (int r = 0; r < R; ++r)
            for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
        for (int64_t p = 0; p < pairs; ++p) {
            __m512i w[R];
            for (int r = 0; r < R; ++r) w[r] = _mm512_load_si512(a.panel + r * a.pl.rowBytes + 64 * p);
            for (int t = 0; t < T; ++t) {
                const __m512i xv = _mm512_load_si512(x[t].qs + 64 * p);
                const __m512i start = CorrStart ? _mm512_load_si512(x[t].corr + 16 * p) : _mm512_setzero_si512();
                const __m512 sx = pairScale(x[t].d + 2 * p, sIdx);
                for (int r = 0; r < R; ++r) {
                    const __m512 sw = _mm512_load_ps(reinterpret_cast<const float*>(a.panel + r * a.pl.rowBytes + a.pl.scaleOff) + 16 * p);
                    const __m512i dot = _mm512_dpbusd_epi32(start, w[r], xv);
                    acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(sx, sw), acc[r][t]);
                }
            }
        }
        if constexpr (Offsets) {  // Σ m·s, folded into the same accumulators
            for (int64_t c = 0; c < a.pl.nMin; c += 16) {
                const __mmask16 km = static_cast<__mmask16>(a.pl.nMin - c >= 16 ? 0xFFFF : (1u << (a.pl.nMin - c)) - 1);
                for (int r = 0; r < R; ++r) {
                    const __m512 m = _mm512_maskz_loadu_ps(km, reinterpret_cast<const float*>(a.panel + r * a.pl.rowBytes + a.pl.mOff) + c);
                    for (int t = 0; t < T; ++t) acc[r][t] = _mm512_fmadd_ps(m, _mm512_maskz_loadu_ps(km, x[t].s + c), acc[r][t]);
                }
            }
        }
        for (int t = 0; t < T; ++t) {
            float* yt = a.y + t * a.ldy;
            if constexpr (R == 4) {
                _mm_storeu_ps(yt, hsum16x4(acc[0][t], acc[1][t], acc[2][t], acc[3][t]));
            } else {
                for (int r = 0; r < R; ++r) yt[r] = _mm512_reduce_add_ps(acc[r][t]);
            }
        }
    }
};

// The tile for K's panels and activations.
template <QKind K>
using QTile512 = Tile512<K != QKind::Q8_0, K == QKind::Q8_0, K != QKind::Q8_0>;

template <QKind K>
void gemmQAvx512(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
                 float* y, int64_t ldy) {
    const int64_t nb = w.cols / kQK;
    const Q8RowLayout al = actLayout(K, w.cols);
    if (nTok == 1) {
        const ActRow x = actRow(act, al);
        constexpr int R = 2;  // 2 rows streamed at once beat 4 on DRAM-bound decode (Zen 5)
        const RowPrefetch pf(w, R);
        int64_t r = r0;
        pf.start(r0, r1);
        for (; r + R <= r1; r += R) {
            pf.next(r, r1);
            gemvAvx512<K, R>(w.data + r * w.rowBytes, w.rowBytes, x, nb, y + r);
        }
        for (; r < r1; ++r) gemvAvx512<K, 1>(w.data + r * w.rowBytes, w.rowBytes, x, nb, y + r);
        return;
    }
    if (nTok <= kFewTokens) return gemmFewAvx512<K>(w, r0, r1, act, stride, nTok, y, ldy, al);
    // Per token chunk, each group of 4 rows is unpacked into a panel once and multiplied with
    // 4-token tiles. (Written out here and in avx512_kquants.h: sharing this loop through a
    // template taking the unpack step as a lambda made GCC 12 compile the tiles ~20% slower.)
    const Panel512Layout pl = panel512Layout(nb);
    constexpr int R = 4, T = 4;
    static thread_local AlignedBuffer panelBuffer;
    uint8_t* panel = panelBuffer.get(R * pl.rowBytes);
    const int64_t tc = tokenChunk(stride, T);
    for (int64_t t0 = 0; t0 < nTok; t0 += tc) {
        const int64_t t1 = minI64(nTok, t0 + tc);
        for (int64_t r = r0; r < r1; r += R) {
            const int rr = static_cast<int>(minI64(R, r1 - r));
            for (int i = 0; i < rr; ++i) unpackRowAvx512<K>(w.data + (r + i) * w.rowBytes, nb, panel + i * pl.rowBytes, pl);
            for (int64_t t = t0; t < t1; t += T) {
                const Q512TileArgs a{panel, pl, act + t * stride, stride, al, y + t * ldy + r, ldy};
                dispatchTile<QTile512<K>, R, T>(rr, static_cast<int>(minI64(T, t1 - t)), a);
            }
        }
    }
}

}  // namespace
}  // namespace dlab::quant
