#pragma once
// A set of code points as UTF-8 byte patterns: each pattern is 1-4 byte ranges, and a code point
// is in the set exactly when its UTF-8 encoding matches one pattern (the construction of RE2 and
// Rust's utf8-ranges). The matcher works on bytes, so a token that ends in the middle of a
// character simply leaves the pattern half read.
#include <cstdint>
#include <vector>

#include "grammar/char_grammar.h"

namespace dlab {

struct ByteRange {
    uint8_t lo = 0, hi = 0;  // inclusive
    bool operator==(const ByteRange&) const = default;
};
using Utf8Pattern = std::vector<ByteRange>;  // (1..4) one range per byte

// Patterns for `ranges` (sorted, disjoint), in code point order. Surrogates are encoded like any
// other code point (llama.cpp's matcher accepts them too).
std::vector<Utf8Pattern> utf8Patterns(const std::vector<CodepointRange>& ranges);

}  // namespace dlab
