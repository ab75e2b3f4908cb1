#pragma once
// What byte-level BPE and SentencePiece tokenizers share: the vocabulary, special-token
// splitting, BOS, UTF-8 validation and token-to-text. Subclasses only turn text fragments
// into ids and spell their normal tokens.
#include <string>
#include <vector>

#include "tokenizer/special_split.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/vocab.h"

namespace dlab {

class VocabTokenizer : public Tokenizer {
public:
    std::vector<TokenId> encode(std::string_view text, bool addBos, bool parseSpecial) const override;
    std::string tokenToPiece(TokenId id, bool renderSpecial = false) const override;

    int vocabSize() const override { return vocab_.size(); }
    const std::string& tokenString(TokenId id) const override;
    TokenId bos() const override { return vocab_.bos; }
    TokenId eos() const override { return vocab_.eos; }
    TokenId unk() const override { return vocab_.unk; }
    TokenId eot() const override { return vocab_.eot; }
    bool isEndOfGeneration(TokenId id) const override { return vocab_.isEndOfGeneration(id); }
    bool addsBosByDefault() const override { return vocab_.addBos; }
    TokenType tokenType(TokenId id) const override;
    std::string modelName() const override { return model_; }
    std::string preName() const override { return pre_; }

protected:
    VocabTokenizer(Vocab vocab, std::string model, std::string pre);
    // Call at the end of the subclass constructor: caches every token's text.
    void buildPieceCache();

    // Appends the ids of the fragments (special tokens already cut out by the base).
    virtual void encodeFragments(const std::vector<Fragment>& fragments, std::vector<TokenId>& out) const = 0;
    // The output text of a normal token (e.g. "Ġhello" -> " hello", "▁hello" -> " hello").
    virtual std::string normalPiece(const std::string& tokenText) const = 0;

    Vocab vocab_;

private:
    void checkId(TokenId id) const;

    std::string model_;
    std::string pre_;
    std::vector<std::string> pieces_;   // (vocab) output text with renderSpecial = true
};

}  // namespace dlab
