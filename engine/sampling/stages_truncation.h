#pragma once
// Stages that reshape or cut the distribution itself: temperature, top-k, top-p, min-p, typical-p.
#include "sampling/stage.h"

namespace dlab {

// logit /= T. T = 0 keeps only the argmax (ties to the lowest id): exact greedy.
class TemperatureStage : public SamplerStage {
public:
    explicit TemperatureStage(float t) : t_(t) {}
    std::string_view name() const override { return "temperature"; }
    bool enabled() const override { return t_ != 1.0f; }
    StageEffect effect() const override { return t_ == 0.0f ? StageEffect::Removes : StageEffect::Reshapes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float t_;
};

// Keeps the k highest logits (ties to the lower id). k larger than the survivors keeps all.
class TopKStage : public SamplerStage {
public:
    explicit TopKStage(int k) : k_(k) {}
    std::string_view name() const override { return "top-k"; }
    bool enabled() const override { return k_ > 0; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    int k_;
};

// Keeps the smallest most-probable prefix whose probability reaches p (at least one token).
// "Reaches" allows 1e-6 for float rounding, so p = 0.75 over {0.5, 0.25, ...} keeps two tokens.
class TopPStage : public SamplerStage {
public:
    explicit TopPStage(float p) : p_(p) {}
    std::string_view name() const override { return "top-p"; }
    bool enabled() const override { return p_ < 1.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float p_;
};

// Keeps tokens with p >= minP * p_max, i.e. logit >= max_logit + ln(minP).
class MinPStage : public SamplerStage {
public:
    explicit MinPStage(float p) : p_(p) {}
    std::string_view name() const override { return "min-p"; }
    bool enabled() const override { return p_ > 0.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float p_;
};

// Locally typical sampling (Meister et al.; llama.cpp's typical): order tokens by
// |-ln p - H| (H = entropy) and keep them until the mass exceeds p (at least one token).
class TypicalStage : public SamplerStage {
public:
    explicit TypicalStage(float p) : p_(p) {}
    std::string_view name() const override { return "typical"; }
    bool enabled() const override { return p_ < 1.0f; }
    StageEffect effect() const override { return StageEffect::Removes; }
    void apply(CandidateArray& cands, const History& history) override;

private:
    float p_;
};

}  // namespace dlab
