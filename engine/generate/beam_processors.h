#pragma once
// The score processors of beam search, per beam, in Hugging Face's order (beam_search.h has the
// rules): diversity (HammingDiversityLogitsProcessor), repetition (RepetitionPenaltyLogitsProcessor)
// and no-repeat-n-gram (NoRepeatNGramLogitsProcessor), applied to log softmax(raw logits) as HF
// does in beam search. The last two are the sampler chain's own stages (stages_penalty.h), run
// with no last-N window over the beam's whole history.
#include <span>
#include <vector>

#include "generate/beam_search.h"
#include "sampling/stage_grammar.h"
#include "sampling/stages_penalty.h"

namespace dlab {

class BeamProcessors {
public:
    explicit BeamProcessors(const BeamOptions& options);

    // Whether anything would change for a beam when earlier groups chose `chosen` this step.
    bool active(const std::vector<TokenCount>& chosen) const;
    // Whether the beam's history is read (repetition, no-repeat-n-gram or a grammar is on).
    bool needsHistory() const { return repetition_.enabled() || noRepeat_.enabled() || grammar_.enabled(); }
    // How many leading tokens of the histories given to apply() are the prompt (the grammar
    // constrains only what follows).
    void setPromptLength(size_t n) { promptLength_ = n; }
    // dp * (count of `token` in `chosen`): what the diversity processor subtracts. `chosen` sorted by id.
    double diversityPenalty(const std::vector<TokenCount>& chosen, TokenId token) const;

    // scores (nVocab) = logits - lse, minus the diversity penalties, then the repetition and
    // no-repeat-n-gram stages over `history` (prompt + the beam's generated tokens), then the
    // grammar's mask. A banned or forbidden token gets -inf. Values the stages did not touch stay exact doubles; touched ones went
    // through the stages' float arithmetic.
    void apply(std::span<const float> logits, double lse, const std::vector<TokenCount>& chosen,
               std::span<const TokenId> history, std::vector<double>& scores);

private:
    double diversity_;
    RepetitionPenaltyStage repetition_;
    NoRepeatNgramStage noRepeat_;
    GrammarStage grammar_;
    size_t promptLength_ = 0;
    CandidateArray cands_;
    std::vector<float> before_;  // (nVocab) the scores handed to the stages
};

}  // namespace dlab
