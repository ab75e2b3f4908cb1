// The AVX-512 kernel set: Q4_0 / Q4_1 / Q8_0 with VNNI (x86/avx512_*.h), K-quant prefill
// through the same tiles, the rest (K-quant matvec, float types) from the AVX2 set. CMake compiles this file with AVX-512 F/BW/VL/DQ; VNNI (vpdpbusd) is switched on
// here by pragma, and kernel_path.cpp picks the set only where the CPU has it too (every AVX-512
// CPU since Cascade Lake / Ice Lake and Zen 4). Adding -mavx512vnni in CMake makes this a no-op.
#if !defined(__AVX512VNNI__)
#if defined(__clang__)
#error "build simd_avx512.cpp with -mavx512vnni"
#endif
#pragma GCC target("avx512vnni")
#endif
#define DLAB_AVX512_VNNI 1  // GCC does not define __AVX512VNNI__ for the pragma

// GCC 12's AVX-512 intrinsics trip -Wuninitialized on their own "undefined" upper lanes
// (GCC bug 105593, fixed in 12.3 / 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "quant/x86/avx512_act.h"
#include "quant/x86/avx512_kquants.h"
#include "quant/x86/avx512_q4q8.h"

namespace dlab::quant {

namespace {

size_t q4Bytes(int64_t cols) { return actLayout(QKind::Q4_1, cols).rowBytes; }
size_t q8Bytes(int64_t cols) { return actLayout(QKind::Q8_0, cols).rowBytes; }

KernelSet makeAvx512() {
    KernelSet k = avx2Kernels();
    k.name = "avx512";
    k.q4_0 = {q4Bytes, prepQ8PairAvx512<Q4Sum::Minus8Exact>, gemmQAvx512<QKind::Q4_0>, 4};
    k.q4_1 = {q4Bytes, prepQ8PairAvx512<Q4Sum::Q8_1>, gemmQAvx512<QKind::Q4_1>, 4};
    k.q8_0 = {q8Bytes, prepQ8CorrAvx512, gemmQAvx512<QKind::Q8_0>, 4};
    k.q4_k = {kActBytesAvx512<KType::Q4_K>, prepQ8KPairAvx512<KType::Q4_K>, gemmKAvx512<KType::Q4_K>, 4};
    k.q5_k = {kActBytesAvx512<KType::Q5_K>, prepQ8KPairAvx512<KType::Q5_K>, gemmKAvx512<KType::Q5_K>, 4};
    k.q6_k = {kActBytesAvx512<KType::Q6_K>, prepQ8KPairAvx512<KType::Q6_K>, gemmKAvx512<KType::Q6_K>, 4};
    return k;
}

}  // namespace

const KernelSet& avx512Kernels() {
    static const KernelSet k = makeAvx512();
    return k;
}

}  // namespace dlab::quant
