#pragma once
// Beam search as Hugging Face transformers defines it (generate(num_beams=k)), with the whole
// search tree kept for the GUI's beam-tree view.
//
// Each step, every running beam b with cumulative log-probability S_b proposes its tokens t with
// S_b + log softmax(logits_b)[t]; of all proposals the best 2k are the step's candidates (that is
// the tree's "expanded" set). Walking them best first:
//   - an end-of-sequence token among the first k candidates is a finished hypothesis; one ranked k
//     or lower is pruned (HF: "only the top num_beams can finish");
//   - any other token becomes a running beam until k beams run; the rest are pruned;
//   - at the last step (depth == maxNewTokens) every candidate among the first k is finished.
// Finished hypotheses live in a heap of the k best by score; a newcomer enters a full heap only
// with a strictly better score than its worst (HF's BeamHypotheses.add), which it then evicts.
//
// score = S / length^lengthPenalty, length = generated tokens including the end token (HF's
// generated_len). lengthPenalty > 0 favours longer hypotheses, < 0 shorter ones, 0 = raw S.
//
// Early stopping (HF's early_stopping), checked after each step once k hypotheses are finished:
//   Exact    (HF True)    stop at once;
//   Heuristic (HF False, the default) stop when the best running beam, scored at its current
//                          length, cannot beat the worst finished one;
//   Never    (HF "never") stop only when no running beam could beat it at any length up to
//                          maxNewTokens (the canonical, exact beam search).
//
// Ties are broken deterministically: candidates with equal cumulative log-probability rank by
// their parent's beam slot (lower first: beams are kept in rank order), then by lower token id; a
// finished hypothesis that ties the heap's worst stays out, and the n-best list orders equal
// scores by node id (earlier first). Width 1 is greedy decoding (argmax, ties to the lowest id)
// except with EarlyStopping::Never, which may look past a first end token.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "generate/beam_scorer.h"

namespace dlab {

enum class EarlyStopping { Exact, Heuristic, Never };
const char* earlyStoppingName(EarlyStopping e);          // "true" | "false" | "never" (HF's spelling)
EarlyStopping parseEarlyStopping(const std::string& s);  // those three; throws dlab::Error otherwise

struct BeamOptions {
    int width = 4;                   // k >= 1
    int maxNewTokens = 32;           // >= 1
    double lengthPenalty = 1.0;      // alpha in S / length^alpha (HF's default 1.0)
    EarlyStopping earlyStopping = EarlyStopping::Heuristic;
    std::vector<TokenId> endTokens;  // ids that finish a hypothesis (eos, eot, ...); may be empty
    int nBest = 0;                   // hypotheses returned, 1..width; 0 = width
};

enum class BeamNodeStatus {
    Kept,      // became a running beam at its depth
    Pruned,    // a candidate that did not make it
    Finished,  // a finished hypothesis still among the k best at the end
    Evicted,   // finished, but not (or no longer) among the k best
};
const char* beamNodeStatusName(BeamNodeStatus s);  // "kept" | "pruned" | "finished" | "evicted"

struct BeamNode {
    int id = 0;                 // index in BeamTree::nodes
    int parent = -1;            // -1 for the root (the prompt)
    int depth = 0;              // generated tokens up to and including this one; root 0
    TokenId token = -1;         // -1 for the root
    double logProb = 0.0;       // log p(token | parent's sequence), nats
    double cumLogProb = 0.0;    // sum along the path from the root
    double score = 0.0;         // cumLogProb / depth^lengthPenalty (0 for the root)
    BeamNodeStatus status = BeamNodeStatus::Kept;
    bool endToken = false;      // token is one of BeamOptions::endTokens
    int candidateRank = -1;     // rank among its step's candidates (0 = best); -1 for the root
    int beamSlot = -1;          // slot among the running beams of its depth when Kept, else -1
    int nBestRank = -1;         // position in BeamResult::hypotheses, else -1
};

struct BeamTree {
    std::vector<BeamNode> nodes;  // nodes[0] is the root; parents come before children
};

enum class BeamStop { EarlyStop, MaxTokens, NoRunningBeams, Cancelled, Callback };
const char* beamStopName(BeamStop s);

struct BeamHypothesis {
    std::vector<TokenId> tokens;  // generated tokens, the end token excluded
    bool ended = false;           // finished with an end token (false: reached the length limit or the search stopped)
    double logProb = 0.0;         // cumulative, including the end token
    double score = 0.0;
    int node = -1;                // its last node in the tree
};

struct BeamResult {
    std::vector<BeamHypothesis> hypotheses;  // the n best, best score first
    BeamTree tree;
    BeamStop stop = BeamStop::MaxTokens;
    int steps = 0;                           // expansion steps run (the tree's depth)
};

// Called after each step with the tree so far and the step's depth; return false to stop.
using BeamStepCallback = std::function<bool(const BeamTree&, int depth)>;

// Runs beam search after `prompt` (at least one token). A dlab::Cancelled from the scorer ends the
// search like the cancel flag does. Throws dlab::Error for bad options or
// logits (NaN, +inf, all -inf), and passes on what the scorer throws. If the search is stopped
// (cancel flag, callback) the running beams join the finished ones, so the result is never empty.
BeamResult beamSearch(BeamScorer& scorer, const std::vector<TokenId>& prompt, const BeamOptions& options,
                      const BeamStepCallback& onStep = {}, const std::atomic<bool>* cancel = nullptr);

// score of a path with cumulative log-probability `logProb` and `length` generated tokens.
double beamScore(double logProb, int length, double lengthPenalty);

}  // namespace dlab
