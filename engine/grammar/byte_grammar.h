#pragma once
// The grammar the matcher runs: every character set rewritten as UTF-8 byte ranges (sets with
// several byte patterns become a helper rule with one alternative per pattern), all alternatives
// laid out back to back in one element array, each closed by an End element (llama.cpp's layout).
// A parse position is an index into `elements`.
#include <cstdint>
#include <string>
#include <vector>

#include "grammar/char_grammar.h"

namespace dlab {

struct ByteElement {
    enum class Kind : uint8_t { Bytes, Rule, End };
    Kind kind = Kind::End;
    uint8_t lo = 1, hi = 0;  // Bytes: inclusive range (lo > hi matches nothing)
    int32_t rule = -1;       // Rule: the rule to expand
};

struct ByteGrammar {
    std::vector<ByteElement> elements;
    std::vector<std::vector<int32_t>> alternatives;  // (n_rules, n_alts) index of each alternative's first element
    std::vector<std::string> ruleNames;              // (n_rules)
    int root = -1;
};

// Checks the grammar (throws dlab::Error naming `source` and the rule: left recursion, which would
// make the parser expand forever without reading a byte) and rewrites it over bytes.
ByteGrammar compileByteGrammar(const CharGrammar& g, const std::string& source = "grammar");

// Throws when a rule can reach itself without consuming a character ("expr ::= expr "+" term").
void checkNoLeftRecursion(const CharGrammar& g, const std::string& source);

}  // namespace dlab
