#include "tokenizer/vocab.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include <spdlog/spdlog.h>

#include "core/error.h"
#include "gguf/gguf_file.h"

namespace dlab {
namespace {

uint32_t attrOfType(int64_t type) {
    switch (type) {
        case 1: return kAttrNormal;
        case 2: return kAttrUnknown;
        case 3: return kAttrControl;
        case 4: return kAttrUserDefined;
        case 5: return kAttrUnused;
        case 6: return kAttrByte;
        default: return kAttrUndefined;
    }
}

bool isOneOf(const std::string& s, std::initializer_list<const char*> list) {
    for (const char* t : list)
        if (s == t) return true;
    return false;
}

// Token texts llama.cpp treats as end-of-generation whatever the metadata says.
const std::initializer_list<const char*> kEogTexts = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
    "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
    "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
    "<\xEF\xBD\x9C" "end\xE2\x96\x81" "of\xE2\x96\x81" "sentence\xEF\xBD\x9C>",  // DeepSeek's <｜end▁of▁sentence｜>
    "[e~[",
};

// Texts that identify the end-of-turn token when tokenizer.ggml.eot_token_id is absent.
const std::initializer_list<const char*> kEotTexts = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>",
    "<EOT>", "_<EOT>", "[EOT]",
    "<\xEF\xBD\x9C" "end\xE2\x96\x81" "of\xE2\x96\x81" "sentence\xEF\xBD\x9C>",
    "<end_of_utterance>",
};

// Fill-in-the-middle pad / repo / file-separator tokens also end generation in llama.cpp.
const std::initializer_list<const char*> kFimPadTexts = {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"};
const std::initializer_list<const char*> kFimRepTexts = {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"};
const std::initializer_list<const char*> kFimSepTexts = {"<|file_sep|>"};

}  // namespace

Vocab Vocab::load(const GgufFile& file, const VocabDefaults& d) {
    Vocab v;
    const GgufValue& tokens = file.getArray("tokenizer.ggml.tokens", GgufValueType::String);
    const size_t n = tokens.strings.size();
    if (n == 0) throw Error(file.where() + "tokenizer.ggml.tokens is empty");

    if (const GgufValue* s = file.find("tokenizer.ggml.scores")) {
        const bool isFloat = s->type == GgufValueType::Array &&
                             (s->arrayType == GgufValueType::Float32 || s->arrayType == GgufValueType::Float64);
        const GgufValue& arr = file.getArray("tokenizer.ggml.scores", isFloat ? GgufValueType::Float32 : GgufValueType::Int32);
        const size_t count = isFloat ? arr.floats.size() : arr.ints.size();
        if (count < n)
            throw Error(file.where() + "tokenizer.ggml.scores has " + std::to_string(count) + " entries for " +
                        std::to_string(n) + " tokens");
        v.scores_.resize(n);
        for (size_t i = 0; i < n; ++i) v.scores_[i] = isFloat ? static_cast<float>(arr.floats[i]) : static_cast<float>(arr.ints[i]);
    }

    v.attrs_.assign(n, kAttrNormal);
    if (file.has("tokenizer.ggml.token_type")) {
        const GgufValue& types = file.getArray("tokenizer.ggml.token_type", GgufValueType::Int32);
        if (types.ints.size() < n)
            throw Error(file.where() + "tokenizer.ggml.token_type has " + std::to_string(types.ints.size()) +
                        " entries for " + std::to_string(n) + " tokens");
        for (size_t i = 0; i < n; ++i) v.attrs_[i] = attrOfType(types.ints[i]);
    }

    v.tokens_.resize(n);
    v.ids_.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        std::string word = tokens.strings[i];
        if (word.empty()) word = "[EMPTY_" + std::to_string(i) + "]";  // as llama.cpp does
        v.ids_[word] = static_cast<TokenId>(i);                          // a later duplicate wins
        v.tokens_[i] = std::move(word);
    }

    // Special ids: the kind's defaults (dropped if out of range), then the file's keys.
    auto inRange = [&](int64_t id) { return id >= 0 && id < static_cast<int64_t>(n); };
    auto special = [&](TokenId fallback, std::initializer_list<const char*> keys) {
        TokenId id = inRange(fallback) ? fallback : -1;
        for (const char* key : keys)
            if (file.has(key)) {
                const int64_t k = file.getInt(key);
                if (inRange(k)) {
                    id = static_cast<TokenId>(k);
                } else {
                    // llama.cpp keeps going too, but a wrong BOS/EOS changes every prompt and where
                    // generation stops: say so (once, at load) instead of replacing it silently.
                    spdlog::warn("{}{} is {}, outside the vocabulary of {} tokens; using {} instead", file.where(), key, k, n,
                                 id >= 0 ? "the default id " + std::to_string(id) : std::string("no token"));
                }
            }
        return id;
    };
    v.bos = special(d.bos, {"tokenizer.ggml.bos_token_id"});
    v.eos = special(d.eos, {"tokenizer.ggml.eos_token_id"});
    v.unk = special(d.unk, {"tokenizer.ggml.unknown_token_id"});
    v.eot = special(-1, {"tokenizer.ggml.eot_token_id"});
    v.eom = special(-1, {"tokenizer.ggml.eom_token_id"});
    v.pad = special(-1, {"tokenizer.ggml.padding_token_id"});

    v.addBos = file.getBool("tokenizer.ggml.add_bos_token", d.addBos) || d.forceAddBos;
    if (v.addBos && v.bos < 0)
        throw Error(file.where() + "tokenizer.ggml.add_bos_token is true but the vocabulary has no BOS token");

    v.fixUpSpecialTokens(file);

    for (size_t i = 0; i < n; ++i)
        if (v.attrs_[i] & (kAttrControl | kAttrUserDefined | kAttrUnknown)) v.specialTokens.push_back(static_cast<TokenId>(i));
    std::stable_sort(v.specialTokens.begin(), v.specialTokens.end(),
                     [&](TokenId a, TokenId b) { return v.text(a).size() > v.text(b).size(); });
    return v;
}

// llama.cpp's text-based corrections: finds EOT/EOM/FIM tokens by name, marks them control,
// builds the end-of-generation set and sets per-model strip flags.
void Vocab::fixUpSpecialTokens(const GgufFile& file) {
    const size_t n = tokens_.size();
    auto markControl = [&](size_t i) { attrs_[i] |= kAttrControl; };
    auto specialKey = [&](std::initializer_list<const char*> keys) {
        TokenId id = -1;
        for (const char* key : keys)
            if (file.has(key)) {
                const int64_t k = file.getInt(key);
                if (k >= 0 && k < static_cast<int64_t>(n)) id = static_cast<TokenId>(k);
            }
        return id;
    };
    // Fill-in-the-middle tokens: from the keys, else found by text (pad, repo and file
    // separator also end generation).
    TokenId fimPad = specialKey({"tokenizer.ggml.fim_pad_token_id"});
    TokenId fimRep = specialKey({"tokenizer.ggml.fim_rep_token_id"});
    TokenId fimSep = specialKey({"tokenizer.ggml.fim_sep_token_id"});

    // Find unset EOT / EOM / FIM tokens by text. llama.cpp takes whichever candidate its hash
    // map yields first; we take the first candidate in list order, which agrees with it on the
    // vocabularies we test (<|eot_id|> over <|end_of_text|>, <|im_end|> over <|endoftext|>).
    auto detect = [&](TokenId& id, std::initializer_list<const char*> texts) {
        if (id >= 0) return;
        for (const char* t : texts) {
            const TokenId found = find(t);
            if (found >= 0) {
                id = found;
                markControl(static_cast<size_t>(found));
                return;
            }
        }
    };
    detect(eot, kEotTexts);
    detect(eom, {"<|eom_id|>"});
    detect(fimPad, kFimPadTexts);
    detect(fimRep, kFimRepTexts);
    detect(fimSep, kFimSepTexts);
    TokenId fimPre = specialKey({"tokenizer.ggml.fim_pre_token_id", "tokenizer.ggml.prefix_token_id"});
    TokenId fimSuf = specialKey({"tokenizer.ggml.fim_suf_token_id", "tokenizer.ggml.suffix_token_id"});
    TokenId fimMid = specialKey({"tokenizer.ggml.fim_mid_token_id", "tokenizer.ggml.middle_token_id"});
    detect(fimPre, {"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "begin\xEF\xBD\x9C>",
                    "<PRE>", "\xE2\x96\x81<PRE>", "<|code_prefix|>", "<|prefix|>"});
    detect(fimSuf, {"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "hole\xEF\xBD\x9C>",
                    "<SUF>", "\xE2\x96\x81<SUF>", "<|code_suffix|>", "<|suffix|>"});
    detect(fimMid, {"<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "end\xEF\xBD\x9C>",
                    "<MID>", "\xE2\x96\x81<MID>", "<|code_middle|>", "<|middle|>"});

    // Control tokens whose text says "unused" are unused.
    for (size_t i = 0; i < n; ++i)
        if ((attrs_[i] & kAttrControl) && tokens_[i].find("unused") != std::string::npos) attrs_[i] |= kAttrUnused;

    eog_.assign(n, false);
    for (TokenId id : {fimPad, fimRep, fimSep})
        if (id >= 0) eog_[static_cast<size_t>(id)] = true;
    for (size_t i = 0; i < n; ++i)
        if (isOneOf(tokens_[i], kEogTexts)) {
            eog_[i] = true;
            markControl(i);
        }
    // gpt-oss: these are always rendered.
    for (size_t i = 0; i < n; ++i)
        if (isOneOf(tokens_[i], {"<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"})) attrs_[i] = kAttrUserDefined;
    for (TokenId id : {eos, eot, eom})
        if (id >= 0) eog_[static_cast<size_t>(id)] = true;

    // o200k_harmony / solar-open: "<|end|>" is not an end of generation there.
    auto eogWithText = [&](const char* t) {
        const TokenId id = find(t);
        return id >= 0 && eog_[static_cast<size_t>(id)] ? id : TokenId(-1);
    };
    const TokenId endId = eogWithText("<|end|>");
    const bool hasReturn = eogWithText("<|return|>") >= 0;
    const bool hasCall = eogWithText("<|call|>") >= 0 || eogWithText("<|calls|>") >= 0;
    const bool hasFlush = eogWithText("<|flush|>") >= 0;
    if (endId >= 0 && ((hasReturn && hasCall) || (hasCall && hasFlush))) {
        eog_[static_cast<size_t>(endId)] = false;
        attrs_[static_cast<size_t>(endId)] = kAttrUserDefined;
    }
    // Gemma 4 and PLaMo have an ordinary "</s>".
    const TokenId sId = eogWithText("</s>");
    if (sId >= 0 && (eogWithText("<|tool_response>") >= 0 || eogWithText("<|plamo:eos|>") >= 0)) {
        eog_[static_cast<size_t>(sId)] = false;
        attrs_[static_cast<size_t>(sId)] = kAttrNormal;
    }

    // Per-model strip flags that GGUF files do not carry.
    std::string name = file.has("general.name") ? file.getString("general.name") : "";
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string pre = file.has("tokenizer.ggml.pre") ? file.getString("tokenizer.ggml.pre") : "";
    const std::string arch = file.has("general.architecture") ? file.getString("general.architecture") : "";
    auto setAttr = [&](const char* text, uint32_t bit, bool on) {
        const TokenId id = find(text);
        if (id < 0) return;
        if (on) attrs_[static_cast<size_t>(id)] |= bit;
        else attrs_[static_cast<size_t>(id)] &= ~bit;
    };
    if (pre.find("jina-v2-") != std::string::npos || arch.find("nomic-bert-moe") != std::string::npos ||
        arch.find("jina-bert-v3") != std::string::npos) {
        setAttr("<mask>", kAttrLStrip, true);
    } else if (name.find("phi-3") != std::string::npos || name.find("phi3") != std::string::npos) {
        for (size_t i = 0; i < n; ++i)
            if (attrs_[i] & (kAttrControl | kAttrUserDefined | kAttrUnknown)) attrs_[i] |= kAttrRStrip;
        setAttr("</s>", kAttrRStrip, true);
        for (const char* t : {"<unk>", "<s>", "<|endoftext|>"}) setAttr(t, kAttrRStrip, false);
    } else if (name.find("modern-bert") != std::string::npos) {
        setAttr("[MASK]", kAttrLStrip, true);
    }
}

}  // namespace dlab
