#pragma once
// A generation session on one model: the object the GUI drives (Qt-free, one thread at a time).
//
// The prompt is prefilled once into a paged KV cache (KvBlockPool). Generation happens on a tree
// of branches; a branch is a KV sequence plus its tokens (prompt + generated). Every step keeps
//   - the step's full logits (nVocab floats), and
//   - the sampler state before the step,
// so resample(step, params) re-runs only the sampler chain on the cached logits (a slider move)
// and never calls the backend. branch(step, token) forks the KV sequence at the position of that
// step, sharing the prefix's blocks (copy-on-write), puts `token` there instead of the sampled one
// and makes the fork the current branch; the next step() evaluates only that one token.
//
// Step numbering follows StepTrace: step 0 samples from the prefill's logits, step t picks the
// t-th generated token, at position promptLength + t. The KV sequence of a branch holds every
// token but the last chosen one, which the next step() evaluates.
//
// Memory: each kept step costs 4 * nVocab bytes of logits (196 KB for a 49,152-token vocabulary;
// 256 steps ≈ 50 MB) plus ~2.5 KB of sampler state (a mt19937_64). Logits are shared between
// branches and only the newest maxKeptSteps are kept; older steps can still be branched from but
// no longer re-sampled.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "generate/generator.h"
#include "generate/step_trace.h"
#include "model/backend.h"
#include "sampling/sampler_chain.h"

namespace dlab {

using BranchId = int;

struct SessionOptions {
    SamplerParams sampler;          // for step(); resample() takes its own
    int traceTopN = 64;             // candidates per stage snapshot
    int maxKeptSteps = 256;         // >= 1: steps whose logits stay cached (4 * nVocab bytes each)
    int64_t contextLength = 0;      // positions per branch; 0 = min(model's nCtxTrain, 2048)
    KvType kvType = KvType::F16;
    int64_t kvBlockSize = 16;
    int64_t kvBlocks = 0;           // blocks in the pool; 0 = enough for 4 full-length branches
    bool stopAtEndOfGeneration = true;  // run() stops after an end-of-generation token
};

// The positions a session uses when SessionOptions::contextLength is 0: the model's trained
// context, at most 2048 (2048 when the file does not say).
int64_t defaultSessionContext(const HParams& hp);

struct BranchInfo {
    BranchId id = 0;
    BranchId parent = -1;           // -1 for the first branch
    int forkStep = -1;              // the parent's step this branch replaced; -1 for the first branch
    SeqId seq = 0;                  // its KV sequence in pool()
    int steps = 0;                  // steps taken, inherited ones included
};

struct SessionRunResult {
    std::vector<StepTrace> steps;
    StopReason stop = StopReason::MaxTokens;
};

class Session {
public:
    // Checks the options and the prompt (throws dlab::Error for an empty prompt, tokens outside
    // the vocabulary or a prompt that does not fit the context); computes nothing yet: the first
    // step() prefills. `model` and `backend` must outlive the session.
    Session(const Model& model, Backend& backend, std::vector<TokenId> prompt, const SessionOptions& options = {});

    // Generates one token on the current branch: evaluates what the KV cache lacks (the prompt on
    // the first call, then the last chosen token), caches the logits, samples with the options'
    // parameters. Throws dlab::Error when the context is full or the settings leave no token, and
    // dlab::Cancelled when the backend's cancel flag was raised; the branch is then unchanged.
    StepTrace step();
    // Up to maxSteps step()s, stopping early at an end-of-generation token, a full context or a
    // raised cancel flag (checked between steps and, through the backend, between layers).
    SessionRunResult run(int maxSteps, const std::atomic<bool>* cancel = nullptr,
                         const std::function<void(const StepTrace&)>& onStep = {});

    // Starts over on a new prompt with new settings, keeping the KV cache of the current branch as
    // far as it agrees with the new prompt: a chat's next turn repeats the conversation so far, so
    // only the new part is evaluated by the next step(). At least the prompt's last token is always
    // evaluated (its logits are the first step's). When the new prompt is wholly cached and ends
    // inside the previous prompt's prefill (a chat's Regenerate), that prefill batch is evaluated
    // again from where it started, so the first step's logits equal the earlier ones bit for bit
    // (a one-token batch would round differently on the quantized kernels, see restart() in
    // session.cpp). Every other branch, every step and every cached
    // logit is dropped; the random state restarts from params.seed. Returns the positions reused.
    // Throws dlab::Error (and changes nothing) for an empty prompt, tokens outside the vocabulary,
    // a prompt that does not fit the context or bad settings.
    int64_t restart(std::vector<TokenId> prompt, const SamplerParams& params);

    // Re-samples step `step` of the current branch with other parameters, from its cached logits,
    // history and sampler state: the backend is not called and nothing in the session changes.
    // Throws dlab::Error for a step out of range, one whose logits were dropped, or bad params.
    // params.seed is not used: the draw comes from the random state saved before that step.
    SampleResult resample(int step, const SamplerParams& params);
    // Parameters for later step()s (checked: throws dlab::Error). The random state carries on;
    // the seed only seeds the session's first branch.
    void setSamplerParams(const SamplerParams& params);
    const SamplerParams& samplerParams() const { return chain_.params(); }

    // A new branch that shares steps 0..step-1 with the current one and takes `token` at `step`,
    // and becomes current. The KV prefix is shared, not recomputed. The random state continues
    // from the parent's state after that step (Mirostat has learned from the parent's token).
    // Throws dlab::Error for a step out of range or a token outside the vocabulary.
    BranchId branch(int step, TokenId token);
    void switchTo(BranchId id);     // throws dlab::Error for an unknown branch
    // Frees a branch's KV sequence and forgets it; not the current one. Its children stay.
    void dropBranch(BranchId id);
    BranchId current() const { return current_; }
    std::vector<BranchInfo> branches() const;
    // Prompt + generated tokens of a branch.
    const std::vector<TokenId>& tokens(BranchId id) const;
    const std::vector<TokenId>& prompt() const { return prompt_; }
    int steps() const;              // steps on the current branch

    // The cached logits of a step of the current branch (nVocab); throws like resample().
    std::span<const float> logits(int step) const;
    // Tokens the backend has evaluated through this session so far (the prompt counts once).
    int64_t evaluatedTokens() const { return evaluated_; }
    int keptSteps() const { return static_cast<int>(logits_.size()); }
    int64_t logitsBytes() const { return keptSteps() * hp().nVocab * static_cast<int64_t>(sizeof(float)); }

    const KvBlockPool& pool() const { return pool_; }
    KvStats kvStats() const { return pool_.stats(); }

private:
    struct StepRecord {
        int64_t logitsId;           // key into logits_; missing once dropped
        SamplerState stateBefore;
        TokenId chosen;
        bool forced;                // set by branch(), not sampled
    };
    struct Branch {
        BranchId parent = -1;
        int forkStep = -1;
        SeqId seq = 0;
        std::vector<TokenId> tokens;     // prompt + generated
        std::vector<StepRecord> steps;   // one per generated token
        SamplerState state;              // before the next step
    };
    const HParams& hp() const { return model_.hparams(); }
    Branch& branchAt(BranchId id);
    const Branch& branchAt(BranchId id) const;
    const StepRecord& record(const Branch& b, int step) const;
    void checkToken(TokenId token) const;
    void checkPrompt(const std::vector<TokenId>& prompt) const;
    int64_t keepLogits(std::span<const float> logits);

    const Model& model_;
    Backend& backend_;
    std::vector<TokenId> prompt_;
    SessionOptions options_;
    KvBlockPool pool_;
    SamplerChain chain_;
    std::map<BranchId, Branch> branches_;
    BranchId current_ = 0, nextBranch_ = 1;
    std::map<int64_t, std::vector<float>> logits_;  // logitsId -> (nVocab), oldest first
    int64_t nextLogits_ = 0;
    int64_t evaluated_ = 0;
    int64_t prefillFrom_ = 0;   // the position where the current prompt's evaluation began
};

}  // namespace dlab
