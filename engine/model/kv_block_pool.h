#pragma once
// A paged KV cache shared between sequences, as vLLM's PagedAttention keeps it.
//
// The pool holds nBlocks blocks of blockSize positions; every block has, for every layer, K and V
// rows for its positions:
//   k[layer]: (nBlocks, blockSize, rowBytes)   v[layer]: same   (a row = kvDim values of KvType)
// A sequence is a block table (logical block i -> pool block) plus its token ids; position p lives
// in block table[p / blockSize], slot p % blockSize. Blocks are reference counted: fork() makes a
// new sequence that shares the parent's prefix blocks (a partial last block too), and a write into
// a block that another sequence also references copies that block first (copy-on-write). So beams,
// branches and side-by-side runs share the prompt's K/V instead of copying them.
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "model/hparams.h"
#include "model/kv_stats.h"
#include "model/kv_type.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

// What a device mirror of a pool (the CUDA backend keeps the rows in GPU memory) must replay to
// stay equal to the host rows, which stay the truth: the backend copies every row it computes
// back. Logged only once a mirror is attached (KvBlockPool::attachMirror):
//   a copy-on-write block copy     {src block, slot -1, dst block, slot -1}   (every layer, K and V)
//   an eviction's row move         {src block, src slot, dst block, dst slot}
// Rows written on the host through storeK / storeV (the CPU backend) only bump hostWrites; a
// mirror that sees it move uploads the whole pool again. poolAlive turns false when the pool goes.
struct KvRowEvent {
    int32_t srcBlock, srcSlot, dstBlock, dstSlot;
};
struct KvMirrorLog {
    std::vector<KvRowEvent> events;
    uint64_t hostWrites = 0;
    bool poolAlive = true;
};

class KvBlockPool {
public:
    // Throws dlab::Error for nBlocks or blockSize < 1, or a type the model's head size cannot use.
    KvBlockPool(const HParams& hp, int64_t nBlocks, KvType type, int64_t blockSize = 16);
    // Blocks needed for `positions` positions.
    static int64_t blocksFor(int64_t positions, int64_t blockSize) { return (positions + blockSize - 1) / blockSize; }

    KvType type() const { return type_; }
    int64_t blockSize() const { return blockSize_; }
    int64_t nBlocks() const { return nBlocks_; }
    int64_t nLayer() const { return nLayer_; }
    int64_t kvDim() const { return kvDim_; }
    size_t rowBytes() const { return rowBytes_; }
    int64_t freeBlocks() const { return static_cast<int64_t>(free_.size()); }
    int refCount(int32_t block) const { return refs_[block]; }

    // The longest a sequence may grow (a model's context window); defaults to the pool's positions.
    int64_t contextLimit() const { return contextLimit_; }
    void setContextLimit(int64_t positions);

    // --- sequences --------------------------------------------------------------------------
    SeqId newSequence();
    // A new sequence holding the parent's first atPosition positions (0 <= atPosition <=
    // length(parent)); their blocks are shared, not copied.
    SeqId fork(SeqId parent, int64_t atPosition);
    void freeSequence(SeqId seq);          // drops its block references
    // A new sequence whose first blocks.size() * blockSize positions are these full blocks holding
    // `tokens` (exactly that many): the automatic prefix cache hands a request the blocks another
    // request computed. The blocks gain a reference each; throws dlab::Error for a free block or a
    // token count that is not blocks.size() * blockSize.
    SeqId newSequenceFromBlocks(std::span<const int32_t> blocks, std::span<const TokenId> tokens);
    // References held outside any sequence (the prefix cache keeps its blocks alive this way).
    // retainBlock throws for a free block; releaseBlock returns the block to the free list when
    // its last reference goes.
    void retainBlock(int32_t block);
    void releaseBlock(int32_t block);
    void truncate(SeqId seq, int64_t n);   // keeps the first n positions (n <= length)
    bool contains(SeqId seq) const { return seqs_.count(seq) != 0; }
    int64_t length(SeqId seq) const { return static_cast<int64_t>(get(seq).tokens.size()); }
    const std::vector<TokenId>& tokens(SeqId seq) const { return get(seq).tokens; }
    std::span<const int32_t> blockTable(SeqId seq) const { return get(seq).blocks; }
    std::vector<SeqId> sequences() const;

    // --- eviction (StreamingLLM) -----------------------------------------------------------------
    // Keeps the first `sinks` slots (the attention sinks) and the last `window` slots and drops the
    // slots between them; returns how many were dropped (0 when the sequence is not longer than
    // sinks + window). The kept rows move down to slots [sinks, sinks + window) (copy-on-write if
    // another sequence shares their blocks) and keep the positions they were computed at: keys are
    // stored after RoPE, so a query at its true position sees each kept key at its true distance.
    // New tokens continue at the next position in the text, not at the next slot. A sequence
    // evicts with one sink count for life; throws dlab::Error for another one or negative sizes.
    int64_t evict(SeqId seq, int64_t sinks, int64_t window);
    // The position in the text of a cached slot (slot == position until something was evicted);
    // slot may be length(seq), the next token's slot.
    int64_t positionOf(SeqId seq, int64_t slot) const {
        const Sequence& s = get(seq);
        return slot < s.sinkSlots ? slot : slot + s.evicted;
    }
    int64_t evicted(SeqId seq) const { return get(seq).evicted; }

    // --- writing (the backend's side) ---------------------------------------------------------
    // Makes positions [pos0, pos0 + n) writable for seq (pos0 <= length): allocates blocks and
    // copies shared ones. Throws dlab::Error past the context limit or when the pool has too few
    // free blocks, before changing anything.
    void prepareWrite(SeqId seq, int64_t pos0, int64_t n);
    // Records that positions [pos0, pos0 + tokens.size()) now hold these tokens' K/V; the length
    // becomes max(length, pos0 + tokens.size()).
    void commit(SeqId seq, int64_t pos0, std::span<const TokenId> tokens);
    // Stores one row (kvDim floats) at a prepared position.
    void storeK(SeqId seq, int64_t layer, int64_t pos, const float* row) {
        storeKvRow(type_, row, kRow(seq, layer, pos), kvDim_);
        if (mirror_.log) ++mirror_.log->hostWrites;
    }
    void storeV(SeqId seq, int64_t layer, int64_t pos, const float* row) {
        storeKvRow(type_, row, vRow(seq, layer, pos), kvDim_);
        if (mirror_.log) ++mirror_.log->hostWrites;
    }

    // --- a device mirror (see KvRowEvent) --------------------------------------------------------
    // Starts logging for a mirror and returns the log (the same one on every call).
    std::shared_ptr<KvMirrorLog> attachMirror();
    // Where a mirror copies a row it computed back to (rowBytes bytes; not counted as a host write).
    uint8_t* rowForCopyBack(SeqId seq, int64_t layer, int64_t pos, bool value) {
        return value ? vRow(seq, layer, pos) : kRow(seq, layer, pos);
    }
    // The whole storage of a layer, for a mirror's first upload: (nBlocks, blockSize, rowBytes).
    const uint8_t* layerK(int64_t layer) const { return k_[layer].data(); }
    const uint8_t* layerV(int64_t layer) const { return v_[layer].data(); }

    // --- reading ----------------------------------------------------------------------------
    // Start of `block`'s rows in a layer: (blockSize, rowBytes).
    const uint8_t* kBlock(int64_t layer, int32_t block) const { return k_[layer].data() + blockOffset(block); }
    const uint8_t* vBlock(int64_t layer, int32_t block) const { return v_[layer].data() + blockOffset(block); }
    const uint8_t* kRow(SeqId seq, int64_t layer, int64_t pos) const { return k_[layer].data() + rowOffset(seq, pos); }
    const uint8_t* vRow(SeqId seq, int64_t layer, int64_t pos) const { return v_[layer].data() + rowOffset(seq, pos); }

    KvStats stats() const;
    int64_t bytesPerBlock() const { return 2 * nLayer_ * blockSize_ * static_cast<int64_t>(rowBytes_); }
    int64_t bytesReserved() const { return nBlocks_ * bytesPerBlock(); }

private:
    struct Sequence {
        std::vector<int32_t> blocks;   // logical block -> pool block
        std::vector<TokenId> tokens;   // one per cached slot
        int64_t sinkSlots = 0;         // slots before this keep their position; later ones are
        int64_t evicted = 0;           //   `evicted` positions further on in the text
    };
    const Sequence& get(SeqId seq) const;
    Sequence& get(SeqId seq);
    int32_t allocate();
    void release(int32_t block);
    size_t blockOffset(int32_t block) const { return static_cast<size_t>(block) * blockSize_ * rowBytes_; }
    size_t rowOffset(SeqId seq, int64_t pos) const {
        return blockOffset(get(seq).blocks[pos / blockSize_]) + static_cast<size_t>(pos % blockSize_) * rowBytes_;
    }
    uint8_t* kRow(SeqId seq, int64_t layer, int64_t pos) { return k_[layer].data() + rowOffset(seq, pos); }
    uint8_t* vRow(SeqId seq, int64_t layer, int64_t pos) { return v_[layer].data() + rowOffset(seq, pos); }

    // The log shared with a mirror; a copied pool starts without one, and the mirror learns when
    // its pool is gone.
    struct MirrorLink {
        std::shared_ptr<KvMirrorLog> log;
        MirrorLink() = default;
        MirrorLink(const MirrorLink&) {}
        MirrorLink& operator=(const MirrorLink&) { release(); return *this; }
        MirrorLink(MirrorLink&& o) noexcept : log(std::move(o.log)) {}
        MirrorLink& operator=(MirrorLink&& o) noexcept { release(); log = std::move(o.log); return *this; }
        ~MirrorLink() { release(); }
        void release() { if (log) log->poolAlive = false; log.reset(); }
    };
    void logEvent(const KvRowEvent& e) { if (mirror_.log) mirror_.log->events.push_back(e); }

    MirrorLink mirror_;
    KvType type_;
    int64_t nBlocks_, blockSize_, nLayer_, kvDim_, contextLimit_;
    size_t rowBytes_;
    std::vector<std::vector<uint8_t>> k_, v_;   // per layer: (nBlocks, blockSize, rowBytes)
    std::vector<int> refs_;                      // (nBlocks) sequences referencing each block
    std::vector<int32_t> free_;                  // free block indices, next allocation at the back
    std::map<SeqId, Sequence> seqs_;
    SeqId nextId_ = 0;
};

}  // namespace dlab
