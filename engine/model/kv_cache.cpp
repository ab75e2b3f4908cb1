#include "model/kv_cache.h"

#include <cstring>

#include "core/error.h"
#include "quant/fp16.h"

namespace dlab {

const char* kvTypeName(KvType t) { return t == KvType::F32 ? "f32" : "f16"; }

KvType parseKvType(const std::string& s) {
    if (s == "f32") return KvType::F32;
    if (s == "f16") return KvType::F16;
    throw Error("KV cache type '" + s + "' is not supported (supported: f32, f16)");
}

KvCache::KvCache(const HParams& hp, int64_t nCtx, KvType type)
    : type_(type), nCtx_(nCtx), kvDim_(hp.kvDim()) {
    if (nCtx <= 0) throw Error("the context size must be at least 1 (got " + std::to_string(nCtx) + ")");
    const size_t bytes = static_cast<size_t>(nCtx) * kvDim_ * elementBytes();
    k_.assign(hp.nLayer, std::vector<uint8_t>(bytes));
    v_.assign(hp.nLayer, std::vector<uint8_t>(bytes));
}

namespace {
void storeRow(uint8_t* dst, const float* row, int64_t n, KvType type) {
    if (type == KvType::F32) {
        std::memcpy(dst, row, n * sizeof(float));
        return;
    }
    auto* h = reinterpret_cast<uint16_t*>(dst);
    for (int64_t i = 0; i < n; ++i) h[i] = fp32ToFp16(row[i]);
}
}  // namespace

void KvCache::storeK(int64_t layer, int64_t pos, const float* row) { storeRow(kRow(layer, pos), row, kvDim_, type_); }
void KvCache::storeV(int64_t layer, int64_t pos, const float* row) { storeRow(vRow(layer, pos), row, kvDim_, type_); }

void KvCache::setSize(int64_t n) {
    if (n < 0 || n > nCtx_) throw Error("KV cache position " + std::to_string(n) + " is outside the context of " + std::to_string(nCtx_));
    size_ = n;
}

int64_t KvCache::bytesReserved() const { return 2 * static_cast<int64_t>(k_.size()) * nCtx_ * kvDim_ * elementBytes(); }
int64_t KvCache::bytesUsed() const { return 2 * static_cast<int64_t>(k_.size()) * size_ * kvDim_ * elementBytes(); }

}  // namespace dlab
