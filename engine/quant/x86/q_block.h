#pragma once
// Compile-time facts about the 32-element weight blocks the SIMD kernels read from the file.
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

}  // namespace
}  // namespace dlab::quant
