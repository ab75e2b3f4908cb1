#include "kv/kv_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/stopwatch.h"
#include "generate/compare_steps.h"
#include "sampling/sampler_chain.h"

namespace dlab {

namespace {
// Restores the backend's no-cache switch when the run ends, however it ends.
struct RecomputeScope {
    Backend& backend;
    bool previous;
    RecomputeScope(Backend& b, bool on) : backend(b), previous(b.recomputePrefix()) { b.setRecomputePrefix(on); }
    ~RecomputeScope() { backend.setRecomputePrefix(previous); }
};
}  // namespace

void logSoftmax(std::span<const float> logits, std::vector<float>& out) {
    out.resize(logits.size());
    const double lse = logitsLogSumExp(logits);
    for (size_t i = 0; i < logits.size(); ++i) out[i] = static_cast<float>(logits[i] - lse);
}

double klDivergence(const std::vector<float>& logP, const std::vector<float>& logQ) {
    double kl = 0.0;
    for (size_t i = 0; i < logP.size(); ++i) {
        if (!std::isfinite(logP[i])) continue;  // p = 0 adds nothing
        kl += std::exp(double(logP[i])) * (double(logP[i]) - logQ[i]);
    }
    return std::max(0.0, kl);
}

KvRunResult runKvExplorer(const Model& model, Backend& backend, const std::vector<TokenId>& prompt, const KvRunOptions& o,
                          const std::function<void(KvRunStep&)>& onStep, bool keepLogProbs) {
    const HParams& hp = model.hparams();
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    if (o.steps < 1 || o.steps > 1 << 16) throw Error("the KV run needs between 1 and 65536 steps (got " + std::to_string(o.steps) + ")");
    if (o.attentionEvery < 0) throw Error("attentionEvery must be 0 (none) or more (got " + std::to_string(o.attentionEvery) + ")");
    if (o.sequences < 1 || o.sequences > 64)
        throw Error("the KV run takes 1 to 64 sequences (got " + std::to_string(o.sequences) + ")");
    if (!o.forcedTokens.empty() && static_cast<int>(o.forcedTokens.size()) < o.steps)
        throw Error("the forced tokens cover " + std::to_string(o.forcedTokens.size()) + " of " + std::to_string(o.steps) + " steps");
    o.sampler.validate();
    const int64_t ctx = o.contextLength > 0 ? o.contextLength : static_cast<int64_t>(prompt.size()) + o.steps;
    if (static_cast<int64_t>(prompt.size()) + o.steps > ctx)
        throw Error("the prompt (" + std::to_string(prompt.size()) + " tokens) and " + std::to_string(o.steps) +
                    " steps do not fit a context of " + std::to_string(ctx) + " positions");

    KvRunResult r;
    r.prompt = prompt;
    r.contextLength = ctx;
    const int64_t blocks = o.sequences * KvBlockPool::blocksFor(ctx, o.blockSize) + 1;
    r.pool = std::make_shared<KvBlockPool>(hp, blocks, o.type, o.blockSize);
    r.pool->setContextLimit(ctx);
    KvBlockPool& pool = *r.pool;
    const ScopedCancelFlag flag(backend, o.cancel);
    const RecomputeScope recompute(backend, o.withoutCache);

    SamplerChain chain(o.sampler, 0);
    std::vector<SamplerState> states;
    std::vector<std::vector<TokenId>> histories(o.sequences, prompt);
    for (int i = 0; i < o.sequences; ++i) states.emplace_back(o.sampler.seed + i);
    r.generated.assign(o.sequences, {});
    std::vector<float> logProbs;

    auto record = [&](int step, TokenId token, int64_t computed, double ms, double allMs, AttentionWeights&& att) {
        KvRunStep s;
        s.step = step;
        s.token = token;
        s.positions = pool.length(r.sequences[0]);
        s.computed = computed;
        s.reused = s.positions - s.computed;
        const KvStats st = pool.stats();
        s.bytesInUse = st.bytesInUse;
        s.blocksUsed = st.blocksUsed;
        s.blocksShared = st.blocksShared;
        s.forwardMs = ms;
        s.allSequencesMs = allMs;
        s.attention = std::move(att);
        r.steps.push_back(std::move(s));
        if (onStep) onStep(r.steps.back());
    };
    // Chooses sequence i's next token from its logits.
    auto choose = [&](int i, std::span<const float> logits, int step) {
        if (i == 0 && keepLogProbs) {
            logSoftmax(logits, logProbs);
            r.logProbs.push_back(logProbs);
        }
        TokenId t;
        if (i == 0 && !o.forcedTokens.empty()) t = o.forcedTokens[step];
        else t = chain.sample(logits, History{histories[i], prompt.size()}, states[i], false).token;
        histories[i].push_back(t);
        r.generated[i].push_back(t);
        return t;
    };

    try {
        // Step 0: the prompt once, then every continuation forks from it.
        const SeqId first = pool.newSequence();
        r.sequences.push_back(first);
        AttentionWeights att;
        if (o.attentionEvery > 0) backend.requestAttention(&att);
        auto t0 = std::chrono::steady_clock::now();
        std::span<const float> logits = backend.forward(prompt, pool, first, false);
        const double prefillMs = msSince(t0);
        std::vector<float> promptLogits(logits.begin(), logits.end());
        record(0, prompt.back(), backend.lastEvaluated(), prefillMs, prefillMs, std::move(att));
        for (int i = 1; i < o.sequences; ++i) r.sequences.push_back(pool.fork(first, pool.length(first)));
        std::vector<TokenId> next(o.sequences);
        for (int i = 0; i < o.sequences; ++i) next[i] = choose(i, promptLogits, 0);

        for (int step = 1; step < o.steps; ++step) {
            if (o.cancel && o.cancel->load()) { r.cancelled = true; break; }
            double ms0 = 0.0;
            AttentionWeights stepAtt;
            const auto all0 = std::chrono::steady_clock::now();
            std::vector<std::vector<float>> stepLogits(o.sequences);
            int64_t computed0 = 0;
            for (int i = 0; i < o.sequences; ++i) {
                const bool wanted = o.attentionEvery > 0 && (step % o.attentionEvery == 0 || step + 1 == o.steps);
                if (i == 0 && wanted) backend.requestAttention(&stepAtt);
                const TokenId one[1] = {next[i]};
                const auto f0 = std::chrono::steady_clock::now();
                const auto l = backend.forward(one, pool, r.sequences[i], false);
                if (i == 0) {
                    ms0 = msSince(f0);
                    computed0 = backend.lastEvaluated();
                }
                stepLogits[i].assign(l.begin(), l.end());
            }
            const double allMs = msSince(all0);
            for (int i = 0; i < o.sequences; ++i) next[i] = choose(i, stepLogits[i], step);
            record(step, histories[0][histories[0].size() - 2], computed0, ms0, allMs, std::move(stepAtt));
        }
    } catch (const Cancelled&) {
        r.cancelled = true;
    }
    return r;
}

}  // namespace dlab
