#pragma once
// Phrases no output may contain, however the tokenizer splits them: a ban enforced while decoding
// (stage "banned-phrases", sampling/stage_banned_phrases.h), not a filter run over the text later.
//
// A phrase is a byte string; the output is the concatenation of the generated tokens' bytes
// (TokenBytesTable). "kill" can arrive as " kill", as "k" + "ill", as "ki" + "ll" or inside
// " skilled": the ban forbids, at every step, each token whose bytes, appended to the output so
// far, would make any phrase appear. That is one question per token per step, answered with an
// Aho–Corasick automaton over the phrases (a DFA: state = the longest suffix of the output that is
// a prefix of some phrase):
//   - the state after the output needs only its last longestPhrase() bytes (no state is deeper);
//   - a token that contains a phrase on its own is forbidden in every state (computed once);
//   - otherwise only a match that straddles the boundary is left, and the walk from the state
//     stops as soon as the state's string lies inside the token's own bytes: from there it is the
//     walk from the start state, which the first check covered. So a step costs about one or two
//     table look-ups per candidate, and none at all in the start state.
// With caseInsensitive, ASCII letters match either case (the phrase "Paris" bans "PARIS" and
// "paris"); other characters match exactly. Immutable once built; share it between chains.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/token_bytes.h"

namespace dlab {

class BannedPhrases {
public:
    static constexpr int kMaxPhrases = 64;
    static constexpr int kMaxPhraseBytes = 64;
    using State = uint16_t;   // at most kMaxPhrases * kMaxPhraseBytes + 1 states

    // Throws dlab::Error with one sentence naming the phrase (1-based) and what is wrong: an empty
    // phrase, one that is not valid UTF-8, one longer than kMaxPhraseBytes, or more than
    // kMaxPhrases phrases. An empty list is allowed (nothing is banned).
    BannedPhrases(std::vector<std::string> phrases, std::shared_ptr<const TokenBytesTable> table, bool caseInsensitive = false);
    // The checks the constructor makes, without a model (the GUI checks what the user typed).
    static void checkPhrases(const std::vector<std::string>& phrases);
    // Builds the tokenizer's byte table first.
    static std::shared_ptr<const BannedPhrases> make(std::vector<std::string> phrases, const Tokenizer& tok,
                                                     bool caseInsensitive = false);

    const std::vector<std::string>& phrases() const { return phrases_; }
    bool empty() const { return phrases_.empty(); }
    bool caseInsensitive() const { return caseInsensitive_; }
    const TokenBytesTable& table() const { return *table_; }
    int longestPhrase() const { return longest_; }   // bytes

    // The automaton.
    static constexpr State start() { return 0; }
    State next(State s, unsigned char byte) const { return delta_[size_t(s) * 256 + byte]; }
    int stateCount() const { return int(depth_.size()); }
    // The state after `text` from the start state.
    State stateAfterText(std::string_view text) const;
    // The state after the generated tokens' bytes (reads only their last longestPhrase() bytes).
    State stateAfter(std::span<const TokenId> generated) const;

    // The phrase (index into phrases()) that appending `token`'s bytes in state `s` would make
    // appear, or -1 when it makes none appear. Tokens without text (end of generation, special)
    // and ids outside the table never do.
    int completes(State s, TokenId token) const;
    bool forbids(State s, TokenId token) const { return completes(s, token) >= 0; }
    // The phrase `token`'s bytes contain on their own (-1: none): forbidden in every state.
    int containedIn(TokenId token) const {
        return token >= 0 && size_t(token) < alone_.size() ? alone_[size_t(token)] : -1;
    }

    // The first occurrence of any phrase in `text` (the one that ends first; at one end, the longest).
    struct Match {
        int phrase = -1;
        size_t begin = 0, end = 0;   // byte offsets in the text
    };
    std::optional<Match> find(std::string_view text) const;

private:
    std::vector<std::string> phrases_;
    std::shared_ptr<const TokenBytesTable> table_;
    bool caseInsensitive_ = false;
    int longest_ = 0;
    std::vector<State> delta_;     // (states, 256) every transition; ASCII letters folded when caseInsensitive
    std::vector<uint8_t> depth_;   // (states) length of the state's string
    std::vector<int16_t> output_;  // (states) the longest phrase ending here (through suffix links), -1 none
    std::vector<int16_t> alone_;   // (n_vocab) see containedIn()
    std::vector<uint8_t> first_;   // (n_vocab) the token's first byte
    std::vector<uint8_t> hasText_; // (n_vocab) 1: a text token with bytes
};

}  // namespace dlab
