#include "gguf/tiny_model.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <set>

#include "core/error.h"
#include "gguf/gguf_writer.h"
#include "quant/fp16.h"
#include "quant/quantize.h"

namespace dlab {

namespace {

// ---- deterministic numbers ------------------------------------------------------------------

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t fnv1a(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

// Approximately normal values from the sum of four uniforms (Irwin-Hall). Only + and * on
// exactly representable numbers, so the weights are bit-identical on every platform.
class WeightStream {
public:
    WeightStream(uint64_t seed, const std::string& tensorName) : state_(seed ^ fnv1a(tensorName)) {}

    float normal() {
        double sum = 0.0;
        for (int k = 0; k < 4; ++k) sum += static_cast<double>(splitmix64(state_) >> 11) * 0x1.0p-53;
        return static_cast<float>((sum - 2.0) * 1.7320508075688772);  // variance 4/12 -> 1
    }

private:
    uint64_t state_;
};

// ---- vocabulary -----------------------------------------------------------------------------

std::string utf8(uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

// GPT-2's bytes_to_unicode(): printable Latin-1 bytes stand for themselves, the other 68 bytes
// are moved, in increasing order, to U+0100 and up (so ' ' is 'Ġ' U+0120 and '\n' is 'Ċ').
std::string byteToUnicode(uint8_t b) {
    auto printable = [](int c) { return (c >= '!' && c <= '~') || (c >= 0xA1 && c <= 0xAC) || (c >= 0xAE && c <= 0xFF); };
    if (printable(b)) return utf8(b);
    int n = 0;
    for (int c = 0; c < b; ++c)
        if (!printable(c)) ++n;
    return utf8(256 + n);
}

std::string spell(const std::string& bytes) {
    std::string s;
    for (unsigned char c : bytes) s += byteToUnicode(c);
    return s;
}

// Merges in rank order, as raw text; each side is a token by the time the merge is listed.
constexpr const char* kMerges[][2] = {
    {" ", "t"},  {"h", "e"},   {"i", "n"},   {"e", "r"},  {"a", "n"},  {" ", "a"},    {"o", "n"},  {"r", "e"},
    {" ", "s"},  {" t", "he"}, {"e", "n"},   {"a", "t"},  {"o", "r"},  {" ", "w"},    {"e", "s"},  {"in", "g"},
    {" ", "o"},  {" ", "c"},   {"i", "s"},   {"i", "t"},  {" ", "b"},  {" ", "f"},    {" ", "p"},  {"a", "r"},
    {"e", "d"},  {" ", "m"},   {" ", "d"},   {"a", "l"},  {" ", "an"}, {" an", "d"},  {"o", "u"},  {" ", "h"},
    {"l", "e"},  {" ", "i"},   {" o", "f"},  {" ", "in"}, {" t", "o"}, {" ", "l"},    {"i", "c"},  {" ", "e"},
    {" ", "n"},  {" ", "g"},   {"l", "l"},   {" ", "T"},  {" ", "re"}, {"o", "m"},    {"a", "s"},  {"o", "w"},
    {" ", "is"}, {" ", "I"},   {" ", "A"},   {" ", "it"}, {" ", " "},  {"\n", "\n"},  {"l", "o"},  {" ", "he"},
    {" w", "as"}, {" f", "or"}, {" ", "y"},  {" y", "ou"},
};

TinyVocab makeVocab() {
    TinyVocab v;
    for (int b = 0; b < 256; ++b) v.tokens.push_back(byteToUnicode(static_cast<uint8_t>(b)));
    std::set<std::string> known(v.tokens.begin(), v.tokens.end());
    for (const auto& m : kMerges) {
        const std::string a = spell(m[0]), b = spell(m[1]), ab = spell(std::string(m[0]) + m[1]);
        if (!known.count(a) || !known.count(b) || known.count(ab))
            throw Error("tiny model vocabulary: merge '" + a + " " + b + "' is inconsistent (internal error)");
        v.merges.push_back(a + " " + b);
        v.tokens.push_back(ab);
        known.insert(ab);
    }
    v.types.assign(v.tokens.size(), 1);
    auto control = [&](const char* text) {
        v.tokens.push_back(text);
        v.types.push_back(3);
        return static_cast<int32_t>(v.tokens.size() - 1);
    };
    v.endOfText = control("<|endoftext|>");
    v.imStart = control("<|im_start|>");
    v.imEnd = control("<|im_end|>");
    v.pad = control("<|pad|>");
    if (v.tokens.size() != kTinyVocabSize)
        throw Error("tiny model vocabulary has " + std::to_string(v.tokens.size()) + " tokens, expected " +
                    std::to_string(kTinyVocabSize) + " (internal error)");
    return v;
}

// Qwen2's ChatML template (the shape chat_template.h recognises as ChatML).
constexpr const char* kChatMlTemplate =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
    "'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

// ---- tensors --------------------------------------------------------------------------------

uint32_t fileTypeOf(GgmlType t) {  // llama_ftype: ALL_F32, MOSTLY_F16, MOSTLY_Q4_1, MOSTLY_Q8_0
    switch (t) {
        case GgmlType::F16: return 1;
        case GgmlType::Q4_1: return 3;
        case GgmlType::Q8_0: return 7;
        default: return 0;
    }
}

class TensorMaker {
public:
    TensorMaker(GgufWriter& w, const TinyModelSpec& spec) : w_(w), spec_(spec) {}

    // Weight of a linear map in -> out: ggml shape [in, out], values ~ N(0, std^2), in spec's type.
    void matrix(const std::string& name, int64_t in, int64_t out, float stddev) {
        add(name, spec_.weightType, {in, out}, draw(name, in * out, 0.0f, stddev));
    }
    void embedding(const std::string& name, int64_t in, int64_t out, float stddev) {
        add(name, spec_.embeddingType.value_or(spec_.weightType), {in, out}, draw(name, in * out, 0.0f, stddev));
    }
    // A 1-D F32 tensor ~ N(mean, std^2) (norm weights near 1, small biases).
    void vector(const std::string& name, int64_t n, float mean, float stddev) {
        add(name, GgmlType::F32, {n}, draw(name, n, mean, stddev));
    }
    void f32Matrix(const std::string& name, int64_t in, int64_t out, float stddev) {
        add(name, GgmlType::F32, {in, out}, draw(name, in * out, 0.0f, stddev));
    }

private:
    std::vector<float> draw(const std::string& name, int64_t n, float mean, float stddev) const {
        WeightStream rng(spec_.seed, name);
        std::vector<float> v(static_cast<size_t>(n));
        for (auto& x : v) x = mean + stddev * rng.normal();
        return v;
    }

    void add(const std::string& name, GgmlType type, std::vector<int64_t> shape, const std::vector<float>& v) {
        std::vector<uint8_t> bytes(ggmlRowBytes(type, shape[0]) * (v.size() / shape[0]));
        switch (type) {
            case GgmlType::F32: std::memcpy(bytes.data(), v.data(), bytes.size()); break;
            case GgmlType::F16:
                for (size_t k = 0; k < v.size(); ++k) {
                    const uint16_t h = fp32ToFp16(v[k]);
                    std::memcpy(bytes.data() + 2 * k, &h, 2);
                }
                break;
            default: quantize(type, v.data(), bytes.data(), static_cast<int64_t>(v.size())); break;
        }
        w_.addTensor(name, type, shape, std::move(bytes));
    }

    GgufWriter& w_;
    const TinyModelSpec& spec_;
};

// Spreads chosen so that logits are neither flat nor saturated (std ~1 after the output norm)
// and attention is neither uniform nor one-hot.
constexpr float kEmbdStd = 0.15f, kPosStd = 0.05f, kMatStd = 0.08f, kOutStd = 0.15f;
constexpr float kNormStd = 0.1f, kBiasStd = 0.05f;

void addLlamaLikeTensors(TensorMaker& t, const TinyModelSpec& s, bool qkvBias) {
    const int64_t e = s.nEmbd, headDim = s.nEmbd / s.nHead, kv = headDim * s.nHeadKv;
    t.embedding("token_embd.weight", e, s.nVocab, kEmbdStd);
    t.vector("output_norm.weight", e, 1.0f, kNormStd);
    if (!s.tiedOutput) t.matrix("output.weight", e, s.nVocab, kOutStd);
    for (int l = 0; l < s.nLayer; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        t.vector(p + "attn_norm.weight", e, 1.0f, kNormStd);
        t.matrix(p + "attn_q.weight", e, e, kMatStd);
        t.matrix(p + "attn_k.weight", e, kv, kMatStd);
        t.matrix(p + "attn_v.weight", e, kv, kMatStd);
        if (qkvBias) {
            t.vector(p + "attn_q.bias", e, 0.0f, kBiasStd);
            t.vector(p + "attn_k.bias", kv, 0.0f, kBiasStd);
            t.vector(p + "attn_v.bias", kv, 0.0f, kBiasStd);
        }
        t.matrix(p + "attn_output.weight", e, e, kMatStd);
        t.vector(p + "ffn_norm.weight", e, 1.0f, kNormStd);
        t.matrix(p + "ffn_gate.weight", e, s.nFf, kMatStd);
        t.matrix(p + "ffn_up.weight", e, s.nFf, kMatStd);
        t.matrix(p + "ffn_down.weight", s.nFf, e, kMatStd);
    }
}

void addGpt2Tensors(TensorMaker& t, const TinyModelSpec& s) {
    const int64_t e = s.nEmbd;
    t.embedding("token_embd.weight", e, s.nVocab, kEmbdStd);
    t.f32Matrix("position_embd.weight", e, s.nCtx, kPosStd);
    for (int l = 0; l < s.nLayer; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        t.vector(p + "attn_norm.weight", e, 1.0f, kNormStd);
        t.vector(p + "attn_norm.bias", e, 0.0f, kBiasStd);
        t.matrix(p + "attn_qkv.weight", e, 3 * e, kMatStd);   // rows: q (e), k (e), v (e)
        t.vector(p + "attn_qkv.bias", 3 * e, 0.0f, kBiasStd);
        t.matrix(p + "attn_output.weight", e, e, kMatStd);
        t.vector(p + "attn_output.bias", e, 0.0f, kBiasStd);
        t.vector(p + "ffn_norm.weight", e, 1.0f, kNormStd);
        t.vector(p + "ffn_norm.bias", e, 0.0f, kBiasStd);
        t.matrix(p + "ffn_up.weight", e, s.nFf, kMatStd);
        t.vector(p + "ffn_up.bias", s.nFf, 0.0f, kBiasStd);
        t.matrix(p + "ffn_down.weight", s.nFf, e, kMatStd);
        t.vector(p + "ffn_down.bias", e, 0.0f, kBiasStd);
    }
    t.vector("output_norm.weight", e, 1.0f, kNormStd);
    t.vector("output_norm.bias", e, 0.0f, kBiasStd);
    if (!s.tiedOutput) t.matrix("output.weight", e, s.nVocab, kOutStd);
}

void checkSpec(const TinyModelSpec& s) {
    auto bad = [](const std::string& what) { throw Error("tiny model: " + what); };
    if (s.arch != "llama" && s.arch != "qwen2" && s.arch != "gpt2")
        bad("architecture '" + s.arch + "' is not supported (supported: llama, qwen2, gpt2)");
    bool typeOk = false;
    for (GgmlType t : tinyModelWeightTypes()) typeOk = typeOk || t == s.weightType;
    if (!typeOk) bad("weight type " + ggmlTypeName(s.weightType) + " is not supported");
    if (s.nEmbd <= 0 || s.nHead <= 0 || s.nHeadKv <= 0 || s.nFf <= 0 || s.nLayer <= 0 || s.nCtx <= 0)
        bad("every dimension must be positive");
    if (s.nEmbd > 4096 || s.nFf > 16384 || s.nLayer > 64 || s.nCtx > 65536)
        bad("dimensions are too large for a tiny model");
    if (s.nEmbd % s.nHead != 0) bad("n_embd " + std::to_string(s.nEmbd) + " is not a multiple of n_head " + std::to_string(s.nHead));
    if ((s.nEmbd / s.nHead) % 2 != 0) bad("the head size must be even for RoPE");
    if (s.arch != "gpt2" && s.nHead % s.nHeadKv != 0)
        bad("n_head " + std::to_string(s.nHead) + " is not a multiple of n_head_kv " + std::to_string(s.nHeadKv));
    if (s.nVocab < kTinyVocabSize || s.nVocab > 262144)
        bad("the vocabulary must have between " + std::to_string(kTinyVocabSize) + " and 262144 tokens (got " + std::to_string(s.nVocab) + ")");
    if (s.embeddingType) {
        bool ok = false;
        for (GgmlType t : tinyModelWeightTypes()) ok = ok || t == *s.embeddingType;
        if (!ok) bad("embedding type " + ggmlTypeName(*s.embeddingType) + " is not supported");
        if (s.nEmbd % ggmlTypeTraits(*s.embeddingType).blockSize != 0) bad("n_embd must be a multiple of the embedding type's block size");
    }
    const int64_t block = ggmlTypeTraits(s.weightType).blockSize;
    if (s.nEmbd % block != 0 || s.nFf % block != 0)
        bad("n_embd and n_ff must be multiples of " + std::to_string(block) + " for " + ggmlTypeName(s.weightType));
}

}  // namespace

const TinyVocab& tinyVocab() {
    static const TinyVocab v = makeVocab();
    return v;
}

std::vector<GgmlType> tinyModelWeightTypes() {
    return {GgmlType::F32, GgmlType::F16, GgmlType::Q8_0, GgmlType::Q4_1};
}

GgufWriter buildTinyModel(const TinyModelSpec& s) {
    checkSpec(s);
    const bool gpt2 = s.arch == "gpt2";
    const int nHeadKv = gpt2 ? s.nHead : s.nHeadKv;
    const std::string a = s.arch + ".";
    GgufWriter w;

    // llama.cpp reads these integers as uint32 and these floats as float32, with exact type checks.
    w.addString("general.architecture", s.arch);
    std::string typeName = ggmlTypeName(s.weightType);
    for (auto& c : typeName) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    w.addString("general.name", "tiny-" + s.arch + "-" + typeName + (s.tiedOutput ? "-tied" : ""));
    w.addUInt32("general.file_type", fileTypeOf(s.weightType));
    w.addUInt32(a + "vocab_size", static_cast<uint32_t>(s.nVocab));
    w.addUInt32(a + "context_length", static_cast<uint32_t>(s.nCtx));
    w.addUInt32(a + "embedding_length", static_cast<uint32_t>(s.nEmbd));
    w.addUInt32(a + "block_count", static_cast<uint32_t>(s.nLayer));
    w.addUInt32(a + "feed_forward_length", static_cast<uint32_t>(s.nFf));
    w.addUInt32(a + "attention.head_count", static_cast<uint32_t>(s.nHead));
    w.addUInt32(a + "attention.head_count_kv", static_cast<uint32_t>(nHeadKv));
    if (gpt2) {
        w.addFloat32(a + "attention.layer_norm_epsilon", 1e-5f);
    } else {
        w.addFloat32(a + "attention.layer_norm_rms_epsilon", s.arch == "qwen2" ? 1e-6f : 1e-5f);
        w.addFloat32(a + "rope.freq_base", s.ropeFreqBase > 0 ? s.ropeFreqBase : s.arch == "qwen2" ? 1000000.0f : 10000.0f);
        w.addUInt32(a + "rope.dimension_count", static_cast<uint32_t>(s.nEmbd / s.nHead));
    }

    const TinyVocab& v = tinyVocab();
    std::vector<std::string> tokens = v.tokens;
    std::vector<int64_t> types(v.types.begin(), v.types.end());
    for (int i = kTinyVocabSize; i < s.nVocab; ++i) {
        tokens.push_back("<|extra_" + std::to_string(i) + "|>");
        types.push_back(1);
    }
    w.addString("tokenizer.ggml.model", "gpt2");
    w.addString("tokenizer.ggml.pre", "gpt-2");
    w.addStringArray("tokenizer.ggml.tokens", tokens);
    w.addIntArray("tokenizer.ggml.token_type", GgufValueType::Int32, types);
    w.addStringArray("tokenizer.ggml.merges", v.merges);
    w.addUInt32("tokenizer.ggml.bos_token_id", static_cast<uint32_t>(v.endOfText));
    w.addUInt32("tokenizer.ggml.eos_token_id", static_cast<uint32_t>(v.endOfText));
    w.addUInt32("tokenizer.ggml.padding_token_id", static_cast<uint32_t>(v.pad));
    // llama adds BOS like Llama 3 / SmolLM; qwen2 and gpt2 do not, so both paths get exercised.
    w.addBool("tokenizer.ggml.add_bos_token", s.arch == "llama");
    w.addString("tokenizer.chat_template", kChatMlTemplate);

    TensorMaker t(w, s);
    if (gpt2)
        addGpt2Tensors(t, s);
    else
        addLlamaLikeTensors(t, s, s.arch == "qwen2");
    return w;
}

TinyModelSpec smollm2_135mShape() {
    TinyModelSpec s;
    s.arch = "llama";
    s.weightType = GgmlType::Q4_1;
    s.embeddingType = GgmlType::Q8_0;
    s.tiedOutput = true;
    s.nEmbd = 576;
    s.nHead = 9;
    s.nHeadKv = 3;
    s.nFf = 1536;
    s.nLayer = 30;
    s.nCtx = 8192;
    s.nVocab = 49152;
    s.ropeFreqBase = 100000.0f;
    return s;
}

void writeTinyModel(const TinyModelSpec& spec, const std::string& path) {
    buildTinyModel(spec).write(path);
}

}  // namespace dlab
