#include "generate/session.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/stopwatch.h"

namespace dlab {

namespace {

int64_t contextFor(const HParams& hp, const SessionOptions& o) {
    if (o.contextLength < 0) throw Error("the session's context length must be positive (got " + std::to_string(o.contextLength) + ")");
    return o.contextLength > 0 ? o.contextLength : defaultSessionContext(hp);
}

KvBlockPool makePool(const HParams& hp, const SessionOptions& o) {
    if (o.kvBlocks < 0) throw Error("the session's KV block count must be 0 (automatic) or more (got " + std::to_string(o.kvBlocks) + ")");
    if (o.kvBlockSize < 1) throw Error("the KV block size must be at least 1 position (got " + std::to_string(o.kvBlockSize) + ")");
    const int64_t ctx = contextFor(hp, o);
    const int64_t blocks = o.kvBlocks > 0 ? o.kvBlocks : 4 * KvBlockPool::blocksFor(ctx, o.kvBlockSize);
    KvBlockPool pool(hp, blocks, o.kvType, o.kvBlockSize);
    pool.setContextLimit(ctx);
    return pool;
}

}  // namespace

int64_t defaultSessionContext(const HParams& hp) { return std::min<int64_t>(hp.nCtxTrain > 0 ? hp.nCtxTrain : 2048, 2048); }

Session::Session(const Model& model, Backend& backend, std::vector<TokenId> prompt, const SessionOptions& options)
    : model_(model), backend_(backend), prompt_(std::move(prompt)), options_(options), pool_(makePool(model.hparams(), options)),
      chain_(options.sampler, options.traceTopN) {
    if (options_.maxKeptSteps < 1)
        throw Error("the session must keep the logits of at least 1 step (maxKeptSteps is " + std::to_string(options_.maxKeptSteps) + ")");
    checkPrompt(prompt_);
    Branch root;
    root.seq = pool_.newSequence();
    root.tokens = prompt_;
    root.state = SamplerState(options_.sampler.seed);
    branches_.emplace(0, std::move(root));
}

void Session::checkPrompt(const std::vector<TokenId>& prompt) const {
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    for (TokenId t : prompt) checkToken(t);
    if (static_cast<int64_t>(prompt.size()) >= pool_.contextLimit())
        throw Error("the prompt has " + std::to_string(prompt.size()) + " tokens but the context holds only " +
                    std::to_string(pool_.contextLimit()) + " positions (raise the context length or shorten the prompt)");
}

int64_t Session::restart(std::vector<TokenId> prompt, const SamplerParams& params) {
    checkPrompt(prompt);
    SamplerChain chain(params, options_.traceTopN);   // validates the settings before anything changes

    Branch kept = std::move(branchAt(current_));
    for (auto& [id, b] : branches_)
        if (id != current_) pool_.freeSequence(b.seq);
    branches_.clear();
    // Reuse the cached positions the new prompt repeats, but evaluate at least its last token.
    const std::vector<TokenId>& cached = pool_.tokens(kept.seq);
    const size_t common = static_cast<size_t>(std::mismatch(cached.begin(), cached.end(), prompt.begin(), prompt.end()).first - cached.begin());
    int64_t reuse = static_cast<int64_t>(std::min(common, prompt.size() - 1));
    // A Regenerate: the whole new prompt is cached and ends inside the old prompt's prefill batch.
    // Evaluating its last token alone would take the backend's one-token (matvec) kernels, whose
    // rounding differs from the batch's (on the quantized CPU path by up to ~1 logit on SmolLM2,
    // as large as the fast path's own error): greedy decoding could then pick another first token
    // for the same context. Re-running that batch from where it started gives the answer it
    // replaces bit for bit.
    const int64_t last = static_cast<int64_t>(prompt.size()) - 1;
    if (common >= prompt.size() && last >= prefillFrom_ && last < static_cast<int64_t>(prompt_.size()))
        reuse = std::min(reuse, prefillFrom_);
    pool_.truncate(kept.seq, reuse);

    Branch root;
    root.seq = kept.seq;
    root.tokens = prompt;
    root.state = SamplerState(params.seed);
    prompt_ = std::move(prompt);
    prefillFrom_ = reuse;
    options_.sampler = params;
    chain_ = std::move(chain);
    logits_.clear();
    current_ = 0;
    nextBranch_ = 1;
    branches_.emplace(0, std::move(root));
    return reuse;
}

void Session::checkToken(TokenId token) const {
    if (token < 0 || token >= hp().nVocab)
        throw Error("token " + std::to_string(token) + " is outside the vocabulary (ids 0.." + std::to_string(hp().nVocab - 1) + ")");
}

Session::Branch& Session::branchAt(BranchId id) { return const_cast<Branch&>(std::as_const(*this).branchAt(id)); }
const Session::Branch& Session::branchAt(BranchId id) const {
    const auto it = branches_.find(id);
    if (it == branches_.end()) throw Error("branch " + std::to_string(id) + " does not exist (dropped or never made)");
    return it->second;
}

const Session::StepRecord& Session::record(const Branch& b, int step) const {
    if (step < 0 || step >= static_cast<int>(b.steps.size()))
        throw Error("step " + std::to_string(step) + " does not exist on branch " + std::to_string(current_) + ": it has " +
                    std::to_string(b.steps.size()) + " steps" +
                    (b.steps.empty() ? std::string(" yet (run a step first)") : " (0.." + std::to_string(b.steps.size() - 1) + ")"));
    return b.steps[step];
}

int64_t Session::keepLogits(std::span<const float> logits) {
    const int64_t id = nextLogits_++;
    logits_.emplace(id, std::vector<float>(logits.begin(), logits.end()));
    while (static_cast<int>(logits_.size()) > options_.maxKeptSteps) logits_.erase(logits_.begin());  // the oldest
    return id;
}

std::span<const float> Session::logits(int step) const {
    const StepRecord& r = record(branchAt(current_), step);
    const auto it = logits_.find(r.logitsId);
    if (it == logits_.end())
        throw Error("the logits of step " + std::to_string(step) + " are no longer kept: the session keeps the newest " +
                    std::to_string(options_.maxKeptSteps) + " steps (raise SessionOptions::maxKeptSteps)");
    return it->second;
}

StepTrace Session::step() {
    Branch& b = branchAt(current_);
    const int64_t cached = pool_.length(b.seq);
    const std::span<const TokenId> pending = std::span(b.tokens).subspan(static_cast<size_t>(cached));
    if (static_cast<int64_t>(b.tokens.size()) > pool_.contextLimit())
        throw Error("the context is full (" + std::to_string(pool_.contextLimit()) +
                    " positions); branch from an earlier step or start a session with a longer context");

    const auto f0 = std::chrono::steady_clock::now();
    const int64_t logitsId = keepLogits(backend_.forward(pending, pool_, b.seq, false));
    const double forwardMs = msSince(f0);
    evaluated_ += static_cast<int64_t>(pending.size());

    const auto s0 = std::chrono::steady_clock::now();
    const int step = static_cast<int>(b.steps.size());
    SamplerState state = b.state;
    SampleResult sampled;
    try {
        sampled = chain_.sample(logits_.at(logitsId), History{b.tokens, prompt_.size()}, state, true);
    } catch (const Error&) {
        // E.g. the settings ban every token: undo the evaluation so step() can run again with others.
        pool_.truncate(b.seq, cached);
        logits_.erase(logitsId);
        throw;
    }
    b.steps.push_back({logitsId, b.state, sampled.token, false});
    b.state = state;

    StepTrace t;
    t.step = step;
    t.seq = current_;
    t.pos = static_cast<int64_t>(b.tokens.size());
    t.phase = step == 0 ? Phase::Prefill : Phase::Decode;   // step 0 evaluates the prompt (or what the cache lacks of it)
    t.evaluated = static_cast<int>(pending.size());
    t.chosen = sampled.token;
    t.text = model_.tokenizer().tokenToPiece(sampled.token, true);
    t.chosenProbability = sampled.probability;
    t.raw = sampled.raw;
    t.stages = std::move(sampled.stages);
    b.tokens.push_back(sampled.token);
    t.kv = kvTraceStats(pool_.stats(), pool_.length(b.seq));
    t.forwardMs = forwardMs;
    t.sampleMs = msSince(s0);
    return t;
}

SessionRunResult Session::run(int maxSteps, const std::atomic<bool>* cancel, const std::function<void(const StepTrace&)>& onStep) {
    if (maxSteps < 1) throw Error("a run needs at least 1 step (got " + std::to_string(maxSteps) + ")");
    SessionRunResult r;
    const ScopedCancelFlag flag(backend_, cancel);
    for (int i = 0; i < maxSteps; ++i) {
        if (cancel && cancel->load()) { r.stop = StopReason::Cancelled; return r; }
        if (static_cast<int64_t>(branchAt(current_).tokens.size()) > pool_.contextLimit()) { r.stop = StopReason::ContextFull; return r; }
        try {
            r.steps.push_back(step());
        } catch (const Cancelled&) {
            r.stop = StopReason::Cancelled;
            return r;
        }
        if (onStep) onStep(r.steps.back());
        if (options_.stopAtEndOfGeneration && model_.tokenizer().isEndOfGeneration(r.steps.back().chosen)) {
            r.stop = StopReason::EndOfGeneration;
            return r;
        }
    }
    r.stop = StopReason::MaxTokens;
    return r;
}

SampleResult Session::resample(int step, const SamplerParams& params) {
    const std::span<const float> cached = logits(step);  // checks the step
    const Branch& b = branchAt(current_);
    SamplerState state = b.steps[step].stateBefore;
    SamplerChain chain(params, options_.traceTopN);
    const History history{std::span(b.tokens).first(prompt_.size() + step), prompt_.size()};
    return chain.sample(cached, history, state, true);
}

void Session::setSamplerParams(const SamplerParams& params) { chain_ = SamplerChain(params, options_.traceTopN); }

BranchId Session::branch(int step, TokenId token) {
    const Branch& parent = branchAt(current_);
    record(parent, step);
    checkToken(token);
    const size_t pos = prompt_.size() + static_cast<size_t>(step);  // where step's token sits
    Branch child;
    child.parent = current_;
    child.forkStep = step;
    child.seq = pool_.fork(parent.seq, static_cast<int64_t>(pos));
    child.tokens.assign(parent.tokens.begin(), parent.tokens.begin() + static_cast<std::ptrdiff_t>(pos));
    child.tokens.push_back(token);
    child.steps.assign(parent.steps.begin(), parent.steps.begin() + step + 1);
    child.steps.back().chosen = token;
    child.steps.back().forced = true;
    // The random state after `step` in the parent: before its next step, or its current one.
    child.state = step + 1 < static_cast<int>(parent.steps.size()) ? parent.steps[step + 1].stateBefore : parent.state;
    const BranchId id = nextBranch_++;
    branches_.emplace(id, std::move(child));
    current_ = id;
    return id;
}

void Session::switchTo(BranchId id) {
    branchAt(id);
    current_ = id;
}

void Session::dropBranch(BranchId id) {
    const Branch& b = branchAt(id);
    if (id == current_) throw Error("cannot drop branch " + std::to_string(id) + " while it is the current one; switch to another first");
    pool_.freeSequence(b.seq);
    branches_.erase(id);
}

std::vector<BranchInfo> Session::branches() const {
    std::vector<BranchInfo> out;
    for (const auto& [id, b] : branches_) out.push_back({id, b.parent, b.forkStep, b.seq, static_cast<int>(b.steps.size())});
    return out;
}

const std::vector<TokenId>& Session::tokens(BranchId id) const { return branchAt(id).tokens; }

int Session::steps() const { return static_cast<int>(branchAt(current_).steps.size()); }

}  // namespace dlab
