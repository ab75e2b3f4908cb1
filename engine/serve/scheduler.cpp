#include "serve/scheduler.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/error.h"
#include "generate/compare_steps.h"

namespace dlab {

const char* batchingModeName(BatchingMode m) { return m == BatchingMode::Static ? "static" : "continuous"; }

const char* finishReasonName(FinishReason r) {
    switch (r) {
        case FinishReason::Stop: return "stop";
        case FinishReason::Length: return "length";
        case FinishReason::Cancelled: return "cancelled";
        case FinishReason::Error: return "error";
    }
    return "?";
}

void SchedulerOptions::validate() const {
    auto range = [](const char* what, int v, int lo, int hi) {
        if (v < lo || v > hi)
            throw Error(std::string(what) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + " (got " +
                        std::to_string(v) + ")");
    };
    range("the maximum batch size", maxBatch, 1, 256);
    range("the token budget per step", tokenBudget, maxBatch, 8192);
    range("the prefill chunk", prefillChunk, 1, tokenBudget);
    if (!(staticMaxWaitMs >= 0.0)) throw Error("the static batch's maximum wait must be at least 0 ms");
}

int StepRecord::tokens() const {
    return std::accumulate(items.begin(), items.end(), 0, [](int n, const Item& i) { return n + i.tokens; });
}

struct Scheduler::Active {
    Active(RequestId id, ServeRequest&& request, const Tokenizer& tok) : id(id), req(std::move(request)), detok(tok) {}
    RequestId id;
    ServeRequest req;
    RequestTimings t;
    SeqId seq = -1;
    int64_t prefilled = 0;        // prompt positions in the KV (cached + computed)
    int64_t matchedBlocks = 0;    // from the prefix cache
    int64_t reservePositions = 0; // prompt + maxTokens - 1: the longest the sequence can get
    std::vector<TokenId> history; // prompt + generated, for the penalties
    std::unique_ptr<SamplerChain> chain;
    SamplerState state;
    StreamingDetokenizer detok;
    std::string held;             // decoded text not yet released (it might start a stop string)
    TokenId last = -1;            // the token the next decode step feeds
    bool done = false;            // finished; a static batch keeps its slot until the batch ends
    bool cancelRequested = false;

    int64_t reserveBlocks(int64_t bs) const { return KvBlockPool::blocksFor(reservePositions, bs) - matchedBlocks; }
};

Scheduler::Scheduler(const Model& model, Backend& backend, KvBlockPool& pool, SchedulerOptions options, EventSink onEvent)
    : model_(model), backend_(backend), pool_(pool), options_(options), onEvent_(std::move(onEvent)),
      start_(std::chrono::steady_clock::now()) {
    options_.validate();
    if (options_.prefixCache) cache_ = std::make_unique<PrefixCache>(pool_);
}

Scheduler::~Scheduler() {
    for (auto& r : running_) release(*r);
    cache_.reset();  // returns the cached blocks to the pool
}

double Scheduler::nowMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
}

void Scheduler::reject(RequestId id, ServeRequest&& req, double arrival, const std::string& why) {
    ServeEvent e;
    e.kind = ServeEvent::Kind::Finished;
    e.request = id;
    e.reason = FinishReason::Error;
    e.error = why;
    e.timings.arrivalMs = arrival;
    e.timings.finishedMs = nowMs();
    e.timings.promptTokens = static_cast<int>(req.prompt.size());
    onEvent_(e);
}

void checkServeRequest(const ServeRequest& request, const Model& model, const KvBlockPool& pool) {
    const int64_t ctx = pool.contextLimit();
    const int64_t n = static_cast<int64_t>(request.prompt.size());
    if (n == 0) throw Error("the prompt is empty; give at least one token of text");
    if (request.maxTokens < 1) throw Error("max_tokens must be at least 1 (got " + std::to_string(request.maxTokens) + ")");
    if (request.topLogprobs < 0 || request.topLogprobs > 20)
        throw Error("top_logprobs must be between 0 and 20 (got " + std::to_string(request.topLogprobs) + ")");
    if (request.stop.size() > 4) throw Error("at most 4 stop strings are allowed (got " + std::to_string(request.stop.size()) + ")");
    for (const std::string& s : request.stop)
        if (s.empty()) throw Error("a stop string is empty; remove it or give at least one character");
    for (TokenId t : request.prompt)
        if (t < 0 || t >= model.hparams().nVocab)
            throw Error("prompt token " + std::to_string(t) + " is outside the vocabulary (0.." +
                        std::to_string(model.hparams().nVocab - 1) + ")");
    request.sampler.validate();
    if (n + request.maxTokens - 1 > ctx)
        throw Error("this model's context holds " + std::to_string(ctx) + " tokens, but the request needs " +
                    std::to_string(n + request.maxTokens) + " (" + std::to_string(n) + " in the prompt, " +
                    std::to_string(request.maxTokens) + " to generate); lower max_tokens or shorten the prompt");
    const int64_t blocks = KvBlockPool::blocksFor(n + request.maxTokens - 1, pool.blockSize());
    if (blocks > pool.nBlocks())
        throw Error("the request needs " + std::to_string(blocks) + " KV blocks but the server's pool has " +
                    std::to_string(pool.nBlocks()) + "; lower max_tokens or start the server with a larger KV cache");
}

RequestId Scheduler::submit(ServeRequest request) {
    const RequestId id = nextId_++;
    const double arrival = nowMs();
    flush_ = false;
    try {
        checkServeRequest(request, model_, pool_);
    } catch (const Error& e) {
        reject(id, std::move(request), arrival, e.what());
        return id;
    }
    const int64_t n = static_cast<int64_t>(request.prompt.size());
    auto r = std::make_unique<Active>(id, std::move(request), model_.tokenizer());
    r->t.arrivalMs = arrival;
    r->t.promptTokens = static_cast<int>(n);
    r->reservePositions = n + r->req.maxTokens - 1;
    waiting_.push_back(std::move(r));
    return id;
}

int64_t Scheduler::blocksAvailable() const {
    int64_t outstanding = 0;
    const int64_t bs = pool_.blockSize();
    for (const auto& r : running_) {
        const int64_t mine = static_cast<int64_t>(pool_.blockTable(r->seq).size()) - r->matchedBlocks;
        outstanding += std::max<int64_t>(0, r->reserveBlocks(bs) - mine);
    }
    return pool_.freeBlocks() + (cache_ ? cache_->evictableBlocks() : 0) - outstanding;
}

bool Scheduler::admit(std::unique_ptr<Active>& r) {
    const int64_t bs = pool_.blockSize();
    const std::span<const TokenId> prompt(r->req.prompt);
    PrefixCache::Match m;
    if (cache_) m = cache_->lookup(prompt, static_cast<int64_t>(prompt.size()) - 1);  // the last token's logits are needed
    r->seq = m.blocks.empty() ? pool_.newSequence() : pool_.newSequenceFromBlocks(m.blocks, prompt.first(static_cast<size_t>(m.tokens)));
    r->matchedBlocks = static_cast<int64_t>(m.blocks.size());
    const int64_t need = r->reserveBlocks(bs);
    if (blocksAvailable() < need) {
        pool_.freeSequence(r->seq);
        r->seq = -1;
        r->matchedBlocks = 0;
        return false;
    }
    // Make the reservation physical: evict idle cached blocks until every running request's
    // remaining worst case and this one's fit in the free list.
    const int64_t shortfall = need - (blocksAvailable() - (cache_ ? cache_->evictableBlocks() : 0));
    if (shortfall > 0 && cache_) cache_->evict(shortfall);
    r->prefilled = m.tokens;
    r->t.cachedPromptTokens = static_cast<int>(m.tokens);
    r->t.admittedMs = nowMs();
    r->chain = std::make_unique<SamplerChain>(r->req.sampler, 0);
    r->state = SamplerState(r->req.sampler.seed);
    r->history = r->req.prompt;
    return true;
}

void Scheduler::admitWaiting() {
    const auto admitFront = [this] {
        if (waiting_.empty() || static_cast<int>(running_.size()) >= options_.maxBatch) return false;
        if (!admit(waiting_.front())) return false;  // first come, first served: nobody overtakes it
        running_.push_back(std::move(waiting_.front()));
        waiting_.pop_front();
        return true;
    };
    if (options_.mode == BatchingMode::Continuous) {
        while (admitFront()) {}
        return;
    }
    if (staticBatchOpen_ || waiting_.empty()) return;
    const bool full = static_cast<int>(waiting_.size()) >= options_.maxBatch;
    const bool waitedEnough = nowMs() - waiting_.front()->t.arrivalMs >= options_.staticMaxWaitMs;
    if (!full && !flush_ && !waitedEnough) return;
    // A padded batch runs as long as its longest request: every slot reserves room for that many
    // steps (finished ones are stepped with padding until then).
    const size_t n = std::min<size_t>(waiting_.size(), static_cast<size_t>(options_.maxBatch));
    int longest = 0;
    for (size_t i = 0; i < n; ++i) longest = std::max(longest, waiting_[i]->req.maxTokens);
    const auto reserveFor = [this](Active& r, int steps) {
        r.reservePositions = std::min<int64_t>(static_cast<int64_t>(r.req.prompt.size()) + steps - 1, pool_.contextLimit());
    };
    for (size_t i = 0; i < n; ++i) reserveFor(*waiting_[i], longest);
    if (!admitFront()) reserveFor(*waiting_.front(), waiting_.front()->req.maxTokens);  // too big padded: run it unpadded
    while (admitFront()) {}
    for (auto& r : waiting_) reserveFor(*r, r->req.maxTokens);
    staticBatchOpen_ = !running_.empty();
}

void Scheduler::release(Active& r) {
    if (r.seq >= 0 && pool_.contains(r.seq)) pool_.freeSequence(r.seq);
    r.seq = -1;
}

void Scheduler::finish(Active& r, FinishReason reason, std::string error) {
    if (r.done) return;
    r.done = true;
    ServeEvent e;
    e.kind = ServeEvent::Kind::Finished;
    e.request = r.id;
    e.reason = reason;
    e.error = std::move(error);
    if (reason != FinishReason::Error) e.tail = r.held + r.detok.flush();
    r.held.clear();
    r.t.finishedMs = nowMs();
    e.timings = r.t;
    r.chain.reset();  // its candidate buffer is the size of the vocabulary
    onEvent_(e);
}

namespace {

// Length of the longest suffix of `text` that is a proper prefix of one of the stop strings.
size_t heldBackLength(const std::string& text, const std::vector<std::string>& stops) {
    size_t keep = 0;
    for (const std::string& s : stops)
        for (size_t len = std::min(s.size() - 1, text.size()); len > keep; --len)
            if (text.compare(text.size() - len, len, s, 0, len) == 0) {
                keep = len;
                break;
            }
    return keep;
}

}  // namespace

void Scheduler::sampleNext(Active& r, std::span<const float> logits) {
    const TokenId tok = r.chain->sample(logits, History{r.history, r.req.prompt.size()}, r.state, false).token;
    const double now = nowMs();
    if (r.t.firstTokenMs < 0) r.t.firstTokenMs = now;
    r.history.push_back(tok);
    r.last = tok;
    if (r.req.stopAtEndOfGeneration && model_.tokenizer().isEndOfGeneration(tok)) {
        finish(r, FinishReason::Stop);
        return;
    }
    ++r.t.generatedTokens;
    r.t.tokenMs.push_back(now);

    ServeEvent e;
    e.kind = ServeEvent::Kind::Token;
    e.request = r.id;
    e.token = tok;
    if (r.req.logprobs || r.req.topLogprobs > 0) {
        const double lse = logitsLogSumExp(logits);
        e.chosen = {tok, static_cast<float>(logits[static_cast<size_t>(tok)] - lse)};
        if (r.req.topLogprobs > 0) {
            std::vector<TokenId> ids(logits.size());
            std::iota(ids.begin(), ids.end(), 0);
            const size_t k = std::min<size_t>(static_cast<size_t>(r.req.topLogprobs), ids.size());
            std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end(), [&](TokenId a, TokenId b) {
                return logits[static_cast<size_t>(a)] != logits[static_cast<size_t>(b)] ? logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)]
                                                                                        : a < b;
            });
            for (size_t i = 0; i < k; ++i) e.top.push_back({ids[i], static_cast<float>(logits[static_cast<size_t>(ids[i])] - lse)});
        }
    }
    r.held += r.detok.push(tok);
    bool stopped = false;
    if (!r.req.stop.empty()) {
        size_t at = std::string::npos;
        for (const std::string& s : r.req.stop) at = std::min(at, r.held.find(s));
        if (at != std::string::npos) {
            e.text = r.held.substr(0, at);
            r.held.clear();
            stopped = true;
        } else {
            const size_t keep = heldBackLength(r.held, r.req.stop);
            e.text = r.held.substr(0, r.held.size() - keep);
            r.held.erase(0, r.held.size() - keep);
        }
    } else {
        e.text = std::move(r.held);
        r.held.clear();
    }
    onEvent_(e);
    if (stopped) {
        r.detok.flush();  // the text after the stop string is dropped
        finish(r, FinishReason::Stop);
    } else if (r.t.generatedTokens >= r.req.maxTokens || pool_.length(r.seq) + 1 > pool_.contextLimit()) {
        finish(r, FinishReason::Length);
    }
}

void Scheduler::cancel(RequestId id) {
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it)
        if ((*it)->id == id) {
            std::unique_ptr<Active> r = std::move(*it);
            waiting_.erase(it);
            finish(*r, FinishReason::Cancelled);
            return;
        }
    for (auto it = running_.begin(); it != running_.end(); ++it)
        if ((*it)->id == id) {
            if (inStep_) {
                (*it)->cancelRequested = true;
                return;
            }
            finish(**it, FinishReason::Cancelled);
            release(**it);
            running_.erase(it);
            if (running_.empty()) staticBatchOpen_ = false;
            return;
        }
}

std::optional<StepRecord> Scheduler::step() {
    admitWaiting();
    if (running_.empty()) return std::nullopt;

    StepRecord rec;
    rec.index = steps_;
    rec.startMs = nowMs();
    std::vector<Backend::BatchItem> items;
    std::vector<Active*> owners;
    int budget = options_.tokenBudget;
    for (auto& r : running_) {  // decode steps first: every generating request advances every step
        if (r->prefilled < static_cast<int64_t>(r->req.prompt.size())) continue;
        if (r->done && (options_.mode != BatchingMode::Static || pool_.length(r->seq) >= r->reservePositions)) continue;
        items.push_back({r->seq, std::span<const TokenId>(&r->last, 1), false});
        owners.push_back(r.get());
        rec.items.push_back({r->id, r->done ? StepRecord::Work::Padding : StepRecord::Work::Decode, 1});
        --budget;
    }
    for (auto& r : running_) {  // then prompt chunks, oldest request first
        const int64_t left = static_cast<int64_t>(r->req.prompt.size()) - r->prefilled;
        if (left <= 0 || budget <= 0) continue;
        const int chunk = static_cast<int>(std::min<int64_t>({left, options_.prefillChunk, budget}));
        items.push_back({r->seq, std::span<const TokenId>(r->req.prompt).subspan(static_cast<size_t>(r->prefilled), chunk), false});
        owners.push_back(r.get());
        rec.items.push_back({r->id, StepRecord::Work::Prefill, chunk});
        budget -= chunk;
    }

    inStep_ = true;
    if (!items.empty()) {
        try {
            const std::vector<std::span<const float>> logits = backend_.forwardBatch(items, pool_);
            for (size_t i = 0; i < items.size(); ++i) {
                Active& r = *owners[i];
                switch (rec.items[i].work) {
                    case StepRecord::Work::Padding: break;
                    case StepRecord::Work::Decode: sampleNext(r, logits[i]); break;
                    case StepRecord::Work::Prefill:
                        r.prefilled += rec.items[i].tokens;
                        if (cache_) cache_->insert(r.seq, r.prefilled);
                        if (r.prefilled == static_cast<int64_t>(r.req.prompt.size())) sampleNext(r, logits[i]);
                        break;
                }
            }
        } catch (const Error& e) {
            // A batch that failed changed no sequence; its requests cannot go on.
            for (Active* r : owners) finish(*r, FinishReason::Error, std::string("the forward pass failed: ") + e.what());
        }
    }
    inStep_ = false;
    for (auto& r : running_)
        if (r->cancelRequested) finish(*r, FinishReason::Cancelled);

    // Who leaves: continuous batching frees a finished request's slot now; a static batch frees
    // all of its slots when its last request finishes (a cancelled one leaves at once).
    const bool batchDone = std::all_of(running_.begin(), running_.end(), [](const auto& r) { return r->done; });
    for (auto it = running_.begin(); it != running_.end();) {
        Active& r = **it;
        const bool leave = r.done && (options_.mode == BatchingMode::Continuous || batchDone || r.cancelRequested);
        if (leave) {
            release(r);
            it = running_.erase(it);
        } else {
            ++it;
        }
    }
    if (running_.empty()) staticBatchOpen_ = false;
    ++steps_;
    rec.ms = nowMs() - rec.startMs;
    rec.waiting = static_cast<int>(waiting_.size());
    rec.kvBlocksUsed = pool_.nBlocks() - pool_.freeBlocks();
    return rec;
}

}  // namespace dlab
