#pragma once
// Values into a KV row in the cache's type (device code), as the engine's storeKvRow: the KV store
// writes whole rows with it, the folded store in attention.cu one head's part of a row.
#include <cstdint>

#include "cuda/quant_hd.h"

namespace dlab::cuda {

// The block's threads write n values of src into dst, and the same bytes into copy unless it is
// null: kvType 0 f32 and 1 f16 a thread per value, 2 q8_0 a thread per 32-value block (n a
// multiple of 32).
__device__ __forceinline__ void storeKvValues(int kvType, const float* src, uint8_t* dst, uint8_t* copy, int n) {
    if (kvType == 2) {
        for (int b = threadIdx.x; b < n / 32; b += blockDim.x) {
            quantizeQ8_0Block(src + 32 * b, dst + 34 * b);
            if (copy)
                for (int i = 0; i < 34; ++i) copy[34 * b + i] = dst[34 * b + i];
        }
    } else if (kvType == 1) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            const uint16_t h = floatToHalf(src[i]);
            reinterpret_cast<uint16_t*>(dst)[i] = h;
            if (copy) reinterpret_cast<uint16_t*>(copy)[i] = h;
        }
    } else {
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            reinterpret_cast<float*>(dst)[i] = src[i];
            if (copy) reinterpret_cast<float*>(copy)[i] = src[i];
        }
    }
}

// Bytes of n values in a row of the cache's type (n a multiple of 32 for q8_0), as kvRowBytes.
DLAB_HD int kvValueBytes(int kvType, int n) { return kvType == 2 ? n / 32 * 34 : n * (kvType == 1 ? 2 : 4); }

}  // namespace dlab::cuda
