#include "model/kv_block_pool.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.h"

namespace dlab {

KvBlockPool::KvBlockPool(const HParams& hp, int64_t nBlocks, KvType type, int64_t blockSize)
    : type_(type), nBlocks_(nBlocks), blockSize_(blockSize), nLayer_(hp.nLayer), kvDim_(hp.kvDim()),
      contextLimit_(nBlocks * blockSize), rowBytes_(kvRowBytes(type, hp.kvDim())) {
    if (nBlocks < 1) throw Error("the KV cache needs at least one block (got " + std::to_string(nBlocks) + ")");
    if (blockSize < 1 || blockSize > 4096)
        throw Error("the KV block size must be between 1 and 4096 positions (got " + std::to_string(blockSize) + ")");
    checkKvTypeFits(type, hp.headDim);
    const size_t bytes = static_cast<size_t>(nBlocks) * blockSize * rowBytes_;
    k_.assign(nLayer_, std::vector<uint8_t>(bytes));
    v_.assign(nLayer_, std::vector<uint8_t>(bytes));
    refs_.assign(nBlocks, 0);
    free_.reserve(nBlocks);
    for (int64_t b = nBlocks - 1; b >= 0; --b) free_.push_back(static_cast<int32_t>(b));  // block 0 first
}

std::shared_ptr<KvMirrorLog> KvBlockPool::attachMirror() {
    if (!mirror_.log) mirror_.log = std::make_shared<KvMirrorLog>();
    return mirror_.log;
}

void KvBlockPool::setContextLimit(int64_t positions) {
    if (positions < 1) throw Error("the context must hold at least 1 position (got " + std::to_string(positions) + ")");
    contextLimit_ = positions;
}

const KvBlockPool::Sequence& KvBlockPool::get(SeqId seq) const {
    const auto it = seqs_.find(seq);
    if (it == seqs_.end()) throw Error("KV sequence " + std::to_string(seq) + " does not exist (freed or never made)");
    return it->second;
}
KvBlockPool::Sequence& KvBlockPool::get(SeqId seq) { return const_cast<Sequence&>(std::as_const(*this).get(seq)); }

int32_t KvBlockPool::allocate() {
    const int32_t b = free_.back();  // callers check there is one
    free_.pop_back();
    refs_[b] = 1;
    return b;
}

void KvBlockPool::release(int32_t block) {
    if (--refs_[block] == 0) free_.push_back(block);
}

SeqId KvBlockPool::newSequence() {
    const SeqId id = nextId_++;
    seqs_[id];
    return id;
}

SeqId KvBlockPool::fork(SeqId parent, int64_t atPosition) {
    const Sequence& p = get(parent);
    if (atPosition < 0 || atPosition > static_cast<int64_t>(p.tokens.size()))
        throw Error("cannot fork KV sequence " + std::to_string(parent) + " at position " + std::to_string(atPosition) +
                    ": it holds " + std::to_string(p.tokens.size()) + " positions");
    Sequence child;
    child.blocks.assign(p.blocks.begin(), p.blocks.begin() + blocksFor(atPosition, blockSize_));
    child.tokens.assign(p.tokens.begin(), p.tokens.begin() + atPosition);
    if (atPosition > p.sinkSlots) {
        child.sinkSlots = p.sinkSlots;
        child.evicted = p.evicted;
    }
    for (int32_t b : child.blocks) ++refs_[b];
    const SeqId id = nextId_++;
    seqs_.emplace(id, std::move(child));
    return id;
}

SeqId KvBlockPool::newSequenceFromBlocks(std::span<const int32_t> blocks, std::span<const TokenId> tokens) {
    if (static_cast<int64_t>(tokens.size()) != static_cast<int64_t>(blocks.size()) * blockSize_)
        throw Error("a sequence made from " + std::to_string(blocks.size()) + " full KV blocks needs " +
                    std::to_string(blocks.size() * blockSize_) + " tokens (got " + std::to_string(tokens.size()) + ")");
    if (static_cast<int64_t>(tokens.size()) > contextLimit_)
        throw Error(std::to_string(tokens.size()) + " cached tokens do not fit the context of " + std::to_string(contextLimit_) +
                    " positions");
    for (int32_t b : blocks)
        if (b < 0 || b >= nBlocks_ || refs_[b] == 0)
            throw Error("KV block " + std::to_string(b) + " is not in use, so a sequence cannot be made from it");
    for (int32_t b : blocks) ++refs_[b];
    Sequence s;
    s.blocks.assign(blocks.begin(), blocks.end());
    s.tokens.assign(tokens.begin(), tokens.end());
    const SeqId id = nextId_++;
    seqs_.emplace(id, std::move(s));
    return id;
}

void KvBlockPool::retainBlock(int32_t block) {
    if (block < 0 || block >= nBlocks_ || refs_[block] == 0)
        throw Error("KV block " + std::to_string(block) + " is not in use, so it cannot be shared");
    ++refs_[block];
}

void KvBlockPool::releaseBlock(int32_t block) {
    if (block < 0 || block >= nBlocks_ || refs_[block] == 0)
        throw Error("KV block " + std::to_string(block) + " is not in use, so it cannot be released");
    release(block);
}

void KvBlockPool::freeSequence(SeqId seq) {
    truncate(seq, 0);
    seqs_.erase(seq);
}

void KvBlockPool::truncate(SeqId seq, int64_t n) {
    Sequence& s = get(seq);
    if (n < 0 || n > static_cast<int64_t>(s.tokens.size()))
        throw Error("cannot truncate KV sequence " + std::to_string(seq) + " to " + std::to_string(n) + " positions: it holds " +
                    std::to_string(s.tokens.size()));
    s.tokens.resize(n);
    if (n <= s.sinkSlots) s.sinkSlots = s.evicted = 0;  // what is left sits at its own positions again
    const size_t keep = blocksFor(n, blockSize_);
    for (size_t i = keep; i < s.blocks.size(); ++i) release(s.blocks[i]);
    if (s.blocks.size() > keep) s.blocks.resize(keep);
}

std::vector<SeqId> KvBlockPool::sequences() const {
    std::vector<SeqId> ids;
    for (const auto& [id, s] : seqs_) ids.push_back(id);
    return ids;
}

int64_t KvBlockPool::evict(SeqId seq, int64_t sinks, int64_t window) {
    Sequence& s = get(seq);
    if (sinks < 0 || window < 0)
        throw Error("eviction needs sink and window sizes of at least 0 (got " + std::to_string(sinks) + " and " +
                    std::to_string(window) + ")");
    if (s.evicted > 0 && sinks != s.sinkSlots)
        throw Error("KV sequence " + std::to_string(seq) + " already evicts with " + std::to_string(s.sinkSlots) +
                    " sink positions; it cannot switch to " + std::to_string(sinks));
    const int64_t len = static_cast<int64_t>(s.tokens.size());
    const int64_t drop = len - sinks - window;
    if (drop <= 0) return 0;
    prepareWrite(seq, sinks, window);  // the destination slots become private before rows move in
    for (int64_t slot = sinks; slot < sinks + window; ++slot) {
        for (int64_t l = 0; l < nLayer_; ++l) {
            std::memcpy(kRow(seq, l, slot), kRow(seq, l, slot + drop), rowBytes_);
            std::memcpy(vRow(seq, l, slot), vRow(seq, l, slot + drop), rowBytes_);
        }
        const int64_t from = slot + drop;
        logEvent({s.blocks[from / blockSize_], static_cast<int32_t>(from % blockSize_), s.blocks[slot / blockSize_],
                  static_cast<int32_t>(slot % blockSize_)});
    }
    const int64_t evictedBefore = s.evicted;
    s.tokens.erase(s.tokens.begin() + sinks, s.tokens.begin() + sinks + drop);
    truncate(seq, sinks + window);  // releases the blocks past the kept slots (tokens already shortened)
    s.sinkSlots = sinks;
    s.evicted = evictedBefore + drop;
    return drop;
}

void KvBlockPool::prepareWrite(SeqId seq, int64_t pos0, int64_t n) {
    Sequence& s = get(seq);
    const int64_t len = static_cast<int64_t>(s.tokens.size());
    if (pos0 < 0 || pos0 > len)
        throw Error("KV write at position " + std::to_string(pos0) + " would leave a gap after the " + std::to_string(len) +
                    " cached positions");
    if (pos0 + n > contextLimit_)
        throw Error(std::to_string(pos0 + n) + " tokens do not fit the context of " + std::to_string(contextLimit_) +
                    " positions; shorten the prompt or raise the context size");
    if (n <= 0) return;
    const int64_t first = pos0 / blockSize_, last = (pos0 + n - 1) / blockSize_;
    int64_t needed = 0;  // fresh blocks plus private copies of shared ones
    for (int64_t i = first; i <= last; ++i)
        if (i >= static_cast<int64_t>(s.blocks.size()) || refs_[s.blocks[i]] > 1) ++needed;
    if (needed > freeBlocks())
        throw Error("the KV cache is out of blocks: sequence " + std::to_string(seq) + " needs " + std::to_string(needed) +
                    " more but " + std::to_string(freeBlocks()) + " of " + std::to_string(nBlocks_) +
                    " are free; free other sequences or make the pool larger");
    for (int64_t i = first; i <= last; ++i) {
        if (i >= static_cast<int64_t>(s.blocks.size())) {
            s.blocks.push_back(allocate());
            continue;
        }
        const int32_t shared = s.blocks[i];
        if (refs_[shared] == 1) continue;
        // Copy-on-write: this sequence's rows of the block go to a private copy.
        const int32_t mine = allocate();
        const int64_t rows = std::clamp<int64_t>(len - i * blockSize_, 0, blockSize_);
        const size_t bytes = static_cast<size_t>(rows) * rowBytes_;
        for (int64_t l = 0; l < nLayer_; ++l) {
            std::memcpy(k_[l].data() + blockOffset(mine), k_[l].data() + blockOffset(shared), bytes);
            std::memcpy(v_[l].data() + blockOffset(mine), v_[l].data() + blockOffset(shared), bytes);
        }
        logEvent({shared, -1, mine, -1});
        release(shared);
        s.blocks[i] = mine;
    }
}

void KvBlockPool::commit(SeqId seq, int64_t pos0, std::span<const TokenId> tokens) {
    Sequence& s = get(seq);
    const int64_t end = pos0 + static_cast<int64_t>(tokens.size());
    if (pos0 < 0 || pos0 > static_cast<int64_t>(s.tokens.size()) || blocksFor(end, blockSize_) > static_cast<int64_t>(s.blocks.size()))
        throw Error("KV commit of positions " + std::to_string(pos0) + ".." + std::to_string(end) + " that were not prepared");
    if (end > static_cast<int64_t>(s.tokens.size())) s.tokens.resize(end);
    std::copy(tokens.begin(), tokens.end(), s.tokens.begin() + pos0);
}

KvStats KvBlockPool::stats() const {
    KvStats st;
    st.type = type_;
    st.blockSize = blockSize_;
    st.nLayer = nLayer_;
    st.blocksTotal = nBlocks_;
    st.blocksFree = freeBlocks();
    st.blocksUsed = nBlocks_ - st.blocksFree;
    st.bytesPerBlock = bytesPerBlock();
    st.bytesReserved = bytesReserved();
    std::vector<KvBlockStats> perBlock(nBlocks_);
    for (const auto& [id, s] : seqs_) {
        st.sequences.push_back({id, static_cast<int64_t>(s.tokens.size()), static_cast<int64_t>(s.blocks.size())});
        for (size_t i = 0; i < s.blocks.size(); ++i) {
            KvBlockStats& b = perBlock[s.blocks[i]];
            b.sequences.push_back(id);
            const int64_t used = std::clamp<int64_t>(static_cast<int64_t>(s.tokens.size()) - int64_t(i) * blockSize_, 0, blockSize_);
            b.filled = std::max(b.filled, used);
        }
    }
    for (int64_t b = 0; b < nBlocks_; ++b) {
        if (refs_[b] == 0) continue;
        perBlock[b].block = static_cast<int32_t>(b);
        if (refs_[b] > 1) {
            ++st.blocksShared;
            st.bytesSavedBySharing += (refs_[b] - 1) * st.bytesPerBlock;
        }
        st.blocks.push_back(std::move(perBlock[b]));
    }
    st.bytesInUse = st.blocksUsed * st.bytesPerBlock;
    st.bytesPerLayer = nLayer_ > 0 ? st.bytesInUse / nLayer_ : 0;
    return st;
}

}  // namespace dlab
