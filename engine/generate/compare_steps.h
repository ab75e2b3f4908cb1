#pragma once
// How compareRuns() describes a chosen token (RunToken): from one sampler-chain step of a
// greedy or sampled run, or from the nodes of a beam search tree.
#include <span>

#include "generate/compare.h"
#include "sampling/sampler_chain.h"

namespace dlab {

// The token `chosen` drawn by `chain` from `logits` (nVocab, raw), with the chain's final
// distribution still in chain.candidates(); lse = log sum exp(logits). greedy: alternatives are the
// raw top N, else the final distribution's top N.
RunToken sampledRunToken(std::span<const float> logits, double lse, const SamplerChain& chain, TokenId chosen,
                         float chosenP, bool greedy, int topN);

// The steps of the path root -> `leaf` of a beam tree: each node's logProb, p = exp(logProb),
// alternatives from its parent's recorded next list.
std::vector<RunToken> beamRunSteps(const BeamTree& tree, int leaf);

// log sum exp(logits) in double; logits must be free of NaN and +inf.
double logitsLogSumExp(std::span<const float> logits);

}  // namespace dlab
