#pragma once
// Compile-time facts about the 32-element weight blocks the SIMD kernels read from the file.
#include <cstring>

#include "quant/x86/avx2_common.h"

namespace dlab::quant {
namespace {

enum class QKind { Q4_0, Q4_1, Q8_0 };

template <QKind K>
struct QBlock {
    static constexpr size_t bytes = K == QKind::Q4_0 ? 18 : K == QKind::Q4_1 ? 20 : 34;
    static constexpr size_t qsOff = K == QKind::Q4_1 ? 4 : 2;
    static constexpr bool hasMin = K != QKind::Q8_0;
    // The weight side of the per-block offset term m·s: Q4_1's stored min m (against Q8_1's
    // s = d·Σq), Q4_0's d (against the activations' s = -8·d·Σq, see Q4Sum).
    static float min(const uint8_t* block) {
        if constexpr (K == QKind::Q4_1) return halfAt(block + 2);
        else return halfAt(block);
    }
};

// Blocks b, b + 1's [d, m, d', m'] from one 4-wide conversion (zero for b + 1 if `single`: block b
// is the row's last). For Q8_0 the m lanes hold whatever follows d (quants); nothing reads them.
template <QKind K>
inline __m128 pairFactors(const uint8_t* block, bool single) {
    uint32_t a, b = 0;
    std::memcpy(&a, block, 4);
    if (!single) std::memcpy(&b, block + QBlock<K>::bytes, 4);
    __m128 f = _mm_cvtph_ps(_mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(a)), _mm_cvtsi32_si128(static_cast<int>(b))));
    if constexpr (K == QKind::Q4_0) f = _mm_moveldup_ps(f);  // m = d
    return f;
}

// pairFactors times the activations' interleaved (d, s) of the same blocks: [dw·dx, m·s, dw'·dx', m'·s'].
template <QKind K>
inline __m128 pairScales(const uint8_t* block, bool single, const float* ds) {
    return _mm_mul_ps(pairFactors<K>(block, single), _mm_loadu_ps(ds));
}

}  // namespace
}  // namespace dlab::quant
