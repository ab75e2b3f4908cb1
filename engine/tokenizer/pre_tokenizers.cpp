#include "tokenizer/pre_tokenizers.h"

#include <map>

namespace dlab {
namespace {

// The regexes, as llama.cpp's src/llama-vocab.cpp writes them (its "adapted" forms: case-
// insensitive groups spelled out as [sS] so that std::regex can run them).
namespace re {

const char* const kGpt2 = R"RE('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))RE";

const char* const kLlama3 =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kJais2 =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s{512}(?!\S)|\s{256}(?!\S)|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1})RE";

const char* const kQwen2 =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kQwen35 =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kDeepseekLlmLetters =
    R"RE(\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+)RE";
const char* const kDeepseekLlmPunct = R"RE(\s?[!-/:-~！-／：-～‘-‟　-。]+)RE";
const char* const kCjkHangul = R"RE([一-龥ࠀ-一가-퟿]+)RE";
const char* const kCjkKana = R"RE([一-龥぀-ゟ゠-ヿ]+)RE";

const char* const kDeepseek3 =
    R"RE([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";
const char* const kSpark25 =
    R"RE([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+|[\r\n]|\s+(?!\S)|\s+)RE";

const char* const kYoutuCjk = R"RE([가-힣ㄱ-ㆎ]+|[！…“”‘’—：；，、-〿︰-﹏]+|[ㄅ-ㄯ]+|[一-龥぀-ゟ゠-ヿ]+)RE";
const char* const kYoutu =
    R"RE([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kFinnish = R"RE( ?[^(\s|.,!?…。，、।۔،)]+)RE";

const char* const kTekken =
    R"RE([^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kGpt4o =
    R"RE([^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kGraniteEmbMulti =
    R"RE([^\r\n\p{L}\p{N}]?((?=[\p{L}\p{M}])([^a-z]))*((?=[\p{L}\p{M}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}\p{M}])([^a-z]))+((?=[\p{L}\p{M}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kBailingMoe =
    R"RE('(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+)RE";

const char* const kSeedCoder =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kUfakzeka = R"RE([^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kExaoneMoe =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+)RE";

const char* const kMiniCpm5 =
    R"RE((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)RE";

const char* const kNewlineRuns = R"RE([^\n]+|[\n]+)RE";

}  // namespace re

PreTokenizerConfig make(std::string kind, std::vector<std::string> regexes) {
    PreTokenizerConfig c;
    c.kind = std::move(kind);
    c.regexes = std::move(regexes);
    return c;
}

// kind -> configuration, one entry per llama.cpp LLAMA_VOCAB_PRE_TYPE_* we support.
std::map<std::string, PreTokenizerConfig> buildKinds() {
    std::map<std::string, PreTokenizerConfig> k;
    auto add = [&](PreTokenizerConfig c) { k.emplace(c.kind, std::move(c)); };

    add(make("default", {R"RE([\p{P}\$\+<=>\^~\|]+)RE", re::kGpt2, R"RE(\p{N}+)RE", "[0-9][0-9][0-9]"}));
    add(make("gpt2", {re::kGpt2}));
    add(make("starcoder", {R"RE(\p{N})RE", re::kGpt2}));
    add(make("falcon", {R"RE([\p{P}\$\+<=>\^~\|`]+)RE", re::kGpt2, "[0-9][0-9][0-9]"}));
    add(make("llama3", {re::kLlama3}));          // flags set per name below
    add(make("jais2", {re::kJais2}));
    add(make("qwen2", {re::kQwen2}));
    add(make("qwen35", {re::kQwen35}));
    add(make("deepseek-llm", {R"RE([\r\n])RE", re::kDeepseekLlmLetters, re::kDeepseekLlmPunct, R"RE(\s+$)RE",
                              re::kCjkHangul, R"RE(\p{N}+)RE"}));
    add(make("deepseek3", {R"RE(\p{N}{1,3})RE", re::kCjkKana, re::kDeepseek3}));
    add(make("spark2_5", {R"RE(\p{N}{1,3})RE", re::kCjkKana, re::kSpark25, R"RE(\p{N})RE"}));
    add(make("youtu", {re::kYoutuCjk, re::kYoutu}));
    add(make("deepseek-coder", {R"RE([\r\n])RE", R"RE(\s?\p{L}+)RE", R"RE(\s?\p{P}+)RE", re::kCjkHangul, R"RE(\p{N})RE"}));
    add(make("poro", {re::kFinnish}));
    add(make("viking", {re::kFinnish, R"RE(\p{N})RE"}));
    add(make("tekken", {re::kTekken}));
    add(make("chameleon", {R"RE(<sentinel:[0-9]+>)RE", R"RE((IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z)RE",
                           R"RE(([\t\n]|    |  ))RE", R"RE(\p{N})RE", R"RE([\p{P}!-/:-@\[-`{-~])RE", re::kGpt2}));
    add(make("gpt4o", {re::kGpt4o}));
    add(make("granite-emb-multi", {re::kGraniteEmbMulti}));
    add(make("superbpe", {R"RE(\p{N}+)RE", R"RE((?=(\d{3})+(?!\d)))RE"}));
    add(make("bailingmoe", {re::kBailingMoe}));
    add(make("seed-coder", {re::kSeedCoder}));
    add(make("ufakzeka", {re::kUfakzeka}));
    add(make("laguna", {re::kNewlineRuns, re::kQwen2}));
    add(make("exaone-moe", {re::kExaoneMoe}));
    add(make("minicpm5", {R"RE(\p{N}{1,3})RE", re::kMiniCpm5}));
    add(make("gemma4", {re::kNewlineRuns}));
    return k;
}

struct Table {
    std::map<std::string, PreTokenizerConfig> byName;

    Table() {
        const auto kinds = buildKinds();
        // name -> (kind, tweak); tweaks are llama.cpp's per-name flags.
        auto alias = [&](std::initializer_list<const char*> names, const char* kind,
                         void (*tweak)(PreTokenizerConfig&) = nullptr) {
            for (const char* n : names) {
                PreTokenizerConfig c = kinds.at(kind);
                if (tweak) tweak(c);
                byName.emplace(n, std::move(c));
            }
        };
        auto ignoreMergesAddBos = [](PreTokenizerConfig& c) { c.ignoreMerges = true; c.addBos = true; };
        auto ignoreMerges = [](PreTokenizerConfig& c) { c.ignoreMerges = true; };
        auto addBos = [](PreTokenizerConfig& c) { c.addBos = true; };

        alias({"", "default"}, "default");
        alias({"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2", "jina-v5-nano"},
              "llama3", ignoreMergesAddBos);
        alias({"dbrx", "smaug-bpe"}, "llama3");
        alias({"chatglm-bpe"}, "llama3", [](PreTokenizerConfig& c) { c.noBosToken = true; });
        alias({"glm4", "glm5"}, "llama3", [](PreTokenizerConfig& c) { c.noBosToken = true; c.ignoreMerges = true; });
        alias({"jais-2"}, "jais2");
        alias({"deepseek-llm"}, "deepseek-llm");
        alias({"deepseek-coder"}, "deepseek-coder");
        alias({"deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4"}, "deepseek3");
        alias({"spark2_5"}, "spark2_5");
        alias({"youtu"}, "youtu", ignoreMerges);
        alias({"falcon"}, "falcon");
        alias({"starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b", "mellum2"}, "starcoder");
        alias({"gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de", "a.x-4.0", "mellum",
               "modern-bert", "mpt", "olmo", "jais", "trillion", "granite-docling", "exaone4", "jina-v1-en",
               "jina-v2-code", "roberta-bpe"},
              "gpt2");
        alias({"qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "megrez", "stablelm2", "hunyuan", "solar-open", "grok-2"},
              "qwen2");
        alias({"qwen35"}, "qwen35");
        alias({"poro-chat", "bloom", "gpt3-finnish"}, "poro");
        alias({"viking"}, "viking");
        alias({"tekken"}, "tekken", ignoreMergesAddBos);
        alias({"chameleon"}, "chameleon", addBos);
        alias({"gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2"}, "gpt4o");
        alias({"granite-embed-multi-97m"}, "granite-emb-multi", ignoreMerges);
        alias({"superbpe"}, "superbpe");
        alias({"bailingmoe", "bailingmoe2", "llada-moe"}, "bailingmoe");
        alias({"seed-coder"}, "seed-coder");
        alias({"ufakzeka"}, "ufakzeka");
        alias({"laguna"}, "laguna");
        alias({"exaone-moe"}, "exaone-moe");
        alias({"minicpm5"}, "minicpm5", ignoreMerges);
        // SentencePiece-style BPE over raw UTF-8: spaces become U+2581, bytes fall back to <0xNN>.
        alias({"gemma4", "granite-embed-multi-311m", "sarvam-moe"}, "gemma4", [](PreTokenizerConfig& c) {
            c.byteEncode = false;
            c.escapeWhitespace = true;
        });
        // Gemma 4 alone keeps runs of newlines whole and always adds BOS (llama.cpp PR 21343/21500).
        for (const char* n : {"gemma4", "granite-embed-multi-311m"}) {
            byName.at(n).keepNewlineRuns = true;
            byName.at(n).alwaysAddBos = true;
        }
    }
};

const Table& table() {
    static const Table t;
    return t;
}

}  // namespace

const PreTokenizerConfig* findPreTokenizer(const std::string& pre) {
    const auto& m = table().byName;
    const auto it = m.find(pre);
    return it == m.end() ? nullptr : &it->second;
}

std::string supportedPreTokenizerList() {
    std::string s;
    for (const auto& [name, cfg] : table().byName) {
        if (name.empty()) continue;
        if (!s.empty()) s += ", ";
        s += name;
    }
    return s;
}

}  // namespace dlab
