#pragma once
// Helpers for the AVX2 kernels. Include only from simd_avx2.cpp / simd_avx512.cpp, which are
// compiled with -mavx2 -mfma -mf16c (and more). Everything here has internal linkage: an inline
// function with external linkage compiled with these flags could be the copy the linker keeps
// for generic code too, and then crash on an older CPU. For the same reason these files call no
// inline functions or templates from shared headers (fp16.h, <algorithm>), only intrinsics.
#if !defined(__AVX2__) || !defined(__FMA__) || !defined(__F16C__)
#error "x86/avx2_*.h need -mavx2 -mfma -mf16c"
#endif
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "quant/activations.h"
#include "quant/block_types.h"
#include "quant/kernels.h"

namespace dlab::quant {
namespace {

inline float halfAt(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}
inline float roundThroughHalf(float f) { return _cvtsh_ss(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }

inline float hsum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
inline int hsum8i(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
    return _mm_cvtsi128_si32(s);
}
inline float hmax8(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}
// Four horizontal sums at once: lane i = Σ v[i].
inline __m128 hsum8x4(__m256 v0, __m256 v1, __m256 v2, __m256 v3) {
    const __m256 a = _mm256_hadd_ps(v0, v1), b = _mm256_hadd_ps(v2, v3);
    const __m256 c = _mm256_hadd_ps(a, b);  // per 128-bit lane: partial sums of v0..v3
    return _mm_add_ps(_mm256_castps256_ps128(c), _mm256_extractf128_ps(c, 1));
}

// Σ over 4-byte groups of u8 * s8 as 8 floats; u <= 15 or |s| <= 127 keeps maddubs from saturating.
inline __m256 dotU8S8(__m256i u, __m256i s) {
    return _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)));
}

// 16 packed nibbles -> 32 bytes: low nibbles (elements 0..15), then high nibbles (16..31).
inline __m256i nibbles32(const uint8_t* qs) {
    const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(t), _mm_srli_epi16(t, 4), 1);
    return _mm256_and_si256(b, _mm256_set1_epi8(0x0F));
}

inline int64_t minI64(int64_t a, int64_t b) { return a < b ? a : b; }

// Tokens per chunk: their activation rows (about 256 KiB) stay in L2 while a thread's rows pass.
inline int64_t tokenChunk(size_t actStride, int tileT) {
    int64_t tc = static_cast<int64_t>((256 * 1024) / actStride);
    tc -= tc % tileT;
    return tc < tileT ? tileT : tc;
}

// The activations' sum term s: Q8_1's fp16(d·Σq) for Q4_1, or exactly -8·d_fp16·Σq for Q4_0, so
// that Q4_0 runs through the Q4_1 kernels (its offset of -8 moved to the activation side).
enum class Q4Sum { Q8_1, Minus8Exact };

// Software prefetch for matvecs that stream weights from DRAM. The hardware prefetchers ramp up
// too slowly on short rows read a few at a time; asking for the rows ~16 KiB ahead roughly
// doubled single-thread decode throughput on Zen 5 (the output matrix went from ~8 to ~20 GB/s).
// maxAhead: at most this many rows ahead; the few-token kernels, which spend several times longer
// on a row, do best with 4 (batched decode ran 5-10% faster than with 16).
class RowPrefetch {
public:
    RowPrefetch(const WeightMatrix& w, int rowTile, int64_t maxAhead = 16) : w_(w) {
        const int64_t rows = static_cast<int64_t>((16 * 1024) / (w.rowBytes ? w.rowBytes : 1));
        ahead_ = rows < rowTile ? rowTile : rows > maxAhead ? maxAhead : rows;
        tile_ = rowTile;
    }
    // Before the first tile: the rows the steady state would have fetched already.
    void start(int64_t r0, int64_t r1) const { fetch(r0, minI64(r1, r0 + ahead_)); }
    // Before the tile at r: the tile `ahead` rows further on.
    void next(int64_t r, int64_t r1) const { fetch(r + ahead_, minI64(r1, r + ahead_ + tile_)); }

private:
    void fetch(int64_t a, int64_t b) const {
        if (a >= b) return;
        const uint8_t* p = w_.data + a * w_.rowBytes;
        const size_t bytes = static_cast<size_t>(b - a) * w_.rowBytes;
        // As volatile asm: GCC 12 deletes a loop of _mm_prefetch whose addresses come through a
        // member reference, as if prefetches had no effect.
        for (size_t off = 0; off < bytes; off += 64) asm volatile("prefetcht0 %0" : : "m"(p[off]));
    }
    const WeightMatrix& w_;
    int64_t ahead_;
    int tile_;
};

// Calls K::tile<rr, tt>(args) for runtime rr in [1, R], tt in [1, T] (row / token tails).
template <class K, int R, int T, class Args>
inline void dispatchTile(int rr, int tt, const Args& a) {
    if constexpr (R > 1) {
        if (rr < R) return dispatchTile<K, R - 1, T>(rr, tt, a);
    }
    if constexpr (T > 1) {
        if (tt < T) return dispatchTile<K, R, T - 1>(rr, tt, a);
    }
    K::template tile<R, T>(a);
}

}  // namespace
}  // namespace dlab::quant
