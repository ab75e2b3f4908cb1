#pragma once
// Cuts special tokens out of the input before the tokenizer proper runs, as llama.cpp's
// tokenizer_st_partition does: each special token in turn (longest text first) splits every
// remaining text fragment at each of its occurrences. User-defined tokens are always cut out;
// control and unknown tokens only when parseSpecial is true (otherwise "<|im_start|>" stays
// plain text). Tokens flagged lstrip/rstrip swallow the spaces beside them.
#include <string_view>
#include <vector>

#include "tokenizer/vocab.h"

namespace dlab {

struct Fragment {
    TokenId token = -1;      // >= 0: a special token; -1: text still to be tokenized
    std::string_view text;   // the text (empty for tokens)
};

std::vector<Fragment> splitSpecialTokens(const Vocab& vocab, std::string_view text, bool parseSpecial);

}  // namespace dlab
