#pragma once
// The tokenizer of a replay: a saved session's token table behind the Tokenizer interface, so the
// views label a recorded step with the same code as a live one. It knows only the tokens the
// session recorded; it cannot encode text.
#include <map>
#include <string>

#include "session/saved_session.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

class RecordedTokenizer : public Tokenizer {
public:
    explicit RecordedTokenizer(const SavedSession& session);

    // Throws dlab::Error: a recorded session has no tokenizer to encode new text with.
    std::vector<TokenId> encode(std::string_view text, bool addBos, bool parseSpecial) const override;
    // A token the session did not record reads as "" (parseSessionJson makes sure every token a
    // replay shows is recorded).
    std::string tokenToPiece(TokenId id, bool renderSpecial = false) const override;
    int vocabSize() const override { return vocab_; }
    const std::string& tokenString(TokenId id) const override;   // the rendered piece
    TokenId bos() const override { return bos_; }
    TokenId eos() const override { return -1; }
    bool isEndOfGeneration(TokenId id) const override;
    bool addsBosByDefault() const override { return bos_ >= 0; }
    std::string modelName() const override { return "recorded"; }
    std::string preName() const override { return "recorded"; }
    TokenType tokenType(TokenId id) const override;

    bool knows(TokenId id) const { return tokens_.count(id) != 0; }

private:
    std::map<TokenId, SavedToken> tokens_;
    int vocab_ = 0;
    TokenId bos_ = -1;
    std::string empty_;
};

}  // namespace dlab
