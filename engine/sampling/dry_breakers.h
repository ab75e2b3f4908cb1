#pragma once
// DRY sequence breakers from text, as llama.cpp builds them: a breaker string becomes every token
// whose text contains it (a single-token breaker) plus, for tokens whose text ends with the start
// of the string, that token followed by the encoding of the rest.
#include <functional>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

// llama.cpp's defaults: newline, colon, double quote, asterisk.
std::vector<std::string> defaultDryBreakers();

// piece(id): the token's text; encode(text): its tokens without BOS (may be empty: then only
// whole-token matches are found). Strings are cut to 40 bytes and tails to 20 tokens, like llama.cpp.
std::vector<std::vector<TokenId>> dryBreakersFromStrings(const std::vector<std::string>& breakers, int vocabSize,
                                                         const std::function<std::string(TokenId)>& piece,
                                                         const std::function<std::vector<TokenId>(const std::string&)>& encode = {});

// The same with a model's tokenizer.
std::vector<std::vector<TokenId>> dryBreakersFromStrings(const std::vector<std::string>& breakers, const Tokenizer& tokenizer);

}  // namespace dlab
