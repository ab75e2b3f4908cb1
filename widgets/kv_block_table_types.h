#pragma once
// What KvBlockTableView draws: a paged KV cache's pool and each sequence's block table, as the
// engine reports them (plain values, no engine types). The view only draws these numbers; totals
// and ratios the page shows next to it come from the engine too.
#include <QString>

#include <cstdint>
#include <vector>

namespace dlab::widgets {

struct BlockTableSequence {
    int id = 0;
    QString label;                  // "prompt", "beam 2"; empty: "sequence <id>"
    int64_t positions = 0;          // positions the sequence holds in the cache
    std::vector<int32_t> blocks;    // (logical blocks) -> pool block; covers positions (may hold more)
};

struct BlockTableData {
    int64_t blockSize = 16;         // positions per block
    int64_t nBlocks = 0;            // blocks in the pool
    int64_t contextLength = 0;      // what a contiguous allocator reserves per sequence; 0: no such section
    int64_t bytesPerBlock = 0;      // K and V over all layers, for the tooltip; 0: not shown
    std::vector<int> refCount;      // (nBlocks) tables pointing at the block; 0 = free, > 1 = shared
    std::vector<BlockTableSequence> sequences;
};

// The label a sequence is shown with.
QString sequenceLabel(const BlockTableSequence& s);

// Throws std::invalid_argument with one sentence naming what does not fit ("sequence 'beam 2' (id 3):
// logical block 4 points at pool block 70, outside the pool's 64 blocks (0-63)"): sizes, refCount per
// block, block indices, blocks too few for the positions, positions beyond the context length, a
// block in a table whose refCount says it is free.
void validateBlockTable(const BlockTableData& data);

}  // namespace dlab::widgets
