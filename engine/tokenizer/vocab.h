#pragma once
// The token table shared by all tokenizer kinds: strings, scores, attributes, special ids and
// the end-of-generation set, read from tokenizer.ggml.* with llama.cpp's defaults and fix-ups
// (llama_vocab::impl::load), so that special-token handling matches llama.cpp.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

class GgufFile;

// llama.cpp's llama_token_attr bits.
enum TokenAttr : uint32_t {
    kAttrUndefined = 0,
    kAttrUnknown = 1u << 0,
    kAttrUnused = 1u << 1,
    kAttrNormal = 1u << 2,
    kAttrControl = 1u << 3,
    kAttrUserDefined = 1u << 4,
    kAttrByte = 1u << 5,
    kAttrNormalized = 1u << 6,
    kAttrLStrip = 1u << 7,
    kAttrRStrip = 1u << 8,
};

// What the tokenizer kind assumes when the file is silent (llama.cpp's per-type defaults).
struct VocabDefaults {
    TokenId bos = -1;
    TokenId eos = -1;
    TokenId unk = -1;
    bool addBos = false;
    bool forceAddBos = false;   // add BOS even if tokenizer.ggml.add_bos_token says false (Gemma 4)
};

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class Vocab {
public:
    // Reads tokens, types, scores and special ids. Throws dlab::Error naming the file and key.
    static Vocab load(const GgufFile& file, const VocabDefaults& defaults);

    int size() const { return static_cast<int>(tokens_.size()); }
    bool contains(TokenId id) const { return id >= 0 && id < size(); }
    const std::string& text(TokenId id) const { return tokens_[static_cast<size_t>(id)]; }
    float score(TokenId id) const { return scores_.empty() ? 0.0f : scores_[static_cast<size_t>(id)]; }
    uint32_t attr(TokenId id) const { return attrs_[static_cast<size_t>(id)]; }
    // The id of a token string, or -1.
    TokenId find(std::string_view text) const {
        const auto it = ids_.find(text);
        return it == ids_.end() ? -1 : it->second;
    }

    TokenId bos = -1, eos = -1, eot = -1, eom = -1, unk = -1, pad = -1;
    bool addBos = false;
    // Control, user-defined and unknown tokens, longest text first: the order in which
    // llama.cpp cuts them out of the input.
    std::vector<TokenId> specialTokens;
    bool isEndOfGeneration(TokenId id) const { return contains(id) && eog_[static_cast<size_t>(id)]; }

private:
    void fixUpSpecialTokens(const GgufFile& file);

    std::vector<std::string> tokens_;
    std::vector<float> scores_;
    std::vector<uint32_t> attrs_;
    std::vector<bool> eog_;
    std::unordered_map<std::string, TokenId, StringHash, std::equal_to<>> ids_;
};

}  // namespace dlab
