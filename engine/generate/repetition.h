#pragma once
// Detects the classic greedy failure: the tail of a token sequence caught in a loop
// ("the cat the cat the cat ..."). The detector looks only at the end of the sequence, so it can
// run after every step, and returns the looping span so the GUI can highlight it.
//
// Definition: for a period p, the loop is the longest suffix tokens[start, n) in which every
// token equals the one p positions earlier (tokens[i] == tokens[i - p] for start + p <= i < n).
// Such a suffix is a block of p tokens repeated `repeats` whole times, possibly followed by a
// partial block (its first `partial` tokens). A period counts as a loop when
//   repeats >= minRepeats, or
//   repeats >= 2 and the span covers at least minSpanTokens tokens (long blocks repeat fewer times).
// The shortest such period wins, so "a a a a" reports period 1, never 2.
#include <cstdint>
#include <span>

#include "tokenizer/tokenizer.h"

namespace dlab {

struct RepetitionOptions {
    int minRepeats = 3;       // >= 2: whole repetitions of the block that make a loop
    int minSpanTokens = 24;   // a span this long with two whole repeats is also a loop; 0 = off
    int maxPeriod = 64;       // >= 1: longest block searched (cost: O(maxPeriod * loop length))
};

struct RepetitionSpan {
    bool found = false;
    int64_t start = 0;    // first token of the looping suffix (index into the sequence)
    int64_t length = 0;   // tokens in the suffix: period * repeats + partial (it ends at the sequence's end)
    int period = 0;       // tokens in the repeated block
    int repeats = 0;      // whole repetitions of the block
    int partial = 0;      // tokens of an unfinished last block (0 <= partial < period)
};

// The loop at the end of `tokens` under `options`, or {found = false}.
// Throws dlab::Error for minRepeats < 2, maxPeriod < 1 or minSpanTokens < 0.
RepetitionSpan findRepetition(std::span<const TokenId> tokens, const RepetitionOptions& options = {});

}  // namespace dlab
