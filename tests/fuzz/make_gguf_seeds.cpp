// Writes the GGUF seed corpus (tests/fuzz/corpus/gguf/) with GgufWriter:
//   make_gguf_seeds OUT_DIR
// Small on purpose (< 50 KB in all): every value type, every tensor layout the reader knows
// how to size, a tokenizer-sized header, and a version 2 file.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "gguf/gguf_writer.h"
#include "gguf/tiny_model.h"

using namespace dlab;

namespace {

void save(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) throw Error(path + ": cannot write the seed");
}

std::vector<uint8_t> filled(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t k = 0; k < n; ++k) v[k] = uint8_t(seed + k * 37);
    return v;
}

GgufWriter everyValueType() {
    GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addUInt8("u8", 200);
    w.addInt8("i8", -100);
    w.addUInt16("u16", 60000);
    w.addInt16("i16", -30000);
    w.addUInt32("u32", 4000000000u);
    w.addInt32("i32", -2000000000);
    w.addUInt64("u64", 1ull << 62);
    w.addInt64("i64", -(1ll << 62));
    w.addFloat32("f32", 1e-5f);
    w.addFloat64("f64", 0.1);
    w.addBool("bool", true);
    w.addStringArray("strings", {"a", "", "\xc4\xa0the", "<|endoftext|>"});
    w.addIntArray("ints", GgufValueType::Int32, {1, -1, 3});
    w.addIntArray("bools", GgufValueType::Bool, {0, 1});
    w.addFloatArray("floats", GgufValueType::Float32, {0.5, -2});
    w.addFloatArray("doubles", GgufValueType::Float64, {1e300});
    w.addTensor("f32", GgmlType::F32, {4}, filled(16, 1));
    w.addTensor("f16", GgmlType::F16, {8, 2}, filled(32, 2));
    w.addTensor("q8_0", GgmlType::Q8_0, {32, 2}, filled(68, 3));
    w.addTensor("q4_1", GgmlType::Q4_1, {32}, filled(20, 4));
    w.addTensor("q4_k", GgmlType::Q4_K, {256}, filled(144, 5));
    w.addTensor("bf16.4d", GgmlType::BF16, {2, 1, 2, 1}, filled(8, 6));
    return w;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_gguf_seeds OUT_DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    try {
        save(dir + "/every-value-type.gguf", everyValueType().toBytes());

        GgufWriter aligned = everyValueType();
        aligned.setAlignment(64);
        save(dir + "/alignment-64.gguf", aligned.toBytes());

        GgufWriter minimal;
        minimal.addString("general.architecture", "gpt2");
        save(dir + "/metadata-only.gguf", minimal.toBytes());

        std::vector<uint8_t> v2 = minimal.toBytes();
        v2[4] = 2;  // the version field; v2 and v3 share the layout
        save(dir + "/version-2.gguf", v2);

        // The tiny models' tokenizer header without the weights (vocabulary-only file).
        const TinyVocab& vocab = tinyVocab();
        GgufWriter tok;
        tok.addString("general.architecture", "llama");
        tok.addString("tokenizer.ggml.model", "gpt2");
        tok.addString("tokenizer.ggml.pre", "gpt-2");
        tok.addStringArray("tokenizer.ggml.tokens", vocab.tokens);
        tok.addIntArray("tokenizer.ggml.token_type", GgufValueType::Int32, std::vector<int64_t>(vocab.types.begin(), vocab.types.end()));
        tok.addStringArray("tokenizer.ggml.merges", vocab.merges);
        tok.addUInt32("tokenizer.ggml.bos_token_id", uint32_t(vocab.endOfText));
        save(dir + "/tokenizer-only.gguf", tok.toBytes());
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
