#include "tokenizer/vocab_tokenizer.h"

#include <cstdlib>

#include "core/error.h"
#include "tokenizer/utf8.h"

namespace dlab {

VocabTokenizer::VocabTokenizer(Vocab vocab, std::string model, std::string pre)
    : vocab_(std::move(vocab)), model_(std::move(model)), pre_(std::move(pre)) {}

void VocabTokenizer::buildPieceCache() {
    pieces_.resize(static_cast<size_t>(vocab_.size()));
    for (TokenId id = 0; id < vocab_.size(); ++id) {
        const uint32_t attr = vocab_.attr(id);
        const std::string& text = vocab_.text(id);
        std::string& piece = pieces_[static_cast<size_t>(id)];
        // Same precedence as llama.cpp's token_to_piece.
        if (attr & (kAttrUnknown | kAttrControl | kAttrUserDefined)) {
            piece = text;
        } else if (attr & kAttrNormal) {
            piece = normalPiece(text);
        } else if (attr & kAttrByte) {
            // "<0xAB>"
            if (text.size() == 6 && text.compare(0, 3, "<0x") == 0 && text[5] == '>')
                piece = std::string(1, static_cast<char>(std::strtol(text.substr(3, 2).c_str(), nullptr, 16)));
        }
    }
}

void VocabTokenizer::checkId(TokenId id) const {
    if (!vocab_.contains(id))
        throw Error("token id " + std::to_string(id) + " is out of range (the vocabulary has " +
                    std::to_string(vocab_.size()) + " tokens)");
}

const std::string& VocabTokenizer::tokenString(TokenId id) const {
    checkId(id);
    return vocab_.text(id);
}

std::string VocabTokenizer::tokenToPiece(TokenId id, bool renderSpecial) const {
    checkId(id);
    if (!renderSpecial && (vocab_.attr(id) & (kAttrUnknown | kAttrControl))) return {};
    return pieces_[static_cast<size_t>(id)];
}

TokenType VocabTokenizer::tokenType(TokenId id) const {
    checkId(id);
    const uint32_t a = vocab_.attr(id);
    if (a & kAttrUnknown) return TokenType::Unknown;
    if (a & kAttrUnused) return TokenType::Unused;
    if (a & kAttrControl) return TokenType::Control;
    if (a & kAttrUserDefined) return TokenType::UserDefined;
    if (a & kAttrByte) return TokenType::Byte;
    if (a & kAttrNormal) return TokenType::Normal;
    return TokenType::Undefined;
}

std::vector<TokenId> VocabTokenizer::encode(std::string_view text, bool addBos, bool parseSpecial) const {
    utf8::requireValid(text);
    std::vector<TokenId> out;
    out.reserve(text.size() / 3 + 2);
    if (addBos && vocab_.bos >= 0) out.push_back(vocab_.bos);
    encodeFragments(splitSpecialTokens(vocab_, text, parseSpecial), out);
    return out;
}

}  // namespace dlab
