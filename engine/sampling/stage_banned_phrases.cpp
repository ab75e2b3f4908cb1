#include "sampling/stage_banned_phrases.h"

#include <cmath>

#include "safety/banned_phrases.h"

namespace dlab {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

BannedPhrasesStage::BannedPhrasesStage(std::shared_ptr<const BannedPhrases> phrases) : phrases_(std::move(phrases)) {}

bool BannedPhrasesStage::enabled() const { return phrases_ && !phrases_->empty(); }

void BannedPhrasesStage::apply(CandidateArray& cands, const History& history) {
    forbidden_.clear();
    survivors_ = &cands;
    const BannedPhrases& ban = *phrases_;
    const BannedPhrases::State state = ban.stateAfter(history.generated());
    if (state == BannedPhrases::start()) {
        // Only tokens holding a whole phrase can complete one here.
        cands.filter([&](const Candidate& c) {
            if (ban.containedIn(c.id) < 0) return true;
            if (c.logit != kNegInf) forbidden_.push_back(c);
            return false;
        });
        return;
    }
    cands.filter([&](const Candidate& c) {
        if (!ban.forbids(state, c.id)) return true;
        if (c.logit != kNegInf) forbidden_.push_back(c);
        return false;
    });
}

void BannedPhrasesStage::annotate(StageSnapshot& snapshot) const {
    snapshot.forbiddenCount = static_cast<int>(forbidden_.size());
    snapshot.forbidden.clear();
    if (forbidden_.empty() || !survivors_) return;
    // The distribution entering the stage is the survivors' and the forbidden tokens' together:
    // log Z_in = log(Z_kept + sum over forbidden of exp(logit)). The chain's snapshot of the
    // survivors already holds Z_kept in its best token's p (p = exp(logit - log Z_kept)), so only
    // the forbidden tokens are summed here; without that list, all the survivors are.
    float m = kNegInf;
    for (const Candidate& c : forbidden_) m = std::max(m, c.logit);
    double logZKept = -std::numeric_limits<double>::infinity();
    if (!snapshot.top.empty() && snapshot.top.front().p > 0.0f) {
        logZKept = double(snapshot.top.front().logit) - std::log(double(snapshot.top.front().p));
    } else {
        float mk = kNegInf;
        for (const Candidate& c : *survivors_) mk = std::max(mk, c.logit);
        if (mk != kNegInf) {
            double z = 0.0;
            for (const Candidate& c : *survivors_) z += std::exp(double(c.logit) - mk);   // exp(-inf) = 0
            logZKept = double(mk) + std::log(z);
        }
    }
    const double top = std::max(double(m), logZKept);
    double sum = std::exp(logZKept - top);
    for (const Candidate& c : forbidden_) sum += std::exp(double(c.logit) - top);
    const double logZ = top + std::log(sum);
    selectTop(forbidden_.data(), forbidden_.size(), kForbiddenShown, scratch_);
    for (Candidate c : scratch_) {
        c.p = static_cast<float>(std::exp(double(c.logit) - logZ));
        snapshot.forbidden.push_back(c);
    }
}

std::unique_ptr<SamplerStage> makeBannedPhrasesStage(const SamplerParams& p) {
    return std::make_unique<BannedPhrasesStage>(p.bannedPhrases);
}

}  // namespace dlab
