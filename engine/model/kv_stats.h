#pragma once
// A snapshot of a paged KV cache (KvBlockPool::stats()): plain values for traces, the CLI and
// the GUI's KV page. "In use" counts every block some sequence references, once.
#include <cstdint>
#include <vector>

#include "model/kv_type.h"

namespace dlab {

using SeqId = int32_t;

struct KvSequenceStats {
    SeqId id = 0;
    int64_t positions = 0;          // cached positions (the sequence's length)
    int64_t blocks = 0;             // entries in its block table
};

struct KvBlockStats {
    int32_t block = 0;              // index in the pool
    int64_t filled = 0;             // positions holding data for the sequence that uses most of it
    std::vector<SeqId> sequences;   // who references it (refcount = sequences.size())
};

struct KvStats {
    KvType type = KvType::F16;
    int64_t blockSize = 0;          // positions per block
    int64_t nLayer = 0;
    int64_t blocksTotal = 0, blocksUsed = 0, blocksFree = 0;
    int64_t blocksShared = 0;       // referenced by more than one sequence
    int64_t bytesPerBlock = 0;      // K and V of blockSize positions, all layers
    int64_t bytesPerLayer = 0;      // K and V of the blocks in use, one layer
    int64_t bytesInUse = 0;         // K and V of the blocks in use, all layers
    int64_t bytesReserved = 0;      // the whole pool
    int64_t bytesSavedBySharing = 0;  // what private copies of the shared blocks would add
    std::vector<KvSequenceStats> sequences;  // by id
    std::vector<KvBlockStats> blocks;        // blocks in use, by index
};

}  // namespace dlab
