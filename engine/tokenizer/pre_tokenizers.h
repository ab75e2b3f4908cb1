#pragma once
// Byte-level BPE pre-tokenizers, keyed by tokenizer.ggml.pre.
//
// A pre-tokenizer is a list of regexes applied in sequence (llama.cpp's llm_tokenizer_bpe):
// the first splits the text into its matches and the gaps between them, the next splits each
// of those pieces the same way, and so on. BPE merges never cross a piece boundary.
// Regexes and flags follow llama.cpp's src/llama-vocab.cpp (which adapts each model's
// tokenizer.json), so token ids match llama.cpp's exactly.
#include <optional>
#include <string>
#include <vector>

namespace dlab {

struct PreTokenizerConfig {
    std::string kind;                    // the llama.cpp pre-type, e.g. "llama3" for "llama-bpe"
    std::vector<std::string> regexes;    // PCRE2 syntax, applied in sequence
    bool byteEncode = true;              // spell bytes GPT-2 style before BPE (false: raw UTF-8)
    bool escapeWhitespace = false;       // replace ' ' with U+2581 first (SentencePiece-style BPE)
    bool ignoreMerges = false;           // a piece that is itself a token is emitted whole
    bool keepNewlineRuns = false;        // a piece of only '\n' that is a token is emitted whole
    std::optional<bool> addBos;          // llama.cpp's default when tokenizer.ggml.add_bos_token is absent
    bool alwaysAddBos = false;           // BOS even when the file says not to (llama.cpp's Gemma 4 override)
    bool noBosToken = false;             // the vocabulary has no BOS token (ChatGLM)
};

// The configuration for a tokenizer.ggml.pre value ("" and "default" give the default one),
// or nullptr when the name is not one we support.
const PreTokenizerConfig* findPreTokenizer(const std::string& pre);

// Every supported tokenizer.ggml.pre value, for error messages.
std::string supportedPreTokenizerList();

}  // namespace dlab
