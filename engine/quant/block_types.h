#pragma once
// ggml's quantization blocks, byte for byte as in ggml-common.h, so weights are read straight
// from the mmapped GGUF file. Half floats are kept as raw uint16_t (see fp16.h).
#include <cstdint>

namespace dlab::quant {

constexpr int kQK = 32;    // elements per block of Q4_0 / Q4_1 / Q8_0 / Q8_1
constexpr int kQKK = 256;  // elements per super-block of the K-quants

// x[j] = (q[j] - 8) * d; qs[j] holds element j in its low nibble and element j + 16 in its high one.
struct BlockQ4_0 {
    uint16_t d;
    uint8_t qs[kQK / 2];
};

// x[j] = q[j] * d + m; nibbles as in Q4_0.
struct BlockQ4_1 {
    uint16_t d, m;
    uint8_t qs[kQK / 2];
};

// x[j] = q[j] * d.
struct BlockQ8_0 {
    uint16_t d;
    int8_t qs[kQK];
};

// Eight sub-blocks of 32: x = d * sc[j] * q - dmin * m[j], with 6-bit sc / m packed in `scales`
// (see unpackScalesK4). qs: 4 chunks of 32 bytes, chunk c holds sub-block 2c (low nibbles)
// and 2c + 1 (high nibbles).
struct BlockQ4_K {
    uint16_t d, dmin;
    uint8_t scales[12];
    uint8_t qs[kQKK / 2];
};

// As Q4_K with a fifth bit: bit 2c of qh[l] is the high bit of element l of sub-block 2c,
// bit 2c + 1 that of sub-block 2c + 1.
struct BlockQ5_K {
    uint16_t d, dmin;
    uint8_t scales[12];
    uint8_t qh[kQKK / 8];
    uint8_t qs[kQKK / 2];
};

// Sixteen sub-blocks of 16: x = d * scales[j] * (q - 32) with 6-bit q. Per half (128 elements)
// ql: 64 bytes (elements l and l + 64 in low/high nibble of ql[l], l + 32 and l + 96 in ql[l + 32]),
// qh: 32 bytes (2 high bits of elements l, l + 32, l + 64, l + 96 in bits 0-1, 2-3, 4-5, 6-7).
struct BlockQ6_K {
    uint8_t ql[kQKK / 2];
    uint8_t qh[kQKK / 4];
    int8_t scales[kQKK / 16];
    uint16_t d;
};

// Activations for the K-quants: x = d * qs, bsums[j] = sum of qs[16j .. 16j + 15].
struct BlockQ8_K {
    float d;
    int8_t qs[kQKK];
    int16_t bsums[kQKK / 16];
};

static_assert(sizeof(BlockQ4_0) == 18 && sizeof(BlockQ4_1) == 20 && sizeof(BlockQ8_0) == 34);
static_assert(sizeof(BlockQ4_K) == 144 && sizeof(BlockQ5_K) == 176 && sizeof(BlockQ6_K) == 210);
static_assert(sizeof(BlockQ8_K) == 292);

// The 6-bit scale and min of sub-block j (0..7) of a Q4_K / Q5_K block.
inline void unpackScalesK4(const uint8_t* s, int j, uint8_t& sc, uint8_t& m) {
    if (j < 4) {
        sc = s[j] & 63;
        m = s[j + 4] & 63;
    } else {
        sc = (s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4);
        m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
    }
}

}  // namespace dlab::quant
