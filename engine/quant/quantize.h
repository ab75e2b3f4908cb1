#pragma once
// Reference quantizers: f32 -> any supported weight type, for writing test models and for tests.
// Q8_0 / Q4_0 / Q4_1 follow ggml's reference algorithms exactly (quantize_row_*_ref); the
// K-quants use a simpler least-squares scale / min search that gives valid, accurate blocks
// but not ggml's bytes.
#include <cstdint>

#include "gguf/ggml_type.h"

namespace dlab {

// src (n floats, a multiple of the type's block size) -> dst (ggmlRowBytes(type, n) bytes).
// Throws dlab::Error for a type that is not supported or an n that is not whole blocks.
void quantize(GgmlType type, const float* src, uint8_t* dst, int64_t n);

}  // namespace dlab
