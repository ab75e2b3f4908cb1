#pragma once
// What the learner sees after each stage: the best N survivors with their renormalised
// probabilities, how many tokens survive, how much of the original probability mass they carried,
// and the entropy of what is left. Plain values, no Qt.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sampling/candidates.h"

namespace dlab {

struct StageSnapshot {
    std::string stage;
    std::vector<Candidate> top;  // best N survivors (higher logit first), p renormalised over all survivors
    int kept = 0;                // survivors (finite logit)
    float massKept = 1.0f;       // their total probability under the raw logits entering the chain
    // Their total probability under the distribution that entered this stage: the previous
    // stage's survivors with the logits they had then (top-p 0.95 after temperature 0.8 keeps at
    // least 0.95 of that, whatever share of the raw distribution it is). Empty in a session saved
    // before it was recorded.
    std::optional<float> inputMassKept;
    float entropy = 0.0f;        // nats, of the renormalised survivors
    bool changed = false;        // the stage altered the candidates this step (false: off or nothing to do)
    // Masking stages (grammar, banned-phrases) only: the best tokens the stage forbade, higher
    // logit first, with p their probability in the distribution that entered the stage; and how
    // many candidates it forbade (-1: not a masking stage).
    std::vector<Candidate> forbidden;
    int forbiddenCount = -1;
    bool operator==(const StageSnapshot&) const = default;
};

// The step's raw logits before any stage.
struct LogitSummary {
    int vocab = 0;
    int finite = 0;          // tokens with a finite logit
    float maxLogit = 0.0f;
    double logSumExp = 0.0;  // log of the softmax normaliser: p_i = exp(logit_i - logSumExp)
    float entropy = 0.0f;    // nats
    bool operator==(const LogitSummary&) const = default;
};

// Throws dlab::Error for an empty span, a NaN or +inf logit, or logits that are all -inf.
LogitSummary summarizeLogits(std::span<const float> logits);

// The snapshot of the untouched vocabulary, built from the summary (no second exp pass).
StageSnapshot rawSnapshot(std::string_view stage, const CandidateArray& cands, const LogitSummary& raw, int topN,
                          std::vector<Candidate>& scratch);

// Snapshot of `cands` as it is now. `raw`/`rawLogSumExp` describe the distribution entering the
// chain (for massKept); topN bounds the list. One pass with exp over the survivors plus a bounded
// selection of the top N; never sorts the array.
// `logNormaliser`, when given, receives log sum exp of the survivors' logits (what the next stage
// is handed is softmax(logit - that)).
StageSnapshot takeSnapshot(std::string_view stage, const CandidateArray& cands, std::span<const float> raw,
                           double rawLogSumExp, int topN, std::vector<Candidate>& scratch,
                           double* logNormaliser = nullptr);

// The distribution entering one stage, kept so the share of it that the stage let through can be
// measured afterwards (StageSnapshot::inputMassKept). Reused across stages and steps.
class StageInput {
public:
    // Before the stage: the candidates' logits by id (`vocab` ids; absent ones count as removed)
    // and log sum exp over them, which the chain already knows (the raw summary's, then each
    // snapshot's), so measuring costs no exp over tokens the stage keeps or drops in bulk.
    void capture(const CandidateArray& cands, size_t vocab, double logNormaliser);
    // After it: the probability, under the captured distribution, of the tokens still finite in
    // `cands`, by the logits they had on entry. 1 when the stage removed nothing (whatever it did
    // to the logits), 0 when it removed everything. Sums whichever side is smaller: the survivors,
    // or (when nothing was cut off the array) the removed.
    float keptShare(const CandidateArray& cands) const;

private:
    std::vector<float> logits_;  // (vocab) entering logit per token id, -inf: not a candidate
    double logZ_ = 0.0;
    size_t finite_ = 0;          // entering candidates with a finite logit
    size_t size_ = 0;            // entering array length (finite or not)
};

}  // namespace dlab
