#include "quant/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/error.h"
#include "quant/block_types.h"
#include "quant/fp16.h"

namespace dlab {

namespace {

using namespace quant;

int roundInt(float v) { return static_cast<int>(std::nearbyint(v)); }

void quantQ8_0(const float* x, BlockQ8_0* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQK) {
        float amax = 0.0f;
        for (int j = 0; j < kQK; ++j) amax = std::max(amax, std::fabs(x[j]));
        const float d = amax / 127.0f, id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = fp32ToFp16(d);
        for (int j = 0; j < kQK; ++j) y[i].qs[j] = static_cast<int8_t>(std::round(x[j] * id));
    }
}

void quantQ4_0(const float* x, BlockQ4_0* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQK) {
        float amax = 0.0f, max = 0.0f;  // max: the signed value of largest magnitude
        for (int j = 0; j < kQK; ++j)
            if (std::fabs(x[j]) > amax) amax = std::fabs(x[j]), max = x[j];
        const float d = max / -8.0f, id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = fp32ToFp16(d);
        for (int j = 0; j < kQK / 2; ++j) {
            const int lo = std::min(15, static_cast<int>(x[j] * id + 8.5f));
            const int hi = std::min(15, static_cast<int>(x[j + 16] * id + 8.5f));
            y[i].qs[j] = static_cast<uint8_t>(lo | (hi << 4));
        }
    }
}

void quantQ4_1(const float* x, BlockQ4_1* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQK) {
        float min = x[0], max = x[0];
        for (int j = 1; j < kQK; ++j) min = std::min(min, x[j]), max = std::max(max, x[j]);
        const float d = (max - min) / 15.0f, id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = fp32ToFp16(d);
        y[i].m = fp32ToFp16(min);
        for (int j = 0; j < kQK / 2; ++j) {
            const int lo = std::min(15, static_cast<int>((x[j] - min) * id + 0.5f));
            const int hi = std::min(15, static_cast<int>((x[j + 16] - min) * id + 0.5f));
            y[i].qs[j] = static_cast<uint8_t>(lo | (hi << 4));
        }
    }
}

// Fits x (n) ≈ scale * q - minOff with q in [0, nmax], minOff >= 0: tries a few step sizes
// around (max - min) / nmax and keeps the least-squares (scale, min) with the smallest error.
void fitScaleMin(const float* x, int n, int nmax, float& scale, float& minOff) {
    float lo = x[0], hi = x[0];
    for (int i = 1; i < n; ++i) lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
    lo = std::min(lo, 0.0f);
    scale = 0.0f;
    minOff = -lo;
    if (hi == lo) return;
    float bestErr = INFINITY;
    for (int step = -10; step <= 10; ++step) {
        const float iscale = (static_cast<float>(nmax) + 0.1f * static_cast<float>(step)) / (hi - lo);
        double sq = 0, sx = 0, sqq = 0, sqx = 0;
        int q[kQKK];
        for (int i = 0; i < n; ++i) {
            q[i] = std::clamp(roundInt((x[i] - lo) * iscale), 0, nmax);
            sq += q[i], sx += x[i], sqq += double(q[i]) * q[i], sqx += double(q[i]) * x[i];
        }
        const double det = n * sqq - sq * sq;
        if (det <= 0) continue;
        double a = (n * sqx - sq * sx) / det, b = (sx - a * sq) / n;
        if (b > 0) b = 0, a = sqx / sqq;
        double err = 0;
        for (int i = 0; i < n; ++i) err += (a * q[i] + b - x[i]) * (a * q[i] + b - x[i]);
        if (err < bestErr) bestErr = static_cast<float>(err), scale = static_cast<float>(a), minOff = static_cast<float>(-b);
    }
}

// Q4_K / Q5_K: per sub-block of 32 a (scale, min) fit, both quantized to 6 bits against the
// super-block's d / dmin, then every element re-quantized with the stored scales.
template <class Block, int NMax>
void quantQ45K(const float* x, Block* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQKK) {
        Block& b = y[i];
        std::memset(&b, 0, sizeof b);
        float scales[8], mins[8], maxScale = 0.0f, maxMin = 0.0f;
        for (int j = 0; j < 8; ++j) {
            fitScaleMin(x + 32 * j, 32, NMax, scales[j], mins[j]);
            maxScale = std::max(maxScale, scales[j]);
            maxMin = std::max(maxMin, mins[j]);
        }
        const float iscale = maxScale > 0 ? 63.0f / maxScale : 0.0f, imin = maxMin > 0 ? 63.0f / maxMin : 0.0f;
        for (int j = 0; j < 8; ++j) {
            const int ls = std::min(63, roundInt(iscale * scales[j])), lm = std::min(63, roundInt(imin * mins[j]));
            if (j < 4) {
                b.scales[j] = static_cast<uint8_t>(ls);
                b.scales[j + 4] = static_cast<uint8_t>(lm);
            } else {
                b.scales[j + 4] = static_cast<uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
                b.scales[j - 4] |= static_cast<uint8_t>((ls >> 4) << 6);
                b.scales[j] |= static_cast<uint8_t>((lm >> 4) << 6);
            }
        }
        b.d = fp32ToFp16(maxScale / 63.0f);
        b.dmin = fp32ToFp16(maxMin / 63.0f);
        uint8_t L[kQKK] = {};
        for (int j = 0; j < 8; ++j) {
            uint8_t sc, m;
            unpackScalesK4(b.scales, j, sc, m);
            const float d = fp16ToFp32(b.d) * sc, dm = fp16ToFp32(b.dmin) * m;
            if (d == 0.0f) continue;
            for (int l = 0; l < 32; ++l) L[32 * j + l] = static_cast<uint8_t>(std::clamp(roundInt((x[32 * j + l] + dm) / d), 0, NMax));
        }
        for (int c = 0; c < 4; ++c)
            for (int l = 0; l < 32; ++l) {
                uint8_t lo = L[64 * c + l], hi = L[64 * c + 32 + l];
                if constexpr (NMax == 31) {
                    if (lo > 15) lo -= 16, b.qh[l] |= static_cast<uint8_t>(1 << (2 * c));
                    if (hi > 15) hi -= 16, b.qh[l] |= static_cast<uint8_t>(1 << (2 * c + 1));
                }
                b.qs[32 * c + l] = static_cast<uint8_t>(lo | (hi << 4));
            }
    }
}

// x (16) ≈ scale * q, q in [-32, 31]: the value of largest magnitude maps near -32, a few step
// sizes are tried and the least-squares scale of the best one is returned.
float fitSymmetric16(const float* x) {
    float amax = 0.0f, max = 0.0f;
    for (int i = 0; i < 16; ++i)
        if (std::fabs(x[i]) > amax) amax = std::fabs(x[i]), max = x[i];
    if (amax < 1e-15f) return 0.0f;
    float best = 0.0f, bestErr = INFINITY;
    for (int step = -9; step <= 9; ++step) {
        const float iscale = -(32.0f + 0.1f * static_cast<float>(step)) / max;
        double sqx = 0, sqq = 0;
        int q[16];
        for (int i = 0; i < 16; ++i) {
            q[i] = std::clamp(roundInt(iscale * x[i]), -32, 31);
            sqx += double(q[i]) * x[i], sqq += double(q[i]) * q[i];
        }
        if (sqq == 0) continue;
        const double a = sqx / sqq;
        double err = 0;
        for (int i = 0; i < 16; ++i) err += (a * q[i] - x[i]) * (a * q[i] - x[i]);
        if (err < bestErr) bestErr = static_cast<float>(err), best = static_cast<float>(a);
    }
    return best;
}

void quantQ6K(const float* x, BlockQ6_K* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQKK) {
        BlockQ6_K& b = y[i];
        std::memset(&b, 0, sizeof b);
        float scales[16], maxScale = 0.0f, maxAbs = 0.0f;
        for (int j = 0; j < 16; ++j) {
            scales[j] = fitSymmetric16(x + 16 * j);
            if (std::fabs(scales[j]) > maxAbs) maxAbs = std::fabs(scales[j]), maxScale = scales[j];
        }
        uint8_t L[kQKK];
        std::memset(L, 32, sizeof L);  // q = 0
        if (maxAbs > 0.0f) {
            const float iscale = -128.0f / maxScale;
            b.d = fp32ToFp16(1.0f / iscale);
            for (int j = 0; j < 16; ++j) b.scales[j] = static_cast<int8_t>(std::clamp(roundInt(iscale * scales[j]), -128, 127));
            for (int j = 0; j < 16; ++j) {
                const float d = fp16ToFp32(b.d) * b.scales[j];
                if (d == 0.0f) continue;
                for (int l = 0; l < 16; ++l)
                    L[16 * j + l] = static_cast<uint8_t>(std::clamp(roundInt(x[16 * j + l] / d), -32, 31) + 32);
            }
        }
        for (int h = 0; h < 2; ++h) {
            const uint8_t* Lh = L + 128 * h;
            for (int l = 0; l < 32; ++l) {
                b.ql[64 * h + l] = static_cast<uint8_t>((Lh[l] & 0xF) | ((Lh[l + 64] & 0xF) << 4));
                b.ql[64 * h + l + 32] = static_cast<uint8_t>((Lh[l + 32] & 0xF) | ((Lh[l + 96] & 0xF) << 4));
                b.qh[32 * h + l] = static_cast<uint8_t>((Lh[l] >> 4) | ((Lh[l + 32] >> 4) << 2) |
                                                        ((Lh[l + 64] >> 4) << 4) | ((Lh[l + 96] >> 4) << 6));
            }
        }
    }
}

}  // namespace

void quantize(GgmlType type, const float* src, uint8_t* dst, int64_t n) {
    const auto& traits = ggmlTypeTraits(type);
    if (n < 0 || n % traits.blockSize != 0)
        throw Error("quantize: " + std::to_string(n) + " elements is not a whole number of " + ggmlTypeName(type) +
                    " blocks");
    const int64_t nb = n / traits.blockSize;
    switch (type) {
    case GgmlType::F32: std::memcpy(dst, src, n * sizeof(float)); return;
    case GgmlType::F16:
    case GgmlType::BF16:
        for (int64_t i = 0; i < n; ++i) {
            const uint16_t h = type == GgmlType::F16 ? fp32ToFp16(src[i]) : fp32ToBf16(src[i]);
            std::memcpy(dst + 2 * i, &h, 2);
        }
        return;
    case GgmlType::Q8_0: return quantQ8_0(src, reinterpret_cast<BlockQ8_0*>(dst), nb);
    case GgmlType::Q4_0: return quantQ4_0(src, reinterpret_cast<BlockQ4_0*>(dst), nb);
    case GgmlType::Q4_1: return quantQ4_1(src, reinterpret_cast<BlockQ4_1*>(dst), nb);
    case GgmlType::Q4_K: return quantQ45K<BlockQ4_K, 15>(src, reinterpret_cast<BlockQ4_K*>(dst), nb);
    case GgmlType::Q5_K: return quantQ45K<BlockQ5_K, 31>(src, reinterpret_cast<BlockQ5_K*>(dst), nb);
    case GgmlType::Q6_K: return quantQ6K(src, reinterpret_cast<BlockQ6_K*>(dst), nb);
    default: break;
    }
    throw Error("quantize: type " + ggmlTypeName(type) + " is not supported (supported: " + computableTypeList() + ")");
}

}  // namespace dlab
