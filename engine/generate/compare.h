#pragma once
// Side by side: several decoding configurations (greedy, sampled, beam) on one prompt. The prompt
// is evaluated ONCE into a paged KV pool; every run then starts from its own fork of that sequence,
// so all runs share the prompt's K/V blocks (copy-on-write: a run's first write into the prompt's
// partial last block copies it), and a beam run's beams also share their common prefixes.
//
// Runs execute one after another in the given order, but every run's fork exists from the start
// and a greedy or sampled run keeps its sequence until the end, so the pool holds the runs
// together (a beam run frees its beams when its search ends). KV figures are high-water marks.
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "generate/repetition.h"
#include "generate/run_spec.h"
#include "model/backend.h"

namespace dlab {

// One token of a run's best alternatives.
struct RunAlternative {
    TokenId token = -1;
    double p = 0.0;       // softmax(raw logits)[token] at temperature 1
    double finalP = 0.0;  // in the final distribution after the sampler chain (0: removed); beam runs: = p
};

// One chosen token of a run, as it was chosen.
struct RunToken {
    TokenId token = -1;
    double logProb = 0.0;  // log softmax(raw logits)[token] at temperature 1: RunResult::logProb is the sum of these
    // Probability of `token` in the FINAL distribution, after every sampler stage (greedy: after
    // the penalties and the argmax, so 1); beam runs: the raw exp(logProb).
    double p = 0.0;
    bool end = false;      // the end-of-generation token that ended the run (not in RunResult::tokens)
    // sample: the best N of the final distribution (by final p); greedy and beam: the raw top N
    // (by raw p; for beam runs the parent node's recorded BeamNode::next, empty when not recorded).
    // Ties to the lower id.
    std::vector<RunAlternative> alternatives;
};

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
    // The run's cost after the shared prefill. A step chooses the next token of every sequence the
    // run has (greedy/sample: one; beam: every running beam, all of them evaluated in one batched
    // forward pass). The first step reads the prefill's logits, so it runs no pass.
    int forwardCalls = 0;          // forward passes (a beam step is one, whatever its width)
    int64_t tokensEvaluated = 0;   // tokens those passes evaluated (a beam step: one per running beam)
    int decodeSteps = 0;           // steps run: greedy/sample the tokens chosen (the end token too); beam the search's depth
    double msPerStep = 0.0;        // ms / decodeSteps: the wall time of a step (what a beam step costs against greedy's)
    double distinct1 = 0.0, distinct2 = 0.0;  // unique n-grams / n-grams of `tokens` (0 when there are none)
    RepetitionSpan repetition;     // findRepetition(tokens)
    // At the run's own high-water mark (the most distinct blocks its sequences referenced):
    int64_t kvBlocks = 0;          // distinct blocks its sequences referenced: its own plus shared ones
    int64_t kvBlocksShared = 0;    // of those, blocks another sequence (another run or beam) also referenced
    int64_t kvBytesSavedWithin = 0;  // sharing among its own sequences (beams): (refs - 1) * bytesPerBlock summed
    // The chosen tokens, the end token included (flagged), so the steps' logProbs sum to logProb
    // exactly. Beam runs: the best hypothesis, built from its tree nodes.
    std::vector<RunToken> steps;
    bool stopped = false;          // cancelled, or (beam) stopped by onBeamStep: the run is partial
    BeamResult beam;               // beam runs: the whole search (every hypothesis, width of them; the tree)
    BeamOptions beamOptions;       // beam runs: the options it ran with (for beamResultJson)
};

struct CompareResult {
    std::vector<TokenId> prompt;
    double prefillMs = 0.0;        // the one prompt evaluation
    std::vector<RunResult> runs;   // in spec order; fewer than the specs when cancelled
    KvStats kvPeak;                // the pool when the most blocks were in use (sharing counted there)
    bool stopped = false;          // cancelled: the last run is partial and later runs were not started
};

// How to run a comparison, and what to report while it runs (all callbacks on the calling thread).
struct CompareOptions {
    int maxTokens = 32;            // new tokens per run, >= 1
    KvType kvType = KvType::F16;
    int64_t contextLimit = 0;      // positions; 0 = defaultSessionContext(model.hparams())
    int64_t blockSize = 16;        // KV block size, positions
    int recordTopN = 8;            // RunToken::alternatives per greedy/sample token (0 = none)
    int beamRecordTopN = 8;        // BeamOptions::recordTopN for beam runs' trees (0 = off)
    bool beamRecordKvBlocks = true;  // BeamOptions::recordKvBlocks for beam runs' trees
    // Constrained decoding for every run whose spec says grammar=on (the default).
    std::shared_ptr<const Constraint> constraint;
    // Called as each greedy/sample token is chosen (the end token too), before the next forward pass.
    std::function<void(int run, const RunToken&)> onToken;
    // Called after each step of a beam run with its tree so far; false stops that run (it is
    // returned partial, stopped set) and the comparison goes on with the next run.
    std::function<bool(int run, const BeamTree&, int depth)> onBeamStep;
    // Called when a run is done (also a stopped, partial one).
    std::function<void(int run, const RunResult&)> onRunDone;
    // Checked between tokens (and between beam steps): once set, the current run is returned
    // partial with stopped set and later runs are not started. A dlab::Cancelled from the backend
    // (its own cancel flag, which the caller may set too) does the same.
    const std::atomic<bool>* cancel = nullptr;
};

// Blocks a comparison's pool needs: the prompt once, per greedy/sample run its generated blocks
// plus a copy of the prompt's partial block, per beam run that times its width.
int64_t comparePoolBlocks(int64_t promptTokens, int maxTokens, const std::vector<RunSpec>& runs, int64_t blockSize);

// Runs every spec for up to maxTokens new tokens after `prompt` (stopping at end-of-generation
// tokens). Sample and greedy runs with DRY on and no breakers get llama.cpp's default breakers.
// Throws dlab::Error for no runs, an empty prompt, maxTokens < 1, or when the prompt plus
// maxTokens do not fit the context; passes on what the backend throws but dlab::Cancelled.
CompareResult compareRuns(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                          const std::vector<RunSpec>& runs, const CompareOptions& options);

// The same with the default options but these (the CLI's original entry point).
CompareResult compareRuns(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                          const std::vector<RunSpec>& runs, int maxTokens, KvType kvType, int64_t contextLimit,
                          int64_t blockSize = 16);

// unique n-grams / n-grams of `tokens`; 0 when it has fewer than n tokens.
double distinctN(const std::vector<TokenId>& tokens, int n);

}  // namespace dlab
