#pragma once
// The score processors of beam search, per beam, in Hugging Face's order (beam_search.h has the
// rules): diversity (HammingDiversityLogitsProcessor), repetition (RepetitionPenaltyLogitsProcessor)
// and no-repeat-n-gram (NoRepeatNGramLogitsProcessor), applied to log softmax(raw logits) as HF
// does in beam search. The last two are the sampler chain's own stages (stages_penalty.h), run
// with no last-N window over the beam's whole history.
#include <span>
#include <vector>

#include "generate/beam_search.h"
#include "sampling/stages_penalty.h"

namespace dlab {

class BeamProcessors {
public:
    explicit BeamProcessors(const BeamOptions& options);

    // Whether anything would change for a beam when earlier groups chose `chosen` this step.
    bool active(const std::vector<TokenCount>& chosen) const;
    // Whether the beam's history is read (repetition or no-repeat-n-gram is on).
    bool needsHistory() const { return repetition_.enabled() || noRepeat_.enabled(); }
    // dp * (count of `token` in `chosen`): what the diversity processor subtracts. `chosen` sorted by id.
    double diversityPenalty(const std::vector<TokenCount>& chosen, TokenId token) const;

    // scores (nVocab) = logits - lse, minus the diversity penalties, then the repetition and
    // no-repeat-n-gram stages over `history` (prompt + the beam's generated tokens). A banned
    // token gets -inf. Values the stages did not touch stay exact doubles; touched ones went
    // through the stages' float arithmetic.
    void apply(std::span<const float> logits, double lse, const std::vector<TokenCount>& chosen,
               std::span<const TokenId> history, std::vector<double>& scores);

private:
    double diversity_;
    RepetitionPenaltyStage repetition_;
    NoRepeatNgramStage noRepeat_;
    CandidateArray cands_;
    std::vector<float> before_;  // (nVocab) the scores handed to the stages
};

}  // namespace dlab
