#pragma once
// A context-free grammar over Unicode code points, as parsed from GBNF (llama.cpp's grammar
// format) or made from a JSON Schema: rules of alternatives, each a sequence of character sets and
// rule references. Groups and repetitions are already rewritten into helper rules, as llama.cpp
// does (x* -> r ::= x r | ; x? -> r ::= x | ), so the matcher only knows sets, references and
// sequence ends.
#include <cstdint>
#include <string>
#include <vector>

namespace dlab {

struct CodepointRange {
    uint32_t lo = 0, hi = 0;  // inclusive
    bool operator==(const CodepointRange&) const = default;
};
constexpr uint32_t kMaxCodepoint = 0x10FFFF;

struct CharElement {
    enum class Kind : uint8_t { Chars, Rule };
    Kind kind = Kind::Chars;
    std::vector<CodepointRange> ranges;  // Chars: sorted, disjoint, not adjacent (an empty set matches nothing)
    int rule = -1;                       // Rule: index into CharGrammar::rules
    bool operator==(const CharElement&) const = default;
};

using CharSequence = std::vector<CharElement>;

struct CharRule {
    std::string name;        // as written; helper rules are named after their rule ("value-2")
    int line = 0, column = 0;  // where it was defined (1-based; 0 for made-up rules)
    bool helper = false;     // made for a group or a repetition
    bool defined = false;    // false while only referenced
    int usedLine = 0, usedColumn = 0;  // its first use, for "used but never defined"
    std::vector<CharSequence> alternatives;
};

struct CharGrammar {
    std::vector<CharRule> rules;
    int root = -1;
};

// Sorts and merges ranges; complements within [0, kMaxCodepoint] when `negate`.
std::vector<CodepointRange> normalizeRanges(std::vector<CodepointRange> ranges, bool negate);

// The grammar as GBNF text, one rule per line, helper rules included (for `grammar check`).
std::string toGbnf(const CharGrammar& g);

}  // namespace dlab
