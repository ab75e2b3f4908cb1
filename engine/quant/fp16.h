#pragma once
// IEEE half and bfloat16 conversions (scalar, portable). Row versions with SIMD live in quant/.
#include <cstdint>
#include <cstring>

namespace dlab {

inline float fp32FromBits(uint32_t w) { float f; std::memcpy(&f, &w, 4); return f; }
inline uint32_t fp32ToBits(float f) { uint32_t w; std::memcpy(&w, &f, 4); return w; }

// Exact half -> float (handles subnormals, inf, NaN).
inline float fp16ToFp32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    if (exp == 0) {
        if (mant == 0) return fp32FromBits(sign);
        // subnormal: normalise
        int e = -1;
        do { mant <<= 1; ++e; } while ((mant & 0x400) == 0);
        mant &= 0x3ff;
        return fp32FromBits(sign | uint32_t(127 - 15 - e) << 23 | mant << 13);
    }
    if (exp == 31) return fp32FromBits(sign | 0x7f800000u | mant << 13);
    return fp32FromBits(sign | (exp + 127 - 15) << 23 | mant << 13);
}

// float -> half with round-to-nearest-even (as F16C's _cvtss_sh with rounding mode 0).
inline uint16_t fp32ToFp16(float f) {
    const uint32_t x = fp32ToBits(f);
    const uint32_t sign = (x >> 16) & 0x8000;
    const uint32_t absx = x & 0x7fffffff;
    if (absx >= 0x7f800000u) return uint16_t(sign | 0x7c00 | (absx > 0x7f800000u ? 0x200 : 0));
    if (absx >= 0x477ff000u) return uint16_t(sign | 0x7c00);  // rounds to inf
    if (absx < 0x38800000u) {                                  // subnormal or zero in half
        if (absx < 0x33000000u) return uint16_t(sign);
        const uint32_t shift = 113 - (absx >> 23);
        uint32_t mant = (absx & 0x7fffff) | 0x800000;
        const uint32_t rounded = mant >> (shift + 13);
        const uint32_t rem = mant & ((1u << (shift + 13)) - 1), half = 1u << (shift + 12);
        return uint16_t(sign | (rounded + (rem > half || (rem == half && (rounded & 1)))));
    }
    uint32_t h = ((absx >> 13) - (112u << 10));
    const uint32_t rem = absx & 0x1fff;
    h += (rem > 0x1000 || (rem == 0x1000 && (h & 1)));
    return uint16_t(sign | h);
}

inline float bf16ToFp32(uint16_t b) { return fp32FromBits(uint32_t(b) << 16); }

inline uint16_t fp32ToBf16(float f) {
    uint32_t x = fp32ToBits(f);
    if ((x & 0x7fffffff) > 0x7f800000u) return uint16_t((x >> 16) | 64);  // quiet NaN
    return uint16_t((x + (0x7fff + ((x >> 16) & 1))) >> 16);
}

}  // namespace dlab
