#include "sampling/snapshot.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace dlab {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

LogitSummary summarizeLogits(std::span<const float> logits) {
    if (logits.empty()) throw Error("there are no logits to sample from (the vocabulary is empty)");
    float m = kNegInf;
    for (size_t i = 0; i < logits.size(); ++i) {
        const float l = logits[i];
        if (std::isnan(l))
            throw Error("the logit of token " + std::to_string(i) +
                        " is NaN; the model or the logits file produced an invalid distribution");
        if (l == std::numeric_limits<float>::infinity())
            throw Error("the logit of token " + std::to_string(i) + " is +infinity; logits must be finite numbers or -infinity");
        m = std::max(m, l);
    }
    if (m == kNegInf) throw Error("every logit is -infinity, so there is no token to sample");
    // H = log Z - sum(e * (l - m)) / Z with e = exp(l - m), Z = sum(e): one pass, no log per token.
    double z = 0.0, s = 0.0;
    int finite = 0;
    for (const float l : logits) {
        if (l == kNegInf) continue;
        ++finite;
        const float d = l - m;
        const double e = std::exp(d);
        z += e;
        s += e * d;
    }
    LogitSummary r;
    r.vocab = static_cast<int>(logits.size());
    r.finite = finite;
    r.maxLogit = m;
    r.logSumExp = double(m) + std::log(z);
    r.entropy = static_cast<float>(std::log(z) - s / z);
    return r;
}

StageSnapshot rawSnapshot(std::string_view stage, const CandidateArray& cands, const LogitSummary& raw, int topN,
                          std::vector<Candidate>& scratch) {
    StageSnapshot snap;
    snap.stage = std::string(stage);
    snap.kept = raw.finite;
    snap.massKept = 1.0f;
    snap.entropy = raw.entropy;
    selectTop(cands.begin(), cands.size(), std::min<size_t>(static_cast<size_t>(std::max(topN, 0)), size_t(raw.finite)), scratch);
    snap.top = scratch;
    for (auto& c : snap.top) c.p = static_cast<float>(std::exp(double(c.logit) - double(raw.logSumExp)));
    return snap;
}

StageSnapshot takeSnapshot(std::string_view stage, const CandidateArray& cands, std::span<const float> raw,
                           double rawLogSumExp, int topN, std::vector<Candidate>& scratch, double* logNormaliser) {
    StageSnapshot snap;
    snap.stage = std::string(stage);
    snap.changed = cands.changed();
    const float m = cands.maxLogit();
    if (m == kNegInf) {
        snap.massKept = 0.0f;
        return snap;
    }
    double z = 0.0, s = 0.0;
    int kept = 0;
    for (const auto& c : cands) {
        if (c.logit == kNegInf) continue;
        const float d = c.logit - m;
        const double e = std::exp(d);
        z += e;
        s += e * d;
        ++kept;
    }
    snap.kept = kept;
    snap.entropy = static_cast<float>(std::max(0.0, std::log(z) - s / z));

    // Mass under the raw distribution. While every token is still present only the ones a stage
    // pushed to -inf are lost, so the usual case costs no exp at all.
    auto rawP = [&](TokenId id) { return std::exp(double(raw[static_cast<size_t>(id)]) - rawLogSumExp); };
    double mass = 0.0;
    if (cands.size() == raw.size()) {
        double lost = 0.0;
        if (static_cast<size_t>(kept) != cands.size())
            for (const auto& c : cands)
                if (c.logit == kNegInf) lost += rawP(c.id);
        mass = 1.0 - lost;
    } else {
        for (const auto& c : cands)
            if (c.logit != kNegInf) mass += rawP(c.id);
    }
    snap.massKept = static_cast<float>(std::clamp(mass, 0.0, 1.0));

    const size_t n = std::min<size_t>(static_cast<size_t>(std::max(topN, 0)), static_cast<size_t>(kept));
    if (cands.sortedPrefix() >= n) {
        snap.top.assign(cands.begin(), cands.begin() + n);
    } else {
        selectTop(cands.begin(), cands.size(), n, scratch);
        snap.top = scratch;
    }
    const double logZ = double(m) + std::log(z);
    if (logNormaliser) *logNormaliser = logZ;
    for (auto& c : snap.top) c.p = static_cast<float>(std::exp(double(c.logit) - logZ));
    return snap;
}

void StageInput::capture(const CandidateArray& cands, size_t vocab, double logNormaliser) {
    // Every id is overwritten when the whole vocabulary is present; otherwise start from "absent".
    if (logits_.size() != vocab || cands.size() < vocab) logits_.assign(vocab, kNegInf);
    logZ_ = logNormaliser;
    size_ = cands.size();
    finite_ = 0;
    for (const auto& c : cands) {
        logits_[static_cast<size_t>(c.id)] = c.logit;
        if (c.logit != kNegInf) ++finite_;
    }
}

float StageInput::keptShare(const CandidateArray& cands) const {
    size_t survivors = 0;
    for (const auto& c : cands)
        if (c.logit != kNegInf && logits_[static_cast<size_t>(c.id)] != kNegInf) ++survivors;
    if (survivors == finite_) return 1.0f;   // the same tokens: only their logits may have moved
    if (survivors == 0) return 0.0f;
    auto p = [&](TokenId id) { return std::exp(double(logits_[static_cast<size_t>(id)]) - logZ_); };
    double kept = 0.0;
    if (cands.size() == size_ && survivors > finite_ / 2) {
        // A mask (nothing cut off the array, removed tokens left at -inf) that kept most of them.
        double removed = 0.0;
        for (const auto& c : cands)
            if (c.logit == kNegInf && logits_[static_cast<size_t>(c.id)] != kNegInf) removed += p(c.id);
        kept = 1.0 - removed;
    } else {
        for (const auto& c : cands)
            if (c.logit != kNegInf && logits_[static_cast<size_t>(c.id)] != kNegInf) kept += p(c.id);
    }
    return static_cast<float>(std::clamp(kept, 0.0, 1.0));
}

}  // namespace dlab
