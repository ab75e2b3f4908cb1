#include "model/kv_type.h"

#include <cstring>

#include "core/error.h"
#include "quant/block_types.h"
#include "quant/fp16.h"
#include "quant/matmul.h"
#include "quant/quantize.h"

namespace dlab {

using quant::BlockQ8_0;
using quant::kQK;

const char* kvTypeName(KvType t) {
    switch (t) {
        case KvType::F32: return "f32";
        case KvType::F16: return "f16";
        case KvType::Q8_0: return "q8_0";
    }
    return "?";
}

KvType parseKvType(const std::string& s) {
    if (s == "f32") return KvType::F32;
    if (s == "f16") return KvType::F16;
    if (s == "q8_0") return KvType::Q8_0;
    throw Error("KV cache type '" + s + "' is not supported (supported: f32, f16, q8_0)");
}

double kvBytesPerValue(KvType t) {
    switch (t) {
        case KvType::F32: return 4.0;
        case KvType::F16: return 2.0;
        case KvType::Q8_0: return double(sizeof(BlockQ8_0)) / kQK;
    }
    return 0.0;
}

size_t kvRowBytes(KvType t, int64_t n) {
    switch (t) {
        case KvType::F32: return static_cast<size_t>(n) * 4;
        case KvType::F16: return static_cast<size_t>(n) * 2;
        case KvType::Q8_0: return static_cast<size_t>(n / kQK) * sizeof(BlockQ8_0);
    }
    return 0;
}

void checkKvTypeFits(KvType t, int64_t headDim) {
    if (t == KvType::Q8_0 && headDim % kQK != 0)
        throw Error("a q8_0 KV cache needs a head size that is a multiple of 32 (this model's is " + std::to_string(headDim) +
                    "); use --kv-type f16");
}

void storeKvRow(KvType t, const float* row, uint8_t* dst, int64_t n) {
    switch (t) {
        case KvType::F32: std::memcpy(dst, row, n * sizeof(float)); return;
        case KvType::F16: {
            auto* h = reinterpret_cast<uint16_t*>(dst);
            for (int64_t i = 0; i < n; ++i) h[i] = fp32ToFp16(row[i]);
            return;
        }
        case KvType::Q8_0: quantize(GgmlType::Q8_0, row, dst, n); return;
    }
}

void loadKvRow(KvType t, const uint8_t* src, float* dst, int64_t n) {
    switch (t) {
        case KvType::F32: std::memcpy(dst, src, n * sizeof(float)); return;
        case KvType::F16: dequantize(GgmlType::F16, src, dst, n); return;
        case KvType::Q8_0: dequantize(GgmlType::Q8_0, src, dst, n); return;
    }
}

}  // namespace dlab
