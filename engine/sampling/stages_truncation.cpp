#include "sampling/stages_truncation.h"

#include <algorithm>
#include <cmath>

namespace dlab {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

void TemperatureStage::apply(CandidateArray& cands, const History&) {
    if (cands.empty()) return;
    if (t_ == 0.0f) {
        if (cands.size() == 1) return;
        size_t best = 0;
        for (size_t i = 1; i < cands.size(); ++i)
            if (ranksAbove(cands[i], cands[best])) best = i;
        std::swap(cands[0], cands[best]);
        cands.truncate(1);
        return;
    }
    for (auto& c : cands) c.logit /= t_;  // -inf stays -inf
    cands.logitsChanged();
}

void TopKStage::apply(CandidateArray& cands, const History&) {
    if (static_cast<size_t>(k_) >= cands.size()) return;
    cands.keepTop(static_cast<size_t>(k_));
}

void TopPStage::apply(CandidateArray& cands, const History&) {
    if (cands.size() <= 1) return;
    if (!cands.probsValid()) cands.softmax();
    const size_t n = cands.size();
    // Sort only as far as needed: the nucleus is usually a few dozen tokens of a 150k vocabulary.
    size_t sortedTo = std::min(n, std::max<size_t>(cands.sortedPrefix(), 256));
    cands.sortTop(sortedTo);
    const double target = double(p_) - 1e-6;
    double cum = 0.0;
    size_t keep = n;
    for (size_t i = 0; i < n; ++i) {
        if (i == sortedTo) {
            sortedTo = std::min(n, sortedTo * 4);
            cands.sortTop(sortedTo);
        }
        cum += cands[i].p;
        if (cum >= target) {
            keep = i + 1;
            break;
        }
    }
    cands.truncate(keep);
}

void MinPStage::apply(CandidateArray& cands, const History&) {
    const float m = cands.maxLogit();
    if (m == kNegInf) return;
    const float threshold = m + std::log(p_);
    cands.filter([&](const Candidate& c) { return c.logit >= threshold; });
}

void TypicalStage::apply(CandidateArray& cands, const History&) {
    cands.filter([](const Candidate& c) { return c.logit != kNegInf; });
    const size_t n = cands.size();
    if (n <= 1) return;
    cands.softmax();
    double entropy = 0.0;
    for (const auto& c : cands)
        if (c.p > 0.0f) entropy -= double(c.p) * std::log(double(c.p));
    struct Scored {
        double score;
        Candidate c;
    };
    std::vector<Scored> scored;
    scored.reserve(n);
    for (const auto& c : cands)
        scored.push_back({c.p > 0.0f ? std::abs(-std::log(double(c.p)) - entropy) : std::numeric_limits<double>::infinity(), c});
    std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
        return a.score < b.score || (a.score == b.score && ranksAbove(a.c, b.c));
    });
    double cum = 0.0;
    size_t keep = n;
    for (size_t i = 0; i < n; ++i) {
        cum += scored[i].c.p;
        if (cum > p_) {
            keep = i + 1;
            break;
        }
    }
    for (size_t i = 0; i < n; ++i) cands[i] = scored[i].c;
    cands.orderChanged();
    cands.setProbsValid();
    cands.truncate(keep);
}

}  // namespace dlab
