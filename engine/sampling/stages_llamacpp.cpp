#include "sampling/stages_llamacpp.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dlab {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

// ---- DRY ----

DryStage::DryStage(float multiplier, float base, int allowedLength, int lastN, const std::vector<std::vector<TokenId>>& breakers)
    : multiplier_(multiplier), base_(base), allowed_(allowedLength), lastN_(lastN) {
    for (const auto& seq : breakers)
        if (!seq.empty()) breakers_.emplace(seq.front(), std::vector<TokenId>(seq.begin() + 1, seq.end()));
}

std::vector<TokenCount> DryStage::repeatLengths(std::span<const TokenId> all) const {
    const auto t = lastTokens(all, lastN_);
    const int n = static_cast<int>(t.size());
    if (n <= allowed_) return {};
    // back(i): the token i places before the end.
    auto back = [&](int i) { return t[static_cast<size_t>(n - 1 - i)]; };

    // 1. The nearest sequence breaker limits how far back a repeat may reach.
    int repLimit = n;
    for (int i = 0; i < n; ++i) {
        auto [first, last] = breakers_.equal_range(back(i));
        int longest = -1;
        for (auto it = first; it != last; ++it) {
            const int tail = static_cast<int>(it->second.size());
            if (tail <= longest || tail > i) continue;
            bool match = true;
            for (int k = 0; k < tail && match; ++k) match = it->second[static_cast<size_t>(k)] == back(i - k - 1);
            if (match) longest = tail;
        }
        if (longest >= 0) {
            repLimit = i - longest;
            break;
        }
    }
    if (repLimit < allowed_) return {};

    // 2. Z-function of the reversed window: z[k] = how many tokens ending k places before the end
    //    equal the tokens ending at the end (the suffix that would be repeated).
    std::vector<int> z(static_cast<size_t>(n), 0);
    for (int k = 1, l = 0, r = 0; k < n; ++k) {
        int len = k < r ? std::min(r - k, z[static_cast<size_t>(k - l)]) : 0;
        while (k + len < n && back(len) == back(k + len)) ++len;
        z[static_cast<size_t>(k)] = len;
        if (k + len > r) { l = k; r = k + len; }
    }

    // 3. The token right after each repeat would extend it; keep the longest repeat per token.
    std::vector<TokenCount> out;
    for (int k = 1; k < n; ++k) {
        const int len = std::min(z[static_cast<size_t>(k)], repLimit);
        if (len < allowed_) continue;
        out.push_back({back(k - 1), len});
    }
    std::sort(out.begin(), out.end(), [](const TokenCount& a, const TokenCount& b) {
        return a.id < b.id || (a.id == b.id && a.count > b.count);
    });
    out.erase(std::unique(out.begin(), out.end(), [](const TokenCount& a, const TokenCount& b) { return a.id == b.id; }), out.end());
    return out;
}

void DryStage::apply(CandidateArray& cands, const History& history) {
    const auto lengths = repeatLengths(history.tokens);
    if (lengths.empty()) return;
    // Clamp the exponent so base^exponent stays a finite float.
    int maxExponent = 0;
    if (base_ > 1.000001f) maxExponent = static_cast<int>(88.7228391f / std::log(base_));
    bool any = false;
    forEachCounted(cands, lengths, [&](Candidate& c, int len) {
        if (c.logit == kNegInf) return;
        auto [first, last] = breakers_.equal_range(c.id);
        for (auto it = first; it != last; ++it)
            if (it->second.empty()) return;  // single-token breakers are never penalised
        int exponent = len - allowed_;
        if (maxExponent > 0) exponent = std::min(exponent, maxExponent);
        c.logit -= multiplier_ * std::pow(base_, static_cast<float>(exponent));
        any = true;
    });
    if (any) cands.logitsChanged();
}

// ---- XTC ----

void XtcStage::apply(CandidateArray& cands, const History&) {
    const double chance = cands.rng().uniform();  // drawn whenever XTC is on, so the stream stays aligned
    if (chance > probability_ || cands.size() < 2) return;
    if (!cands.probsValid()) cands.softmax();
    size_t above = 0;
    for (const auto& c : cands)
        if (c.p >= threshold_) ++above;
    if (above < 2) return;  // nothing to exclude: the last token above the threshold always stays
    cands.sortTop(above);
    cands.dropFront(above - 1);
}

// ---- top-n-sigma ----

void TopNSigmaStage::apply(CandidateArray& cands, const History&) {
    if (cands.size() <= 1) return;
    double sum = 0.0;
    size_t count = 0;
    float m = kNegInf;
    for (const auto& c : cands)
        if (c.logit != kNegInf) {
            sum += c.logit;
            ++count;
            m = std::max(m, c.logit);
        }
    if (count == 0) return;
    const double mean = sum / double(count);
    double acc = 0.0;
    for (const auto& c : cands)
        if (c.logit != kNegInf) acc += (c.logit - mean) * (c.logit - mean);
    const double sigma = std::sqrt(acc / double(count));
    const double threshold = double(m) - double(n_) * sigma;
    cands.filter([&](const Candidate& c) { return c.logit != kNegInf && double(c.logit) >= threshold; });
}

// ---- Mirostat 2 ----

void MirostatStage::apply(CandidateArray& cands, const History&) {
    SamplerState& state = cands.state();
    if (std::isnan(state.mirostatMu)) state.mirostatMu = 2.0f * tau_;
    if (!cands.probsValid()) cands.softmax();
    // surprise -log2 p <= mu  <=>  p >= 2^-mu
    const double minP = std::exp2(-double(state.mirostatMu));
    size_t best = 0;
    for (size_t i = 1; i < cands.size(); ++i)
        if (ranksAbove(cands[i], cands[best])) best = i;
    const TokenId bestId = cands.empty() ? -1 : cands[best].id;
    cands.filter([&](const Candidate& c) { return c.id == bestId || (c.p > 0.0f && double(c.p) >= minP); });
}

void MirostatStage::accept(TokenId, float p, SamplerState& state) {
    if (std::isnan(state.mirostatMu)) state.mirostatMu = 2.0f * tau_;
    const float surprise = -std::log2(std::max(p, 1e-30f));
    state.mirostatMu -= eta_ * (surprise - tau_);
}

// ---- Mirostat 1 ----

size_t MirostatV1Stage::keepCount(std::span<const float> topP, size_t candidates, int nVocab, float mu) {
    if (candidates == 0) return 0;
    // Least-squares Zipf exponent through the origin: s_hat = sum(t_i b_i) / sum(t_i^2) with
    // t_i = log((i+2)/(i+1)) (log rank ratio) and b_i = log(p_i / p_i+1) (log probability ratio).
    float sumTB = 0.0f, sumTT = 0.0f;
    for (size_t i = 0; i + 1 < topP.size(); ++i) {
        const float t = std::log(float(i + 2) / float(i + 1));
        const float b = std::log(topP[i] / topP[i + 1]);
        sumTB += t * b;
        sumTT += t * t;
    }
    const float sHat = sumTB / sumTT;  // 0/0 = NaN for a single candidate or m = 1
    const float eps = sHat - 1.0f;
    const float k = std::pow((eps * std::pow(2.0f, mu)) / (1.0f - std::pow(float(nVocab), -eps)), 1.0f / sHat);
    // llama.cpp keeps max(int(k), 1). int(k) is undefined in C++ for NaN and for k beyond int's range
    // (x86 then yields INT_MIN, so llama.cpp keeps 1 token; ARM saturates). We define it: NaN or
    // k < 1 keeps one token (what both give for NaN), a k at or beyond the candidate count keeps all.
    if (!(k >= 1.0f)) return 1;
    if (k >= float(candidates)) return candidates;
    return std::min(candidates, static_cast<size_t>(k));
}

void MirostatV1Stage::apply(CandidateArray& cands, const History&) {
    SamplerState& state = cands.state();
    if (std::isnan(state.mirostatMu)) state.mirostatMu = 2.0f * tau_;
    if (cands.empty()) return;
    if (!cands.probsValid()) cands.softmax();
    const size_t top = std::min(cands.size(), static_cast<size_t>(std::max(m_, 1)));
    cands.sortTop(top);
    std::vector<float> p(top);
    for (size_t i = 0; i < top; ++i) p[i] = cands[i].p;
    const size_t k = keepCount(p, cands.size(), cands.vocabSize(), state.mirostatMu);
    if (k < cands.size()) cands.keepTop(k);  // the draw renormalises over the k survivors
}

void MirostatV1Stage::accept(TokenId, float p, SamplerState& state) {
    if (std::isnan(state.mirostatMu)) state.mirostatMu = 2.0f * tau_;
    const float surprise = -std::log2(std::max(p, 1e-30f));
    state.mirostatMu -= eta_ * (surprise - tau_);
}

}  // namespace dlab
