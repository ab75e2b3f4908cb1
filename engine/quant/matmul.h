#pragma once
// Matrix products against weights that stay in their file format (quantized or float).
#include <cstddef>
#include <cstdint>

#include "core/thread_pool.h"
#include "gguf/ggml_type.h"

namespace dlab {

// A weight matrix as stored in the GGUF file: `rows` rows of `cols` elements of `type`,
// row r starting at data + r * rowBytes (ggml's ne[0] = cols, ne[1] = rows).
struct WeightMatrix {
    GgmlType type = GgmlType::F32;
    int64_t rows = 0;
    int64_t cols = 0;
    const uint8_t* data = nullptr;
    size_t rowBytes = 0;
};

// y (nTok, rows) = x (nTok, cols) · Wᵀ, all f32 row-major. Rows are split across the pool.
// Quantized types quantize x once per call (as ggml does: Q8_0/Q8_1/Q8_K) and use integer SIMD dots.
void matmul(const WeightMatrix& w, const float* x, int64_t nTok, float* y, ThreadPool& pool);

// Dequantizes row `row` of w into dst (cols floats); used for embedding lookups.
void dequantizeRow(const WeightMatrix& w, int64_t row, float* dst);

// Dequantizes n elements (a multiple of the block size) of `type` at src into dst.
void dequantize(GgmlType type, const uint8_t* src, float* dst, int64_t n);

}  // namespace dlab
