#include "session/saved_session.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace dlab {

SavedToken savedToken(const Tokenizer& tok, TokenId id) {
    SavedToken t;
    t.id = id;
    t.piece = tok.tokenToPiece(id, false);
    t.rendered = tok.tokenToPiece(id, true);
    t.control = tok.tokenType(id) == TokenType::Control;
    t.endOfGeneration = tok.isEndOfGeneration(id);
    return t;
}

std::vector<TokenLogit> savedRawLogits(std::span<const float> logits, const std::vector<StageSnapshot>& stages) {
    const size_t n = std::min(logits.size(), static_cast<size_t>(kSavedRawLogits));
    std::vector<TokenId> ids(logits.size());
    std::iota(ids.begin(), ids.end(), 0);
    // The views' order (topByLogit in ui/engine/step_views): higher logit first, ties to the lower id.
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), [&](TokenId a, TokenId b) {
        return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)] ||
               (logits[static_cast<size_t>(a)] == logits[static_cast<size_t>(b)] && a < b);
    });
    ids.resize(n);
    std::vector<TokenLogit> out;
    out.reserve(n);
    for (TokenId id : ids) out.push_back({id, logits[static_cast<size_t>(id)]});
    if (!stages.empty())
        for (const Candidate& c : stages.back().top) {
            if (c.id < 0 || static_cast<size_t>(c.id) >= logits.size()) continue;
            if (std::find(ids.begin(), ids.end(), c.id) != ids.end()) continue;
            ids.push_back(c.id);
            out.push_back({c.id, logits[static_cast<size_t>(c.id)]});
        }
    return out;
}

std::vector<float> replayLogits(const SavedStep& step) {
    std::vector<float> logits(static_cast<size_t>(std::max(0, step.trace.raw.vocab)), -std::numeric_limits<float>::infinity());
    for (const TokenLogit& t : step.rawLogits)
        if (t.id >= 0 && static_cast<size_t>(t.id) < logits.size()) logits[static_cast<size_t>(t.id)] = t.logit;
    return logits;
}

const SavedBranch* SavedSession::branch(int id) const {
    for (const SavedBranch& b : branches)
        if (b.id == id) return &b;
    return nullptr;
}

std::vector<TokenId> shownTokenIds(const SavedSession& s) {
    std::vector<TokenId> ids(s.promptTokens.begin(), s.promptTokens.end());
    for (const SavedBranch& b : s.branches)
        for (const SavedStep& step : b.steps) {
            ids.push_back(step.trace.chosen);
            for (const StageSnapshot& st : step.trace.stages) {
                for (const Candidate& c : st.top) ids.push_back(c.id);
                for (const Candidate& c : st.forbidden) ids.push_back(c.id);
            }
            for (const TokenLogit& r : step.rawLogits) ids.push_back(r.id);
        }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

}  // namespace dlab
