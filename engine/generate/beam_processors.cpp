#include "generate/beam_processors.h"

#include "grammar/grammar_automaton.h"

#include <algorithm>
#include <limits>

namespace dlab {

BeamProcessors::BeamProcessors(const BeamOptions& o)
    : diversity_(o.diversityPenalty), repetition_(o.repeatPenalty, -1), noRepeat_(o.noRepeatNgram), grammar_(o.constraint) {}

bool BeamProcessors::active(const std::vector<TokenCount>& chosen) const {
    return (diversity_ > 0.0 && !chosen.empty()) || needsHistory();
}

double BeamProcessors::diversityPenalty(const std::vector<TokenCount>& chosen, TokenId token) const {
    if (diversity_ <= 0.0) return 0.0;
    const auto it = std::lower_bound(chosen.begin(), chosen.end(), token,
                                     [](const TokenCount& a, TokenId id) { return a.id < id; });
    return it != chosen.end() && it->id == token ? diversity_ * it->count : 0.0;
}

void BeamProcessors::apply(std::span<const float> logits, double lse, const std::vector<TokenCount>& chosen,
                           std::span<const TokenId> history, std::vector<double>& scores) {
    const size_t n = logits.size();
    scores.resize(n);
    for (size_t i = 0; i < n; ++i) scores[i] = static_cast<double>(logits[i]) - lse;
    if (diversity_ > 0.0)
        for (const TokenCount& tc : chosen)
            if (tc.id >= 0 && static_cast<size_t>(tc.id) < n) scores[static_cast<size_t>(tc.id)] -= diversity_ * tc.count;
    if (!needsHistory()) return;

    before_.resize(n);
    for (size_t i = 0; i < n; ++i) before_[i] = static_cast<float>(scores[i]);
    cands_.reset(before_, nullptr);
    const History h{history, history.size()};
    if (repetition_.enabled()) repetition_.apply(cands_, h);
    if (noRepeat_.enabled()) noRepeat_.apply(cands_, h);
    if (grammar_.enabled()) {
        grammar_.apply(cands_, History{history, std::min(promptLength_, history.size())});
        // Forbidden tokens left the array: mark them in the scores.
        const std::vector<uint64_t>& m = grammar_.lastMask();
        for (size_t i = 0; i < n; ++i)
            if (!maskAllows(m, static_cast<TokenId>(i))) scores[i] = -std::numeric_limits<double>::infinity();
    }
    // The penalty stages edit values in place and never reorder, but read ids to be safe.
    for (const Candidate& c : cands_) {
        const size_t i = static_cast<size_t>(c.id);
        if (c.logit != before_[i]) scores[i] = static_cast<double>(c.logit);
    }
}

}  // namespace dlab
