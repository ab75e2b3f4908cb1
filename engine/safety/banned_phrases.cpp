#include "safety/banned_phrases.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "tokenizer/utf8.h"

namespace dlab {

namespace {

unsigned char fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c + 32) : c; }

// The phrase as a message shows it: quoted, shortened, invalid bytes replaced.
std::string quoted(const std::string& phrase) {
    std::string s = utf8::sanitize(phrase.size() > 40 ? phrase.substr(0, 40) : phrase);
    return "\"" + s + (phrase.size() > 40 ? "…\"" : "\"");
}

}  // namespace

void BannedPhrases::checkPhrases(const std::vector<std::string>& phrases) {
    if (phrases.size() > size_t(kMaxPhrases))
        throw Error("there are " + std::to_string(phrases.size()) + " banned phrases; at most " + std::to_string(kMaxPhrases) +
                    " are allowed");
    for (size_t i = 0; i < phrases.size(); ++i) {
        const std::string& p = phrases[i];
        const std::string which = "banned phrase " + std::to_string(i + 1);
        if (p.empty()) throw Error(which + " is empty; a banned phrase needs at least one character");
        if (const size_t bad = utf8::firstInvalidOffset(p); bad != utf8::npos) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(p[bad]));
            throw Error(which + " (" + quoted(p) + ") is not valid UTF-8 (invalid byte " + hex + " at offset " +
                        std::to_string(bad) + ")");
        }
        if (p.size() > size_t(kMaxPhraseBytes))
            throw Error(which + " (" + quoted(p) + ") is " + std::to_string(p.size()) + " bytes long; a banned phrase may have at most " +
                        std::to_string(kMaxPhraseBytes) + " bytes");
    }
}

BannedPhrases::BannedPhrases(std::vector<std::string> phrases, std::shared_ptr<const TokenBytesTable> table, bool caseInsensitive)
    : table_(std::move(table)), caseInsensitive_(caseInsensitive) {
    if (!table_) throw Error("banned phrases need the model's token table");
    checkPhrases(phrases);
    phrases_ = std::move(phrases);

    // The trie of the (folded) phrases; -1 = no edge yet.
    std::vector<int32_t> trie(256, -1);
    depth_.assign(1, 0);
    output_.assign(1, -1);
    for (size_t i = 0; i < phrases_.size(); ++i) {
        size_t s = 0;
        for (const char ch : phrases_[i]) {
            const unsigned char c = caseInsensitive_ ? fold(static_cast<unsigned char>(ch)) : static_cast<unsigned char>(ch);
            if (trie[s * 256 + c] < 0) {
                trie[s * 256 + c] = static_cast<int32_t>(depth_.size());
                depth_.push_back(static_cast<uint8_t>(depth_[s] + 1));
                output_.push_back(-1);
                trie.resize(trie.size() + 256, -1);
            }
            s = size_t(trie[s * 256 + c]);
        }
        if (output_[s] < 0) output_[s] = static_cast<int16_t>(i);   // a duplicate keeps the first
        longest_ = std::max(longest_, int(phrases_[i].size()));
    }

    // Breadth first: failure links, dictionary outputs and the full transition table.
    const size_t n = depth_.size();
    delta_.assign(n * 256, 0);
    std::vector<State> failure(n, 0), queue;
    queue.reserve(n);
    for (int c = 0; c < 256; ++c) {
        const int32_t v = trie[size_t(c)];
        if (v < 0) continue;
        delta_[size_t(c)] = static_cast<State>(v);
        queue.push_back(static_cast<State>(v));
    }
    for (size_t head = 0; head < queue.size(); ++head) {
        const State u = queue[head];
        if (output_[u] < 0) output_[u] = output_[failure[u]];
        for (int c = 0; c < 256; ++c) {
            const int32_t v = trie[size_t(u) * 256 + size_t(c)];
            if (v < 0) {
                delta_[size_t(u) * 256 + size_t(c)] = delta_[size_t(failure[u]) * 256 + size_t(c)];
                continue;
            }
            failure[size_t(v)] = delta_[size_t(failure[u]) * 256 + size_t(c)];
            delta_[size_t(u) * 256 + size_t(c)] = static_cast<State>(v);
            queue.push_back(static_cast<State>(v));
        }
    }
    if (caseInsensitive_)
        for (size_t s = 0; s < n; ++s)
            for (int c = 'A'; c <= 'Z'; ++c) delta_[s * 256 + size_t(c)] = delta_[s * 256 + size_t(c + 32)];

    // Tokens that hold a phrase by themselves, and every token's first byte.
    alone_.assign(size_t(table_->size()), -1);
    first_.assign(size_t(table_->size()), 0);
    hasText_.assign(size_t(table_->size()), 0);
    if (phrases_.empty()) return;
    for (TokenId t = 0; t < table_->size(); ++t) {
        if (table_->role(t) != TokenRole::Text || table_->bytes(t).empty()) continue;
        first_[size_t(t)] = static_cast<uint8_t>(table_->bytes(t)[0]);
        hasText_[size_t(t)] = 1;
        State s = start();
        for (const char ch : table_->bytes(t)) {
            s = next(s, static_cast<unsigned char>(ch));
            if (output_[s] >= 0) {
                alone_[size_t(t)] = output_[s];
                break;
            }
        }
    }
}

std::shared_ptr<const BannedPhrases> BannedPhrases::make(std::vector<std::string> phrases, const Tokenizer& tok, bool caseInsensitive) {
    return std::make_shared<const BannedPhrases>(std::move(phrases), std::make_shared<const TokenBytesTable>(tok), caseInsensitive);
}

BannedPhrases::State BannedPhrases::stateAfterText(std::string_view text) const {
    State s = start();
    for (const char ch : text) s = next(s, static_cast<unsigned char>(ch));
    return s;
}

BannedPhrases::State BannedPhrases::stateAfter(std::span<const TokenId> generated) const {
    if (phrases_.empty()) return start();
    // The tokens that hold the last longest_ bytes, then a walk over exactly those bytes: no
    // state is deeper than the longest phrase, so older bytes cannot change it.
    size_t first = generated.size(), have = 0;
    while (first > 0 && have < size_t(longest_)) {
        const TokenId t = generated[first - 1];
        if (t >= 0 && t < table_->size()) have += table_->bytes(t).size();
        --first;
    }
    size_t skip = have > size_t(longest_) ? have - size_t(longest_) : 0;
    State s = start();
    for (size_t i = first; i < generated.size(); ++i) {
        const TokenId t = generated[i];
        if (t < 0 || t >= table_->size()) continue;
        const std::string& b = table_->bytes(t);
        for (size_t k = 0; k < b.size(); ++k) {
            if (skip > 0) {
                --skip;
                continue;
            }
            s = next(s, static_cast<unsigned char>(b[k]));
        }
    }
    return s;
}

int BannedPhrases::completes(State s, TokenId token) const {
    if (token < 0 || token >= table_->size()) return -1;
    if (const int alone = alone_[size_t(token)]; alone >= 0) return alone;
    if (s == start() || !hasText_[size_t(token)]) return -1;   // from the start: the walk containedIn() made
    // The first byte from the token's own array, so most tokens never touch their string.
    const State s1 = next(s, first_[size_t(token)]);
    if (output_[s1] >= 0) return output_[s1];
    if (depth_[s1] <= 1) return -1;
    s = s1;
    const std::string& b = table_->bytes(token);
    for (size_t i = 1; i < b.size(); ++i) {
        s = next(s, static_cast<unsigned char>(b[i]));
        if (output_[s] >= 0) return output_[s];
        // The state's string lies within the token's first i + 1 bytes: from here on the walk is
        // the start state's walk over the token, which found no phrase.
        if (depth_[s] <= i + 1) return -1;
    }
    return -1;
}

std::optional<BannedPhrases::Match> BannedPhrases::find(std::string_view text) const {
    State s = start();
    for (size_t i = 0; i < text.size(); ++i) {
        s = next(s, static_cast<unsigned char>(text[i]));
        if (output_[s] >= 0) {
            const size_t len = phrases_[size_t(output_[s])].size();
            return Match{output_[s], i + 1 - len, i + 1};
        }
    }
    return std::nullopt;
}

}  // namespace dlab
