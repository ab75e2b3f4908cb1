#pragma once
// Run-time CPU feature checks for choosing SIMD kernels (GCC and clang alike: clang 14's
// __builtin_cpu_supports does not know "f16c", so that bit is read with cpuid).
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace dlab {

// AVX2 + FMA + F16C: the "avx2" kernel set.
inline bool cpuHasAvx2Set() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    unsigned a = 0, b = 0, c = 0, d = 0;
    const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
    return f16c && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

}  // namespace dlab
