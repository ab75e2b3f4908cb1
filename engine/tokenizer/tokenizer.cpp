#include "tokenizer/tokenizer.h"

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/pre_tokenizers.h"
#include "tokenizer/spm_tokenizer.h"
#include "tokenizer/utf8.h"
#include "tokenizer/vocab.h"

namespace dlab {

std::unique_ptr<Tokenizer> Tokenizer::fromGguf(const GgufFile& file) {
    if (!file.has("tokenizer.ggml.model"))
        throw Error(file.where() + "metadata key 'tokenizer.ggml.model' is missing, so the file has no tokenizer");
    const std::string model = file.getString("tokenizer.ggml.model");
    const std::string pre = file.has("tokenizer.ggml.pre") ? file.getString("tokenizer.ggml.pre") : "";

    if (model == "llama") {
        // llama.cpp's SPM defaults: <unk> = 0, <s> = 1, </s> = 2, BOS added, space prefix on.
        VocabDefaults d;
        d.unk = 0;
        d.bos = 1;
        d.eos = 2;
        d.addBos = true;
        const bool addSpacePrefix = file.getBool("tokenizer.ggml.add_space_prefix", true);
        return std::make_unique<SpmTokenizer>(Vocab::load(file, d), addSpacePrefix, pre.empty() ? "default" : pre);
    }

    if (model == "gpt2" || model == "gemma4") {
        const std::string preKey = model == "gemma4" ? "gemma4" : pre;
        const PreTokenizerConfig* cfg = findPreTokenizer(preKey);
        if (!cfg)
            throw Error(file.where() + "tokenizer.ggml.pre '" + pre + "' is not a supported pre-tokenizer (supported: " +
                        supportedPreTokenizerList() + ")");
        if (!file.has("tokenizer.ggml.merges"))
            throw Error(file.where() + "metadata key 'tokenizer.ggml.merges' is missing (a BPE tokenizer needs it)");
        const GgufValue& merges = file.getArray("tokenizer.ggml.merges", GgufValueType::String);
        VocabDefaults d;
        if (model == "gpt2" && !cfg->noBosToken) d.bos = d.eos = 11;  // llama.cpp's (Falcon-derived) BPE default
        d.addBos = cfg->addBos.value_or(false);
        d.forceAddBos = cfg->alwaysAddBos;
        return std::make_unique<BpeTokenizer>(Vocab::load(file, d), merges.strings, *cfg, model,
                                              preKey.empty() ? "default" : preKey);
    }

    throw Error(file.where() + "tokenizer.ggml.model '" + model +
                "' is not supported (supported: gpt2 (byte-level BPE), llama (SentencePiece), gemma4)");
}

std::string Tokenizer::decode(const std::vector<TokenId>& ids, bool renderSpecial) const {
    std::string out;
    for (const TokenId id : ids) out += tokenToPiece(id, renderSpecial);
    return out;
}

StreamingDetokenizer::StreamingDetokenizer(const Tokenizer& tok, bool renderSpecial)
    : tok_(tok), renderSpecial_(renderSpecial) {}

std::string StreamingDetokenizer::push(TokenId id) {
    pending_ += tok_.tokenToPiece(id, renderSpecial_);
    const size_t n = utf8::emittablePrefix(pending_);
    std::string out = utf8::sanitize(std::string_view(pending_).substr(0, n));
    pending_.erase(0, n);
    return out;
}

std::string StreamingDetokenizer::flush() {
    std::string out = utf8::sanitize(pending_);
    pending_.clear();
    return out;
}

}  // namespace dlab
