#pragma once
// GBNF, llama.cpp's grammar format, parsed into a CharGrammar:
//   root  ::= object            # comments run to the end of the line
//   value ::= "lit\n" | [a-z0-9_] | [^"\\] | . | ( group ) | x* | x+ | x? | x{2} | x{1,3} | x{2,}
// Literals and classes take \n \r \t \\ \" \[ \] \- \xHH \uHHHH \UHHHHHHHH escapes. A rule's
// alternatives end at the end of the line unless a group is open or the line ends in "|".
// Rule names are letters, digits, '-' and '_'.
//
// Errors are dlab::Error naming the source, the line and column and what is wrong
// ("json.gbnf:3:14: expected '::=' after the rule name 'value'"). Left recursion, a missing root,
// undefined rules, groups nested deeper than 128 and grammars that expand past a million
// elements are rejected too (see compileByteGrammar for left recursion).
#include <string>
#include <string_view>

#include "grammar/char_grammar.h"

namespace dlab {

CharGrammar parseGbnf(std::string_view text, const std::string& sourceName = "grammar");

}  // namespace dlab
