#pragma once
// Every token's output bytes, computed once per tokenizer, for the stages that reason about text
// rather than ids (the grammar, banned phrases): which bytes a token would append to the output,
// and whether it ends generation or is a special token no text constraint may produce.
#include <memory>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

enum class TokenRole : uint8_t {
    Text,             // appends bytes() to the output (normal, byte and user-defined tokens)
    EndOfGeneration,  // eos, eot, <|im_end|>, ...: ends the output
    Special,          // control, unknown or unused tokens, or a token with no bytes: never text
};

class TokenBytesTable {
public:
    explicit TokenBytesTable(const Tokenizer& tok);

    int size() const { return static_cast<int>(bytes_.size()); }
    const std::string& bytes(TokenId id) const { return bytes_[static_cast<size_t>(id)]; }
    TokenRole role(TokenId id) const { return roles_[static_cast<size_t>(id)]; }
    const std::vector<TokenId>& endOfGeneration() const { return eog_; }

private:
    std::vector<std::string> bytes_;  // (n_vocab) empty for non-text tokens
    std::vector<TokenRole> roles_;    // (n_vocab)
    std::vector<TokenId> eog_;        // ascending
};

}  // namespace dlab
