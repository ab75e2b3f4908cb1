#pragma once
// K-quant prefill on AVX-512 through the Q4 tile kernel (avx512_q4q8.h). A K-quant super-block
// is 8 blocks of 32 with a float scale and an offset each once its 6-bit scales are applied:
//   Q4_K / Q5_K: x = (d·sc_j)·q - (dmin·m_j), q in 0..15 / 0..31, one (scale, offset) per 32;
//   Q6_K:        x = (d·sc_j)·(q - 32), q in 0..63, one scale per 16 (a quarter of a pair's lanes).
// So rows are unpacked into the same panels as Q4_1 (pair-layout bytes, per-lane scales) and the
// Q8_K activations get a pair-layout copy with d per block. Q4_K / Q5_K add their offsets as
// Q4_1 does, through s = d·Σq per block (from bsums); Q6_K's -32 comes off exactly in int32, as
// Q8_0's +128 does, with dots starting from -32·Σx lanes. The sums equal ggml's up to float
// rounding order (ggml sums sc_j·(q·x) in int32 over a super-block first). nTok == 1 stays on
// the AVX2 dot, which reads the Q8_K blocks at the start of the same activation row.
#include "quant/x86/avx2_kquants.h"
#include "quant/x86/avx512_q4q8.h"

namespace dlab::quant {
namespace {

enum class KType { Q4_K, Q5_K, Q6_K };

// One token row: [Q8_K blocks | pair-layout copy: qs (nb * 32) | d (nb) | s (nb), or for Q6_K
// corr (nb / 2 pairs x 16 int32, 64-byte aligned) in place of s].
struct KAct512Layout {
    size_t zOff;
    Q8RowLayout z;  // offsets within the copy
    size_t rowBytes;
};
inline KAct512Layout kAct512Layout(KType k, int64_t cols) {
    const int64_t nb = cols / kQK;  // 8 per super-block: always even
    const size_t q8k = (static_cast<size_t>(cols / kQKK) * sizeof(BlockQ8_K) + 63) & ~size_t(63);
    Q8RowLayout z{};
    z.nb = z.nbPad = nb;
    z.dOff = static_cast<size_t>(nb) * kQK;
    z.sOff = z.dOff + nb * 4;
    z.corrOff = (z.sOff + 63) & ~size_t(63);
    z.rowBytes = k == KType::Q6_K ? z.corrOff + nb * 32 : (z.sOff + nb * 4 + 63) & ~size_t(63);
    return {q8k, z, q8k + z.rowBytes};
}

template <KType K>
size_t kActBytesAvx512(int64_t cols) { return kAct512Layout(K, cols).rowBytes; }

template <KType K>
void prepQ8KPairAvx512(const float* x, int64_t cols, uint8_t* dst) {
    avx2Kernels().q4_k.prepareAct(x, cols, dst);  // the Q8_K blocks (same for every K type)
    const KAct512Layout l = kAct512Layout(K, cols);
    uint8_t* z = dst + l.zOff;
    auto* d = reinterpret_cast<float*>(z + l.z.dOff);
    auto* s = reinterpret_cast<float*>(z + l.z.sOff);
    const auto* blocks = reinterpret_cast<const BlockQ8_K*>(dst);
    for (int64_t i = 0; i < cols / kQKK; ++i) {
        const BlockQ8_K& b = blocks[i];
        for (int c = 0; c < 4; ++c) {  // natural 128-bit quarters [b lo, b hi, b' lo, b' hi] -> [b lo, b' lo, b hi, b' hi]
            const __m512i v = _mm512_loadu_si512(b.qs + 64 * c);
            _mm512_store_si512(z + (8 * i + 2 * c) * kQK, _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(3, 1, 2, 0)));
        }
        for (int k = 0; k < 8; ++k) d[8 * i + k] = b.d;
        if constexpr (K != KType::Q6_K)
            for (int j = 0; j < 8; ++j) s[8 * i + j] = b.d * static_cast<float>(b.bsums[2 * j] + b.bsums[2 * j + 1]);
    }
    if constexpr (K == KType::Q6_K) {  // corr lane = -32 · Σ of its 4 bytes
        auto* corr = reinterpret_cast<int32_t*>(z + l.z.corrOff);
        for (int64_t p = 0; p < l.z.nb / 2; ++p) {
            const __m512i sum4 = _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_set1_epi8(1), _mm512_load_si512(z + 64 * p));
            _mm512_store_si512(corr + 16 * p, _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_slli_epi32(sum4, 5)));
        }
    }
}

// Two 32-element blocks a, b (32 bytes each, natural order) -> pair layout.
inline __m512i pairLayout(__m256i a, __m256i b) {
    const __m512i n = _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
    return _mm512_shuffle_i64x2(n, n, _MM_SHUFFLE(3, 1, 2, 0));
}

// Lanes 0-3 s0, 4-7 s1, 8-11 s2, 12-15 s3: the four quarters of a pair.
inline __m512 quarterScales(float s0, float s1, float s2, float s3) {
    return _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                                 _mm512_castps128_ps512(_mm_setr_ps(s0, s1, s2, s3)));
}

template <KType K>
void unpackKRowAvx512(const uint8_t* row, int64_t nSuper, uint8_t* dst, const Panel512Layout& pl) {
    auto* sc = reinterpret_cast<float*>(dst + pl.scaleOff);
    auto* m = reinterpret_cast<float*>(dst + pl.mOff);  // offsets (Q4_K / Q5_K)
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    for (int64_t i = 0; i < nSuper; ++i) {
        uint8_t* q = dst + i * kQKK;
        float* sci = sc + 8 * 16 / 2 * i;  // 4 pairs x 16 lanes
        if constexpr (K == KType::Q6_K) {
            const auto* w = reinterpret_cast<const BlockQ6_K*>(row) + i;
            const float d = halfAt(reinterpret_cast<const uint8_t*>(&w->d));
            const __m256i low2 = _mm256_set1_epi8(3);
            for (int h = 0; h < 2; ++h) {
                const __m256i ql0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->ql + 64 * h));
                const __m256i ql1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->ql + 64 * h + 32));
                const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w->qh + 32 * h));
                __m256i g[4];  // elements 32k .. 32k + 31 of this half, 0..63
                g[0] = _mm256_or_si256(_mm256_and_si256(ql0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, low2), 4));
                g[1] = _mm256_or_si256(_mm256_and_si256(ql1, low4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), low2), 4));
                g[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), low4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), low2), 4));
                g[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), low4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), low2), 4));
                for (int k = 0; k < 2; ++k) {
                    const int j = 8 * h + 4 * k;  // sub-blocks of 16: j, j + 1 (group 2k), j + 2, j + 3 (group 2k + 1)
                    _mm512_store_si512(q + (4 * h + 2 * k) * kQK, pairLayout(g[2 * k], g[2 * k + 1]));
                    _mm512_store_ps(sci + 16 * (2 * h + k), quarterScales(d * w->scales[j], d * w->scales[j + 2],
                                                                          d * w->scales[j + 1], d * w->scales[j + 3]));
                }
            }
        } else {
            const uint8_t *scales, *qs, *qh = nullptr;
            float d, dmin;
            if constexpr (K == KType::Q5_K) {
                const auto* w = reinterpret_cast<const BlockQ5_K*>(row) + i;
                d = halfAt(reinterpret_cast<const uint8_t*>(&w->d)), dmin = halfAt(reinterpret_cast<const uint8_t*>(&w->dmin));
                scales = w->scales, qs = w->qs, qh = w->qh;
            } else {
                const auto* w = reinterpret_cast<const BlockQ4_K*>(row) + i;
                d = halfAt(reinterpret_cast<const uint8_t*>(&w->d)), dmin = halfAt(reinterpret_cast<const uint8_t*>(&w->dmin));
                scales = w->scales, qs = w->qs;
            }
            uint8_t s6[8], m6[8];
            scalesMinsK4(scales, s6, m6);
            __m256i hbits;
            if constexpr (K == KType::Q5_K) hbits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qh));
            for (int c = 0; c < 4; ++c) {  // sub-blocks 2c (low nibbles), 2c + 1 (high nibbles)
                const __m256i q4 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * c));
                __m256i lo = _mm256_and_si256(q4, low4);
                __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q4, 4), low4);
                if constexpr (K == KType::Q5_K) {
                    lo = _mm256_or_si256(lo, _mm256_slli_epi16(_mm256_and_si256(hbits, _mm256_set1_epi8(1)), 4));
                    hi = _mm256_or_si256(hi, _mm256_slli_epi16(_mm256_and_si256(hbits, _mm256_set1_epi8(2)), 3));
                    hbits = _mm256_srli_epi16(hbits, 2);
                }
                _mm512_store_si512(q + 2 * c * kQK, pairLayout(lo, hi));
                const float s0 = d * s6[2 * c], s1 = d * s6[2 * c + 1];
                _mm512_store_ps(sci + 16 * c, quarterScales(s0, s1, s0, s1));
                m[8 * i + 2 * c] = -dmin * m6[2 * c];
                m[8 * i + 2 * c + 1] = -dmin * m6[2 * c + 1];
            }
        }
    }
}

template <KType K>
void gemmKAvx512(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t stride, int64_t nTok,
                 float* y, int64_t ldy) {
    if (nTok == 1) {  // the AVX2 dot reads the Q8_K blocks at the start of the row
        const KernelSet& avx2 = avx2Kernels();
        const TypeKernels& k = K == KType::Q4_K ? avx2.q4_k : K == KType::Q5_K ? avx2.q5_k : avx2.q6_k;
        return k.gemm(w, r0, r1, act, stride, nTok, y, ldy);
    }
    const KAct512Layout al = kAct512Layout(K, w.cols);
    const int64_t nSuper = w.cols / kQKK;
    const Panel512Layout pl = panel512Layout(w.cols / kQK, K == KType::Q6_K ? 0 : 1);
    using Tile = Tile512<true, K == KType::Q6_K, K != KType::Q6_K>;
    constexpr int R = 4, T = 4;  // the panel loop of gemmQAvx512
    static thread_local AlignedBuffer panelBuffer;
    uint8_t* panel = panelBuffer.get(R * pl.rowBytes);
    const int64_t tc = tokenChunk(stride, T);
    for (int64_t t0 = 0; t0 < nTok; t0 += tc) {
        const int64_t t1 = minI64(nTok, t0 + tc);
        for (int64_t r = r0; r < r1; r += R) {
            const int rr = static_cast<int>(minI64(R, r1 - r));
            for (int i = 0; i < rr; ++i) unpackKRowAvx512<K>(w.data + (r + i) * w.rowBytes, nSuper, panel + i * pl.rowBytes, pl);
            for (int64_t t = t0; t < t1; t += T) {
                const Q512TileArgs a{panel, pl, act + al.zOff + t * stride, stride, al.z, y + t * ldy + r, ldy};
                dispatchTile<Tile, R, T>(rr, static_cast<int>(minI64(T, t1 - t)), a);
            }
        }
    }
}

}  // namespace
}  // namespace dlab::quant
