#pragma once
// SentencePiece-style BPE (tokenizer.ggml.model "llama"): spaces become U+2581 ("▁"), a space
// is prefixed to text that starts the input or follows a special token (add_space_prefix),
// then adjacent symbols are merged whenever their concatenation is a token, highest score
// first (leftmost on ties). Characters no token covers fall back to byte tokens <0xNN>, or to
// the unknown token when the vocabulary has no byte tokens.
#include <string>
#include <vector>

#include "tokenizer/vocab_tokenizer.h"

namespace dlab {

class SpmTokenizer : public VocabTokenizer {
public:
    SpmTokenizer(Vocab vocab, bool addSpacePrefix, std::string preName);

protected:
    void encodeFragments(const std::vector<Fragment>& fragments, std::vector<TokenId>& out) const override;
    std::string normalPiece(const std::string& tokenText) const override;

private:
    void encodeText(const std::string& text, std::vector<TokenId>& out) const;
    void appendByte(uint8_t byte, std::vector<TokenId>& out) const;

    bool addSpacePrefix_;
    TokenId byteTokens_[256];   // <0xNN> (or the single-byte token), -1 if neither exists
};

}  // namespace dlab
