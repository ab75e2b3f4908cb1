#pragma once
// Stages as llama.cpp defines them (src/llama-sampling.cpp): DRY, XTC, top-n-sigma, Mirostat 1 and 2.
#include <span>
#include <unordered_map>

#include "sampling/stage.h"

namespace dlab {

// DRY ("don't repeat yourself", koboldcpp / llama.cpp). If emitting token t would extend a
// sequence that already occurred in the last N tokens to a repeat of length L >= allowed, then
// logit(t) -= multiplier * base^(L - allowed). Sequence breakers (e.g. a newline) cap how far
// back a repeat may reach; single-token breakers are never penalised.
class DryStage : public SamplerStage {
public:
    DryStage(float multiplier, float base, int allowedLength, int lastN, const std::vector<std::vector<TokenId>>& breakers);
    std::string_view name() const override { return "dry"; }
    bool enabled() const override { return multiplier_ > 0.0f && lastN_ != 0; }
    void apply(CandidateArray& cands, const History& history) override;

    // The repeat length that emitting each token would reach (only lengths >= allowedLength), for tests.
    std::vector<TokenCount> repeatLengths(std::span<const TokenId> tokens) const;

private:
    float multiplier_, base_;
    int allowed_, lastN_;
    std::unordered_multimap<TokenId, std::vector<TokenId>> breakers_;  // head -> tokens that follow it
};

// XTC ("exclude top choices"): with probability `probability`, remove every token whose p is at
// least `threshold` except the least probable of them (so at least one such token stays).
// Draws one uniform from the step's random state whenever it is on.
class XtcStage : public SamplerStage {
public:
    XtcStage(float probability, float threshold) : probability_(probability), threshold_(threshold) {}
    std::string_view name() const override { return "xtc"; }
    bool enabled() const override { return probability_ > 0.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float probability_, threshold_;
};

// Top-n-sigma (Tang et al.): keep logits >= max - n * sigma, sigma = standard deviation of the
// finite logits (population form, as llama.cpp).
class TopNSigmaStage : public SamplerStage {
public:
    explicit TopNSigmaStage(float n) : n_(n) {}
    std::string_view name() const override { return "top-n-sigma"; }
    bool enabled() const override { return n_ > 0.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float n_;
};

// Mirostat 2 (Basu et al.; llama.cpp's mirostat-v2): keep tokens whose surprise -log2 p is at most
// mu (at least the most probable one). After the draw, mu -= eta * (surprise(chosen) - tau), where
// the surprise is measured in the final distribution. mu starts at 2 * tau and lives in SamplerState.
class MirostatStage : public SamplerStage {
public:
    MirostatStage(float tau, float eta) : tau_(tau), eta_(eta) {}
    std::string_view name() const override { return "mirostat"; }
    bool enabled() const override { return tau_ > 0.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;
    void accept(TokenId token, float p, SamplerState& state) override;

private:
    float tau_, eta_;
};

// Mirostat 1 (Basu et al., algorithm 1; llama.cpp's llama_sampler_init_mirostat). Fits a Zipf
// exponent s_hat to the m most probable tokens (least squares on log(p_i / p_i+1) against
// log((i+2) / (i+1))), turns mu into a token count
//     k = (eps * 2^mu / (1 - N^-eps))^(1 / s_hat),  eps = s_hat - 1,
// and keeps the top k (at least 1). N is the vocabulary size: llama.cpp passes the model's n_vocab
// (llama_vocab_n_tokens); in our chain that is CandidateArray::vocabSize(), the length of the
// step's logit row, not the number of candidates left by earlier stages. After the draw,
// mu -= eta * (surprise(chosen) - tau), the surprise -log2 p measured in the final distribution
// (the truncated, renormalised one when this stage is last, as in llama.cpp).
//
// mu is SamplerState::mirostatMu, shared with Mirostat 2: both define it the same way (a surprise
// bound in bits that starts at 2 * tau and learns by the same rule), a step's whole adaptive state
// stays one float that the GUI's copy-and-re-sample already carries, and switching between the two
// mid-generation keeps what was learned, as changing tau does. An order may hold only one of the
// two stages (resolveStageOrder), so mu is never updated twice per step.
class MirostatV1Stage : public SamplerStage {
public:
    MirostatV1Stage(float tau, float eta, int m) : tau_(tau), eta_(eta), m_(m) {}
    std::string_view name() const override { return "mirostat-v1"; }
    bool enabled() const override { return tau_ > 0.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;
    void accept(TokenId token, float p, SamplerState& state) override;

    // How many of `candidates` tokens Mirostat 1 keeps, given the probabilities of the top
    // min(m, candidates) of them (most probable first), the vocabulary size and mu. Float math in
    // llama.cpp's order of operations, so the truncation int(k) lands on the same integer.
    static size_t keepCount(std::span<const float> topP, size_t candidates, int nVocab, float mu);

private:
    float tau_, eta_;
    int m_;
};

}  // namespace dlab
