#pragma once
// The sampler chain: the stages of SamplerParams::order applied in turn to one shared candidate
// array, a snapshot after each, then one seeded draw. The chain is itself a SamplerStage, so a
// chain can sit inside another.
//
// sample() is a pure function of (logits, history, params, state): keep a copy of the
// SamplerState taken before a step and the step's logits, and the step can be re-sampled with
// other settings without running the model again. A chain keeps scratch buffers: use one chain
// per thread.
#include <span>
#include <vector>

#include "sampling/snapshot.h"
#include "sampling/stage.h"

namespace dlab {

struct SampleResult {
    TokenId token = -1;
    float probability = 0.0f;  // of `token` in the final distribution
    double uniform = 0.0;      // the draw in [0, 1) that picked it (inverse CDF, most probable first)
    LogitSummary raw;          // the logits before any stage
    std::vector<StageSnapshot> stages;  // one per stage, in chain order (empty when snapshots are off)
};

class SamplerChain : public SamplerStage {
public:
    // Validates `params` (throws dlab::Error) and builds the stages of params.order.
    // topN: how many candidates each snapshot lists.
    explicit SamplerChain(const SamplerParams& params, int topN = 64);

    std::string_view name() const override { return "chain"; }
    void apply(CandidateArray& cands, const History& history) override;
    void accept(TokenId token, float p, SamplerState& state) override;

    // One step: every stage, a snapshot after each (if `snapshots`), and the draw. Advances `state`.
    // Throws dlab::Error for NaN or +inf logits, or when the stages leave no token.
    SampleResult sample(std::span<const float> logits, const History& history, SamplerState& state, bool snapshots = true);

    // The survivors of the last sample() with p renormalised over them (not necessarily sorted).
    const CandidateArray& candidates() const { return cands_; }
    const SamplerParams& params() const { return params_; }
    const std::vector<std::unique_ptr<SamplerStage>>& stages() const { return stages_; }
    int topN() const { return topN_; }

private:
    SamplerParams params_;
    int topN_;
    std::vector<std::unique_ptr<SamplerStage>> stages_;
    CandidateArray cands_;
    // Set while sample() runs with snapshots on.
    std::vector<StageSnapshot>* record_ = nullptr;
    std::span<const float> raw_;
    const LogitSummary* rawSummary_ = nullptr;
    std::vector<Candidate> scratch_;
    StageInput input_;   // the distribution entering the stage being applied (snapshots only)
    double inputLogZ_ = 0.0;   // log sum exp of the candidates as they stand (raw, then each snapshot's)
    int inputFinite_ = 0;      // how many of them are finite
};

// Inverse-CDF draw over the candidates, most probable first (ties to the lower id): the first
// candidate whose cumulative probability exceeds u. Softmaxes if needed; sorts only as far as the
// draw reaches.
size_t drawIndex(CandidateArray& cands, double u);

}  // namespace dlab
