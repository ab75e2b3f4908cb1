#include "tokenizer/spm_tokenizer.h"

#include <cstdio>
#include <queue>

#include "core/error.h"
#include "tokenizer/utf8.h"

namespace dlab {
namespace {

const std::string kSpaceMark = "\xE2\x96\x81";  // U+2581

struct Symbol {
    uint32_t start;
    uint32_t len;   // 0 once merged into its left neighbour
    int prev;
    int next;
};

struct Bigram {
    float score;
    int left;
    int right;
    uint32_t size;  // byte length of the merged text when queued
};

// Highest score first, then leftmost (llama.cpp's llm_bigram_spm::comparator).
struct BigramOrder {
    bool operator()(const Bigram& a, const Bigram& b) const {
        return a.score < b.score || (a.score == b.score && a.left > b.left);
    }
};

}  // namespace

SpmTokenizer::SpmTokenizer(Vocab vocab, bool addSpacePrefix, std::string preName)
    : VocabTokenizer(std::move(vocab), "llama", std::move(preName)), addSpacePrefix_(addSpacePrefix) {
    static const char* hex = "0123456789ABCDEF";
    for (int b = 0; b < 256; ++b) {
        const char buf[6] = {'<', '0', 'x', hex[b >> 4], hex[b & 15], '>'};
        TokenId id = vocab_.find(std::string_view(buf, 6));
        if (id < 0) id = vocab_.find(std::string(1, static_cast<char>(b)));
        byteTokens_[b] = id;
    }
    buildPieceCache();
}

std::string SpmTokenizer::normalPiece(const std::string& tokenText) const {
    std::string out;
    out.reserve(tokenText.size());
    for (size_t pos = 0; pos < tokenText.size();) {
        if (tokenText.compare(pos, kSpaceMark.size(), kSpaceMark) == 0) {
            out += ' ';
            pos += kSpaceMark.size();
        } else {
            out += tokenText[pos++];
        }
    }
    return out;
}

void SpmTokenizer::encodeFragments(const std::vector<Fragment>& fragments, std::vector<TokenId>& out) const {
    bool afterSpecial = true;  // the start of the input counts as "after a special token"
    for (const Fragment& f : fragments) {
        if (f.token >= 0) {
            out.push_back(f.token);
            afterSpecial = true;
            continue;
        }
        std::string text;
        text.reserve(f.text.size() * 3 / 2 + 3);
        if (addSpacePrefix_ && afterSpecial) text += kSpaceMark;
        for (const char c : f.text) {
            if (c == ' ') text += kSpaceMark;
            else text += c;
        }
        encodeText(text, out);
        afterSpecial = false;
    }
}

void SpmTokenizer::appendByte(uint8_t byte, std::vector<TokenId>& out) const {
    TokenId id = byteTokens_[byte];
    if (id < 0) id = vocab_.unk;
    if (id < 0) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", byte);
        throw Error(std::string("the vocabulary can not encode byte ") + hex +
                    " (it has neither a byte token nor an unknown token)");
    }
    out.push_back(id);
}

void SpmTokenizer::encodeText(const std::string& text, std::vector<TokenId>& out) const {
    std::vector<Symbol> symbols;
    symbols.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        const size_t n = utf8::charLengthAt(text, pos);
        const int index = static_cast<int>(symbols.size());
        symbols.push_back({static_cast<uint32_t>(pos), static_cast<uint32_t>(n), index - 1, -1});
        if (index > 0) symbols[static_cast<size_t>(index - 1)].next = index;
        pos += n;
    }

    std::priority_queue<Bigram, std::vector<Bigram>, BigramOrder> queue;
    auto tryAdd = [&](int left, int right) {
        if (left < 0 || right < 0) return;
        const Symbol& l = symbols[static_cast<size_t>(left)];
        const Symbol& r = symbols[static_cast<size_t>(right)];
        const uint32_t size = l.len + r.len;
        const TokenId id = vocab_.find(std::string_view(text).substr(l.start, size));
        if (id >= 0) queue.push({vocab_.score(id), left, right, size});
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i) tryAdd(i - 1, i);

    while (!queue.empty()) {
        const Bigram b = queue.top();
        queue.pop();
        Symbol& l = symbols[static_cast<size_t>(b.left)];
        Symbol& r = symbols[static_cast<size_t>(b.right)];
        if (l.len == 0 || r.len == 0 || l.len + r.len != b.size) continue;  // stale
        l.len += r.len;
        r.len = 0;
        l.next = r.next;
        if (r.next >= 0) symbols[static_cast<size_t>(r.next)].prev = b.left;
        tryAdd(l.prev, b.left);
        tryAdd(b.left, l.next);
    }

    for (int i = 0; i >= 0 && i < static_cast<int>(symbols.size()); i = symbols[static_cast<size_t>(i)].next) {
        const Symbol& s = symbols[static_cast<size_t>(i)];
        const std::string_view piece = std::string_view(text).substr(s.start, s.len);
        const TokenId id = vocab_.find(piece);
        if (id >= 0) {
            out.push_back(id);
            continue;
        }
        for (const char c : piece) appendByte(static_cast<uint8_t>(c), out);
    }
}

}  // namespace dlab
