#pragma once
// GPT-2's reversible byte <-> unicode spelling used by byte-level BPE vocabularies.
//
// Every byte gets a printable code point: bytes that are already printable Latin-1
// ('!'..'~', '¡'..'¬', '®'..'ÿ') map to themselves, the other 68 (controls, space, 0x7F..0xA0,
// 0xAD) map to U+0100, U+0101, ... in byte order. So the space 0x20 is spelled "Ġ" (U+0120)
// and '\n' is "Ċ" (U+010A); vocabulary strings and merges are written in this spelling.
#include <cstdint>
#include <string>
#include <string_view>

namespace dlab::byte_unicode {

// The UTF-8 spelling of one byte (1 or 2 bytes long).
const std::string& spell(uint8_t byte);
// Spells every byte of raw.
std::string encode(std::string_view raw);
// The byte a code point spells, or -1 if it spells none.
int byteOf(char32_t cp);
// Undoes encode() for a vocabulary string. Code points that spell no byte are kept as their
// UTF-8 bytes (llama.cpp prints a marker there instead; real vocabularies never contain them).
std::string decode(std::string_view spelled);

}  // namespace dlab::byte_unicode
