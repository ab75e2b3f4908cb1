#pragma once
// The paged KV cache in device memory, as the host KvBlockPool lays it out, all layers in one
// allocation:
//   base: (nLayer, 2 [K, V], nBlocks * blockSize cells, rowBytes)
// A token's row lives in cell = block * blockSize + slot % blockSize, block = table[slot / blockSize].
#include <cstddef>
#include <cstdint>

#include "cuda/hd.h"

namespace dlab::cuda {

struct PagedKv {
    uint8_t* base = nullptr;
    int64_t cellsPerPlane = 0;   // nBlocks * blockSize
    int blockSize = 16;
    size_t rowBytes = 0;
    int kvType = 0;              // 0 f32, 1 f16, 2 q8_0 (KvType's order)
    int kvDim = 0;               // values per row (nHeadKv * headDim)

    // Row of (layer, K or V, cell) on the device.
    DLAB_HD uint8_t* row(int layer, int value, int64_t cell) const {
        return base + ((static_cast<int64_t>(layer) * 2 + value) * cellsPerPlane + cell) * static_cast<int64_t>(rowBytes);
    }
};

// Where the tokens of a pass sit: token t belongs to segment segOf[t] and occupies its sequence's
// slot slot[t]; segment s's block table starts at tables + tableOf[s].
struct PassSlots {
    const int32_t* segOf;    // (T)
    const int32_t* slot;     // (T)
    const int32_t* tableOf;  // (nSeg)
    const int32_t* tables;   // (nSeg * maxBlocks)
};

}  // namespace dlab::cuda
