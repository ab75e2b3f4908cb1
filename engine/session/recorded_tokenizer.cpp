#include "session/recorded_tokenizer.h"

#include "core/error.h"

namespace dlab {

RecordedTokenizer::RecordedTokenizer(const SavedSession& session)
    : vocab_(static_cast<int>(session.model.vocab)), bos_(session.model.bos) {
    for (const SavedToken& t : session.tokens) tokens_[t.id] = t;
}

std::vector<TokenId> RecordedTokenizer::encode(std::string_view, bool, bool) const {
    throw Error("this session was recorded: without its model there is no tokenizer to read new text; load the model and Restart");
}

std::string RecordedTokenizer::tokenToPiece(TokenId id, bool renderSpecial) const {
    const auto it = tokens_.find(id);
    if (it == tokens_.end()) return {};
    return renderSpecial ? it->second.rendered : it->second.piece;
}

const std::string& RecordedTokenizer::tokenString(TokenId id) const {
    const auto it = tokens_.find(id);
    return it == tokens_.end() ? empty_ : it->second.rendered;
}

bool RecordedTokenizer::isEndOfGeneration(TokenId id) const {
    const auto it = tokens_.find(id);
    return it != tokens_.end() && it->second.endOfGeneration;
}

TokenType RecordedTokenizer::tokenType(TokenId id) const {
    const auto it = tokens_.find(id);
    return it != tokens_.end() && it->second.control ? TokenType::Control : TokenType::Normal;
}

}  // namespace dlab
