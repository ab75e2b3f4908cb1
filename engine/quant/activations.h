#pragma once
// The activation side of a matmul: each x row is converted once per call into the form the dot
// kernels read (ggml's "vec_dot_type"). The scalar functions here define the numerics; the SIMD
// versions in simd_*.cpp must produce the same values bit for bit.
//
// ggml quantizes activations for Q4_0 / Q8_0 weights to Q8_0, for Q4_1 to Q8_1 (Q8_0 plus the
// term d * Σq), and for the K-quants to Q8_K; F16 / BF16 weights see x rounded to F16 / BF16.
#include <cstddef>
#include <cstdint>

#include "quant/block_types.h"

namespace dlab::quant {

// One token row of Q8 activations for 32-element weight blocks, in our own split layout:
//   qs   int8  (nbPad * 32)   values; natural order, or the pair layout of the AVX-512 kernels
//   d    float (nbPad)        block scale as ggml stores it (rounded through fp16)
//   s    float (nbPad)        Q8_1's sum term fp16(d * Σq); for Q4_0 the kernels' own exact variant
//   ds   float (nbPad * 2)    with kQ8Ds: d and s interleaved (d0 s0 d1 s1 ...), for the AVX-512 matvec
//   corr int32 (nbPad * 8)    with kQ8Corr: per-lane corrections for the AVX-512 Q8_0 kernel
// nbPad rounds the block count up to even; padding blocks are all zero. qs and corr start
// 64-byte aligned (as rows do: rowBytes is a multiple of 64).
enum Q8Extras : unsigned { kQ8Plain = 0, kQ8Ds = 1, kQ8Corr = 2 };
struct Q8RowLayout {  // a plain aggregate (no constructor code shared with the SIMD units)
    int64_t nb, nbPad;
    size_t dOff, sOff, dsOff, corrOff, rowBytes;
};
Q8RowLayout q8RowLayout(int64_t cols, unsigned extras = kQ8Plain);

// llama.cpp's x86 rule (quantize_row_q8_0 / _q8_1 built with AVX2): amax = max |x|,
// d = amax / 127, q = round-half-even(x * (127 / amax)). Writes 32 values, returns Σq;
// `d` receives the unrounded scale.
int quantizeBlockQ8(const float* x, int8_t* q, float& d);

// x (cols) -> one row in q8RowLayout(cols), natural order, s as Q8_1's.
void quantizeRowQ8(const float* x, int64_t cols, uint8_t* row);

// x (n, a multiple of 256) -> n / 256 Q8_K blocks, as ggml's quantize_row_q8_K_ref
// (scale -127 / (the signed value of largest magnitude), round-half-even, clamp at 127).
void quantizeRowQ8K(const float* x, BlockQ8_K* y, int64_t n);

// x rounded to the precision F16 / BF16 dots see (round-to-nearest-even), kept as f32.
void roundRowToFp16(const float* x, float* dst, int64_t n);
void roundRowToBf16(const float* x, float* dst, int64_t n);

// Bytes for `cols` floats, rounded up to 64.
inline size_t floatRowBytes(int64_t cols) { return (static_cast<size_t>(cols) * 4 + 63) & ~size_t(63); }

}  // namespace dlab::quant
