#pragma once
// Weight and KV-row formats read on the device, eight consecutive elements at a time (a "chunk":
// every supported block holds a whole number of chunks, and a chunk never straddles a sub-block).
// Byte layouts are ggml's (engine/quant/block_types.h); results equal engine/quant/dequantize.cpp
// bit for bit, which tests/test_cuda_host.cpp checks on the host.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "cuda/hd.h"
#include "gguf/ggml_type.h"

#ifdef __CUDACC__
#include <cuda_fp16.h>
#endif
#ifndef __CUDA_ARCH__
#include "quant/fp16.h"
#endif

namespace dlab::cuda {

DLAB_HD float halfToFloat(uint16_t h) {
#ifdef __CUDA_ARCH__
    return __half2float(__ushort_as_half(h));
#else
    return fp16ToFp32(h);
#endif
}

DLAB_HD uint16_t floatToHalf(float f) {   // round to nearest even, as the engine's fp32ToFp16
#ifdef __CUDA_ARCH__
    return __half_as_ushort(__float2half_rn(f));
#else
    return fp32ToFp16(f);
#endif
}

DLAB_HD float bf16ToFloat(uint16_t b) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(static_cast<uint32_t>(b) << 16);
#else
    return bf16ToFp32(b);
#endif
}

DLAB_HD uint16_t load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

// One load of sizeof(T) bytes from an address that is a multiple of sizeof(T) (a GPU faults on
// any other). The emulator checks the alignment; the host reads through memcpy.
template <class T>
DLAB_HD T loadAligned(const void* p) {
#ifdef DLAB_EMU_CHECK_ALIGNED
    DLAB_EMU_CHECK_ALIGNED(p, sizeof(T));
#endif
#ifdef __CUDA_ARCH__
    return *static_cast<const T*>(p);
#else
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
#endif
}

// 16 bytes loaded at once (one 128-bit load on the device).
struct alignas(16) Floats4 {
    float x, y, z, w;
};
struct alignas(16) Words4 {
    uint32_t x, y, z, w;
};

// Byte k (0..3) of a little-endian word, as a signed or unsigned value.
DLAB_HD int byteOf(uint32_t w, int k) { return static_cast<int>((w >> (8 * k)) & 0xFFu); }
DLAB_HD int signedByteOf(uint32_t w, int k) { return static_cast<int>(static_cast<int8_t>(static_cast<uint8_t>(w >> (8 * k)))); }

// Elements per block and bytes per block of the types the device reads.
DLAB_HD int blockElems(GgmlType t) {
    switch (t) {
    case GgmlType::F32: case GgmlType::F16: case GgmlType::BF16: return 8;   // a "block" of 8 for chunking
    case GgmlType::Q4_0: case GgmlType::Q4_1: case GgmlType::Q8_0: return 32;
    default: return 256;
    }
}
DLAB_HD int blockBytes(GgmlType t) {
    switch (t) {
    case GgmlType::F32: return 32;
    case GgmlType::F16: case GgmlType::BF16: return 16;
    case GgmlType::Q4_0: return 18;
    case GgmlType::Q4_1: return 20;
    case GgmlType::Q8_0: return 34;
    case GgmlType::Q4_K: return 144;
    case GgmlType::Q5_K: return 176;
    case GgmlType::Q6_K: return 210;
    default: return 0;
    }
}

// out[0..8) = elements 8 * chunk .. 8 * chunk + 7 of a row of type T. The loads are as wide as
// the block layout allows on a device row (rows start 256-byte aligned, then every F32 / F16 chunk
// is 16-byte aligned, a Q4_1 block 4-byte and a Q4_0 / Q8_0 block 2-byte aligned).
template <GgmlType T>
DLAB_HD void dequantChunk8(const uint8_t* row, int64_t chunk, float* out) {
    if constexpr (T == GgmlType::F32) {
        const uint8_t* p = row + chunk * 32;
        const Floats4 a = loadAligned<Floats4>(p), b = loadAligned<Floats4>(p + 16);
        out[0] = a.x, out[1] = a.y, out[2] = a.z, out[3] = a.w, out[4] = b.x, out[5] = b.y, out[6] = b.z, out[7] = b.w;
    } else if constexpr (T == GgmlType::F16 || T == GgmlType::BF16) {
        const Words4 h = loadAligned<Words4>(row + chunk * 16);
        const uint32_t w[4] = {h.x, h.y, h.z, h.w};
        for (int i = 0; i < 4; ++i) {
            const auto lo = static_cast<uint16_t>(w[i] & 0xFFFFu), hi = static_cast<uint16_t>(w[i] >> 16);
            out[2 * i] = T == GgmlType::F16 ? halfToFloat(lo) : bf16ToFloat(lo);
            out[2 * i + 1] = T == GgmlType::F16 ? halfToFloat(hi) : bf16ToFloat(hi);
        }
    } else if constexpr (T == GgmlType::Q4_1) {
        const uint8_t* b = row + (chunk / 4) * 20;
        const int e = static_cast<int>(chunk % 4) * 8;          // first element in the block
        const uint32_t dm = loadAligned<uint32_t>(b);           // d, m (halves)
        const float d = halfToFloat(static_cast<uint16_t>(dm & 0xFFFFu)), m = halfToFloat(static_cast<uint16_t>(dm >> 16));
        const int shift = e < 16 ? 0 : 4;
        const uint32_t q[2] = {loadAligned<uint32_t>(b + 4 + e % 16), loadAligned<uint32_t>(b + 8 + e % 16)};
        for (int i = 0; i < 8; ++i) out[i] = static_cast<float>((byteOf(q[i / 4], i % 4) >> shift) & 0xF) * d + m;
    } else if constexpr (T == GgmlType::Q4_0) {
        const uint8_t* b = row + (chunk / 4) * 18;
        const int e = static_cast<int>(chunk % 4) * 8;
        const float d = halfToFloat(loadAligned<uint16_t>(b));
        const int shift = e < 16 ? 0 : 4;
        for (int i = 0; i < 8; i += 2) {
            const uint16_t q = loadAligned<uint16_t>(b + 2 + e % 16 + i);
            out[i] = static_cast<float>(((q & 0xFF) >> shift & 0xF) - 8) * d;
            out[i + 1] = static_cast<float>(((q >> 8) >> shift & 0xF) - 8) * d;
        }
    } else if constexpr (T == GgmlType::Q8_0) {
        const uint8_t* b = row + (chunk / 4) * 34;
        const float d = halfToFloat(loadAligned<uint16_t>(b));
        const uint8_t* qs = b + 2 + (chunk % 4) * 8;
        for (int i = 0; i < 8; i += 2) {
            const uint16_t q = loadAligned<uint16_t>(qs + i);
            out[i] = static_cast<float>(static_cast<int8_t>(q & 0xFF)) * d;
            out[i + 1] = static_cast<float>(static_cast<int8_t>(q >> 8)) * d;
        }
    } else if constexpr (T == GgmlType::Q4_K || T == GgmlType::Q5_K) {
        constexpr bool kFive = T == GgmlType::Q5_K;
        const uint8_t* b = row + (chunk / 32) * (kFive ? 176 : 144);
        const int e = static_cast<int>(chunk % 32) * 8;         // element in the super-block
        const int j = e / 32, l0 = e % 32;                       // sub-block, first element in it
        const float d = halfToFloat(load16(b)), dmin = halfToFloat(load16(b + 2));
        const uint8_t* s = b + 4;                                // scales[12]
        int sc, m;
        if (j < 4) {
            sc = s[j] & 63;
            m = s[j + 4] & 63;
        } else {
            sc = (s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4);
            m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
        }
        const float dj = d * static_cast<float>(sc), mj = dmin * static_cast<float>(m);
        const uint8_t* qh = b + 16;                              // Q5_K only: qh[32]
        const uint8_t* qs = b + (kFive ? 48 : 16) + 32 * (j / 2);
        const int shift = (j & 1) * 4;
        for (int i = 0; i < 8; ++i) {
            int q = (qs[l0 + i] >> shift) & 0xF;
            if constexpr (kFive) q |= ((qh[l0 + i] >> j) & 1) << 4;
            out[i] = dj * static_cast<float>(q) - mj;
        }
    } else if constexpr (T == GgmlType::Q6_K) {
        const uint8_t* b = row + (chunk / 32) * 210;
        const int e = static_cast<int>(chunk % 32) * 8;
        const int h = e / 128, quarter = (e % 128) / 32, l0 = e % 32;
        const uint8_t* ql = b + 64 * h;
        const uint8_t* qh = b + 128 + 32 * h;
        const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192) + 8 * h;
        const float d = halfToFloat(load16(b + 208));
        const float scale = d * static_cast<float>(sc[l0 / 16 + 2 * quarter]);
        const int qlOff = (quarter & 1) * 32, qlShift = (quarter >> 1) * 4, qhShift = 2 * quarter;
        for (int i = 0; i < 8; ++i) {
            const int l = l0 + i;
            const int q = (((ql[l + qlOff] >> qlShift) & 0xF) | (((qh[l] >> qhShift) & 3) << 4)) - 32;
            out[i] = scale * static_cast<float>(q);
        }
    }
}

// One q8_0 block (32 values, 34 bytes) from x, as the engine's quantize(Q8_0): d = amax / 127
// stored as half, q = round(x / d) with the float inverse.
DLAB_HD void quantizeQ8_0Block(const float* x, uint8_t* dst) {
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j) amax = fmaxf(amax, fabsf(x[j]));
    const float d = amax / 127.0f, id = d != 0.0f ? 1.0f / d : 0.0f;
    const uint16_t dh = floatToHalf(d);
    dst[0] = static_cast<uint8_t>(dh & 0xFF);
    dst[1] = static_cast<uint8_t>(dh >> 8);
    for (int j = 0; j < 32; ++j) dst[2 + j] = static_cast<uint8_t>(static_cast<int8_t>(roundf(x[j] * id)));
}

// Element i of a stored KV row (KvType: 0 f32, 1 f16, 2 q8_0).
DLAB_HD float kvElement(int kvType, const uint8_t* row, int i) {
    if (kvType == 0) return reinterpret_cast<const float*>(row)[i];
    if (kvType == 1) return halfToFloat(reinterpret_cast<const uint16_t*>(row)[i]);
    const uint8_t* b = row + (i / 32) * 34;
    return static_cast<float>(reinterpret_cast<const int8_t*>(b + 2)[i % 32]) * halfToFloat(load16(b));
}

// GPT-2's GELU, tanh approximation (engine/cpu/ops.cpp's gelu).
DLAB_HD float geluTanh(float x) {
    const float kSqrt2OverPi = 0.7978845608028654f;
    return 0.5f * x * (1.0f + tanhf(kSqrt2OverPi * x * (1.0f + 0.044715f * x * x)));
}

DLAB_HD float silu(float x) { return x / (1.0f + expf(-x)); }

}  // namespace dlab::cuda
