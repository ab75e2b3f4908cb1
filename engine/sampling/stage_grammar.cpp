#include "sampling/stage_grammar.h"

#include <cmath>

#include "core/error.h"
#include "grammar/constraint.h"

namespace dlab {
namespace {

uint64_t mix(uint64_t h, TokenId t) {
    h ^= static_cast<uint32_t>(t) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

std::string shown(const std::string& bytes) {
    std::string s;
    for (char c : bytes) {
        if (c == '\n') s += "\\n";
        else if (c == '"') s += "\\\"";
        else s += c;
    }
    return "\"" + s + "\"";
}

}  // namespace

GrammarStage::GrammarStage(std::shared_ptr<const Constraint> constraint) : constraint_(std::move(constraint)) {}

int32_t GrammarStage::stateAfter(std::span<const TokenId> generated) {
    GrammarAutomaton& a = constraint_->automaton();
    const size_t n = generated.size();
    std::vector<uint64_t> hashes(n + 1);
    hashes[0] = 0x51ed270b27b4a1c3ull;
    for (size_t i = 0; i < n; ++i) hashes[i + 1] = mix(hashes[i], generated[i]);
    size_t from = 0;
    int32_t s = a.initial();
    for (size_t i = n; i > 0; --i) {
        auto it = stateByPrefix_.find(hashes[i]);
        if (it != stateByPrefix_.end()) { from = i; s = it->second; break; }
    }
    if (stateByPrefix_.size() > 200000) stateByPrefix_.clear();
    for (size_t i = from; i < n; ++i) {
        const int32_t t = a.advance(s, generated[i]);
        if (t == GrammarAutomaton::kDead)
            throw Error("the " + constraint_->describe() + " cannot continue the text generated so far: token " +
                        std::to_string(i + 1) + " (id " + std::to_string(generated[i]) + ", " +
                        shown(a.vocab().bytes(generated[i])) + ") does not fit it");
        s = t;
        stateByPrefix_[hashes[i + 1]] = s;
    }
    return s;
}

void GrammarStage::apply(CandidateArray& cands, const History& history) {
    const int32_t state = stateAfter(history.generated());
    GrammarAutomaton& a = constraint_->automaton();
    a.mask(state, mask_);
    auto allowed = [&](TokenId id) { return maskAllows(mask_, id); };
    // The best forbidden candidates by logit; their probabilities are worked out only if a
    // snapshot asks (annotate), so a run without snapshots pays no exp() per token here.
    forbiddenCount_ = 0;
    forbidden_.clear();
    forbiddenLogits_.clear();
    auto note = [&](const Candidate& c) {
        ++forbiddenCount_;
        forbiddenLogits_.push_back(c.logit);
        if (forbidden_.size() < static_cast<size_t>(kForbiddenShown) || ranksAbove(c, forbidden_.back())) {
            auto at = std::upper_bound(forbidden_.begin(), forbidden_.end(), c, ranksAbove);
            forbidden_.insert(at, c);
            if (forbidden_.size() > static_cast<size_t>(kForbiddenShown)) forbidden_.pop_back();
        }
    };
    constexpr float kNegInf = -std::numeric_limits<float>::infinity();
    if (cands.identity()) {
        // The whole vocabulary in id order: visit only the mask's zero bits (inside a JSON string
        // almost every word of the mask is all ones).
        const size_t n = cands.size();
        auto forEachForbidden = [&](auto f) {
            for (size_t w = 0; w * 64 < n; ++w) {
                uint64_t zeros = ~(w < mask_.size() ? mask_[w] : 0);
                if (n - w * 64 < 64) zeros &= (1ull << (n - w * 64)) - 1;
                for (; zeros; zeros &= zeros - 1) f(cands[w * 64 + static_cast<size_t>(__builtin_ctzll(zeros))]);
            }
        };
        forEachForbidden([&](const Candidate& c) {
            if (c.logit != kNegInf) note(c);
        });
        if (forbiddenCount_ == 0) return;
        if (static_cast<size_t>(forbiddenCount_) * 4 < n) {
            // Few forbidden: mark them removed in place rather than copying the whole array.
            forEachForbidden([&](Candidate& c) { c.logit = kNegInf; });
            cands.logitsChanged();
            return;
        }
        cands.filter([&](const Candidate& c) { return allowed(c.id); });
        return;
    }
    for (const Candidate& c : cands)
        if (c.logit != kNegInf && !allowed(c.id)) note(c);
    if (forbiddenCount_ > 0) cands.filter([&](const Candidate& c) { return allowed(c.id); });
}

void GrammarStage::annotate(StageSnapshot& snapshot) const {
    snapshot.forbiddenCount = forbiddenCount_;
    snapshot.forbidden = forbidden_;
    if (forbidden_.empty()) return;
    // The distribution entering the stage is the survivors plus the forbidden: the survivors'
    // normaliser comes from the snapshot (its best token's logit and p), the forbidden ones' is summed.
    const float m = std::max(forbidden_.front().logit, snapshot.top.empty() ? -std::numeric_limits<float>::infinity()
                                                                            : snapshot.top.front().logit);
    double sum = 0.0;
    for (float l : forbiddenLogits_) sum += std::exp(static_cast<double>(l) - m);
    if (!snapshot.top.empty() && snapshot.top.front().p > 0.0f)
        sum += std::exp(static_cast<double>(snapshot.top.front().logit) - m) / static_cast<double>(snapshot.top.front().p);
    for (Candidate& c : snapshot.forbidden) c.p = static_cast<float>(std::exp(static_cast<double>(c.logit) - m) / sum);
}

std::unique_ptr<SamplerStage> makeGrammarStage(const SamplerParams& params) {
    return std::make_unique<GrammarStage>(params.constraint);
}

}  // namespace dlab
