#include "tokenizer/byte_unicode.h"

#include <array>

#include "tokenizer/utf8.h"

namespace dlab::byte_unicode {
namespace {

struct Tables {
    std::array<std::string, 256> spelling;
    std::array<int16_t, 512> byteOfCp;  // every spelling code point is below U+0200

    Tables() {
        byteOfCp.fill(-1);
        auto printable = [](int b) { return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF); };
        int next = 0;
        for (int b = 0; b < 256; ++b) {
            const char32_t cp = printable(b) ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + next++);
            spelling[b] = utf8::encode(cp);
            byteOfCp[cp] = static_cast<int16_t>(b);
        }
    }
};

const Tables& tables() {
    static const Tables t;
    return t;
}

}  // namespace

const std::string& spell(uint8_t byte) { return tables().spelling[byte]; }

std::string encode(std::string_view raw) {
    const Tables& t = tables();
    std::string out;
    out.reserve(raw.size() * 2);
    for (char c : raw) out += t.spelling[static_cast<uint8_t>(c)];
    return out;
}

int byteOf(char32_t cp) { return cp < 512 ? tables().byteOfCp[cp] : -1; }

std::string decode(std::string_view spelled) {
    std::string out;
    out.reserve(spelled.size());
    size_t pos = 0;
    while (pos < spelled.size()) {
        const size_t start = pos;
        if (utf8::validSequenceLength(spelled, pos) == 0) {  // not UTF-8: keep the byte as is
            out += spelled[pos++];
            continue;
        }
        const int b = byteOf(utf8::decode(spelled, pos));
        if (b >= 0) out += static_cast<char>(b);
        else out.append(spelled.substr(start, pos - start));
    }
    return out;
}

}  // namespace dlab::byte_unicode
