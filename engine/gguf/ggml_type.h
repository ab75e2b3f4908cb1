#pragma once
// ggml tensor element types as stored in GGUF files, with their block layouts.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace dlab {

enum class GgmlType : uint32_t {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22,
    IQ4_XS = 23, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30,
    TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
};

struct GgmlTypeTraits {
    const char* name;
    int64_t blockSize;   // elements per block
    size_t blockBytes;   // bytes per block
    bool computable;     // the CPU backend can multiply with it
};

// Traits of a known type, or nullopt for a value no ggml version defines.
std::optional<GgmlTypeTraits> ggmlTypeTraits(uint32_t rawType);
const GgmlTypeTraits& ggmlTypeTraits(GgmlType type);
std::string ggmlTypeName(GgmlType type);
// "F32, F16, BF16, Q8_0, ..." for error messages.
std::string computableTypeList();

// Bytes of a row of n elements; n must be a multiple of the block size (checked by callers).
inline size_t ggmlRowBytes(GgmlType type, int64_t n) {
    const auto& t = ggmlTypeTraits(type);
    return static_cast<size_t>(n / t.blockSize) * t.blockBytes;
}

}  // namespace dlab
