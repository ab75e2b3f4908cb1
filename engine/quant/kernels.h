#pragma once
// A kernel set: for each weight type, how to prepare the activations and how to multiply.
// There is one set per instruction set (scalar, AVX2, AVX-512); matmul() picks one at run time.
#include <cstddef>
#include <cstdint>

#include "gguf/ggml_type.h"
#include "quant/matmul.h"

namespace dlab::quant {

// Plain aggregates without default member initializers on purpose: they are built in the SIMD
// translation units too, and must not need a constructor function the linker could share.
struct TypeKernels {
    // Bytes of one token's prepared activations for `cols` columns (a multiple of 64).
    size_t (*actRowBytes)(int64_t cols);
    // x (cols) -> dst (actRowBytes(cols)).
    void (*prepareAct)(const float* x, int64_t cols, uint8_t* dst);
    // y[t * ldy + r] = row r of w · token t, for r in [r0, r1) and t in [0, nTok);
    // token t's activations start at act + t * actStride.
    void (*gemm)(const WeightMatrix& w, int64_t r0, int64_t r1, const uint8_t* act, size_t actStride,
                 int64_t nTok, float* y, int64_t ldy);
    // Row ranges handed to threads are multiples of this (the kernels' row tile).
    int rowAlign;  // 0 counts as 1

    bool valid() const { return actRowBytes && prepareAct && gemm; }
};

struct KernelSet {
    const char* name;
    TypeKernels f32, f16, bf16, q4_0, q4_1, q8_0, q4_k, q5_k, q6_k;

    // nullptr for a type the set cannot multiply.
    const TypeKernels* forType(GgmlType type) const;
};

// The set for activeKernelPath() (kernel_path.h).
const KernelSet& activeKernelSet();

const KernelSet& scalarKernels();
#if defined(DLAB_X86)
// Defined in simd_avx2.cpp / simd_avx512.cpp (compiled with their ISA flags); only call them
// when the CPU has the features (see kernel_path.cpp).
const KernelSet& avx2Kernels();
const KernelSet& avx512Kernels();
#endif

}  // namespace dlab::quant
