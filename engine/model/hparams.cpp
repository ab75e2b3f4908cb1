#include "model/hparams.h"

#include <cmath>

#include "core/error.h"
#include "gguf/gguf_file.h"

namespace dlab {

const char* archName(Arch a) {
    switch (a) {
        case Arch::Llama: return "llama";
        case Arch::Qwen2: return "qwen2";
        case Arch::Gpt2: return "gpt2";
    }
    return "?";
}

std::string supportedArchList() { return "llama, qwen2, gpt2"; }

namespace {

int64_t positiveKey(const GgufFile& f, const std::string& key, int64_t limit) {
    const int64_t v = f.getInt(key);
    if (v <= 0 || v > limit)
        throw Error(f.where() + "metadata key '" + key + "' is " + std::to_string(v) + ", outside the valid range 1.." +
                    std::to_string(limit));
    return v;
}

}  // namespace

HParams readHParams(const GgufFile& f) {
    HParams hp;
    hp.archName = f.getString("general.architecture");
    if (hp.archName == "llama") hp.arch = Arch::Llama;
    else if (hp.archName == "qwen2") hp.arch = Arch::Qwen2;
    else if (hp.archName == "gpt2") hp.arch = Arch::Gpt2;
    else
        throw Error(f.where() + "architecture '" + hp.archName + "' is not supported (supported: " + supportedArchList() + ")");
    const std::string a = hp.archName + ".";

    hp.nEmbd = positiveKey(f, a + "embedding_length", 1 << 16);
    hp.nLayer = positiveKey(f, a + "block_count", 1024);
    hp.nHead = positiveKey(f, a + "attention.head_count", 1024);
    hp.nHeadKv = f.has(a + "attention.head_count_kv") ? positiveKey(f, a + "attention.head_count_kv", 1024) : hp.nHead;
    hp.nFf = positiveKey(f, a + "feed_forward_length", 1 << 20);
    hp.nCtxTrain = positiveKey(f, a + "context_length", 1 << 24);
    if (hp.nHead % hp.nHeadKv != 0)
        throw Error(f.where() + "attention.head_count " + std::to_string(hp.nHead) +
                    " is not a multiple of attention.head_count_kv " + std::to_string(hp.nHeadKv));
    if (f.has(a + "attention.key_length")) {
        hp.headDim = positiveKey(f, a + "attention.key_length", 4096);
        if (f.getInt(a + "attention.value_length", hp.headDim) != hp.headDim)
            throw Error(f.where() + "different key and value head sizes are not supported");
    } else {
        if (hp.nEmbd % hp.nHead != 0)
            throw Error(f.where() + "embedding_length " + std::to_string(hp.nEmbd) + " is not a multiple of head_count " +
                        std::to_string(hp.nHead));
        hp.headDim = hp.nEmbd / hp.nHead;
    }

    if (hp.arch == Arch::Gpt2) {
        hp.rope = RopeStyle::None;
        hp.normEps = static_cast<float>(f.getFloat(a + "attention.layer_norm_epsilon", 1e-5));
    } else {
        hp.rope = hp.arch == Arch::Qwen2 ? RopeStyle::NeoX : RopeStyle::Normal;
        hp.normEps = static_cast<float>(f.getFloat(a + "attention.layer_norm_rms_epsilon", 1e-5));
        hp.nRot = f.getInt(a + "rope.dimension_count", hp.headDim);
        if (hp.nRot <= 0 || hp.nRot > hp.headDim || hp.nRot % 2 != 0)
            throw Error(f.where() + "rope.dimension_count " + std::to_string(hp.nRot) + " must be even and at most the head size " +
                        std::to_string(hp.headDim));
        hp.ropeFreqBase = static_cast<float>(f.getFloat(a + "rope.freq_base", 10000.0));
        if (!(hp.ropeFreqBase > 0.0f) || !std::isfinite(hp.ropeFreqBase))
            throw Error(f.where() + "rope.freq_base must be a positive number");
        // GGUF spells linear RoPE scaling as rope.scaling.type "linear" + rope.scaling.factor
        // (older files: rope.scale_linear). Llama 3.x ships per-dimension factors as the tensor
        // rope_freqs.weight instead, which the model loader picks up.
        std::string scaling = f.has(a + "rope.scaling.type") ? f.getString(a + "rope.scaling.type") : "none";
        double factor = f.getFloat(a + "rope.scaling.factor", 0.0);
        if (f.has(a + "rope.scale_linear")) {
            scaling = "linear";
            factor = f.getFloat(a + "rope.scale_linear");
        }
        if (scaling == "linear") {
            if (!(factor > 0.0)) throw Error(f.where() + "rope.scaling.factor must be positive for linear scaling");
            hp.ropeFreqScale = static_cast<float>(1.0 / factor);
        } else if (scaling != "none") {
            throw Error(f.where() + "RoPE scaling type '" + scaling + "' is not supported (supported: none, linear)");
        }
    }
    if (!(hp.normEps > 0.0f) || hp.normEps > 1.0f)
        throw Error(f.where() + "the normalisation epsilon must be in (0, 1]");

    if (f.has(a + "vocab_size")) hp.nVocab = positiveKey(f, a + "vocab_size", 1 << 22);
    else if (const auto* tokens = f.find("tokenizer.ggml.tokens"); tokens && tokens->type == GgufValueType::Array)
        hp.nVocab = static_cast<int64_t>(tokens->arrayCount);
    return hp;
}

}  // namespace dlab
