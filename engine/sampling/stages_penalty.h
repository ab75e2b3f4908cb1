#pragma once
// Stages that reshape logits from what came before: logit bias, the repetition penalty
// (CTRL / Hugging Face), frequency and presence penalties (OpenAI) and no-repeat-n-gram (Hugging Face).
#include "sampling/stage.h"

namespace dlab {

// logit += bias[id]; a bias of -inf bans the token.
class LogitBiasStage : public SamplerStage {
public:
    explicit LogitBiasStage(std::vector<std::pair<TokenId, float>> bias);
    std::string_view name() const override { return "logit-bias"; }
    bool enabled() const override { return !bias_.empty(); }
    void apply(CandidateArray& cands, const History& history) override;

private:
    std::vector<std::pair<TokenId, float>> bias_;  // sorted by id, duplicates summed
};

// For every distinct token among the last N of the history (prompt + generated):
// logit > 0 ? logit / r : logit * r, once per token however often it occurred.
class RepetitionPenaltyStage : public SamplerStage {
public:
    RepetitionPenaltyStage(float penalty, int lastN) : penalty_(penalty), lastN_(lastN) {}
    std::string_view name() const override { return "repetition"; }
    bool enabled() const override { return penalty_ != 1.0f && lastN_ != 0; }
    StageEffect effect() const override { return StageEffect::Reshapes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float penalty_;
    int lastN_;
};

// For every token among the last N generated tokens: logit -= count * frequency + presence.
class FrequencyPresenceStage : public SamplerStage {
public:
    FrequencyPresenceStage(float frequency, float presence, int lastN) : frequency_(frequency), presence_(presence), lastN_(lastN) {}
    std::string_view name() const override { return "freq-presence"; }
    bool enabled() const override { return (frequency_ != 0.0f || presence_ != 0.0f) && lastN_ != 0; }
    StageEffect effect() const override { return StageEffect::Reshapes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float frequency_, presence_;
    int lastN_;
};

// Bans (logit = -inf) every token that would complete an n-gram already present in the history.
// n = 1 bans every token seen before.
class NoRepeatNgramStage : public SamplerStage {
public:
    explicit NoRepeatNgramStage(int n) : n_(n) {}
    std::string_view name() const override { return "no-repeat-ngram"; }
    bool enabled() const override { return n_ > 0; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    int n_;
};

}  // namespace dlab
