#pragma once
// Side by side: several decoding configurations (greedy, sampled, beam) on one prompt. The prompt
// is evaluated ONCE into a paged KV pool; every run then starts from its own fork of that sequence,
// so all runs share the prompt's K/V blocks (copy-on-write: a run's first write into the prompt's
// partial last block copies it), and a beam run's beams also share their common prefixes.
//
// Runs execute one after another in the given order, but every run's fork exists from the start
// and a greedy or sampled run keeps its sequence until the end, so the pool holds the runs
// together (a beam run frees its beams when its search ends). KV figures are high-water marks.
#include <cstdint>
#include <vector>

#include "generate/repetition.h"
#include "generate/run_spec.h"
#include "model/backend.h"

namespace dlab {

struct RunResult {
    RunSpec spec;
    std::vector<TokenId> tokens;   // generated, the end-of-generation token excluded (beam: the best hypothesis)
    std::string text;              // their text; invalid UTF-8 (a split or random byte) becomes U+FFFD
    bool ended = false;            // stopped at an end-of-generation token
    // Sum of log softmax(raw logits)[token] (temperature 1, no sampler stages) over the generated
    // tokens, plus the end token when the run ended with one; nats.
    double logProb = 0.0;
    double ms = 0.0;               // wall time of the run, forward passes included
    double tokensPerSecond = 0.0;  // tokens.size() / ms (beam: the best hypothesis' tokens)
    int forwardCalls = 0;
    double distinct1 = 0.0, distinct2 = 0.0;  // unique n-grams / n-grams of `tokens` (0 when there are none)
    RepetitionSpan repetition;     // findRepetition(tokens)
    // At the run's own high-water mark (the most distinct blocks its sequences referenced):
    int64_t kvBlocks = 0;          // distinct blocks its sequences referenced: its own plus shared ones
    int64_t kvBlocksShared = 0;    // of those, blocks another sequence (another run or beam) also referenced
    int64_t kvBytesSavedWithin = 0;  // sharing among its own sequences (beams): (refs - 1) * bytesPerBlock summed
};

struct CompareResult {
    std::vector<TokenId> prompt;
    double prefillMs = 0.0;        // the one prompt evaluation
    std::vector<RunResult> runs;   // in spec order
    KvStats kvPeak;                // the pool when the most blocks were in use (sharing counted there)
};

// Blocks a comparison's pool needs: the prompt once, per greedy/sample run its generated blocks
// plus a copy of the prompt's partial block, per beam run that times its width.
int64_t comparePoolBlocks(int64_t promptTokens, int maxTokens, const std::vector<RunSpec>& runs, int64_t blockSize);

// Runs every spec for up to maxTokens new tokens after `prompt` (stopping at end-of-generation
// tokens). Throws dlab::Error for no runs, an empty prompt, maxTokens < 1, or when the prompt plus
// maxTokens do not fit contextLimit; passes on what the backend throws.
CompareResult compareRuns(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                          const std::vector<RunSpec>& runs, int maxTokens, KvType kvType, int64_t contextLimit,
                          int64_t blockSize = 16);

// unique n-grams / n-grams of `tokens`; 0 when it has fewer than n tokens.
double distinctN(const std::vector<TokenId>& tokens, int n);

}  // namespace dlab
