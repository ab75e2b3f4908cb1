#pragma once
// The paged-attention paper's lesson computed on a live pool: the same sequences in
//   - the paged pool as it stands (blocks shared copy-on-write, at most one partly filled block
//     per sequence), and
//   - a contiguous allocator that reserves the whole context for every sequence up front (what
//     servers did before paging), with private copies of any shared prefix.
// Bytes are K and V of all layers; a "slot" is one position's rows.
#include <cstdint>
#include <vector>

#include "model/kv_block_pool.h"

namespace dlab {

struct KvSequenceAllocation {
    SeqId id = 0;
    int64_t positions = 0;
    int64_t blocks = 0;
    int64_t lastBlockUnused = 0;     // slots reserved in its last block but not filled
    int64_t sharedBlocks = 0;        // of its blocks, those another sequence references too
};

struct KvAllocationReport {
    int64_t blockSize = 0, contextLength = 0;
    int64_t bytesPerSlot = 0;            // K and V of one position, all layers
    int64_t sequences = 0;
    int64_t positions = 0;               // summed over sequences (a shared prefix counts per sequence)
    int64_t uniqueSlotsFilled = 0;       // filled slots of the blocks in use, each block once
    // Paged pool
    int64_t pagedBlocks = 0;             // blocks in use, each once
    int64_t pagedBytes = 0;              // pagedBlocks * bytesPerBlock
    int64_t pagedUnusedBytes = 0;        // slots of blocks in use that hold nothing (internal fragmentation)
    int64_t bytesSavedBySharing = 0;     // what private copies of shared blocks would add
    // Contiguous reservation of contextLength slots per sequence, nothing shared
    int64_t contiguousBytes = 0;         // sequences * contextLength * bytesPerSlot
    int64_t contiguousUnusedBytes = 0;   // reserved slots no position fills
    double pagedWasteFraction() const { return pagedBytes > 0 ? double(pagedUnusedBytes) / pagedBytes : 0.0; }
    double contiguousWasteFraction() const { return contiguousBytes > 0 ? double(contiguousUnusedBytes) / contiguousBytes : 0.0; }
    std::vector<KvSequenceAllocation> perSequence;   // by id
};

// Throws dlab::Error for contextLength below the longest sequence.
KvAllocationReport kvAllocationReport(const KvBlockPool& pool, int64_t contextLength);

}  // namespace dlab
