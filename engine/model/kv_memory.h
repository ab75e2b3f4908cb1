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

class GgufFile;

struct KvShape {
    std::string name;        // "Llama 2 7B"
    std::string key;         // "llama2-7b", what --preset takes
    int64_t nLayer = 0;
    int64_t nHead = 0;       // query heads (for the GQA ratio)
    int64_t nHeadKv = 0;
    int64_t headDim = 0;
    int64_t nCtxTrain = 0;   // the context it was trained for
    double parameters = 0;   // weights, from the model card (the loaded model: counted in its file)
    double weightBytes = 0;  // the loaded model's tensor bytes as stored; 0 for presets (see weightsBytes)
};

// How K/V heads are shared: as the model was trained, every query head its own (MHA), or one
// K/V head for all (MQA). The lesson's what-if: the same model with another attention layout.
enum class KvHeadLayout { AsTrained, Mha, Mqa };
KvShape withHeadLayout(const KvShape& s, KvHeadLayout layout);

// Weight bytes: the file's own for a loaded model, otherwise parameters at `bytesPerWeight`
// (f16 2, q8_0 34/32, q4_0 18/32).
double weightsBytes(const KvShape& s, double bytesPerWeight = 2.0);

// GPU memory sizes the calculator draws, in GiB (what the cards hold: an A100 40GB has 40 GiB).
const std::vector<int>& gpuSizesGiB();
// This machine's physical memory in bytes (where the CPU engine keeps weights and cache); 0 when
// the system does not say.
double physicalMemoryBytes();
// How many sequences of bytesPerSequence fit in capacity after `reserved` bytes (the weights;
// 0 for the lesson's "KV cache only" count); 0 when nothing fits.
int64_t sequencesThatFit(double capacityBytes, double reservedBytes, double bytesPerSequence);

const std::vector<KvShape>& kvPresets();
// Case-insensitive match on key or name; throws dlab::Error listing the presets otherwise.
const KvShape& findKvPreset(const std::string& name);
KvShape kvShapeOf(const HParams& hp, const std::string& name);
// kvShapeOf() plus the file's parameter count and tensor bytes.
KvShape kvShapeOf(const HParams& hp, const GgufFile& file, const std::string& name);

// Bytes of K and V for one position across all layers, and for `positions` positions of `batch` sequences.
// Both throw dlab::Error when the count does not fit int64_t (never a wrapped, negative number).
int64_t kvBytesPerPosition(const KvShape& s, KvType t);
int64_t kvCacheBytes(const KvShape& s, int64_t positions, KvType t, int64_t batch = 1);

}  // namespace dlab
