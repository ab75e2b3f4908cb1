#include "sampling/sampler_chain.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace dlab {

SamplerChain::SamplerChain(const SamplerParams& params, int topN) : params_(params), topN_(topN) {
    params_.validate();
    if (topN < 0) throw Error("--top-n must be 0 or more candidates per snapshot; got " + std::to_string(topN));
    std::vector<std::string> names = resolveStageOrder(params_.order);
    const auto placed = [&](const char* stage) { return std::find(names.begin(), names.end(), stage) != names.end(); };
    if (params_.bannedPhrases && !placed("banned-phrases")) names.insert(names.begin(), "banned-phrases");
    if (params_.constraint && !placed("grammar")) names.insert(names.begin(), "grammar");
    for (const auto& name : names) stages_.push_back(makeStage(name, params_));
}

void SamplerChain::apply(CandidateArray& cands, const History& history) {
    bool anyChanged = false;
    for (auto& stage : stages_) {
        cands.clearChanged();
        const bool measure = record_ && stage->enabled();
        const StageEffect effect = stage->effect();
        const double enteringLogZ = inputLogZ_;
        const int enteringFinite = inputFinite_;
        if (measure && effect == StageEffect::Any) input_.capture(cands, raw_.size(), inputLogZ_);
        if (stage->enabled()) stage->apply(cands, history);
        anyChanged = anyChanged || cands.changed();
        if (!record_) continue;
        if (cands.changed()) {
            StageSnapshot snap = takeSnapshot(stage->name(), cands, raw_, rawSummary_->logSumExp, topN_, scratch_, &inputLogZ_);
            if (!measure) snap.inputMassKept = 1.0f;
            else if (snap.kept == 0) snap.inputMassKept = 0.0f;
            else if (effect == StageEffect::Removes)
                // The survivors kept their entering logits: their share is Z_after / Z_before.
                snap.inputMassKept = static_cast<float>(std::clamp(std::exp(inputLogZ_ - enteringLogZ), 0.0, 1.0));
            else if (effect == StageEffect::Reshapes) {
                if (snap.kept == enteringFinite) snap.inputMassKept = 1.0f;   // else unknown: it broke its word
            } else
                snap.inputMassKept = input_.keptShare(cands);
            inputFinite_ = snap.kept;
            record_->push_back(std::move(snap));
        } else if (record_->empty()) {
            record_->push_back(rawSnapshot(stage->name(), cands, *rawSummary_, topN_, scratch_));
            record_->back().inputMassKept = 1.0f;
        } else {
            // Nothing changed: the previous picture still holds.
            StageSnapshot same = record_->back();
            same.stage = std::string(stage->name());
            same.changed = false;
            same.inputMassKept = 1.0f;
            same.forbidden.clear();
            same.forbiddenCount = -1;
            record_->push_back(std::move(same));
        }
        if (stage->enabled()) stage->annotate(record_->back());
    }
    if (anyChanged) cands.markChanged();
}

void SamplerChain::accept(TokenId token, float p, SamplerState& state) {
    for (auto& stage : stages_)
        if (stage->enabled()) stage->accept(token, p, state);
}

SampleResult SamplerChain::sample(std::span<const float> logits, const History& history, SamplerState& state, bool snapshots) {
    SampleResult r;
    r.raw = summarizeLogits(logits);
    cands_.reset(logits, &state);
    raw_ = logits;
    rawSummary_ = &r.raw;
    inputLogZ_ = r.raw.logSumExp;
    inputFinite_ = r.raw.finite;
    record_ = snapshots ? &r.stages : nullptr;
    r.stages.reserve(snapshots ? stages_.size() : 0);
    struct Reset {
        SamplerChain* c;
        ~Reset() { c->record_ = nullptr; c->rawSummary_ = nullptr; c->raw_ = {}; }
    } reset{this};
    apply(cands_, history);

    if (cands_.maxLogit() == -std::numeric_limits<float>::infinity())
        throw Error(params_.constraint || params_.bannedPhrases
                        ? "no token is left to sample: the grammar or the banned phrases allow only tokens that other "
                          "stages removed (check --logit-bias, --no-repeat-ngram and the order of the stages)"
                        : "no token is left to sample: the sampler stages removed every candidate "
                          "(check --logit-bias, --no-repeat-ngram and the penalties)");
    r.uniform = state.rng.uniform();  // exactly one draw per step (plus one for XTC when it is on)
    const size_t i = drawIndex(cands_, r.uniform);
    r.token = cands_[i].id;
    r.probability = cands_[i].p;
    accept(r.token, r.probability, state);
    return r;
}

size_t drawIndex(CandidateArray& cands, double u) {
    if (!cands.probsValid()) cands.softmax();
    const size_t n = cands.size();
    size_t sortedTo = std::min(n, std::max<size_t>(cands.sortedPrefix(), 64));
    cands.sortTop(sortedTo);
    double cum = 0.0;
    size_t lastPositive = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i == sortedTo) {
            sortedTo = std::min(n, sortedTo * 4);
            cands.sortTop(sortedTo);
        }
        if (!(cands[i].p > 0.0f)) continue;
        cum += cands[i].p;
        lastPositive = i;
        if (u < cum) return i;
    }
    return lastPositive;  // rounding left the total just under 1
}

}  // namespace dlab
