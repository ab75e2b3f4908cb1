#pragma once
// The attention weights of one token, recorded on request by Backend::requestAttention() for the
// last token of the next forward(): what the KV heatmap draws as "attention received".
//
//   perHead: (nLayer, nHead, nSlots)  softmax weights of each query head over the cached slots
//            the token attended to (its own included); every (layer, head) row sums to 1.
// A slot is a cached position of the sequence; KvBlockPool::positionOf() gives its position in
// the text (they differ only after eviction). Query head h reads KV head h / (nHead / nHeadKv)
// (grouped-query attention), which is what perKvGroup() averages over.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlab {

struct AttentionWeights {
    int64_t nLayer = 0, nHead = 0, nHeadKv = 0;
    int64_t nSlots = 0;               // cached slots the token attended to
    int64_t querySlot = 0;           // the token's own slot (= nSlots - 1)
    std::vector<float> perHead;      // (nLayer, nHead, nSlots)

    float at(int64_t layer, int64_t head, int64_t slot) const { return perHead[(layer * nHead + head) * nSlots + slot]; }
    int64_t groupSize() const { return nHeadKv > 0 ? nHead / nHeadKv : 0; }
    // (nLayer, nHeadKv, nSlots): the mean over the query heads that share each KV head.
    std::vector<float> perKvGroup() const;
    // (nLayer, nSlots): the mean over all query heads.
    std::vector<float> meanOverHeads() const;
};

}  // namespace dlab
