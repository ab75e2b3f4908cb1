#pragma once
// Stage "grammar": constrained decoding. Keeps only the candidates whose bytes continue the text
// generated so far (History::generated()) as a valid prefix of the constraint's grammar, and the
// end-of-generation tokens only where the grammar accepts. The grammar state is found from the
// history itself (cached per prefix), so the chain stays a pure function of its inputs: re-sampling
// an old step, forks and beams all get the right mask.
//
// Snapshot: kept = tokens the grammar allowed among those that entered; massKept's drop is the
// "constraint tax"; forbidden = the best tokens the model wanted but the grammar forbade.
#include <memory>
#include <unordered_map>
#include <vector>

#include "sampling/stage.h"

namespace dlab {

class Constraint;

class GrammarStage : public SamplerStage {
public:
    static constexpr int kForbiddenShown = 32;

    explicit GrammarStage(std::shared_ptr<const Constraint> constraint);
    std::string_view name() const override { return "grammar"; }
    bool enabled() const override { return constraint_ != nullptr; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;
    void annotate(StageSnapshot& snapshot) const override;

    // The grammar state after `generated` (throws dlab::Error naming the first token that does not fit).
    int32_t stateAfter(std::span<const TokenId> generated);
    // The mask applied by the last apply() (one bit per vocabulary id).
    const std::vector<uint64_t>& lastMask() const { return mask_; }

private:
    std::shared_ptr<const Constraint> constraint_;
    std::unordered_map<uint64_t, int32_t> stateByPrefix_;  // hash of the generated ids -> grammar state
    std::vector<uint64_t> mask_;
    std::vector<Candidate> forbidden_;   // (<= kForbiddenShown) best forbidden of the last step, by logit
    std::vector<float> forbiddenLogits_;  // (forbiddenCount_) every forbidden logit, for annotate's normaliser
    int forbiddenCount_ = 0;
};

std::unique_ptr<SamplerStage> makeGrammarStage(const SamplerParams& params);

}  // namespace dlab
