#include "generate/compare.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "core/error.h"
#include "generate/model_beam_scorer.h"
#include "sampling/sampler_chain.h"
#include "tokenizer/utf8.h"

namespace dlab {

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// log softmax(logits)[token] at temperature 1.
double logProbOf(std::span<const float> logits, TokenId token) {
    const float mx = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (float l : logits) sum += std::exp(static_cast<double>(l) - mx);
    return static_cast<double>(logits[token]) - mx - std::log(sum);
}

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

void runSampled(const Model& model, Backend& backend, KvBlockPool& pool, SeqId seq, const std::vector<TokenId>& prompt,
                const std::vector<float>& promptLogits, int maxTokens, PeakTracker& tracker, RunResult& r) {
    SamplerChain chain(r.spec.sampler, 0);
    SamplerState state(r.spec.sampler.seed);
    std::vector<TokenId> history(prompt);  // for the penalties
    std::span<const float> logits = promptLogits;
    for (;;) {
        const TokenId next = chain.sample(logits, History{history, prompt.size()}, state, false).token;
        r.logProb += logProbOf(logits, next);
        history.push_back(next);
        if (model.tokenizer().isEndOfGeneration(next)) { r.ended = true; break; }
        r.tokens.push_back(next);
        if (static_cast<int>(r.tokens.size()) >= maxTokens) break;
        const TokenId one[1] = {next};
        logits = backend.forward(one, pool, seq, false);
        ++r.forwardCalls;
        tracker.sample();
        notePeak(pool, {seq}, r);
    }
}

void runBeam(const Model& model, Backend& backend, KvBlockPool& pool, SeqId seq, const std::vector<TokenId>& prompt,
             const std::vector<float>& promptLogits, int maxTokens, PeakTracker& tracker, RunResult& r) {
    ModelBeamScorer* self = nullptr;
    auto measure = [&] {
        tracker.sample();
        if (self) notePeak(pool, self->kvSequences(), r);
    };
    ModelBeamScorer scorer(backend, pool, seq, promptLogits, measure);
    self = &scorer;
    BeamOptions opt;
    opt.width = r.spec.beamWidth;
    opt.maxNewTokens = maxTokens;
    opt.lengthPenalty = r.spec.lengthPenalty;
    opt.earlyStopping = r.spec.earlyStopping;
    opt.endTokens = endOfGenerationTokens(model.tokenizer());
    opt.nBest = 1;
    const BeamResult br = beamSearch(scorer, prompt, opt, [&](const BeamTree&, int) { measure(); return true; });
    const BeamHypothesis& best = br.hypotheses.front();
    r.tokens = best.tokens;
    r.ended = best.ended;
    r.logProb = best.logProb;
    r.forwardCalls = scorer.forwardCalls();
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
    if (runs.empty()) throw Error("compare needs at least one run (for example --run greedy --run beam:k=4)");
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    if (maxTokens < 1) throw Error("--max-tokens must be at least 1 (got " + std::to_string(maxTokens) + ")");
    const int64_t need = static_cast<int64_t>(prompt.size()) + maxTokens;
    if (need > contextLimit)
        throw Error("the prompt (" + std::to_string(prompt.size()) + " tokens) plus " + std::to_string(maxTokens) +
                    " new tokens need " + std::to_string(need) + " positions but the context holds " +
                    std::to_string(contextLimit) + " (raise --ctx, shorten the prompt or lower --max-tokens)");

    KvBlockPool pool(model.hparams(), comparePoolBlocks(static_cast<int64_t>(prompt.size()), maxTokens, runs, blockSize),
                     kvType, blockSize);
    pool.setContextLimit(contextLimit);
    PeakTracker tracker(pool);
    CompareResult out;
    out.prompt = prompt;

    // The one prefill, then a fork per run; the prompt sequence itself is no longer needed.
    const SeqId base = pool.newSequence();
    const auto t0 = std::chrono::steady_clock::now();
    const std::span<const float> first = backend.forward(prompt, pool, base, false);
    const std::vector<float> promptLogits(first.begin(), first.end());  // (nVocab) after the last prompt token
    out.prefillMs = msSince(t0);
    std::vector<SeqId> forks;
    for (size_t i = 0; i < runs.size(); ++i) forks.push_back(pool.fork(base, static_cast<int64_t>(prompt.size())));
    pool.freeSequence(base);
    tracker.sample();

    for (size_t i = 0; i < runs.size(); ++i) {
        RunResult r;
        r.spec = runs[i];
        notePeak(pool, {forks[i]}, r);
        const auto r0 = std::chrono::steady_clock::now();
        if (r.spec.kind == RunKind::Beam)
            runBeam(model, backend, pool, forks[i], prompt, promptLogits, maxTokens, tracker, r);  // frees forks[i]
        else
            runSampled(model, backend, pool, forks[i], prompt, promptLogits, maxTokens, tracker, r);
        r.ms = msSince(r0);
        r.tokensPerSecond = r.ms > 0.0 ? 1000.0 * static_cast<double>(r.tokens.size()) / r.ms : 0.0;
        r.text = utf8::sanitize(model.tokenizer().decode(r.tokens));
        r.distinct1 = distinctN(r.tokens, 1);
        r.distinct2 = distinctN(r.tokens, 2);
        r.repetition = findRepetition(r.tokens);
        out.runs.push_back(std::move(r));
    }
    out.kvPeak = tracker.peak();
    return out;
}

}  // namespace dlab
