#pragma once
// The input of `decoding-lab-cli sample`: one step's logits as JSON.
//   [1.5, 0.2, -1]                                   a bare array of logits, or an object:
//   {"logits": [...], "tokens": ["a", "b", ...],     tokens: optional text per id (same length)
//    "history": [ids...], "prompt_length": N}        history: earlier tokens for the penalties;
//                                                    the first N of them are the prompt (default 0)
// Numbers may be NaN, Infinity or -Infinity (as Python's json.dump writes them; NaN is rejected
// later by the sampler with the token it belongs to).
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab::cli {

struct LogitsFile {
    std::vector<float> logits;
    std::vector<std::string> tokens;  // empty or one per logit
    std::vector<TokenId> history;
    size_t promptLength = 0;
};

// Throws dlab::Error naming the file and what is wrong with it.
LogitsFile parseLogitsJson(const std::string& text, const std::string& fileName);

}  // namespace dlab::cli
