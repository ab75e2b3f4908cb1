#include "model/kv_cache.h"

#include "core/error.h"

namespace dlab {

namespace {
int64_t checkedBlocks(int64_t nCtx, int64_t blockSize) {
    if (nCtx <= 0) throw Error("the context size must be at least 1 (got " + std::to_string(nCtx) + ")");
    if (blockSize < 1) throw Error("the KV block size must be at least 1 (got " + std::to_string(blockSize) + ")");
    return KvBlockPool::blocksFor(nCtx, blockSize);
}
}  // namespace

KvCache::KvCache(const HParams& hp, int64_t nCtx, KvType type, int64_t blockSize)
    : pool_(hp, checkedBlocks(nCtx, blockSize), type, blockSize), seq_(pool_.newSequence()) {
    pool_.setContextLimit(nCtx);
}

}  // namespace dlab
