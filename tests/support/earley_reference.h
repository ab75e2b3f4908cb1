#pragma once
// An Earley recognizer over code points, written for the tests as an independent reference for the
// grammar matcher: it shares only the parsed CharGrammar with the engine, none of the byte
// compilation, the parse stacks, the DFA or the token trie.
#include <string>
#include <vector>

#include "grammar/char_grammar.h"

namespace dlab::test {

struct EarleyVerdict {
    bool validPrefix = false;  // some continuation of the bytes is a sentence
    bool complete = false;     // the bytes are a sentence
};

// `bytes` may end in the middle of a UTF-8 character; invalid UTF-8 anywhere is not a valid prefix.
EarleyVerdict earleyCheck(const CharGrammar& g, const std::string& bytes);

}  // namespace dlab::test
