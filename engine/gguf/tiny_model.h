#pragma once
// Tiny random-weights models (llama, qwen2, gpt2) written with llama.cpp's tensor names and
// metadata keys, so the same file runs in our engine and in llama.cpp (the reference).
//
// Weights are deterministic: every tensor draws from its own PRNG stream seeded by
// (seed, tensor name), so the tied and untied variants share token_embd, and a change of
// dimensions leaves the other tensors' streams alone. All models carry the same 320-token
// byte-level BPE vocabulary (tokenizer.ggml.model "gpt2", pre "gpt-2"):
//   ids 0..255   the 256 bytes, in GPT-2's byte-to-unicode spelling ("Ġ" is the space byte)
//   ids 256..315 60 merges of common English pairs (" t", "he", " the", "ing", ...)
//   ids 316..319 control tokens <|endoftext|> (bos = eos), <|im_start|>, <|im_end|>, <|pad|>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gguf/ggml_type.h"

namespace dlab {

class GgufWriter;

struct TinyModelSpec {
    std::string arch = "llama";           // "llama" | "qwen2" | "gpt2"
    uint64_t seed = 1;
    // Type of the 2-D weights (token_embd, output, attention, feed-forward): F32, F16, Q8_0 or
    // Q4_1. Norms, biases and gpt2's position_embd always stay F32, as llama.cpp's converters keep them.
    GgmlType weightType = GgmlType::F32;
    bool tiedOutput = false;              // no output.weight: the output projection reuses token_embd
    int nEmbd = 64;
    int nHead = 4;
    int nHeadKv = 2;                      // GQA for llama/qwen2; gpt2 always uses nHead
    int nFf = 128;
    int nLayer = 2;
    int nCtx = 128;
    // Beyond the 320-token vocabulary: filler tokens "<|extra_N|>" (normal tokens no merge makes),
    // so a model of a real model's shape has its embedding and output sizes.
    int nVocab = 320;
    std::optional<GgmlType> embeddingType;   // token_embd's type, when it differs from weightType
    float ropeFreqBase = 0.0f;                // 0: llama 10000, qwen2 1000000
};

// The default model's shape and tensor types (SmolLM2-135M-Instruct Q4_1: 30 layers of 576, 9 query
// and 3 K/V heads, feed-forward 1536, 49152 tokens, Q4_1 matrices, a Q8_0 token embedding tied to
// the output, rope base 100000), with random weights: the GPU machine's parity and speed model.
TinyModelSpec smollm2_135mShape();

struct TinyVocab {
    std::vector<std::string> tokens;      // as stored in tokenizer.ggml.tokens
    std::vector<int32_t> types;           // 1 = normal, 3 = control (llama.cpp's token types)
    std::vector<std::string> merges;      // "Ġ t", in rank order
    int32_t endOfText = 0, imStart = 0, imEnd = 0, pad = 0;
};

constexpr int kTinyVocabSize = 320;

const TinyVocab& tinyVocab();

// Checks the spec (throws dlab::Error naming the bad field) and fills a writer with the model.
GgufWriter buildTinyModel(const TinyModelSpec& spec);
// buildTinyModel(spec) written to path; throws dlab::Error if the file cannot be written.
void writeTinyModel(const TinyModelSpec& spec, const std::string& path);

// Weight types writeTinyModel can produce: F32, F16, Q8_0, Q4_1.
std::vector<GgmlType> tinyModelWeightTypes();

}  // namespace dlab
