#pragma once
// Automatic prefix caching, as vLLM does it: every full KV block a prompt fills is keyed by a hash
// of its tokens and of every token before it, and kept after its request ends. A later request
// whose prompt starts with the same full blocks gets them (shared, reference counted) and computes
// only the rest. Cached blocks that no sequence references are evicted least recently used first
// when the pool needs room; a block some sequence still uses is never freed by eviction (the
// pool's reference count says who holds it).
//
// The hash only finds a candidate: each entry keeps its block's tokens and its parent's key, and a
// lookup compares them, so a hash collision is a miss, never wrong K/V.
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "model/kv_block_pool.h"

namespace dlab {

class PrefixCache {
public:
    explicit PrefixCache(KvBlockPool& pool) : pool_(pool) {}
    ~PrefixCache() { clear(); }
    PrefixCache(const PrefixCache&) = delete;
    PrefixCache& operator=(const PrefixCache&) = delete;

    struct Match {
        std::vector<int32_t> blocks;   // pool blocks of the first blocks.size() full blocks
        int64_t tokens = 0;            // blocks.size() * blockSize
    };
    // The longest run of cached full blocks that `tokens` starts with, covering at most maxTokens
    // tokens. Marks them used now (LRU).
    Match lookup(std::span<const TokenId> tokens, int64_t maxTokens);
    // Adds the full blocks among seq's first `positions` positions (the rest of a partial block
    // waits until it is full). Blocks already cached under the same key are only marked used.
    void insert(SeqId seq, int64_t positions);

    // Frees up to `blocks` cached blocks that no sequence references, least recently used first
    // (deeper blocks of a prefix before shallower ones at equal age). Returns how many it freed.
    int64_t evict(int64_t blocks);
    int64_t evictableBlocks() const;                 // cached blocks only the cache references
    int64_t cachedBlocks() const { return static_cast<int64_t>(entries_.size()); }
    void clear();                                    // drops every entry's reference

private:
    struct Entry {
        uint64_t parent = 0;            // key of the block before (0 for the first)
        std::vector<TokenId> tokens;    // (blockSize) this block's tokens
        int32_t block = -1;             // pool block, one reference held by the cache
        int64_t lastUsed = 0;
        int64_t depth = 0;              // block index in the prompt
    };
    static uint64_t chain(uint64_t parent, std::span<const TokenId> tokens);
    const Entry* find(uint64_t key, uint64_t parent, std::span<const TokenId> tokens) const;

    KvBlockPool& pool_;
    std::unordered_map<uint64_t, Entry> entries_;
    int64_t tick_ = 0;
};

}  // namespace dlab
