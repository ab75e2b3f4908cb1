#include "widgets/kv_block_table_types.h"

#include <QCoreApplication>

#include <stdexcept>
#include <string>

namespace dlab::widgets {

namespace {

[[noreturn]] void reject(const std::string& sentence) { throw std::invalid_argument(sentence); }

std::string named(const BlockTableSequence& s) {
    return (s.label.isEmpty() ? std::string("sequence") : "sequence '" + s.label.toStdString() + "'") + " (id " +
           std::to_string(s.id) + ")";
}

}  // namespace

QString sequenceLabel(const BlockTableSequence& s) {
    return s.label.isEmpty() ? QCoreApplication::translate("dlab::widgets::KvBlockTableView", "sequence %1").arg(s.id) : s.label;
}

void validateBlockTable(const BlockTableData& d) {
    using std::to_string;
    if (d.blockSize < 1) reject("the block size is " + to_string(d.blockSize) + ", but a block must hold at least one position");
    if (d.nBlocks < 0 || d.contextLength < 0 || d.bytesPerBlock < 0)
        reject("the pool's block count, context length and bytes per block must be 0 or more (got " + to_string(d.nBlocks) +
               ", " + to_string(d.contextLength) + ", " + to_string(d.bytesPerBlock) + ")");
    if (int64_t(d.refCount.size()) != d.nBlocks)
        reject("the pool has " + to_string(d.nBlocks) + " blocks but refCount lists " + to_string(d.refCount.size()) +
               " (give one count per block)");
    for (size_t b = 0; b < d.refCount.size(); ++b)
        if (d.refCount[b] < 0) reject("pool block " + to_string(b) + " has a negative refCount (" + to_string(d.refCount[b]) + ")");
    for (const BlockTableSequence& s : d.sequences) {
        if (s.positions < 0) reject(named(s) + " holds " + to_string(s.positions) + " positions; it must be 0 or more");
        for (size_t l = 0; l < s.blocks.size(); ++l) {
            const int32_t b = s.blocks[l];
            if (b < 0 || b >= d.nBlocks)
                reject(named(s) + ": logical block " + to_string(l) + " points at pool block " + to_string(b) +
                       ", outside the pool's " + to_string(d.nBlocks) + " blocks" +
                       (d.nBlocks > 0 ? " (0–" + to_string(d.nBlocks - 1) + ")" : std::string()));
            if (d.refCount[size_t(b)] == 0)
                reject(named(s) + ": logical block " + to_string(l) + " points at pool block " + to_string(b) +
                       ", whose refCount is 0 (free)");
        }
        if (int64_t(s.blocks.size()) * d.blockSize < s.positions)
            reject(named(s) + " holds " + to_string(s.positions) + " positions, but its " + to_string(s.blocks.size()) +
                   " blocks of " + to_string(d.blockSize) + " hold only " + to_string(int64_t(s.blocks.size()) * d.blockSize));
        if (d.contextLength > 0 && s.positions > d.contextLength)
            reject(named(s) + " holds " + to_string(s.positions) + " positions, more than the context length " +
                   to_string(d.contextLength) + " a contiguous allocator reserves");
    }
}

}  // namespace dlab::widgets
