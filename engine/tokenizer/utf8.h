#pragma once
// UTF-8 helpers for the tokenizers: strict validation (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), code point encode/decode, and the "how much of this buffer is whole
// characters" question the streaming detokenizer asks.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dlab::utf8 {

inline constexpr size_t npos = static_cast<size_t>(-1);

// Length of the valid sequence starting at text[pos]: 1..4, or 0 if the bytes there do not
// start a valid (complete) character.
size_t validSequenceLength(std::string_view text, size_t pos);

// Offset of the first byte that is not part of a valid character, or npos if all of it is valid.
size_t firstInvalidOffset(std::string_view text);

// Throws dlab::Error("text is not valid UTF-8 (invalid byte 0xC3 at offset 7)") when needed.
void requireValid(std::string_view text);

// Bytes of the character whose lead byte is text[pos], clipped to the text's end; for text
// already checked with requireValid(), where the lead byte alone tells the length.
inline size_t charLengthAt(std::string_view text, size_t pos) {
    const auto lead = static_cast<unsigned char>(text[pos]);
    const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    return n < text.size() - pos ? n : text.size() - pos;
}

// Decodes the character at text[pos] (which must be valid) and advances pos past it.
char32_t decode(std::string_view text, size_t& pos);
// Appends the UTF-8 encoding of cp (cp must be a valid scalar value).
void append(std::string& out, char32_t cp);
std::string encode(char32_t cp);

// For a buffer that grows at its end: the length of the longest prefix that can be emitted
// now. Valid characters are emitted; a tail that is the start of a character that may still
// complete is held back. Bytes that can never become valid are left in the prefix (callers
// replace them with sanitize()).
size_t emittablePrefix(std::string_view text);

// Copies text, replacing every maximal invalid subsequence with U+FFFD (as WHATWG / Python's
// "replace" error handler do).
std::string sanitize(std::string_view text);

}  // namespace dlab::utf8
