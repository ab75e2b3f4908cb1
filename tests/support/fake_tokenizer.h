#pragma once
// A tokenizer with a made-up vocabulary of byte strings, for tests of stages that read token
// bytes (grammar, banned phrases): id i stands for pieces[i]; `eos` ends generation; `control`
// ids are control tokens.
#include <set>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab::test {

class FakeTokenizer : public Tokenizer {
public:
    FakeTokenizer(std::vector<std::string> pieces, TokenId eos, std::set<TokenId> control = {})
        : pieces_(std::move(pieces)), eos_(eos), control_(std::move(control)) {}
    std::vector<TokenId> encode(std::string_view text, bool, bool) const override {
        // Greedy longest match over the pieces (enough for tests).
        std::vector<TokenId> out;
        size_t i = 0;
        while (i < text.size()) {
            TokenId best = -1;
            size_t len = 0;
            for (TokenId id = 0; id < static_cast<TokenId>(pieces_.size()); ++id) {
                const auto& p = pieces_[static_cast<size_t>(id)];
                if (id == eos_ || control_.count(id) || p.empty() || p.size() <= len) continue;
                if (text.substr(i, p.size()) == p) { best = id; len = p.size(); }
            }
            if (best < 0) return out;
            out.push_back(best);
            i += len;
        }
        return out;
    }
    std::string tokenToPiece(TokenId id, bool special) const override {
        if (id == eos_ || control_.count(id)) return special ? pieces_[static_cast<size_t>(id)] : "";
        return pieces_[static_cast<size_t>(id)];
    }
    int vocabSize() const override { return static_cast<int>(pieces_.size()); }
    const std::string& tokenString(TokenId id) const override { return pieces_[static_cast<size_t>(id)]; }
    TokenId bos() const override { return -1; }
    TokenId eos() const override { return eos_; }
    bool isEndOfGeneration(TokenId id) const override { return id == eos_; }
    bool addsBosByDefault() const override { return false; }
    std::string modelName() const override { return "fake"; }
    std::string preName() const override { return "default"; }
    TokenType tokenType(TokenId id) const override { return control_.count(id) || id == eos_ ? TokenType::Control : TokenType::Normal; }

private:
    std::vector<std::string> pieces_;
    TokenId eos_;
    std::set<TokenId> control_;
};

}  // namespace dlab::test
