#include "tokenizer/bpe_tokenizer.h"

#include <queue>

#include "tokenizer/byte_unicode.h"
#include "tokenizer/utf8.h"

namespace dlab {
namespace {

const std::string kSpaceMark = "\xE2\x96\x81";  // U+2581, SentencePiece's visible space

uint64_t pairKey(TokenId a, TokenId b) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
}

std::string replaceAll(std::string_view s, std::string_view from, std::string_view to) {
    std::string out;
    out.reserve(s.size());
    size_t pos = 0;
    while (true) {
        const size_t at = s.find(from, pos);
        if (at == std::string_view::npos) break;
        out.append(s.substr(pos, at - pos));
        out.append(to);
        pos = at + from.size();
    }
    out.append(s.substr(pos));
    return out;
}

// One symbol of a word being merged: a byte range of the word, linked to its neighbours.
struct Symbol {
    uint32_t start;
    uint32_t len;     // 0 once merged into its left neighbour
    int prev;
    int next;
    TokenId id;       // vocabulary id of the text, or -1
};

struct Bigram {
    int rank;
    int left;
    int right;
    uint32_t leftLen;   // lengths when queued: an entry is stale once either changed
    uint32_t rightLen;
};

// Lowest rank first, then leftmost (llama.cpp's llm_bigram_bpe::comparator).
struct BigramOrder {
    bool operator()(const Bigram& a, const Bigram& b) const {
        return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
    }
};

}  // namespace

BpeTokenizer::BpeTokenizer(Vocab vocab, const std::vector<std::string>& merges, const PreTokenizerConfig& pre,
                           std::string modelName, std::string preName)
    : VocabTokenizer(std::move(vocab), std::move(modelName), std::move(preName)), config_(pre), splitter_(pre.regexes) {
    pairRanks_.reserve(merges.size());
    for (size_t i = 0; i < merges.size(); ++i) {
        const std::string& m = merges[i];
        const size_t space = m.find(' ', 1);
        if (space == std::string::npos) continue;  // malformed: llama.cpp files it under ("", "")
        const std::string_view left = std::string_view(m).substr(0, space);
        const std::string_view right = std::string_view(m).substr(space + 1);
        const TokenId l = vocab_.find(left), r = vocab_.find(right);
        const int rank = static_cast<int>(i);
        if (l >= 0 && r >= 0) pairRanks_.emplace(pairKey(l, r), rank);  // the first listing wins
        else stringRanks_.emplace(std::string(left) + '\0' + std::string(right), rank);
    }
    buildPieceCache();
}

int BpeTokenizer::rank(TokenId leftId, std::string_view left, TokenId rightId, std::string_view right) const {
    if (leftId >= 0 && rightId >= 0) {
        const auto it = pairRanks_.find(pairKey(leftId, rightId));
        if (it != pairRanks_.end()) return it->second;
    }
    if (stringRanks_.empty()) return -1;
    std::string key;
    key.reserve(left.size() + right.size() + 1);
    key.append(left).append(1, '\0').append(right);
    const auto it = stringRanks_.find(key);
    return it == stringRanks_.end() ? -1 : it->second;
}

std::string BpeTokenizer::normalPiece(const std::string& tokenText) const {
    if (config_.escapeWhitespace) return replaceAll(tokenText, kSpaceMark, " ");
    return byte_unicode::decode(tokenText);
}

void BpeTokenizer::encodeFragments(const std::vector<Fragment>& fragments, std::vector<TokenId>& out) const {
    for (const Fragment& f : fragments) {
        if (f.token >= 0) {
            out.push_back(f.token);
            continue;
        }
        std::string escaped;
        std::string_view text = f.text;
        if (config_.escapeWhitespace) {
            escaped = replaceAll(text, " ", kSpaceMark);
            text = escaped;
        }
        for (std::string_view piece : splitter_.split(text))
            encodeWord(config_.byteEncode ? byte_unicode::encode(piece) : std::string(piece), out);
    }
}

void BpeTokenizer::encodeWord(const std::string& word, std::vector<TokenId>& out) const {
    if (config_.ignoreMerges || (config_.keepNewlineRuns && word.find_first_not_of('\n') == std::string::npos)) {
        const TokenId whole = vocab_.find(word);
        if (whole >= 0) {
            out.push_back(whole);
            return;
        }
    }

    // Start from one symbol per UTF-8 character.
    std::vector<Symbol> symbols;
    symbols.reserve(word.size());
    for (size_t pos = 0; pos < word.size();) {
        const size_t n = utf8::charLengthAt(word, pos);
        const int index = static_cast<int>(symbols.size());
        symbols.push_back({static_cast<uint32_t>(pos), static_cast<uint32_t>(n), index - 1, -1,
                           vocab_.find(std::string_view(word).substr(pos, n))});
        if (index > 0) symbols[static_cast<size_t>(index - 1)].next = index;
        pos += n;
    }

    auto view = [&](const Symbol& s) { return std::string_view(word).substr(s.start, s.len); };
    std::priority_queue<Bigram, std::vector<Bigram>, BigramOrder> queue;
    auto tryAdd = [&](int left, int right) {
        if (left < 0 || right < 0) return;
        const Symbol& l = symbols[static_cast<size_t>(left)];
        const Symbol& r = symbols[static_cast<size_t>(right)];
        const int rk = rank(l.id, view(l), r.id, view(r));
        if (rk >= 0) queue.push({rk, left, right, l.len, r.len});
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i) tryAdd(i - 1, i);

    while (!queue.empty()) {
        const Bigram b = queue.top();
        queue.pop();
        Symbol& l = symbols[static_cast<size_t>(b.left)];
        Symbol& r = symbols[static_cast<size_t>(b.right)];
        if (l.len == 0 || r.len == 0 || l.len != b.leftLen || r.len != b.rightLen) continue;  // stale
        l.len += r.len;
        r.len = 0;
        l.next = r.next;
        if (r.next >= 0) symbols[static_cast<size_t>(r.next)].prev = b.left;
        l.id = vocab_.find(view(l));
        tryAdd(l.prev, b.left);
        tryAdd(b.left, l.next);
    }

    for (int i = 0; i >= 0 && i < static_cast<int>(symbols.size()); i = symbols[static_cast<size_t>(i)].next) {
        const Symbol& s = symbols[static_cast<size_t>(i)];
        if (s.id >= 0) {
            out.push_back(s.id);
            continue;
        }
        // Not a token: fall back to single bytes, as llama.cpp does (dropping bytes it cannot spell).
        for (const char c : view(s)) {
            TokenId id = -1;
            if (config_.byteEncode) {
                id = vocab_.find(std::string_view(&c, 1));
            } else {
                static const char* hex = "0123456789ABCDEF";
                const uint8_t ch = static_cast<uint8_t>(c);
                const char buf[6] = {'<', '0', 'x', hex[ch >> 4], hex[ch & 15], '>'};
                id = vocab_.find(std::string_view(buf, 6));
            }
            if (id >= 0) out.push_back(id);
        }
    }
}

}  // namespace dlab
