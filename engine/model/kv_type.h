#pragma once
// How K/V rows are stored in the cache: f32, f16, or q8_0 (ggml's block: 32 int8 values and one
// fp16 scale, 34 bytes per 32 values). One row = one position of one layer's K (or V), kvDim values;
// q8_0 rows are quantized per KV head, so every head starts on a block boundary.
#include <cstddef>
#include <cstdint>
#include <string>

namespace dlab {

enum class KvType { F32, F16, Q8_0 };
const char* kvTypeName(KvType t);
KvType parseKvType(const std::string& s);  // "f32" | "f16" | "q8_0"; throws dlab::Error otherwise

// Average bytes per stored value: 4, 2, 34/32.
double kvBytesPerValue(KvType t);
// Bytes of one stored row of n values (n a multiple of 32 for q8_0).
size_t kvRowBytes(KvType t, int64_t n);
// Throws dlab::Error if a model with this head size cannot use `t` (q8_0 needs headDim % 32 == 0).
void checkKvTypeFits(KvType t, int64_t headDim);

// row (n floats) -> dst (kvRowBytes(t, n) bytes).
void storeKvRow(KvType t, const float* row, uint8_t* dst, int64_t n);
// src (kvRowBytes(t, n) bytes) -> dst (n floats); reference version (attention has SIMD loaders).
void loadKvRow(KvType t, const uint8_t* src, float* dst, int64_t n);

}  // namespace dlab
