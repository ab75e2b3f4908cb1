#include "generate/compare_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dlab {

double logitsLogSumExp(std::span<const float> logits) {
    const float mx = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (float l : logits) sum += std::exp(static_cast<double>(l) - mx);
    return mx + std::log(sum);
}

RunToken sampledRunToken(std::span<const float> logits, double lse, const SamplerChain& chain, TokenId chosen,
                         float chosenP, bool greedy, int topN) {
    RunToken t;
    t.token = chosen;
    t.logProb = static_cast<double>(logits[static_cast<size_t>(chosen)]) - lse;
    t.p = chosenP;
    if (topN <= 0) return t;
    const CandidateArray& finals = chain.candidates();
    auto rawP = [&](TokenId id) { return std::exp(static_cast<double>(logits[static_cast<size_t>(id)]) - lse); };
    std::vector<Candidate> top;
    if (greedy) {
        std::vector<Candidate> vocab(logits.size());
        for (size_t i = 0; i < logits.size(); ++i) vocab[i] = Candidate{static_cast<TokenId>(i), logits[i], 0.0f};
        selectTop(vocab.data(), vocab.size(), static_cast<size_t>(topN), top);
    } else {
        top.assign(finals.begin(), finals.end());
        const size_t n = std::min(top.size(), static_cast<size_t>(topN));
        std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(n), top.end(),
                          [](const Candidate& a, const Candidate& b) { return a.p != b.p ? a.p > b.p : a.id < b.id; });
        top.resize(n);
    }
    for (const Candidate& c : top) {
        if (!std::isfinite(c.logit)) continue;
        RunAlternative a;
        a.token = c.id;
        a.p = rawP(c.id);
        if (greedy) {
            for (const Candidate& f : finals)
                if (f.id == c.id) a.finalP = f.p;
        } else {
            a.finalP = c.p;
        }
        t.alternatives.push_back(a);
    }
    return t;
}

std::vector<RunToken> beamRunSteps(const BeamTree& tree, int leaf) {
    std::vector<RunToken> steps;
    for (int at = leaf; at > 0; at = tree.nodes[static_cast<size_t>(at)].parent) {
        const BeamNode& n = tree.nodes[static_cast<size_t>(at)];
        RunToken t;
        t.token = n.token;
        t.logProb = n.logProb;
        t.p = std::exp(n.logProb);
        t.end = n.endToken;
        for (const BeamNextToken& x : tree.nodes[static_cast<size_t>(n.parent)].next) {
            const double p = std::exp(x.logProb);
            t.alternatives.push_back(RunAlternative{x.token, p, p});
        }
        steps.push_back(std::move(t));
    }
    std::reverse(steps.begin(), steps.end());
    return steps;
}

}  // namespace dlab
