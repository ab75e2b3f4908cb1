#pragma once
// What the KV heatmap's cells hold, read from a sequence's cached rows:
//   kNorm, vNorm: (nLayer, nHeadKv, nSlots)  L2 norm of each KV head's part of a K / V row
//   kError, vError: same shape, ||row - reference row|| / ||reference row|| against the same
//     sequence cached in another pool (an f32 run of the same tokens), so a quantized cache's
//     cells show how far they are from full precision, error carried from earlier layers included.
#include <cstdint>
#include <vector>

#include "model/kv_block_pool.h"

namespace dlab {

struct KvCellStats {
    int64_t nLayer = 0, nHeadKv = 0, nSlots = 0;
    std::vector<float> kNorm, vNorm;     // (nLayer, nHeadKv, nSlots)
    std::vector<float> kError, vError;   // (nLayer, nHeadKv, nSlots); empty without a reference
    size_t index(int64_t layer, int64_t head, int64_t slot) const {
        return static_cast<size_t>((layer * nHeadKv + head) * nSlots + slot);
    }
};

// Norms of every cached row of `seq` (nHeadKv = pool.kvDim() / headDim).
KvCellStats kvCellStats(const KvBlockPool& pool, SeqId seq, int64_t headDim);
// Adds kError / vError against `reference`'s sequence refSeq, which must hold the same tokens.
// Throws dlab::Error naming the mismatch (length, tokens, layers, width).
void addKvQuantError(KvCellStats& stats, const KvBlockPool& pool, SeqId seq, const KvBlockPool& reference, SeqId refSeq,
                     int64_t headDim);

}  // namespace dlab
