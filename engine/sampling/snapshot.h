#pragma once
// What the learner sees after each stage: the best N survivors with their renormalised
// probabilities, how many tokens survive, how much of the original probability mass they carried,
// and the entropy of what is left. Plain values, no Qt.
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
StageSnapshot takeSnapshot(std::string_view stage, const CandidateArray& cands, std::span<const float> raw,
                           double rawLogSumExp, int topN, std::vector<Candidate>& scratch);

}  // namespace dlab
