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
//
// Diverse (group) beam search (Vijayakumar et al. 2016; HF's num_beam_groups / diversity_penalty,
// HammingDiversityLogitsProcessor). With G = groups > 1 the width k is split into G groups of
// k/G beams; each group is the beam search above with width k/G (its own 2k/G candidates, its
// own heap of k/G finished hypotheses, its own early stopping), all starting from the prompt.
// Per step the groups run in order 0, 1, ..., G-1; group g's log-probabilities are first reduced
// by diversityPenalty x (how many times earlier groups chose that token at this step), and that
// penalised value is what enters the cumulative score (HF). "Chosen" = a token that became a
// running beam of an earlier group, or, at the last step, ended one of its hypotheses by length;
// a hypothesis finished by an end token does not count (it left the beams, as in HF). A group
// whose early stopping fires stops expanding; the search ends when no group is running. The final
// n best are all groups' finished hypotheses pooled and ranked by score (HF's finalize), so a
// later group's hypotheses, which paid the penalty, rank below similar ones of group 0.
// groups = 1 is exactly the search above.
//
// Each step begins with one BeamScorer::prefetch() of every running beam of every group, before
// any logits() call of that step: a scorer over a model (ModelBeamScorer) evaluates the step's
// beams in one batched forward pass; the search reads the same logits either way.
//
// Processors, per beam, in HF's order, on the log-softmax of the raw logits (HF applies its
// logits processors to log-probabilities in beam search, not to logits, and never renormalises):
//   1. diversity (groups > 1): lp -= diversityPenalty x count;
//   2. repetition (repeatPenalty != 1): for every distinct token of the beam's WHOLE history
//      (prompt + its generated tokens, as HF's input_ids): lp < 0 ? lp * r : lp / r;
//   3. no-repeat-n-gram (noRepeatNgram = n > 0): a token that would repeat an n-gram of that
//      same history gets -inf.
// Stages 2 and 3 are the sampler's RepetitionPenaltyStage / NoRepeatNgramStage (with no last-N
// window). BeamNode::logProb stays the model's log p; the processed value is searchLogProb, and
// ranking, cumulative sums and scores use it. With every processor off both are the same number.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "generate/beam_scorer.h"

namespace dlab {

class Constraint;

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
    int groups = 1;                  // diverse beam search groups G >= 1; width % G == 0 (HF num_beam_groups)
    double diversityPenalty = 0.0;   // >= 0; > 0 needs groups > 1 (HF diversity_penalty)
    float repeatPenalty = 1.0f;      // (0, 10]; 1 = off (HF repetition_penalty, whole history)
    int noRepeatNgram = 0;           // n >= 0; 0 = off (HF no_repeat_ngram_size, whole history)
    // Constrained decoding: every beam keeps only tokens its grammar allows (the sampler chain's
    // "grammar" stage, per beam); the end tokens only where the grammar accepts.
    std::shared_ptr<const Constraint> constraint;
    // Per-node detail for the tree view, recorded while searching (off by default: it costs a
    // top-N selection and an entropy pass over the vocabulary per evaluated node):
    int recordTopN = 0;              // > 0: evaluated nodes keep their next-token top N and entropy
    bool recordKvBlocks = false;     // evaluated nodes keep the KV blocks their sequence held

    // Throws dlab::Error naming the option, its value and what would do.
    void validate() const;
};

// One entry of a node's next-token distribution: log softmax(raw logits)[token].
struct BeamNextToken {
    TokenId token = -1;
    double logProb = 0.0;
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
    double logProb = 0.0;       // log p(token | parent's sequence), nats: the model's, no processor
    double cumLogProb = 0.0;    // sum of logProb along the path from the root
    // What entered the search: logProb - diversityPenalty, then the repetition and no-repeat-n-gram
    // processors (see above); equal to logProb when they are off.
    double searchLogProb = 0.0;
    double cumSearchLogProb = 0.0;  // sum of searchLogProb from the root: candidates rank by it
    double score = 0.0;         // cumSearchLogProb / depth^lengthPenalty (0 for the root)
    BeamNodeStatus status = BeamNodeStatus::Kept;
    bool endToken = false;      // token is one of BeamOptions::endTokens
    int candidateRank = -1;     // rank among its group's candidates at its step (0 = best); -1 for the root
    // Slot among the running beams of its depth when Kept, else -1. Slots are global, as HF's beam
    // indices: group g holds slots g*(width/groups) .. (g+1)*(width/groups) - 1.
    int beamSlot = -1;
    int nBestRank = -1;         // position in BeamResult::hypotheses, else -1
    int group = -1;             // the group that proposed it; -1 for the root
    double diversityPenalty = 0.0;  // subtracted from its log-prob by the diversity processor (>= 0)

    // Recorded when this node's sequence was evaluated (its next-token distribution computed):
    // the root and Kept nodes the search expanded. Kept nodes of the last step the search ran
    // (the length limit, early stopping, a stop) were never evaluated: evaluated false, all empty.
    bool evaluated = false;
    std::vector<BeamNextToken> next;  // recordTopN > 0: the top N by raw log-prob, best first (ties: lower id)
    double nextEntropy = 0.0;         // recordTopN > 0: entropy of the full softmax(raw logits), nats
    std::vector<int32_t> kvBlocks;    // recordKvBlocks: BeamScorer::kvBlocks(its sequence) once evaluated
};

struct BeamTree {
    std::vector<BeamNode> nodes;  // nodes[0] is the root; parents come before children
};

enum class BeamStop { EarlyStop, MaxTokens, NoRunningBeams, Cancelled, Callback };
const char* beamStopName(BeamStop s);

struct BeamHypothesis {
    std::vector<TokenId> tokens;  // generated tokens, the end token excluded
    bool ended = false;           // finished with an end token (false: reached the length limit or the search stopped)
    double logProb = 0.0;         // cumulative model log-prob (BeamNode::cumLogProb), including the end token
    double searchLogProb = 0.0;   // cumulative as searched (BeamNode::cumSearchLogProb)
    double score = 0.0;
    int node = -1;                // its last node in the tree
    int group = 0;                // the group that found it
};

struct BeamResult {
    std::vector<BeamHypothesis> hypotheses;  // the n best of all groups, best score first (ties: earlier node)
    BeamTree tree;
    BeamStop stop = BeamStop::MaxTokens;
    int steps = 0;                           // expansion steps run (the tree's depth)
};

// Called after each step with the tree so far and the step's depth; return false to stop.
using BeamStepCallback = std::function<bool(const BeamTree&, int depth)>;

// Runs beam search after `prompt` (at least one token). A dlab::Cancelled from the scorer ends the
// search like the cancel flag does. The callback and the cancel flag are checked once per step
// (after every group has moved). Throws dlab::Error for bad options (BeamOptions::validate) or
// logits (NaN, +inf, all -inf), and passes on what the scorer throws. If the search is stopped
// (cancel flag, callback) the running beams join the finished ones, so the result is never empty.
BeamResult beamSearch(BeamScorer& scorer, const std::vector<TokenId>& prompt, const BeamOptions& options,
                      const BeamStepCallback& onStep = {}, const std::atomic<bool>* cancel = nullptr);

// score of a path with cumulative log-probability `logProb` and `length` generated tokens.
double beamScore(double logProb, int length, double lengthPenalty);

}  // namespace dlab
