// Block -> float conversions for every supported weight type (ggml's dequantize_row_*).
#include <cstring>
#include <string>

#include "core/error.h"
#include "quant/block_types.h"
#include "quant/fp16.h"
#include "quant/matmul.h"

namespace dlab {

namespace {

using namespace quant;

void dequantQ4_0(const BlockQ4_0* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += kQK) {
        const float d = fp16ToFp32(b[i].d);
        for (int j = 0; j < kQK / 2; ++j) {
            y[j] = static_cast<float>((b[i].qs[j] & 0xF) - 8) * d;
            y[j + 16] = static_cast<float>((b[i].qs[j] >> 4) - 8) * d;
        }
    }
}

void dequantQ4_1(const BlockQ4_1* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += kQK) {
        const float d = fp16ToFp32(b[i].d), m = fp16ToFp32(b[i].m);
        for (int j = 0; j < kQK / 2; ++j) {
            y[j] = static_cast<float>(b[i].qs[j] & 0xF) * d + m;
            y[j + 16] = static_cast<float>(b[i].qs[j] >> 4) * d + m;
        }
    }
}

void dequantQ8_0(const BlockQ8_0* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += kQK) {
        const float d = fp16ToFp32(b[i].d);
        for (int j = 0; j < kQK; ++j) y[j] = static_cast<float>(b[i].qs[j]) * d;
    }
}

template <class Block, bool Five>
void dequantQ45K(const Block* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i) {
        const float d = fp16ToFp32(b[i].d), dmin = fp16ToFp32(b[i].dmin);
        for (int j = 0; j < 8; ++j, y += 32) {
            uint8_t sc, m;
            unpackScalesK4(b[i].scales, j, sc, m);
            const float dj = d * sc, mj = dmin * m;
            const uint8_t* qs = b[i].qs + 32 * (j / 2);
            const int shift = (j & 1) * 4;
            for (int l = 0; l < 32; ++l) {
                int q = (qs[l] >> shift) & 0xF;
                if constexpr (Five) q |= ((b[i].qh[l] >> j) & 1) << 4;
                y[l] = dj * static_cast<float>(q) - mj;
            }
        }
    }
}

void dequantQ6K(const BlockQ6_K* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i) {
        const float d = fp16ToFp32(b[i].d);
        for (int h = 0; h < 2; ++h, y += 128) {
            const uint8_t* ql = b[i].ql + 64 * h;
            const uint8_t* qh = b[i].qh + 32 * h;
            const int8_t* sc = b[i].scales + 8 * h;
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                y[l] = d * sc[is + 0] * static_cast<float>(q1);
                y[l + 32] = d * sc[is + 2] * static_cast<float>(q2);
                y[l + 64] = d * sc[is + 4] * static_cast<float>(q3);
                y[l + 96] = d * sc[is + 6] * static_cast<float>(q4);
            }
        }
    }
}

}  // namespace

void dequantize(GgmlType type, const uint8_t* src, float* dst, int64_t n) {
    const auto& traits = ggmlTypeTraits(type);
    if (n % traits.blockSize != 0)
        throw Error("dequantize: " + std::to_string(n) + " elements is not a whole number of " +
                    ggmlTypeName(type) + " blocks");
    const int64_t nb = n / traits.blockSize;
    switch (type) {
    case GgmlType::F32: std::memcpy(dst, src, n * sizeof(float)); return;
    case GgmlType::F16:
    case GgmlType::BF16:
        for (int64_t i = 0; i < n; ++i) {
            uint16_t h;
            std::memcpy(&h, src + 2 * i, 2);
            dst[i] = type == GgmlType::F16 ? fp16ToFp32(h) : bf16ToFp32(h);
        }
        return;
    case GgmlType::Q4_0: return dequantQ4_0(reinterpret_cast<const BlockQ4_0*>(src), dst, nb);
    case GgmlType::Q4_1: return dequantQ4_1(reinterpret_cast<const BlockQ4_1*>(src), dst, nb);
    case GgmlType::Q8_0: return dequantQ8_0(reinterpret_cast<const BlockQ8_0*>(src), dst, nb);
    case GgmlType::Q4_K: return dequantQ45K<BlockQ4_K, false>(reinterpret_cast<const BlockQ4_K*>(src), dst, nb);
    case GgmlType::Q5_K: return dequantQ45K<BlockQ5_K, true>(reinterpret_cast<const BlockQ5_K*>(src), dst, nb);
    case GgmlType::Q6_K: return dequantQ6K(reinterpret_cast<const BlockQ6_K*>(src), dst, nb);
    default: break;
    }
    throw Error("dequantize: type " + ggmlTypeName(type) + " is not supported (supported: " + computableTypeList() + ")");
}

void dequantizeRow(const WeightMatrix& w, int64_t row, float* dst) {
    if (row < 0 || row >= w.rows)
        throw Error("dequantizeRow: row " + std::to_string(row) + " is outside a matrix of " + std::to_string(w.rows) +
                    " rows");
    dequantize(w.type, w.data + row * w.rowBytes, dst, w.cols);
}

}  // namespace dlab
