// The serving scheduler (issue 11, item 2) on a tiny random llama model with exact matmul, where a
// batched pass gives every sequence forward()'s logits bit for bit, so whatever the scheduler does
// to the batches must leave every request's tokens and log-probabilities exactly as if it had run
// alone:
//  * continuous and static batching, chunked prefill beside decode steps, under a token budget;
//  * a finished request's slot is refilled the next step (continuous); a static batch admits
//    nothing until its last request finishes and pads finished slots meanwhile;
//  * first come, first served: no request starves, even with a budget of one token per slot;
//  * cancel() frees a request's slot and KV blocks before it returns (waiting, running, and from
//    inside the event callback);
//  * prefix-cache hits give identical log-probabilities and skip the cached tokens; LRU eviction
//    never frees a block a sequence references;
//  * stop strings end the text before the string, also when it spans tokens;
//  * requests that can never run get one sentence, and the scheduler goes on;
//  * ServingLoop: 100 concurrent streams from 10 threads, nothing lost or mixed up.
#include <QTest>

#include <map>
#include <thread>

#include "core/error.h"
#include "generate/generator.h"
#include "gguf/tiny_model.h"
#include "model/backend.h"
#include "serve/prefix_cache.h"
#include "serve/scheduler.h"
#include "serve/serving_loop.h"
#include "test_paths.h"

using namespace dlab;

namespace {

const Model& model() {
    static std::unique_ptr<Model> m = [] {
        TinyModelSpec spec;
        spec.nCtx = 256;
        const std::string path = test::scratchDir() + "/sched-llama.gguf";
        writeTinyModel(spec, path);
        return Model::load(path);
    }();
    return *m;
}

Backend& exactBackend() {
    static std::unique_ptr<Backend> b = makeCpuBackend(model(), 1, /*exactMatmul=*/true);
    return *b;
}

std::vector<TokenId> text(int n, int salt) {
    std::vector<TokenId> t;
    for (int i = 0; i < n; ++i) t.push_back(static_cast<TokenId>(32 + (i * 37 + salt * 11) % 280));
    return t;
}

ServeRequest request(std::vector<TokenId> prompt, int maxTokens, float temperature = 0.0f, uint64_t seed = 0) {
    ServeRequest r;
    r.prompt = std::move(prompt);
    r.maxTokens = maxTokens;
    r.sampler.temperature = temperature;
    r.sampler.seed = seed;
    r.stopAtEndOfGeneration = false;
    r.logprobs = true;
    r.topLogprobs = 5;
    return r;
}

// What a request produced, from its events.
struct Outcome {
    std::vector<TokenId> tokens;
    std::vector<float> logprobs;
    std::vector<std::vector<TokenLogprob>> top;
    std::string text;
    bool finished = false;
    FinishReason reason = FinishReason::Stop;
    std::string error;
    RequestTimings timings;
};

struct Collector {
    std::map<RequestId, Outcome> out;
    std::vector<RequestId> finishOrder;
    std::function<void(const ServeEvent&)> also;
    Scheduler::EventSink sink() {
        return [this](const ServeEvent& e) {
            Outcome& o = out[e.request];
            QVERIFY2(!o.finished, "an event after Finished");
            if (e.kind == ServeEvent::Kind::Token) {
                o.tokens.push_back(e.token);
                o.logprobs.push_back(e.chosen.logprob);
                o.top.push_back(e.top);
                o.text += e.text;
            } else {
                o.finished = true;
                o.reason = e.reason;
                o.error = e.error;
                o.text += e.tail;
                o.timings = e.timings;
                finishOrder.push_back(e.request);
            }
            if (also) also(e);
        };
    }
};

// The same request alone: generate() on a fresh cache (the sampler chain, seed and history as the
// scheduler uses them), with the model's log-probabilities of each chosen token.
Outcome alone(const ServeRequest& r) {
    KvCache cache(model().hparams(), 256, KvType::F16, 8);
    GenerateOptions opt;
    opt.maxTokens = r.maxTokens;
    opt.sampler = r.sampler;
    opt.stopAtEndOfGeneration = false;
    Outcome o;
    const GenerateResult g = generate(model(), exactBackend(), cache, r.prompt, opt);
    o.tokens = g.tokens;
    o.text = g.text;
    return o;
}

// Runs a ServingLoop on a thread for a scope; stops and joins it even when a check fails first.
struct LoopThread {
    LoopThread(ServingLoop& l, std::atomic<bool>& stop) : loop(l), stop(stop), thread([this] { loop.run(this->stop); }) {}
    ~LoopThread() { stopAndJoin(); }
    void stopAndJoin() {
        stop = true;
        loop.wake();
        if (thread.joinable()) thread.join();
    }
    ServingLoop& loop;
    std::atomic<bool>& stop;
    std::thread thread;
};

void drain(Scheduler& s, int maxSteps = 10000) {
    for (int i = 0; i < maxSteps && !s.idle(); ++i) s.step();
    QVERIFY(s.idle());
}

std::vector<ServeRequest> mixedRequests() {
    return {request(text(3, 1), 9), request(text(21, 2), 4, 0.9f, 7), request(text(12, 3), 12), request(text(40, 4), 6, 1.2f, 3),
            request(text(7, 5), 1), request(text(17, 6), 10, 0.7f, 11)};
}

}  // namespace

class TestScheduler : public QObject {
    Q_OBJECT
private slots:
    void everyRequestGetsItsAloneTokens_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("maxBatch");
        QTest::addColumn<int>("budget");
        QTest::addColumn<int>("chunk");
        QTest::addColumn<bool>("prefixCache");
        QTest::newRow("continuous, budget 16, chunks of 5") << int(BatchingMode::Continuous) << 4 << 16 << 5 << true;
        QTest::newRow("continuous, one slot") << int(BatchingMode::Continuous) << 1 << 64 << 64 << false;
        QTest::newRow("continuous, budget = batch") << int(BatchingMode::Continuous) << 3 << 3 << 2 << true;
        QTest::newRow("static, 3 per batch") << int(BatchingMode::Static) << 3 << 64 << 32 << false;
        QTest::newRow("static, chunked") << int(BatchingMode::Static) << 6 << 8 << 4 << true;
    }
    void everyRequestGetsItsAloneTokens() {
        QFETCH(int, mode);
        QFETCH(int, maxBatch);
        QFETCH(int, budget);
        QFETCH(int, chunk);
        QFETCH(bool, prefixCache);
        KvBlockPool pool(model().hparams(), 128, KvType::F16, 8);
        pool.setContextLimit(256);
        SchedulerOptions opt;
        opt.mode = BatchingMode(mode);
        opt.maxBatch = maxBatch;
        opt.tokenBudget = budget;
        opt.prefillChunk = chunk;
        opt.prefixCache = prefixCache;
        opt.staticMaxWaitMs = 0;
        Collector c;
        Scheduler s(model(), exactBackend(), pool, opt, c.sink());
        const std::vector<ServeRequest> reqs = mixedRequests();
        std::vector<RequestId> ids;
        for (const ServeRequest& r : reqs) ids.push_back(s.submit(r));
        bool mixedStep = false;
        int64_t steps = 0;
        while (!s.idle()) {
            const auto rec = s.step();
            QVERIFY(rec.has_value());
            QVERIFY(rec->tokens() <= budget);
            int inBatch = 0;
            bool prefill = false, decode = false;
            for (const auto& it : rec->items) {
                ++inBatch;
                prefill |= it.work == StepRecord::Work::Prefill;
                decode |= it.work == StepRecord::Work::Decode;
                if (it.work == StepRecord::Work::Prefill) QVERIFY(it.tokens <= chunk);
            }
            QVERIFY(inBatch <= maxBatch);
            mixedStep |= prefill && decode;
            QVERIFY(++steps < 1000);
        }
        if (maxBatch > 1 && BatchingMode(mode) == BatchingMode::Continuous) QVERIFY2(mixedStep, "no step mixed a prefill chunk with decode steps");
        for (size_t i = 0; i < reqs.size(); ++i) {
            const Outcome& got = c.out[ids[i]];
            const Outcome want = alone(reqs[i]);
            QVERIFY(got.finished);
            QCOMPARE(int(got.reason), int(FinishReason::Length));
            QCOMPARE(got.tokens, want.tokens);
            QCOMPARE(got.text, want.text);
            QCOMPARE(got.timings.generatedTokens, reqs[i].maxTokens);
            QCOMPARE(int(got.timings.tokenMs.size()), reqs[i].maxTokens);
            QVERIFY(got.timings.firstTokenMs >= got.timings.admittedMs && got.timings.admittedMs >= got.timings.arrivalMs);
        }
        QCOMPARE(pool.freeBlocks() + (s.prefixCache() ? s.prefixCache()->cachedBlocks() : 0), pool.nBlocks());
    }

    void logprobsAreTheModelsDistribution() {
        // The chosen token's log-probability and the top 5 come from log-softmax of the raw logits.
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        Collector c;
        Scheduler s(model(), exactBackend(), pool, {}, c.sink());
        const ServeRequest r = request(text(9, 8), 3);
        const RequestId id = s.submit(r);
        drain(s);
        const Outcome& o = c.out[id];
        KvCache cache(model().hparams(), 64, KvType::F16, 8);
        std::vector<TokenId> seq = r.prompt;
        std::span<const float> logits = exactBackend().forward(seq, cache, false);
        for (size_t step = 0; step < o.tokens.size(); ++step) {
            std::vector<float> l(logits.begin(), logits.end());
            double mx = *std::max_element(l.begin(), l.end()), sum = 0;
            for (float v : l) sum += std::exp(double(v) - mx);
            const double lse = mx + std::log(sum);
            QCOMPARE(o.tokens[step], argmax(l));  // greedy
            QVERIFY(std::abs(o.logprobs[step] - float(l[size_t(o.tokens[step])] - lse)) < 1e-5f);
            QCOMPARE(int(o.top[step].size()), 5);
            QCOMPARE(o.top[step][0].token, o.tokens[step]);
            for (size_t k = 1; k < 5; ++k) QVERIFY(o.top[step][k].logprob <= o.top[step][k - 1].logprob);
            const TokenId one[1] = {o.tokens[step]};
            logits = exactBackend().forward(one, cache, false);
        }
    }

    void continuousRefillsAFinishedSlotAtOnce() {
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        SchedulerOptions opt;
        opt.maxBatch = 2;
        opt.tokenBudget = 64;
        opt.prefillChunk = 64;
        Collector c;
        Scheduler s(model(), exactBackend(), pool, opt, c.sink());
        const RequestId shortOne = s.submit(request(text(4, 1), 2));
        s.submit(request(text(4, 2), 8));
        const RequestId third = s.submit(request(text(4, 3), 3));
        std::vector<StepRecord> steps;
        while (!s.idle()) steps.push_back(*s.step());
        size_t finishedAt = 0, joinedAt = 0;
        for (size_t i = 0; i < steps.size(); ++i) {
            for (const auto& it : steps[i].items) {
                if (it.request == shortOne) finishedAt = i;  // its last step
                if (it.request == third && joinedAt == 0) joinedAt = i;
            }
        }
        QCOMPARE(joinedAt, finishedAt + 1);
    }

    void staticBatchWaitsAndPads() {
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        SchedulerOptions opt;
        opt.mode = BatchingMode::Static;
        opt.maxBatch = 2;
        opt.staticMaxWaitMs = 1e9;
        Collector c;
        Scheduler s(model(), exactBackend(), pool, opt, c.sink());
        const RequestId a = s.submit(request(text(4, 1), 2));
        QVERIFY(!s.step().has_value());  // one request: the batch is not full and may wait
        const RequestId b = s.submit(request(text(4, 2), 6));
        const RequestId late = s.submit(request(text(4, 3), 2));
        std::vector<StepRecord> steps;
        while (!s.idle()) {
            auto rec = s.step();
            if (!rec) {
                s.flush();  // the last, partial batch
                continue;
            }
            steps.push_back(*rec);
        }
        int padding = 0;
        size_t lastOfB = 0, firstOfLate = 0;
        for (size_t i = 0; i < steps.size(); ++i)
            for (const auto& it : steps[i].items) {
                if (it.request == a && it.work == StepRecord::Work::Padding) ++padding;
                if (it.request == b) lastOfB = i;
                if (it.request == late && firstOfLate == 0) firstOfLate = i;
            }
        QCOMPARE(padding, 4);  // a generated 2 while b generated 6: a is padded for b's last 4 steps
        QVERIFY(firstOfLate > lastOfB);
        QCOMPARE(c.out[a].tokens, alone(request(text(4, 1), 2)).tokens);
        QCOMPARE(c.out[late].tokens, alone(request(text(4, 3), 2)).tokens);
    }

    void firstComeFirstServedNoStarvation() {
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        SchedulerOptions opt;
        opt.maxBatch = 3;
        opt.tokenBudget = 3;  // the tightest budget: one token per slot
        opt.prefillChunk = 1;
        Collector c;
        Scheduler s(model(), exactBackend(), pool, opt, c.sink());
        std::vector<RequestId> ids;
        for (int i = 0; i < 12; ++i) ids.push_back(s.submit(request(text(3 + (i * 7) % 11, i), 1 + (i * 5) % 7)));
        drain(s);
        double lastAdmitted = -1;
        for (RequestId id : ids) {
            const Outcome& o = c.out[id];
            QVERIFY(o.finished);
            QCOMPARE(int(o.reason), int(FinishReason::Length));
            QVERIFY(o.timings.admittedMs >= lastAdmitted);  // admitted in arrival order
            lastAdmitted = o.timings.admittedMs;
        }
    }

    void cancelFreesTheSlotAndBlocksAtOnce() {
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        SchedulerOptions opt;
        opt.maxBatch = 1;
        opt.prefixCache = false;
        Collector c;
        Scheduler s(model(), exactBackend(), pool, opt, c.sink());
        const RequestId running = s.submit(request(text(30, 1), 20));
        const RequestId waiting = s.submit(request(text(5, 2), 4));
        s.step();
        s.step();
        QVERIFY(pool.freeBlocks() < pool.nBlocks());
        QCOMPARE(s.running(), 1);
        s.cancel(waiting);
        QCOMPARE(s.waiting(), 0);
        QVERIFY(c.out[waiting].finished);
        QCOMPARE(int(c.out[waiting].reason), int(FinishReason::Cancelled));
        s.cancel(running);
        QCOMPARE(pool.freeBlocks(), pool.nBlocks());
        QCOMPARE(s.running(), 0);
        QVERIFY(s.idle());
        QCOMPARE(int(c.out[running].reason), int(FinishReason::Cancelled));
        QCOMPARE(int(c.out[running].tokens.size()), 2);  // the prefill's token and one decode step's
        s.cancel(running);  // again: ignored
        s.cancel(12345);
        QVERIFY(!s.step().has_value());
    }

    void cancelFromTheEventCallback() {
        // A server cancels when a client goes away, possibly while an event is being delivered.
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        SchedulerOptions opt;
        opt.prefixCache = false;
        Collector c;
        Scheduler* self = nullptr;
        RequestId victim = 0;
        c.also = [&](const ServeEvent& e) {
            if (e.request == victim && e.kind == ServeEvent::Kind::Token && c.out[victim].tokens.size() == 3) self->cancel(victim);
        };
        Scheduler s(model(), exactBackend(), pool, opt, c.sink());
        self = &s;
        victim = s.submit(request(text(6, 1), 30));
        const RequestId other = s.submit(request(text(6, 2), 8));
        drain(s);
        QCOMPARE(int(c.out[victim].reason), int(FinishReason::Cancelled));
        QCOMPARE(int(c.out[victim].tokens.size()), 3);
        QCOMPARE(c.out[other].tokens, alone(request(text(6, 2), 8)).tokens);
        QCOMPARE(pool.freeBlocks(), pool.nBlocks());
    }

    void prefixCacheHitsGiveIdenticalLogprobs() {
        const std::vector<TokenId> system = text(37, 9);  // 4 full blocks of 8 and 5 more
        std::vector<TokenId> p1 = system, p2 = system;
        const auto u1 = text(6, 1), u2 = text(9, 2);
        p1.insert(p1.end(), u1.begin(), u1.end());
        p2.insert(p2.end(), u2.begin(), u2.end());
        const auto run = [&](bool cache, std::vector<Outcome>& outs) {
            KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
            SchedulerOptions opt;
            opt.prefixCache = cache;
            Collector c;
            Scheduler s(model(), exactBackend(), pool, opt, c.sink());
            const RequestId a = s.submit(request(p1, 5));
            drain(s);
            const RequestId b = s.submit(request(p2, 5, 0.8f, 5));
            const auto first = s.step();  // b's prefill: only what the cache does not hold
            QCOMPARE(first->items.size(), size_t(1));
            QCOMPARE(first->items[0].tokens, int(p2.size()) - (cache ? 32 : 0));
            drain(s);
            const RequestId again = s.submit(request(system, 3));  // the whole prompt cached but its last block
            drain(s);
            outs = {c.out[a], c.out[b], c.out[again]};
        };
        std::vector<Outcome> cached, fresh;
        run(true, cached);
        run(false, fresh);
        QCOMPARE(cached[1].timings.cachedPromptTokens, 32);
        QCOMPARE(cached[2].timings.cachedPromptTokens, 32);
        QCOMPARE(fresh[1].timings.cachedPromptTokens, 0);
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(cached[i].tokens, fresh[i].tokens);
            QCOMPARE(cached[i].logprobs, fresh[i].logprobs);  // bit for bit
            for (size_t k = 0; k < cached[i].top.size(); ++k)
                for (size_t j = 0; j < cached[i].top[k].size(); ++j) QCOMPARE(cached[i].top[k][j].logprob, fresh[i].top[k][j].logprob);
        }
    }

    void lruEvictionNeverFreesAReferencedBlock() {
        KvBlockPool pool(model().hparams(), 32, KvType::F16, 8);
        PrefixCache cache(pool);
        const auto fill = [&](const std::vector<TokenId>& t) {
            const SeqId s = pool.newSequence();
            exactBackend().forward(t, pool, s, false);
            cache.insert(s, static_cast<int64_t>(t.size()));
            return s;
        };
        const SeqId x = fill(text(24, 1));  // 3 blocks
        const SeqId y = fill(text(16, 2));  // 2 blocks
        QCOMPARE(cache.cachedBlocks(), int64_t(5));
        QCOMPARE(cache.evictableBlocks(), int64_t(0));  // both sequences still hold them
        QCOMPARE(cache.evict(5), int64_t(0));
        pool.freeSequence(y);
        QCOMPARE(cache.evictableBlocks(), int64_t(2));
        const std::vector<int32_t> xBlocks(pool.blockTable(x).begin(), pool.blockTable(x).end());
        QCOMPARE(cache.evict(10), int64_t(2));  // only y's
        for (int32_t b : xBlocks) QCOMPARE(pool.refCount(b), 2);
        QCOMPARE(cache.lookup(text(16, 2), 100).tokens, int64_t(0));
        QCOMPARE(cache.lookup(text(30, 1), 100).tokens, int64_t(24));
        pool.freeSequence(x);
        // Least recently used first: touch z's prefix, then evict one block: x's deepest goes.
        const SeqId z = fill(text(16, 3));
        pool.freeSequence(z);
        cache.lookup(text(16, 3), 16);
        const int32_t xDeepest = xBlocks.back();
        QCOMPARE(cache.evict(1), int64_t(1));
        QCOMPARE(pool.refCount(xDeepest), 0);
        QCOMPARE(cache.lookup(text(24, 1), 100).tokens, int64_t(16));
        QCOMPARE(cache.lookup(text(16, 3), 100).tokens, int64_t(16));
        // A hit shares the blocks; eviction leaves them alone while the sequence holds them.
        const PrefixCache::Match m = cache.lookup(text(24, 1), 100);
        const auto prefixTokens = text(16, 1);
        const SeqId w = pool.newSequenceFromBlocks(m.blocks, prefixTokens);
        QCOMPARE(cache.evict(100), int64_t(2));  // z's two blocks only
        for (int32_t b : m.blocks) QCOMPARE(pool.refCount(b), 2);
        QCOMPARE(pool.tokens(w), prefixTokens);
        pool.freeSequence(w);
        QCOMPARE(cache.evictableBlocks(), int64_t(2));
        cache.clear();
        QCOMPARE(pool.freeBlocks(), pool.nBlocks());
    }

    void evictionMakesRoomForNewRequests() {
        // A pool that only fits the requests if idle cached blocks are given back.
        KvBlockPool pool(model().hparams(), 8, KvType::F16, 8);
        Collector c;
        Scheduler s(model(), exactBackend(), pool, {}, c.sink());
        for (int i = 0; i < 6; ++i) {
            const RequestId id = s.submit(request(text(40, i), 8));  // 6 blocks each
            drain(s);
            QCOMPARE(int(c.out[id].reason), int(FinishReason::Length));
        }
        QVERIFY(s.prefixCache()->cachedBlocks() <= pool.nBlocks());
    }

    void stopStringsEndTheText() {
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        const ServeRequest plain = request(text(5, 4), 24);
        const Outcome full = alone(plain);
        QVERIFY(full.text.size() > 12);
        // A stop string from the middle of what greedy writes, spanning tokens.
        const std::string stop = full.text.substr(6, 5);
        const size_t at = full.text.find(stop);
        Collector c;
        Scheduler s(model(), exactBackend(), pool, {}, c.sink());
        ServeRequest r = plain;
        r.stop = {"never appears \x01", stop};
        const RequestId id = s.submit(r);
        drain(s);
        QCOMPARE(int(c.out[id].reason), int(FinishReason::Stop));
        QCOMPARE(c.out[id].text, full.text.substr(0, at));
    }

    void requestsThatCanNeverRunAreRejected_data() {
        QTest::addColumn<int>("promptLen");
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<int>("topLogprobs");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<QString>("words");
        QTest::newRow("empty prompt") << 0 << 4 << 0 << 0.0f << "prompt is empty";
        QTest::newRow("no tokens") << 4 << 0 << 0 << 0.0f << "max_tokens must be at least 1";
        QTest::newRow("past the context") << 200 << 100 << 0 << 0.0f << "context holds 256 tokens, but the request needs 300";
        QTest::newRow("too many alternatives") << 4 << 4 << 21 << 0.0f << "top_logprobs must be between 0 and 20";
        QTest::newRow("bad temperature") << 4 << 4 << 0 << -1.0f << "temperature";
    }
    void requestsThatCanNeverRunAreRejected() {
        QFETCH(int, promptLen);
        QFETCH(int, maxTokens);
        QFETCH(int, topLogprobs);
        QFETCH(float, temperature);
        QFETCH(QString, words);
        KvBlockPool pool(model().hparams(), 64, KvType::F16, 8);
        pool.setContextLimit(256);
        Collector c;
        Scheduler s(model(), exactBackend(), pool, {}, c.sink());
        ServeRequest r = request(text(promptLen, 1), maxTokens, temperature);
        r.topLogprobs = topLogprobs;
        const RequestId bad = s.submit(r);
        QVERIFY(c.out[bad].finished);
        QCOMPARE(int(c.out[bad].reason), int(FinishReason::Error));
        QVERIFY2(QString::fromStdString(c.out[bad].error).contains(words), c.out[bad].error.c_str());
        const RequestId good = s.submit(request(text(4, 1), 2));
        drain(s);
        QCOMPARE(int(c.out[good].reason), int(FinishReason::Length));
    }

    void aPoolTooSmallForTheRequestIsRejected() {
        KvBlockPool pool(model().hparams(), 4, KvType::F16, 8);
        pool.setContextLimit(256);
        Collector c;
        Scheduler s(model(), exactBackend(), pool, {}, c.sink());
        const RequestId id = s.submit(request(text(30, 1), 10));
        QVERIFY(QString::fromStdString(c.out[id].error).contains("needs 5 KV blocks but the server's pool has 4"));
    }

    void invalidOptionsAreNamed_data() {
        QTest::addColumn<int>("maxBatch");
        QTest::addColumn<int>("budget");
        QTest::addColumn<int>("chunk");
        QTest::addColumn<QString>("words");
        QTest::newRow("batch 0") << 0 << 16 << 8 << "maximum batch size must be between 1 and 256";
        QTest::newRow("budget below batch") << 8 << 4 << 4 << "token budget per step must be between 8 and 8192";
        QTest::newRow("chunk above budget") << 2 << 16 << 17 << "prefill chunk must be between 1 and 16";
    }
    void invalidOptionsAreNamed() {
        QFETCH(int, maxBatch);
        QFETCH(int, budget);
        QFETCH(int, chunk);
        QFETCH(QString, words);
        SchedulerOptions o;
        o.maxBatch = maxBatch;
        o.tokenBudget = budget;
        o.prefillChunk = chunk;
        try {
            o.validate();
            QFAIL("accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains(words), e.what());
        }
    }

    void servingLoopHundredConcurrentStreams() {
        ServingConfig cfg;
        cfg.scheduler.maxBatch = 16;
        cfg.scheduler.tokenBudget = 128;
        cfg.scheduler.prefillChunk = 64;
        cfg.kvBlockSize = 8;
        cfg.contextLength = 128;
        ServingLoop loop(model(), exactBackend(), cfg);
        std::atomic<bool> stop{false};
        LoopThread engine(loop, stop);
        // Ten distinct requests, each sent ten times from ten client threads at once.
        std::vector<ServeRequest> kinds;
        std::vector<std::vector<TokenId>> expected;
        for (int k = 0; k < 10; ++k) {
            kinds.push_back(request(text(4 + k * 3, k), 4 + k % 5, k % 2 ? 0.9f : 0.0f, 100 + k));
            expected.push_back(alone(kinds.back()).tokens);
        }
        std::atomic<int> ok{0}, wrong{0};
        std::vector<std::thread> clients;
        for (int t = 0; t < 10; ++t)
            clients.emplace_back([&, t] {
                std::vector<std::pair<int, std::shared_ptr<RequestStream>>> mine;
                for (int i = 0; i < 10; ++i) mine.emplace_back((t + i) % 10, loop.submit(kinds[(t + i) % 10]));
                for (auto& [k, stream] : mine) {
                    std::vector<TokenId> got;
                    for (;;) {
                        auto e = stream->next(std::chrono::seconds(60));
                        if (!e) break;
                        if (e->kind == ServeEvent::Kind::Token) got.push_back(e->token);
                        else break;
                    }
                    (got == expected[static_cast<size_t>(k)] ? ok : wrong)++;
                }
            });
        for (auto& c : clients) c.join();
        engine.stopAndJoin();
        QCOMPARE(wrong.load(), 0);
        QCOMPARE(ok.load(), 100);
    }

    void servingLoopCancelsAStreamAndStopsCleanly() {
        ServingConfig cfg;
        cfg.kvBlockSize = 8;
        cfg.contextLength = 128;
        ServingLoop loop(model(), exactBackend(), cfg);
        std::atomic<bool> stop{false};
        // Cancelled before the loop ever saw it (the tiny model would finish a running request
        // before a test thread could cancel it; cancelling a running one is tested above).
        auto s = loop.submit(request(text(5, 1), 100));
        s->cancel();
        LoopThread engine(loop, stop);
        const auto reason = [](RequestStream& r) {
            for (;;) {
                auto e = r.next(std::chrono::seconds(30));
                if (!e) return -1;
                if (e->kind == ServeEvent::Kind::Finished) return int(e->reason);
            }
        };
        QCOMPARE(reason(*s), int(FinishReason::Cancelled));
        auto ok = loop.submit(request(text(5, 2), 4));
        QCOMPARE(reason(*ok), int(FinishReason::Length));
        // A request still queued when the loop stops ends as Cancelled.
        engine.stopAndJoin();
        auto late = loop.submit(request(text(5, 3), 4));
        LoopThread again(loop, stop);  // stop is raised: run() returns at once, ending what is open
        again.stopAndJoin();
        QCOMPARE(reason(*late), int(FinishReason::Cancelled));
    }
};

QTEST_GUILESS_MAIN(TestScheduler)
#include "test_scheduler.moc"
