#include "sampling/stages_penalty.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace dlab {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

std::span<const TokenId> lastTokens(std::span<const TokenId> tokens, int lastN) {
    if (lastN < 0 || static_cast<size_t>(lastN) >= tokens.size()) return tokens;
    return tokens.subspan(tokens.size() - static_cast<size_t>(lastN));
}

std::vector<TokenCount> countTokens(std::span<const TokenId> tokens) {
    std::vector<TokenId> sorted(tokens.begin(), tokens.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<TokenCount> out;
    for (TokenId t : sorted) {
        if (!out.empty() && out.back().id == t) ++out.back().count;
        else out.push_back({t, 1});
    }
    return out;
}

LogitBiasStage::LogitBiasStage(std::vector<std::pair<TokenId, float>> bias) {
    std::sort(bias.begin(), bias.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& b : bias) {
        if (!bias_.empty() && bias_.back().first == b.first) bias_.back().second += b.second;
        else bias_.push_back(b);
    }
}

void LogitBiasStage::apply(CandidateArray& cands, const History&) {
    const int vocab = cands.vocabSize();
    std::vector<TokenCount> ids;
    for (size_t i = 0; i < bias_.size(); ++i) {
        if (bias_[i].first >= vocab)
            throw Error("--logit-bias: token id " + std::to_string(bias_[i].first) + " is outside the vocabulary (0.." +
                        std::to_string(vocab - 1) + ")");
        ids.push_back({bias_[i].first, static_cast<int>(i)});  // count = index into bias_
    }
    bool any = false;
    forEachCounted(cands, ids, [&](Candidate& c, int index) {
        const float b = bias_[static_cast<size_t>(index)].second;
        if (b == 0.0f) return;
        c.logit = b == kNegInf ? kNegInf : c.logit + b;
        any = true;
    });
    if (any) cands.logitsChanged();
}

void RepetitionPenaltyStage::apply(CandidateArray& cands, const History& history) {
    const auto counts = countTokens(lastTokens(history.tokens, lastN_));
    bool any = false;
    forEachCounted(cands, counts, [&](Candidate& c, int) {
        if (c.logit == kNegInf) return;
        c.logit = c.logit > 0.0f ? c.logit / penalty_ : c.logit * penalty_;
        any = true;
    });
    if (any) cands.logitsChanged();
}

void FrequencyPresenceStage::apply(CandidateArray& cands, const History& history) {
    const auto counts = countTokens(lastTokens(history.generated(), lastN_));
    bool any = false;
    forEachCounted(cands, counts, [&](Candidate& c, int count) {
        if (c.logit == kNegInf) return;
        c.logit -= static_cast<float>(count) * frequency_ + presence_;
        any = true;
    });
    if (any) cands.logitsChanged();
}

void NoRepeatNgramStage::apply(CandidateArray& cands, const History& history) {
    const auto& t = history.tokens;
    const size_t n = static_cast<size_t>(n_);
    if (t.size() + 1 < n) return;
    // The last n-1 tokens are the prefix of the n-gram the next token would complete; every earlier
    // occurrence of that prefix bans the token that followed it.
    const size_t prefixStart = t.size() + 1 - n;
    std::vector<TokenId> banned;
    for (size_t i = 0; i + n <= t.size(); ++i)
        if (std::equal(t.begin() + static_cast<std::ptrdiff_t>(i), t.begin() + static_cast<std::ptrdiff_t>(i + n - 1),
                       t.begin() + static_cast<std::ptrdiff_t>(prefixStart)))
            banned.push_back(t[i + n - 1]);
    const auto counts = countTokens(banned);
    bool any = false;
    forEachCounted(cands, counts, [&](Candidate& c, int) {
        if (c.logit == kNegInf) return;
        c.logit = kNegInf;
        any = true;
    });
    if (any) cands.logitsChanged();
}

}  // namespace dlab
