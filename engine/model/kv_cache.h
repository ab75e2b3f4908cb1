#pragma once
// The single-sequence convenience over the paged cache: a KvBlockPool just large enough for nCtx
// positions and one sequence in it. Callers that run one sequence (generate, bench, perplexity)
// use this; callers that fork (beams, branches, side-by-side runs) use the pool and its SeqIds.
#include <cstdint>

#include "model/kv_block_pool.h"

namespace dlab {

class KvCache {
public:
    // Throws dlab::Error for nCtx < 1 or a type the model cannot use.
    KvCache(const HParams& hp, int64_t nCtx, KvType type, int64_t blockSize = 16);

    KvBlockPool& pool() { return pool_; }
    const KvBlockPool& pool() const { return pool_; }
    SeqId sequence() const { return seq_; }

    KvType type() const { return pool_.type(); }
    int64_t capacity() const { return pool_.contextLimit(); }
    int64_t size() const { return pool_.length(seq_); }
    void clear() { pool_.truncate(seq_, 0); }
    void truncate(int64_t n) { pool_.truncate(seq_, n); }

    // Bytes reserved in all / of the blocks in use.
    int64_t bytesReserved() const { return pool_.bytesReserved(); }
    int64_t bytesUsed() const { return pool_.stats().bytesInUse; }

private:
    KvBlockPool pool_;
    SeqId seq_;
};

}  // namespace dlab
