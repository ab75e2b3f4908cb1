#include "serve/prefix_cache.h"

#include <algorithm>

namespace dlab {

namespace {
constexpr uint64_t kRoot = 0x9E3779B97F4A7C15ull;  // the "parent" of a prompt's first block
}

uint64_t PrefixCache::chain(uint64_t parent, std::span<const TokenId> tokens) {
    // FNV-1a over the parent key and the token ids, then a final mix (splitmix64's).
    uint64_t h = 1469598103934665603ull ^ parent;
    auto mix = [&h](uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xff;
            h *= 1099511628211ull;
        }
    };
    mix(parent);
    for (TokenId t : tokens) mix(static_cast<uint32_t>(t));
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

const PrefixCache::Entry* PrefixCache::find(uint64_t key, uint64_t parent, std::span<const TokenId> tokens) const {
    const auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    const Entry& e = it->second;
    if (e.parent != parent || !std::equal(e.tokens.begin(), e.tokens.end(), tokens.begin(), tokens.end())) return nullptr;
    return &e;
}

PrefixCache::Match PrefixCache::lookup(std::span<const TokenId> tokens, int64_t maxTokens) {
    const int64_t bs = pool_.blockSize();
    const int64_t full = std::min<int64_t>(static_cast<int64_t>(tokens.size()), std::max<int64_t>(maxTokens, 0)) / bs;
    Match m;
    uint64_t parent = kRoot;
    ++tick_;
    for (int64_t i = 0; i < full; ++i) {
        const auto block = tokens.subspan(static_cast<size_t>(i * bs), static_cast<size_t>(bs));
        const uint64_t key = chain(parent, block);
        const Entry* e = find(key, parent, block);
        if (!e) break;
        m.blocks.push_back(e->block);
        entries_[key].lastUsed = tick_;
        parent = key;
    }
    m.tokens = static_cast<int64_t>(m.blocks.size()) * bs;
    return m;
}

void PrefixCache::insert(SeqId seq, int64_t positions) {
    const int64_t bs = pool_.blockSize();
    const std::vector<TokenId>& tokens = pool_.tokens(seq);
    const auto table = pool_.blockTable(seq);
    const int64_t full = std::min<int64_t>(positions, static_cast<int64_t>(tokens.size())) / bs;
    uint64_t parent = kRoot;
    ++tick_;
    for (int64_t i = 0; i < full; ++i) {
        const std::span<const TokenId> block(tokens.data() + i * bs, static_cast<size_t>(bs));
        const uint64_t key = chain(parent, block);
        auto it = entries_.find(key);
        if (it == entries_.end()) {
            pool_.retainBlock(table[static_cast<size_t>(i)]);
            Entry e;
            e.parent = parent;
            e.tokens.assign(block.begin(), block.end());
            e.block = table[static_cast<size_t>(i)];
            e.depth = i;
            e.lastUsed = tick_;
            entries_.emplace(key, std::move(e));
        } else if (find(key, parent, block)) {
            it->second.lastUsed = tick_;
        } else {
            break;  // a hash collision with another prefix: leave that entry, cache nothing deeper
        }
        parent = key;
    }
}

int64_t PrefixCache::evictableBlocks() const {
    int64_t n = 0;
    for (const auto& [key, e] : entries_)
        if (pool_.refCount(e.block) == 1) ++n;
    return n;
}

int64_t PrefixCache::evict(int64_t blocks) {
    if (blocks <= 0) return 0;
    std::vector<std::pair<uint64_t, const Entry*>> idle;
    for (const auto& [key, e] : entries_)
        if (pool_.refCount(e.block) == 1) idle.emplace_back(key, &e);
    std::sort(idle.begin(), idle.end(), [](const auto& a, const auto& b) {
        if (a.second->lastUsed != b.second->lastUsed) return a.second->lastUsed < b.second->lastUsed;
        return a.second->depth > b.second->depth;
    });
    int64_t freed = 0;
    for (const auto& [key, e] : idle) {
        if (freed == blocks) break;
        pool_.releaseBlock(e->block);
        entries_.erase(key);
        ++freed;
    }
    return freed;
}

void PrefixCache::clear() {
    for (const auto& [key, e] : entries_) pool_.releaseBlock(e.block);
    entries_.clear();
}

}  // namespace dlab
