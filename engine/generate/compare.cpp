#include "generate/compare.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "core/error.h"
#include "core/stopwatch.h"
#include "generate/compare_steps.h"
#include "generate/model_beam_scorer.h"
#include "generate/session.h"
#include "sampling/dry_breakers.h"
#include "sampling/sampler_chain.h"
#include "tokenizer/utf8.h"

namespace dlab {

namespace {

bool raised(const std::atomic<bool>* flag) { return flag && flag->load(); }

// The pool's high-water mark: the stats when the most blocks were in use.
class PeakTracker {
public:
    explicit PeakTracker(const KvBlockPool& pool) : pool_(pool) {}
    void sample() {
        KvStats s = pool_.stats();
        if (s.blocksUsed > peak_.blocksUsed || peak_.blocksTotal == 0) peak_ = std::move(s);
    }
    const KvStats& peak() const { return peak_; }

private:
    const KvBlockPool& pool_;
    KvStats peak_;
};

// What one run's sequences reference now; kept in `r` if it is the run's most distinct blocks yet.
void notePeak(const KvBlockPool& pool, const std::vector<SeqId>& seqs, RunResult& r) {
    std::map<int32_t, int> mine;  // block -> how many of the run's sequences reference it
    for (SeqId s : seqs)
        for (int32_t b : pool.blockTable(s)) ++mine[b];
    if (static_cast<int64_t>(mine.size()) < r.kvBlocks) return;
    r.kvBlocks = static_cast<int64_t>(mine.size());
    r.kvBlocksShared = 0;
    r.kvBytesSavedWithin = 0;
    for (const auto& [b, n] : mine) {
        if (pool.refCount(b) > 1) ++r.kvBlocksShared;
        r.kvBytesSavedWithin += (n - 1) * pool.bytesPerBlock();
    }
}

// Everything a run needs besides its own result.
struct RunContext {
    const Model& model;
    Backend& backend;
    KvBlockPool& pool;
    const std::vector<TokenId>& prompt;
    const std::vector<float>& promptLogits;  // (nVocab) after the last prompt token
    const CompareOptions& options;
    PeakTracker& tracker;
    int index;  // the run's position in the comparison
};

void runSampled(const RunContext& c, SeqId seq, RunResult& r) {
    SamplerParams params = r.spec.sampler;
    if (r.spec.constrained) params.constraint = c.options.constraint;
    SamplerChain chain(params, 0);
    SamplerState state(r.spec.sampler.seed);
    const bool greedy = r.spec.kind == RunKind::Greedy;
    std::vector<TokenId> history(c.prompt);  // for the penalties
    std::span<const float> logits = c.promptLogits;
    for (;;) {
        const SampleResult s = chain.sample(logits, History{history, c.prompt.size()}, state, false);
        RunToken t = sampledRunToken(logits, logitsLogSumExp(logits), chain, s.token, s.probability, greedy,
                                     c.options.recordTopN);
        t.end = c.model.tokenizer().isEndOfGeneration(s.token);
        r.logProb += t.logProb;
        history.push_back(s.token);
        r.steps.push_back(std::move(t));
        if (c.options.onToken) c.options.onToken(c.index, r.steps.back());
        if (r.steps.back().end) { r.ended = true; break; }
        r.tokens.push_back(s.token);
        if (static_cast<int>(r.tokens.size()) >= c.options.maxTokens) break;
        if (raised(c.options.cancel)) { r.stopped = true; break; }
        const TokenId one[1] = {s.token};
        try {
            logits = c.backend.forward(one, c.pool, seq, false);
        } catch (const Cancelled&) {
            r.stopped = true;
            break;
        }
        ++r.forwardCalls;
        ++r.tokensEvaluated;
        c.tracker.sample();
        notePeak(c.pool, {seq}, r);
    }
}

void runBeam(const RunContext& c, SeqId seq, RunResult& r) {
    ModelBeamScorer* self = nullptr;
    auto measure = [&] {
        c.tracker.sample();
        if (self) notePeak(c.pool, self->kvSequences(), r);
    };
    ModelBeamScorer scorer(c.backend, c.pool, seq, c.promptLogits, measure);
    self = &scorer;
    BeamOptions opt = beamOptionsOf(r.spec);
    opt.maxNewTokens = c.options.maxTokens;
    opt.endTokens = endOfGenerationTokens(c.model.tokenizer());
    opt.nBest = opt.width;
    opt.recordTopN = c.options.beamRecordTopN;
    opt.recordKvBlocks = c.options.beamRecordKvBlocks;
    if (r.spec.constrained) opt.constraint = c.options.constraint;
    r.beamOptions = opt;
    r.beam = beamSearch(scorer, c.prompt, opt, [&](const BeamTree& tree, int depth) {
        measure();
        return c.options.onBeamStep ? c.options.onBeamStep(c.index, tree, depth) : true;
    }, c.options.cancel);
    const BeamHypothesis& best = r.beam.hypotheses.front();
    r.tokens = best.tokens;
    r.ended = best.ended;
    r.steps = beamRunSteps(r.beam.tree, best.node);
    for (const RunToken& t : r.steps) r.logProb += t.logProb;  // == best.logProb: the same sums in the same order
    r.stopped = r.beam.stop == BeamStop::Cancelled || r.beam.stop == BeamStop::Callback;
    r.forwardCalls = scorer.forwardCalls();
    r.tokensEvaluated = scorer.tokensEvaluated();
    r.decodeSteps = r.beam.steps;
}

}  // namespace

double distinctN(const std::vector<TokenId>& tokens, int n) {
    if (n < 1 || static_cast<int>(tokens.size()) < n) return 0.0;
    std::set<std::vector<TokenId>> seen;
    const size_t total = tokens.size() - n + 1;
    for (size_t i = 0; i < total; ++i) seen.emplace(tokens.begin() + i, tokens.begin() + i + n);
    return static_cast<double>(seen.size()) / static_cast<double>(total);
}

int64_t comparePoolBlocks(int64_t promptTokens, int maxTokens, const std::vector<RunSpec>& runs, int64_t blockSize) {
    const int64_t perSequence = KvBlockPool::blocksFor(std::max(maxTokens, 1), blockSize) + 1;
    int64_t blocks = KvBlockPool::blocksFor(promptTokens, blockSize);
    for (const RunSpec& r : runs) blocks += (r.kind == RunKind::Beam ? r.beamWidth : 1) * perSequence;
    return blocks;
}

CompareResult compareRuns(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                          const std::vector<RunSpec>& runs, int maxTokens, KvType kvType, int64_t contextLimit,
                          int64_t blockSize) {
    CompareOptions o;
    o.maxTokens = maxTokens;
    o.kvType = kvType;
    o.contextLimit = contextLimit;
    o.blockSize = blockSize;
    return compareRuns(model, backend, prompt, runs, o);
}

CompareResult compareRuns(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                          const std::vector<RunSpec>& runs, const CompareOptions& options) {
    const int maxTokens = options.maxTokens;
    const int64_t contextLimit = options.contextLimit > 0 ? options.contextLimit : defaultSessionContext(model.hparams());
    if (runs.empty()) throw Error("compare needs at least one run (for example --run greedy --run beam:k=4)");
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    if (maxTokens < 1) throw Error("--max-tokens must be at least 1 (got " + std::to_string(maxTokens) + ")");
    if (options.recordTopN < 0 || options.beamRecordTopN < 0)
        throw Error("the recorded alternatives per token must be 0 (none) or more");
    const int64_t need = static_cast<int64_t>(prompt.size()) + maxTokens;
    if (need > contextLimit)
        throw Error("the prompt (" + std::to_string(prompt.size()) + " tokens) plus " + std::to_string(maxTokens) +
                    " new tokens need " + std::to_string(need) + " positions but the context holds " +
                    std::to_string(contextLimit) + " (raise --ctx, shorten the prompt or lower --max-tokens)");
    std::vector<RunSpec> specs(runs);
    for (RunSpec& s : specs) {
        if (s.kind == RunKind::Beam) beamOptionsOf(s).validate();
        if (s.kind != RunKind::Beam && s.sampler.dryMultiplier > 0.0f && s.sampler.dryBreakers.empty())
            s.sampler.dryBreakers = dryBreakersFromStrings(defaultDryBreakers(), model.tokenizer());
    }

    const int64_t blockSize = options.blockSize;
    KvBlockPool pool(model.hparams(), comparePoolBlocks(static_cast<int64_t>(prompt.size()), maxTokens, specs, blockSize),
                     options.kvType, blockSize);
    pool.setContextLimit(contextLimit);
    PeakTracker tracker(pool);
    CompareResult out;
    out.prompt = prompt;
    if (raised(options.cancel)) { out.stopped = true; return out; }

    // The one prefill, then a fork per run; the prompt sequence itself is no longer needed.
    const SeqId base = pool.newSequence();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<float> promptLogits;  // (nVocab) after the last prompt token
    try {
        const std::span<const float> first = backend.forward(prompt, pool, base, false);
        promptLogits.assign(first.begin(), first.end());
    } catch (const Cancelled&) {
        out.stopped = true;
        return out;
    }
    out.prefillMs = msSince(t0);
    std::vector<SeqId> forks;
    for (size_t i = 0; i < specs.size(); ++i) forks.push_back(pool.fork(base, static_cast<int64_t>(prompt.size())));
    pool.freeSequence(base);
    tracker.sample();

    for (size_t i = 0; i < specs.size(); ++i) {
        if (raised(options.cancel)) { out.stopped = true; break; }
        RunResult r;
        r.spec = specs[i];
        notePeak(pool, {forks[i]}, r);
        const RunContext ctx{model, backend, pool, prompt, promptLogits, options, tracker, static_cast<int>(i)};
        const auto r0 = std::chrono::steady_clock::now();
        if (r.spec.kind == RunKind::Beam) runBeam(ctx, forks[i], r);  // frees forks[i]
        else runSampled(ctx, forks[i], r);
        r.ms = msSince(r0);
        if (r.spec.kind != RunKind::Beam) r.decodeSteps = static_cast<int>(r.steps.size());
        r.msPerStep = r.decodeSteps > 0 ? r.ms / r.decodeSteps : 0.0;
        r.tokensPerSecond = r.ms > 0.0 ? 1000.0 * static_cast<double>(r.tokens.size()) / r.ms : 0.0;
        r.text = utf8::sanitize(model.tokenizer().decode(r.tokens));
        r.distinct1 = distinctN(r.tokens, 1);
        r.distinct2 = distinctN(r.tokens, 2);
        r.repetition = findRepetition(r.tokens);
        // A cancel (the flag or the backend's) ends the comparison; a beam run stopped by its callback does not.
        const bool cancelled = r.stopped && (raised(options.cancel) || r.beam.stop == BeamStop::Cancelled ||
                                             r.spec.kind != RunKind::Beam);
        out.runs.push_back(std::move(r));
        if (options.onRunDone) options.onRunDone(static_cast<int>(i), out.runs.back());
        if (cancelled) { out.stopped = true; break; }
    }
    out.kvPeak = tracker.peak();
    return out;
}

}  // namespace dlab
