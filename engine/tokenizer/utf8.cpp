#include "tokenizer/utf8.h"

#include <cstdio>

#include "core/error.h"

namespace dlab::utf8 {
namespace {

// Well-formed sequences (Unicode 15, table 3-7): the lead byte fixes the length and the range
// the second byte must lie in; later bytes are always 80..BF.
struct LeadRule {
    uint8_t length;     // 0: not a lead byte
    uint8_t secondLo;
    uint8_t secondHi;
};

LeadRule leadRule(uint8_t b) {
    if (b < 0x80) return {1, 0, 0};
    if (b >= 0xC2 && b <= 0xDF) return {2, 0x80, 0xBF};
    if (b == 0xE0) return {3, 0xA0, 0xBF};
    if (b == 0xED) return {3, 0x80, 0x9F};   // excludes surrogates
    if (b >= 0xE1 && b <= 0xEF) return {3, 0x80, 0xBF};
    if (b == 0xF0) return {4, 0x90, 0xBF};   // excludes overlongs
    if (b >= 0xF1 && b <= 0xF3) return {4, 0x80, 0xBF};
    if (b == 0xF4) return {4, 0x80, 0x8F};   // nothing above U+10FFFF
    return {0, 0, 0};
}

// How many bytes from pos form the start of a well-formed sequence (complete or not):
// 0 if text[pos] is not a lead byte; the full length if the character is complete.
size_t wellFormedPrefix(std::string_view text, size_t pos) {
    const LeadRule r = leadRule(static_cast<uint8_t>(text[pos]));
    if (r.length <= 1) return r.length;
    size_t n = 1;
    while (n < r.length && pos + n < text.size()) {
        const uint8_t c = static_cast<uint8_t>(text[pos + n]);
        const uint8_t lo = n == 1 ? r.secondLo : 0x80;
        const uint8_t hi = n == 1 ? r.secondHi : 0xBF;
        if (c < lo || c > hi) break;
        ++n;
    }
    return n;
}

}  // namespace

size_t validSequenceLength(std::string_view text, size_t pos) {
    if (pos >= text.size()) return 0;
    const size_t n = wellFormedPrefix(text, pos);
    return n == leadRule(static_cast<uint8_t>(text[pos])).length ? n : 0;
}

size_t firstInvalidOffset(std::string_view text) {
    size_t pos = 0;
    while (pos < text.size()) {
        const uint8_t b = static_cast<uint8_t>(text[pos]);
        if (b < 0x80) {  // ASCII fast path
            ++pos;
            continue;
        }
        const size_t n = validSequenceLength(text, pos);
        if (n == 0) return pos;
        pos += n;
    }
    return npos;
}

void requireValid(std::string_view text) {
    const size_t bad = firstInvalidOffset(text);
    if (bad == npos) return;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<uint8_t>(text[bad])));
    const size_t prefix = wellFormedPrefix(text, bad);
    if (prefix > 0 && bad + prefix >= text.size())
        throw Error("text is not valid UTF-8 (it ends inside a character: byte " + std::string(hex) + " at offset " +
                    std::to_string(bad) + " starts a sequence that is cut off)");
    throw Error("text is not valid UTF-8 (invalid byte " + std::string(hex) + " at offset " + std::to_string(bad) + ")");
}

char32_t decode(std::string_view text, size_t& pos) {
    const uint8_t b0 = static_cast<uint8_t>(text[pos]);
    const size_t n = leadRule(b0).length;
    char32_t cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<uint8_t>(text[pos + k]) & 0x3F);
    pos += n == 0 ? 1 : n;
    return cp;
}

void append(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::string encode(char32_t cp) {
    std::string s;
    append(s, cp);
    return s;
}

size_t emittablePrefix(std::string_view text) {
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t n = validSequenceLength(text, pos);
        if (n > 0) {
            pos += n;
            continue;
        }
        const size_t prefix = wellFormedPrefix(text, pos);
        if (prefix > 0 && pos + prefix == text.size()) return pos;  // may still complete
        pos += prefix > 0 ? prefix : 1;                              // can never complete
    }
    return pos;
}

std::string sanitize(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t n = validSequenceLength(text, pos);
        if (n > 0) {
            out.append(text.substr(pos, n));
            pos += n;
            continue;
        }
        const size_t prefix = wellFormedPrefix(text, pos);
        out += "\xEF\xBF\xBD";  // U+FFFD for the maximal ill-formed subpart
        pos += prefix > 0 ? prefix : 1;
    }
    return out;
}

}  // namespace dlab::utf8
