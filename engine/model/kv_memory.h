#pragma once
// How much memory a KV cache needs: 2 (K and V) · layers · kv_heads · head_dim · positions ·
// bytes per value (f32 4, f16 2, q8_0 34/32) · sequences. Presets hold the attention shapes of
// well-known models, so the lesson works without downloading them.
#include <cstdint>
#include <string>
#include <vector>

#include "model/hparams.h"
#include "model/kv_type.h"

namespace dlab {

struct KvShape {
    std::string name;        // "Llama 2 7B"
    std::string key;         // "llama2-7b", what --preset takes
    int64_t nLayer = 0;
    int64_t nHead = 0;       // query heads (for the GQA ratio)
    int64_t nHeadKv = 0;
    int64_t headDim = 0;
    int64_t nCtxTrain = 0;   // the context it was trained for
};

const std::vector<KvShape>& kvPresets();
// Case-insensitive match on key or name; throws dlab::Error listing the presets otherwise.
const KvShape& findKvPreset(const std::string& name);
KvShape kvShapeOf(const HParams& hp, const std::string& name);

// Bytes of K and V for one position across all layers, and for `positions` positions of `batch` sequences.
// Both throw dlab::Error when the count does not fit int64_t (never a wrapped, negative number).
int64_t kvBytesPerPosition(const KvShape& s, KvType t);
int64_t kvCacheBytes(const KvShape& s, int64_t positions, KvType t, int64_t batch = 1);

}  // namespace dlab
