#pragma once
// The key/value cache of one sequence: for every layer, K and V rows for each cached position.
//   k[layer]: (nCtx, kvDim)   v[layer]: (nCtx, kvDim)   stored as f32 or f16
// Rows for positions [0, size()) are valid. The decoding-engine issue replaces this contiguous
// layout with paged blocks shared between sequences; the forward pass only uses the accessors.
#include <cstdint>
#include <string>
#include <vector>

#include "model/hparams.h"

namespace dlab {

enum class KvType { F32, F16 };
const char* kvTypeName(KvType t);
KvType parseKvType(const std::string& s);  // "f32" | "f16"; throws dlab::Error otherwise

class KvCache {
public:
    KvCache(const HParams& hp, int64_t nCtx, KvType type);

    KvType type() const { return type_; }
    int64_t capacity() const { return nCtx_; }
    int64_t size() const { return size_; }
    int64_t kvDim() const { return kvDim_; }
    int elementBytes() const { return type_ == KvType::F32 ? 4 : 2; }

    // Raw row pointers (f32 or f16 depending on type()).
    uint8_t* kRow(int64_t layer, int64_t pos) { return k_[layer].data() + rowOffset(pos); }
    uint8_t* vRow(int64_t layer, int64_t pos) { return v_[layer].data() + rowOffset(pos); }
    const uint8_t* kRow(int64_t layer, int64_t pos) const { return k_[layer].data() + rowOffset(pos); }
    const uint8_t* vRow(int64_t layer, int64_t pos) const { return v_[layer].data() + rowOffset(pos); }

    void storeK(int64_t layer, int64_t pos, const float* row);
    void storeV(int64_t layer, int64_t pos, const float* row);

    // Marks positions [0, n) valid (after a forward pass wrote them) or forgets the rest.
    void setSize(int64_t n);
    void clear() { size_ = 0; }

    // Bytes reserved in all / in use for the cached positions.
    int64_t bytesReserved() const;
    int64_t bytesUsed() const;

private:
    size_t rowOffset(int64_t pos) const { return static_cast<size_t>(pos) * kvDim_ * elementBytes(); }
    KvType type_;
    int64_t nCtx_, kvDim_, size_ = 0;
    std::vector<std::vector<uint8_t>> k_, v_;
};

}  // namespace dlab
