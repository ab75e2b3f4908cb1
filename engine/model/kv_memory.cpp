#include "model/kv_memory.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include <unistd.h>

#include "core/error.h"
#include "gguf/gguf_file.h"

namespace dlab {

// Shapes from each model's config.json (num_hidden_layers, num_attention_heads,
// num_key_value_heads, hidden_size / num_attention_heads, max_position_embeddings).
const std::vector<KvShape>& kvPresets() {
    static const std::vector<KvShape> presets = {
        {"Llama 2 7B", "llama2-7b", 32, 32, 32, 128, 4096, 6.74e9},
        {"Llama 2 13B", "llama2-13b", 40, 40, 40, 128, 4096, 13.0e9},
        {"Llama 3 8B", "llama3-8b", 32, 32, 8, 128, 8192, 8.03e9},
        {"Llama 3 70B", "llama3-70b", 80, 64, 8, 128, 8192, 70.6e9},
        {"Mistral 7B", "mistral-7b", 32, 32, 8, 128, 32768, 7.24e9},
        {"Qwen2.5 0.5B", "qwen2.5-0.5b", 24, 14, 2, 64, 32768, 0.494e9},
        {"Qwen2.5 7B", "qwen2.5-7b", 28, 28, 4, 128, 32768, 7.62e9},
        {"SmolLM2 135M", "smollm2-135m", 30, 9, 3, 64, 8192, 0.135e9},
        {"GPT-2 124M", "gpt2", 12, 12, 12, 64, 1024, 0.124e9},
    };
    return presets;
}

namespace {
std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}
}  // namespace

const KvShape& findKvPreset(const std::string& name) {
    const std::string n = lower(name);
    for (const KvShape& s : kvPresets())
        if (n == s.key || n == lower(s.name)) return s;
    std::string list;
    for (const KvShape& s : kvPresets()) list += (list.empty() ? "" : ", ") + s.key;
    throw Error("unknown preset '" + name + "' (presets: " + list + ")");
}

KvShape kvShapeOf(const HParams& hp, const std::string& name) {
    return {name, name, hp.nLayer, hp.nHead, hp.nHeadKv, hp.headDim, hp.nCtxTrain};
}

KvShape kvShapeOf(const HParams& hp, const GgufFile& file, const std::string& name) {
    KvShape s = kvShapeOf(hp, name);
    for (const GgufTensor& t : file.tensors()) {
        s.parameters += static_cast<double>(t.elements());
        s.weightBytes += static_cast<double>(t.nbytes);
    }
    return s;
}

KvShape withHeadLayout(const KvShape& s, KvHeadLayout layout) {
    KvShape out = s;
    if (layout == KvHeadLayout::Mha) out.nHeadKv = s.nHead;
    if (layout == KvHeadLayout::Mqa) out.nHeadKv = 1;
    return out;
}

double weightsBytes(const KvShape& s, double bytesPerWeight) {
    return s.weightBytes > 0 ? s.weightBytes : s.parameters * bytesPerWeight;
}

const std::vector<int>& gpuSizesGiB() {
    static const std::vector<int> sizes = {24, 40, 80, 141};
    return sizes;
}

double physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 0.0;
}

int64_t sequencesThatFit(double capacityBytes, double reservedBytes, double bytesPerSequence) {
    if (bytesPerSequence <= 0 || capacityBytes <= reservedBytes) return 0;
    return static_cast<int64_t>((capacityBytes - reservedBytes) / bytesPerSequence);
}

namespace {
// a · b, or nullopt when the product does not fit int64_t: the CLI accepts a context of 2^30
// positions and 2^20 sequences, whose product with a big model's bytes per position is past 2^63.
std::optional<int64_t> product(int64_t a, int64_t b) {
    int64_t out = 0;
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &out)) return std::nullopt;
    return out;
}
}  // namespace

int64_t kvBytesPerPosition(const KvShape& s, KvType t) {
    checkKvTypeFits(t, s.headDim);
    std::optional<int64_t> bytes = product(2, s.nLayer);
    if (bytes) bytes = product(*bytes, s.nHeadKv);
    if (bytes) bytes = product(*bytes, static_cast<int64_t>(kvRowBytes(t, s.headDim)));
    if (!bytes)
        throw Error("the KV bytes per position of " + s.name + " (" + std::to_string(s.nLayer) + " layers, " +
                    std::to_string(s.nHeadKv) + " KV heads) do not fit a 64-bit byte count");
    return *bytes;
}

int64_t kvCacheBytes(const KvShape& s, int64_t positions, KvType t, int64_t batch) {
    std::optional<int64_t> bytes = product(kvBytesPerPosition(s, t), positions);
    if (bytes) bytes = product(*bytes, batch);
    if (!bytes)
        throw Error("the KV cache of " + s.name + " for " + std::to_string(positions) + " positions × " +
                    std::to_string(batch) + " sequences is more than 8 EiB (2^63 bytes), too large to count; "
                    "use fewer positions or sequences");
    return *bytes;
}

}  // namespace dlab
