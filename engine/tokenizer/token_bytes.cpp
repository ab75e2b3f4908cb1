#include "tokenizer/token_bytes.h"

namespace dlab {

TokenBytesTable::TokenBytesTable(const Tokenizer& tok) {
    const int n = tok.vocabSize();
    bytes_.resize(static_cast<size_t>(n));
    roles_.assign(static_cast<size_t>(n), TokenRole::Special);
    for (TokenId id = 0; id < n; ++id) {
        if (tok.isEndOfGeneration(id)) {
            roles_[static_cast<size_t>(id)] = TokenRole::EndOfGeneration;
            eog_.push_back(id);
            continue;
        }
        const TokenType type = tok.tokenType(id);
        if (type == TokenType::Control || type == TokenType::Unknown || type == TokenType::Unused) continue;
        std::string piece = tok.tokenToPiece(id, false);
        if (piece.empty()) continue;
        bytes_[static_cast<size_t>(id)] = std::move(piece);
        roles_[static_cast<size_t>(id)] = TokenRole::Text;
    }
}

}  // namespace dlab
