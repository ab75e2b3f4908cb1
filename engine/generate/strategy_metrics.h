#pragma once
// How alike several generated token sequences are, for the strategies page's comparison table
// and its beam panel (the lesson's "deterministic? diverse?" columns, and the anti-diversity of
// beam search). Plain functions over token ids; every figure is defined here once.
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

// Tokens at the start that a and b have in common.
int sharedPrefixLength(const std::vector<TokenId>& a, const std::vector<TokenId>& b);

// Overlap of the two sequences' bigram sets: |A ∩ B| / |A ∪ B| (Jaccard), in [0, 1]. Sequences
// of one token compare their unigrams; two empty sequences are identical (1), one empty 0.
double ngramOverlap(const std::vector<TokenId>& a, const std::vector<TokenId>& b, int n = 2);

// Over every pair of `seqs` (at least two; fewer gives 0 pairs):
struct PairwiseSimilarity {
    int pairs = 0;
    double meanOverlap = 0.0;          // mean ngramOverlap (bigrams)
    double meanSharedPrefix = 0.0;     // mean sharedPrefixLength, tokens
    double meanSharedPrefixFraction = 0.0;  // sharedPrefixLength / the shorter length (1 when both empty)
    bool allIdentical = true;          // every pair equal token for token
};
PairwiseSimilarity pairwiseSimilarity(const std::vector<std::vector<TokenId>>& seqs);

// distinct-n over the union of several sequences: unique n-grams of all / n-grams of all (each
// sequence's n-grams counted on its own, none across a boundary); 0 when there are none.
double pooledDistinctN(const std::vector<std::vector<TokenId>>& seqs, int n);

}  // namespace dlab
