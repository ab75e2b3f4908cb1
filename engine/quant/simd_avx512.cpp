// The AVX-512 kernel set: Q4_0 / Q4_1 / Q8_0 with VNNI (x86/avx512_*.h), the other types from
// the AVX2 set. CMake compiles this file with AVX-512 F/BW/VL/DQ; VNNI is switched on here so
// kernel_path.cpp only picks the set on CPUs that have it too (every AVX-512 CPU since Ice Lake
// and Zen 4).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__AVX512VNNI__)
#pragma GCC target("avx512vnni")
#define __AVX512VNNI__ 1
#elif defined(__clang__) && !defined(__AVX512VNNI__)
#error "build simd_avx512.cpp with -mavx512vnni"
#endif

// GCC 12's AVX-512 intrinsics trip -Wuninitialized on their own "undefined" upper lanes
// (GCC bug 105593, fixed in 12.3 / 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "quant/x86/avx512_act.h"
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
    return k;
}

}  // namespace

const KernelSet& avx512Kernels() {
    static const KernelSet k = makeAvx512();
    return k;
}

}  // namespace dlab::quant
