#pragma once
// Byte-level BPE (tokenizer.ggml.model "gpt2"): pre-tokenizer regexes split the text into
// words, each word is spelled in GPT-2's byte alphabet, then adjacent symbols are merged,
// lowest merge rank first (leftmost on ties), until no listed merge applies.
// Also serves SentencePiece-style BPE over raw UTF-8 (Gemma 4) via the pre-tokenizer's flags.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "tokenizer/pre_tokenizers.h"
#include "tokenizer/regex_splitter.h"
#include "tokenizer/vocab_tokenizer.h"

namespace dlab {

class BpeTokenizer : public VocabTokenizer {
public:
    // merges: tokenizer.ggml.merges, "left right" in rank order.
    BpeTokenizer(Vocab vocab, const std::vector<std::string>& merges, const PreTokenizerConfig& pre,
                 std::string modelName, std::string preName);

protected:
    void encodeFragments(const std::vector<Fragment>& fragments, std::vector<TokenId>& out) const override;
    std::string normalPiece(const std::string& tokenText) const override;

private:
    void encodeWord(const std::string& word, std::vector<TokenId>& out) const;
    // Rank of merging the two symbols, or -1.
    int rank(TokenId leftId, std::string_view left, TokenId rightId, std::string_view right) const;

    PreTokenizerConfig config_;
    RegexSplitter splitter_;
    // (left id << 32 | right id) -> rank, for merges of two vocabulary tokens (all of them in
    // practice); merges naming a non-token go to the string-keyed map.
    std::unordered_map<uint64_t, int> pairRanks_;
    std::unordered_map<std::string, int> stringRanks_;   // "left\0right" -> rank
};

}  // namespace dlab
