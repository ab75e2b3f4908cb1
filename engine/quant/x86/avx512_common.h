#pragma once
// Helpers for the AVX-512 kernels (simd_avx512.cpp only; AVX-512 F/BW/VL/DQ + VNNI). As with
// avx2_common.h, everything has internal linkage and no shared inline code is called.
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__) || !defined(__AVX512DQ__) || \
    !defined(DLAB_AVX512_VNNI)
#error "x86/avx512_*.h need AVX-512 F/BW/VL/DQ and VNNI (see simd_avx512.cpp)"
#endif
#include "quant/x86/avx2_common.h"

namespace dlab::quant {
namespace {

// 4 x 16 floats -> their 4 sums, in order.
inline __m128 hsum16x4(__m512 a, __m512 b, __m512 c, __m512 d) {
    auto half = [](__m512 v) { return _mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1)); };
    return hsum8x4(half(a), half(b), half(c), half(d));
}

// Lane patterns for block scales. With the scales of blocks 2p, 2p + 1 of a pair in lanes 2p, 2p + 1,
// the Z pattern spreads them as the Q4 pair layout needs (4 lanes of 2p, 4 of 2p + 1, repeated),
// the N pattern as natural order needs (8 lanes of 2p, then 8 of 2p + 1).
struct LaneIdx {
    alignas(64) int32_t v[8][16];
};
constexpr LaneIdx makeLaneIdx(bool z) {
    LaneIdx t{};
    for (int p = 0; p < 8; ++p)
        for (int lane = 0; lane < 16; ++lane) t.v[p][lane] = 2 * p + (z ? (lane / 4) % 2 : lane / 8);
    return t;
}
constexpr LaneIdx kZIdx = makeLaneIdx(true), kNIdx = makeLaneIdx(false);
inline __m512i zIdx(int p) { return _mm512_load_si512(kZIdx.v[p]); }
inline __m512i nIdx(int p) { return _mm512_load_si512(kNIdx.v[p]); }

// Spreads lanes 0 and 2 of a 4-float vector (a pair's two scales) in the Z / N patterns.
alignas(64) constexpr int32_t kZ02[16] = {0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 2, 2, 2, 2};
alignas(64) constexpr int32_t kN02[16] = {0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2};

// The two floats at p spread by idx (zIdx(0) or nIdx(0)).
inline __m512 pairScale(const float* p, __m512i idx) {
    return _mm512_permutexvar_ps(idx, _mm512_castps128_ps512(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(p)))));
}

}  // namespace
}  // namespace dlab::quant
