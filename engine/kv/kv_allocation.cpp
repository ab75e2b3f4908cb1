#include "kv/kv_allocation.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace dlab {

KvAllocationReport kvAllocationReport(const KvBlockPool& pool, int64_t contextLength) {
    KvAllocationReport r;
    r.blockSize = pool.blockSize();
    r.contextLength = contextLength;
    r.bytesPerSlot = 2 * pool.nLayer() * static_cast<int64_t>(pool.rowBytes());
    const KvStats st = pool.stats();
    for (const KvSequenceStats& s : st.sequences) {
        if (s.positions > contextLength)
            throw Error("KV sequence " + std::to_string(s.id) + " holds " + std::to_string(s.positions) +
                        " positions, more than the context of " + std::to_string(contextLength) + " to compare with");
        KvSequenceAllocation a;
        a.id = s.id;
        a.positions = s.positions;
        a.blocks = s.blocks;
        a.lastBlockUnused = s.blocks * r.blockSize - s.positions;
        for (int32_t b : pool.blockTable(s.id))
            if (pool.refCount(b) > 1) ++a.sharedBlocks;
        r.positions += s.positions;
        r.perSequence.push_back(a);
    }
    r.sequences = static_cast<int64_t>(r.perSequence.size());
    r.pagedBlocks = st.blocksUsed;
    r.pagedBytes = st.blocksUsed * st.bytesPerBlock;
    for (const KvBlockStats& b : st.blocks) r.uniqueSlotsFilled += b.filled;
    r.pagedUnusedBytes = (r.pagedBlocks * r.blockSize - r.uniqueSlotsFilled) * r.bytesPerSlot;
    r.bytesSavedBySharing = st.bytesSavedBySharing;
    r.contiguousBytes = r.sequences * contextLength * r.bytesPerSlot;
    r.contiguousUnusedBytes = (r.sequences * contextLength - r.positions) * r.bytesPerSlot;
    return r;
}

}  // namespace dlab
