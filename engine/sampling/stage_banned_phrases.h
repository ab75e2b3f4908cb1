#pragma once
// Stage "banned-phrases": removes every candidate whose bytes, appended to the text generated so
// far, would make a banned phrase appear (safety/banned_phrases.h says how, and why a step costs
// about one table look-up per candidate). A pure function of the history: re-sampling a step
// gives the same mask. The prompt does not count: a phrase the user wrote may still be quoted
// back only in pieces that never complete it.
#include <memory>
#include <vector>

#include "sampling/stage.h"

namespace dlab {

class BannedPhrases;

class BannedPhrasesStage : public SamplerStage {
public:
    static constexpr size_t kForbiddenShown = 8;   // forbidden tokens a snapshot lists

    explicit BannedPhrasesStage(std::shared_ptr<const BannedPhrases> phrases);

    std::string_view name() const override { return "banned-phrases"; }
    bool enabled() const override;
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;
    // The best kForbiddenShown forbidden candidates (higher logit first) with p their probability
    // in the distribution that entered the stage, and how many finite candidates were forbidden.
    // Reads the candidates apply() left, so the chain calls it right after apply().
    void annotate(StageSnapshot& snapshot) const override;

private:
    std::shared_ptr<const BannedPhrases> phrases_;
    std::vector<Candidate> forbidden_;        // this step's forbidden candidates with a finite logit
    const CandidateArray* survivors_ = nullptr;
    mutable std::vector<Candidate> scratch_;
};

// The stage for `p.bannedPhrases` (off when that is null or empty).
std::unique_ptr<SamplerStage> makeBannedPhrasesStage(const SamplerParams& p);

}  // namespace dlab
