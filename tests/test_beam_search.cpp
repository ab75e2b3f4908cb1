// Beam search against a fake model whose next-token logits are a fixed pseudo-random function
// of the whole sequence: with a width that keeps every path it must find exactly what exhaustive
// search finds (with and without a length penalty, with and without an end token); width 1 is
// greedy; a hand-computed two-step search checks every node of the tree, the tie rule, the
// finished heap and early stopping; the scorer's sequences are all released.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/error.h"
#include "generate/beam_search.h"
#include "generate/beam_trace.h"
#include "generate/generator.h"
#include "generate/model_beam_scorer.h"
#include "gguf/tiny_model.h"
#include "table_beam_scorer.h"
#include "test_paths.h"

using namespace dlab;

namespace {

using test::TableBeamScorer;

std::vector<double> logSoftmax(const std::vector<float>& l) {
    double m = -INFINITY;
    for (float x : l) m = std::max(m, double(x));
    double s = 0.0;
    for (float x : l) s += std::exp(double(x) - m);
    const double lse = m + std::log(s);
    std::vector<double> out;
    for (float x : l) out.push_back(double(x) - lse);
    return out;
}

struct Path {
    std::vector<TokenId> tokens;  // end token excluded
    bool ended = false;
    double logProb = 0.0, score = 0.0;
};

// Every complete path: ended by the end token or by reaching maxLen tokens.
void enumerate(const TableBeamScorer::Table& table, std::vector<TokenId>& seq, size_t promptLen, Path cur, int maxLen,
               TokenId end, double alpha, std::vector<Path>& out) {
    const auto lp = logSoftmax(table(seq));
    const int depth = int(seq.size() - promptLen) + 1;
    for (TokenId t = 0; t < TokenId(lp.size()); ++t) {
        Path p = cur;
        p.logProb += lp[t];
        p.score = beamScore(p.logProb, depth, alpha);
        if (t == end) {
            p.ended = true;
            out.push_back(p);
            continue;
        }
        p.tokens.push_back(t);
        if (depth == maxLen) {
            out.push_back(p);
            continue;
        }
        seq.push_back(t);
        enumerate(table, seq, promptLen, p, maxLen, end, alpha, out);
        seq.pop_back();
    }
}

std::vector<TokenId> greedy(const TableBeamScorer::Table& table, std::vector<TokenId> seq, int maxLen, TokenId end) {
    std::vector<TokenId> out;
    for (int i = 0; i < maxLen; ++i) {
        const auto l = table(seq);
        const TokenId t = TokenId(std::max_element(l.begin(), l.end()) - l.begin());  // first max: lowest id
        if (t == end) break;
        out.push_back(t);
        seq.push_back(t);
    }
    return out;
}

const std::vector<TokenId> kPrompt{5, 9, 2};

// One search over the tiny model through a ModelBeamScorer of its own pool, batched (one
// forwardBatch per step) or one beam at a time, and what it cost.
struct ModelSearch {
    BeamResult result;
    int passes = 0;
    int64_t tokens = 0;
    size_t leftInPool = 0;  // sequences the pool still holds afterwards (0: every beam released)
};
ModelSearch searchModel(const Model& model, Backend& backend, const std::vector<TokenId>& prompt, const BeamOptions& o,
                        bool batched) {
    KvBlockPool pool(model.hparams(), beamPoolBlocks(int64_t(prompt.size()), o.maxNewTokens, o.width, 16), KvType::F32, 16);
    ModelBeamScorer scorer(backend, pool);
    scorer.setBatched(batched);
    ModelSearch out;
    out.result = beamSearch(scorer, prompt, o);
    out.passes = scorer.forwardCalls();
    out.tokens = scorer.tokensEvaluated();
    out.leftInPool = pool.sequences().size();
    return out;
}

}  // namespace

Q_DECLARE_METATYPE(dlab::EarlyStopping)

class TestBeamSearch : public QObject {
    Q_OBJECT
private slots:
    void matchesExhaustiveSearch_data() {
        QTest::addColumn<int>("vocab");
        QTest::addColumn<int>("maxLen");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<int>("end");
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 3; ++seed) {
            for (auto [v, l] : {std::pair{3, 4}, std::pair{4, 3}}) {
                for (double alpha : {0.0, 1.0, 2.5, -1.0}) {
                    for (int end : {-1, 0, v - 1}) {
                        const QByteArray name = "s" + QByteArray::number(seed) + "-V" + QByteArray::number(v) + "-L" +
                                                QByteArray::number(l) + "-a" + QByteArray::number(alpha) + "-eos" +
                                                QByteArray::number(end);
                        QTest::newRow(name.constData()) << v << l << alpha << end << seed;
                    }
                }
            }
        }
    }
    void matchesExhaustiveSearch() {
        QFETCH(int, vocab);
        QFETCH(int, maxLen);
        QFETCH(double, alpha);
        QFETCH(int, end);
        QFETCH(int, seed);
        const auto table = test::hashedTable(vocab, seed);

        std::vector<Path> all;
        std::vector<TokenId> seq(kPrompt);
        enumerate(table, seq, kPrompt.size(), Path{}, maxLen, end, alpha, all);
        std::sort(all.begin(), all.end(), [](const Path& a, const Path& b) { return a.score > b.score; });

        BeamOptions o;
        o.width = int(std::pow(vocab, maxLen));
        o.maxNewTokens = maxLen;
        o.lengthPenalty = alpha;
        if (end >= 0) o.endTokens = {end};
        TableBeamScorer scorer(table);
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        QCOMPARE(scorer.live(), size_t(0));
        QVERIFY(scorer.maxLive <= size_t(o.width));
        QCOMPARE(r.hypotheses.size(), all.size());  // every path survives with this width
        for (size_t i = 0; i < all.size(); ++i) {
            QCOMPARE(r.hypotheses[i].tokens, all[i].tokens);
            QCOMPARE(r.hypotheses[i].ended, all[i].ended);
            QVERIFY(std::abs(r.hypotheses[i].score - all[i].score) < 1e-9);
            QVERIFY(std::abs(r.hypotheses[i].logProb - all[i].logProb) < 1e-9);
        }
    }

    void widthOneIsGreedy_data() {
        QTest::addColumn<EarlyStopping>("mode");
        QTest::addColumn<double>("alpha");
        QTest::newRow("exact-a1") << EarlyStopping::Exact << 1.0;
        QTest::newRow("heuristic-a1") << EarlyStopping::Heuristic << 1.0;
        QTest::newRow("heuristic-a0") << EarlyStopping::Heuristic << 0.0;
        QTest::newRow("heuristic-a3") << EarlyStopping::Heuristic << 3.0;
    }
    void widthOneIsGreedy() {
        QFETCH(EarlyStopping, mode);
        QFETCH(double, alpha);
        int endedRuns = 0;
        for (uint64_t seed = 1; seed <= 60; ++seed) {
            const auto table = test::hashedTable(5, seed);
            BeamOptions o;
            o.width = 1;
            o.maxNewTokens = 12;
            o.lengthPenalty = alpha;
            o.earlyStopping = mode;
            o.endTokens = {3};
            TableBeamScorer scorer(table);
            const BeamResult r = beamSearch(scorer, kPrompt, o);
            QCOMPARE(r.hypotheses.size(), size_t(1));
            const auto g = greedy(table, kPrompt, o.maxNewTokens, 3);
            QCOMPARE(r.hypotheses[0].tokens, g);
            endedRuns += r.hypotheses[0].ended;
            QCOMPARE(scorer.live(), size_t(0));
            QCOMPARE(scorer.maxLive, size_t(1));
        }
        QVERIFY(endedRuns > 0);  // the end token was met on some runs
        QVERIFY(endedRuns < 60);
    }

    // p(token) does not depend on the context: EOS(0) .5, 1: .3, 2: .2. Width 2, two steps.
    void handComputedTree_data() {
        QTest::addColumn<double>("alpha");
        QTest::newRow("alpha1") << 1.0;
        QTest::newRow("alpha0") << 0.0;
    }
    void handComputedTree() {
        QFETCH(double, alpha);
        const std::vector<float> logits{std::log(0.5f), std::log(0.3f), std::log(0.2f)};
        const std::vector<double> logp = logSoftmax(logits);
        TableBeamScorer scorer([&](const std::vector<TokenId>&) { return logits; });
        BeamOptions o;
        o.width = 2;
        o.maxNewTokens = 2;
        o.lengthPenalty = alpha;
        o.endTokens = {0};
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        const auto& n = r.tree.nodes;
        QCOMPARE(n.size(), size_t(8));
        using S = BeamNodeStatus;
        struct Want { int parent, depth; TokenId token; S status; int rank, slot; };
        // Step 2 proposals: (2,EOS) .15, (3,EOS) .10, (2,1) .09, then (2,2) and (3,1) tie at .06:
        // the lower parent slot wins, so (3,1) is not expanded; (3,EOS) loses to the full heap.
        const Want want[] = {{-1, 0, -1, S::Kept, -1, 0},   {0, 1, 0, S::Finished, 0, -1}, {0, 1, 1, S::Kept, 1, 0},
                             {0, 1, 2, S::Kept, 2, 1},      {2, 2, 0, S::Finished, 0, -1}, {3, 2, 0, S::Evicted, 1, -1},
                             {2, 2, 1, S::Pruned, 2, -1},   {2, 2, 2, S::Pruned, 3, -1}};
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(n[i].id, i);
            QCOMPARE(n[i].parent, want[i].parent);
            QCOMPARE(n[i].depth, want[i].depth);
            QCOMPARE(n[i].token, want[i].token);
            QCOMPARE(n[i].status, want[i].status);
            QCOMPARE(n[i].candidateRank, want[i].rank);
            QCOMPARE(n[i].beamSlot, want[i].slot);
            QCOMPARE(n[i].endToken, want[i].token == 0);
            if (i > 0) {
                QCOMPARE(n[i].logProb, logp[n[i].token]);
                QCOMPARE(n[i].cumLogProb, n[n[i].parent].cumLogProb + n[i].logProb);
                QCOMPARE(n[i].score, n[i].cumLogProb / std::pow(double(n[i].depth), alpha));
            }
        }
        QCOMPARE(r.stop, BeamStop::MaxTokens);
        QCOMPARE(r.steps, 2);
        QCOMPARE(r.hypotheses.size(), size_t(2));
        QCOMPARE(r.hypotheses[0].node, 1);  // EOS at once: log .5 beats log .15 / 2^alpha
        QVERIFY(r.hypotheses[0].tokens.empty());
        QVERIFY(r.hypotheses[0].ended);
        QCOMPARE(r.hypotheses[1].node, 4);
        QCOMPARE(r.hypotheses[1].tokens, std::vector<TokenId>{1});
        QCOMPARE(n[1].nBestRank, 0);
        QCOMPARE(n[4].nBestRank, 1);
        QCOMPARE(n[5].nBestRank, -1);
        QCOMPARE(scorer.live(), size_t(0));

        // The same tree as JSON.
        const std::string json = beamResultJson(r, o, [](TokenId t) { return "t\"" + std::to_string(t); });
        QVERIFY(json.find('\n') == std::string::npos);
        QJsonParseError err;
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(j["type"].toString(), QString("beam"));
        QCOMPARE(j["width"].toInt(), 2);
        QCOMPARE(j["lengthPenalty"].toDouble(), alpha);
        QCOMPARE(j["earlyStopping"].toString(), QString("false"));
        QCOMPARE(j["stop"].toString(), QString("max-tokens"));
        QCOMPARE(j["steps"].toInt(), 2);
        const QJsonArray nodes = j["nodes"].toArray();
        QCOMPARE(nodes.size(), 8);
        for (int i = 0; i < 8; ++i) {
            const QJsonObject x = nodes[i].toObject();
            QCOMPARE(x["id"].toInt(), i);
            QCOMPARE(x["parent"].toInt(), n[i].parent);
            QCOMPARE(x["depth"].toInt(), n[i].depth);
            QCOMPARE(x["token"].toInt(), n[i].token);
            QCOMPARE(x["text"].toString(), i == 0 ? QString() : QString("t\"%1").arg(n[i].token));
            QVERIFY(std::abs(x["cumLogProb"].toDouble() - n[i].cumLogProb) < 1e-8);
            QVERIFY(std::abs(x["score"].toDouble() - n[i].score) < 1e-8);
            QCOMPARE(x["status"].toString(), QString(beamNodeStatusName(n[i].status)));
            QCOMPARE(x["end"].toBool(), n[i].endToken);
            QCOMPARE(x["rank"].toInt(), n[i].candidateRank);
            QCOMPARE(x["slot"].toInt(), n[i].beamSlot);
            QCOMPARE(x["nBest"].toInt(), n[i].nBestRank);
        }
        const QJsonArray hyps = j["hypotheses"].toArray();
        QCOMPARE(hyps.size(), 2);
        QCOMPARE(hyps[1].toObject()["tokens"].toArray().size(), 1);
        QCOMPARE(hyps[1].toObject()["text"].toString(), QString("t\"1"));
        QCOMPARE(hyps[1].toObject()["node"].toInt(), 4);
        QVERIFY(hyps[0].toObject()["ended"].toBool());
    }

    void treeInvariantsOnRandomTables() {
        for (uint64_t seed = 1; seed <= 20; ++seed) {
            const auto table = test::hashedTable(6, seed);
            BeamOptions o;
            o.width = 3;
            o.maxNewTokens = 6;
            o.endTokens = {1};
            o.earlyStopping = EarlyStopping::Never;
            TableBeamScorer scorer(table);
            const BeamResult r = beamSearch(scorer, kPrompt, o);
            const auto& n = r.tree.nodes;
            std::map<int, int> candidatesAt, keptAt;
            std::vector<int> children(n.size(), 0);
            for (size_t i = 1; i < n.size(); ++i) {
                const BeamNode& x = n[i];
                QVERIFY(x.parent >= 0 && x.parent < int(i));
                const BeamNode& p = n[x.parent];
                QCOMPARE(x.depth, p.depth + 1);
                QCOMPARE(p.status, BeamNodeStatus::Kept);  // only running beams are expanded
                ++children[x.parent];
                // The log-probability is the table's for the path's tokens.
                std::vector<TokenId> ctx(kPrompt);
                std::vector<TokenId> path;
                for (int a = x.parent; a > 0; a = n[a].parent) path.push_back(n[a].token);
                ctx.insert(ctx.end(), path.rbegin(), path.rend());
                QVERIFY(std::abs(x.logProb - logSoftmax(table(ctx))[x.token]) < 1e-9);
                QVERIFY(std::abs(x.cumLogProb - (p.cumLogProb + x.logProb)) < 1e-12);
                QCOMPARE(x.candidateRank, candidatesAt[x.depth]++);
                if (x.status == BeamNodeStatus::Kept) {
                    QVERIFY(!x.endToken);
                    QCOMPARE(x.beamSlot, keptAt[x.depth]++);
                }
                if (x.status == BeamNodeStatus::Finished || x.status == BeamNodeStatus::Evicted)
                    QVERIFY(x.endToken || x.depth == o.maxNewTokens);
                if (i + 1 < n.size() && n[i + 1].depth == x.depth)  // best first within a step
                    QVERIFY(n[i + 1].cumLogProb <= x.cumLogProb);
            }
            for (auto [d, c] : candidatesAt) {
                QVERIFY(c <= 2 * o.width);
                QVERIFY(keptAt[d] <= o.width);
            }
            // Pruned, finished and evicted nodes are leaves; hypotheses are the finished nodes.
            int finishedCount = 0;
            for (size_t i = 1; i < n.size(); ++i) {
                if (n[i].status != BeamNodeStatus::Kept) QCOMPARE(children[i], 0);
                if (n[i].status == BeamNodeStatus::Finished) {
                    ++finishedCount;
                    QVERIFY(n[i].nBestRank >= 0);
                }
            }
            QCOMPARE(int(r.hypotheses.size()), finishedCount);
            for (size_t h = 1; h < r.hypotheses.size(); ++h) QVERIFY(r.hypotheses[h - 1].score >= r.hypotheses[h].score);
            QCOMPARE(scorer.live(), size_t(0));
            QVERIFY(scorer.maxLive <= size_t(o.width));
        }
    }

    void exactEarlyStoppingStopsOnceWidthFinished() {
        // EOS is the likeliest token everywhere: two steps fill a width-2 heap.
        const std::vector<float> logp{std::log(0.6f), std::log(0.3f), std::log(0.1f)};
        TableBeamScorer scorer([&](const std::vector<TokenId>&) { return logp; });
        BeamOptions o;
        o.width = 2;
        o.maxNewTokens = 10;
        o.endTokens = {0};
        o.earlyStopping = EarlyStopping::Exact;
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        QCOMPARE(r.stop, BeamStop::EarlyStop);
        QCOMPARE(r.steps, 2);
        QCOMPARE(r.hypotheses.size(), size_t(2));
        QVERIFY(r.hypotheses[0].ended && r.hypotheses[1].ended);
        QCOMPARE(scorer.live(), size_t(0));
        // "never" with alpha = 0: a running beam's sum only falls, so once it is below the worst
        // finished score the search is over.
        o.earlyStopping = EarlyStopping::Never;
        o.lengthPenalty = 0.0;
        TableBeamScorer scorer2([&](const std::vector<TokenId>&) { return logp; });
        QCOMPARE(beamSearch(scorer2, kPrompt, o).stop, BeamStop::EarlyStop);
    }

    void nBestAndCallbackStop() {
        const auto table = test::hashedTable(5, 7);
        BeamOptions o;
        o.width = 4;
        o.nBest = 2;
        o.maxNewTokens = 8;
        TableBeamScorer scorer(table);
        int calls = 0;
        const BeamResult r = beamSearch(scorer, kPrompt, o, [&](const BeamTree& t, int depth) {
            ++calls;
            return depth < 3;
        });
        QCOMPARE(calls, 3);
        QCOMPARE(r.stop, BeamStop::Callback);
        QCOMPARE(r.steps, 3);
        QCOMPARE(r.hypotheses.size(), size_t(2));  // the running beams joined the finished ones
        for (const auto& h : r.hypotheses) QCOMPARE(h.tokens.size(), size_t(3));
        QCOMPARE(scorer.live(), size_t(0));

        std::atomic<bool> cancel{true};
        TableBeamScorer scorer2(table);
        const BeamResult c = beamSearch(scorer2, kPrompt, o, {}, &cancel);
        QCOMPARE(c.stop, BeamStop::Cancelled);
        QCOMPARE(c.hypotheses.size(), size_t(1));
        QVERIFY(c.hypotheses[0].tokens.empty());
        QCOMPARE(scorer2.live(), size_t(0));
    }

    // The real engine through ModelBeamScorer: width 1 gives generate()'s greedy tokens.
    void modelWidthOneIsGreedy() {
        const std::string path = test::scratchDir() + "/beam-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, path);
        const auto model = Model::load(path);
        const auto backend = makeCpuBackend(*model, 1);
        const auto prompt = model->tokenizer().encode("the cat sat on", false, false);

        GenerateOptions g;
        g.maxTokens = 10;
        g.sampler.temperature = 0.0f;
        KvCache cache(model->hparams(), 64, KvType::F32);
        const GenerateResult greedyRun = generate(*model, *backend, cache, prompt, g);

        BeamOptions o;
        o.width = 1;
        o.maxNewTokens = 10;
        o.endTokens = endOfGenerationTokens(model->tokenizer());
        QVERIFY(!o.endTokens.empty());
        const BeamResult r = beamSearchModel(*model, *backend, prompt, o, KvType::F32, 64);
        QCOMPARE(r.hypotheses.size(), size_t(1));
        QCOMPARE(r.hypotheses[0].tokens, greedyRun.tokens);
    }

    // Wider beams fork sequences that share the prompt's blocks; every hypothesis's log-probability
    // must match a fresh, unshared evaluation of prompt + hypothesis (copy-on-write kept them apart).
    void modelBeamsShareBlocksAndScoreCorrectly() {
        const std::string path = test::scratchDir() + "/beam-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, path);
        const auto model = Model::load(path);
        const auto backend = makeCpuBackend(*model, 1, true);
        const auto prompt = model->tokenizer().encode("the quick brown fox jumps over the lazy dog and", false, false);
        QVERIFY(prompt.size() > 16);  // a full shared block and a partial one

        BeamOptions o;
        o.width = 3;
        o.maxNewTokens = 6;
        o.endTokens = endOfGenerationTokens(model->tokenizer());
        KvBlockPool pool(model->hparams(), beamPoolBlocks(int64_t(prompt.size()), o.maxNewTokens, o.width, 16),
                         KvType::F32, 16);
        ModelBeamScorer scorer(*backend, pool);
        int64_t maxShared = 0;
        const BeamResult r = beamSearch(scorer, prompt, o, [&](const BeamTree&, int) {
            maxShared = std::max(maxShared, pool.stats().blocksShared);
            return true;
        });
        QVERIFY(maxShared >= 1);
        QCOMPARE(pool.sequences().size(), size_t(0));  // every beam released
        QCOMPARE(r.hypotheses.size(), size_t(3));

        for (const BeamHypothesis& h : r.hypotheses) {
            std::vector<TokenId> all(prompt);
            all.insert(all.end(), h.tokens.begin(), h.tokens.end());
            if (h.ended) all.push_back(r.tree.nodes[h.node].token);
            KvCache fresh(model->hparams(), 64, KvType::F32);
            const auto logits = backend->forward(all, fresh, true);
            const size_t vocab = logits.size() / all.size();
            double sum = 0.0;
            for (size_t i = prompt.size(); i < all.size(); ++i) {
                const std::vector<float> row(logits.begin() + (i - 1) * vocab, logits.begin() + i * vocab);
                sum += logSoftmax(row)[all[i]];
            }
            QVERIFY2(std::abs(sum - h.logProb) < 1e-3, qPrintable(QString("%1 vs %2").arg(sum).arg(h.logProb)));
        }
    }

    // beamSearch announces each step's beams before it reads their logits: one prefetch() per
    // step, holding exactly the beams that run at that step (the root at the first).
    void announcesEveryStepsBeams_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("end");
        QTest::newRow("k=1 eos 0") << 1 << 0;
        QTest::newRow("k=3 eos 0") << 3 << 0;
        QTest::newRow("k=5 no eos") << 5 << -1;
    }
    void announcesEveryStepsBeams() {
        QFETCH(int, width);
        QFETCH(int, end);
        TableBeamScorer scorer(test::hashedTable(7, 4, 0.5f));
        BeamOptions o;
        o.width = width;
        o.maxNewTokens = 6;
        o.earlyStopping = EarlyStopping::Never;
        if (end >= 0) o.endTokens = {end};
        const BeamResult r = beamSearch(scorer, kPrompt, o);
        QCOMPARE(scorer.unannounced, 0);
        std::vector<size_t> running(size_t(r.steps), 0);  // step d expands the evaluated nodes of depth d - 1
        for (const BeamNode& n : r.tree.nodes)
            if (n.evaluated) ++running[size_t(n.depth)];
        QCOMPARE(scorer.prefetchSizes, running);
        QCOMPARE(running.back(), size_t(width));  // the last step had every beam still running
    }

    // The batch changes the cost, not the search: with exact matmul forwardBatch's logits are
    // forward()'s bit for bit, so the batched scorer (one pass per step) builds the same tree, with
    // the same scores, as the one-at-a-time path (one pass per beam and step), and both evaluate
    // the same tokens: the prompt, then one per running beam and step.
    void batchedMatchesOneAtATime_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("groups");
        QTest::addColumn<double>("diversity");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<bool>("endTokens");
        QTest::newRow("k=1") << 1 << 1 << 0.0 << 1.0 << true;
        QTest::newRow("k=2") << 2 << 1 << 0.0 << 1.0 << true;
        QTest::newRow("k=4") << 4 << 1 << 0.0 << 1.0 << true;
        QTest::newRow("k=4 no end, lp 0") << 4 << 1 << 0.0 << 0.0 << false;
        QTest::newRow("k=8 lp 2") << 8 << 1 << 0.0 << 2.0 << true;
        QTest::newRow("diverse k=4 g=2 dp=1") << 4 << 2 << 1.0 << 1.0 << true;
        QTest::newRow("diverse k=6 g=3 dp=0.5 no end") << 6 << 3 << 0.5 << 1.0 << false;
    }
    void batchedMatchesOneAtATime() {
        QFETCH(int, width);
        QFETCH(int, groups);
        QFETCH(double, diversity);
        QFETCH(double, alpha);
        QFETCH(bool, endTokens);
        const std::string path = test::scratchDir() + "/beam-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, path);
        const auto model = Model::load(path);
        const auto backend = makeCpuBackend(*model, 1, /*exactMatmul=*/true);
        const auto prompt = model->tokenizer().encode("the quick brown fox jumps over the lazy dog and", false, false);

        BeamOptions o;
        o.width = width;
        o.groups = groups;
        o.diversityPenalty = diversity;
        o.lengthPenalty = alpha;
        o.maxNewTokens = 8;
        o.recordTopN = 4;
        if (endTokens) o.endTokens = endOfGenerationTokens(model->tokenizer());
        else o.earlyStopping = EarlyStopping::Never;
        const ModelSearch batched = searchModel(*model, *backend, prompt, o, true);
        const ModelSearch single = searchModel(*model, *backend, prompt, o, false);
        QCOMPARE(batched.leftInPool, size_t(0));
        QCOMPARE(single.leftInPool, size_t(0));

        const BeamResult& a = batched.result;
        const BeamResult& b = single.result;
        QCOMPARE(a.stop, b.stop);
        QCOMPARE(a.steps, b.steps);
        QCOMPARE(a.hypotheses.size(), b.hypotheses.size());
        for (size_t i = 0; i < a.hypotheses.size(); ++i) {
            QCOMPARE(a.hypotheses[i].tokens, b.hypotheses[i].tokens);
            QCOMPARE(a.hypotheses[i].ended, b.hypotheses[i].ended);
            QCOMPARE(a.hypotheses[i].group, b.hypotheses[i].group);
            QVERIFY(a.hypotheses[i].score == b.hypotheses[i].score);      // bit for bit, not fuzzy
            QVERIFY(a.hypotheses[i].logProb == b.hypotheses[i].logProb);
        }
        QCOMPARE(a.tree.nodes.size(), b.tree.nodes.size());
        std::set<int> expandedDepths;   // the depths whose beams were evaluated (depth d at step d + 1)
        int64_t expanded = 0;           // evaluated nodes past the root: one token each
        for (size_t i = 0; i < a.tree.nodes.size(); ++i) {
            const BeamNode& x = a.tree.nodes[i];
            const BeamNode& y = b.tree.nodes[i];
            QCOMPARE(x.token, y.token);
            QCOMPARE(x.parent, y.parent);
            QCOMPARE(x.status, y.status);
            QCOMPARE(x.evaluated, y.evaluated);
            QVERIFY(x.cumSearchLogProb == y.cumSearchLogProb);
            QVERIFY(x.nextEntropy == y.nextEntropy);
            if (x.evaluated && x.depth > 0) {
                ++expanded;
                expandedDepths.insert(x.depth);
            }
        }
        const int64_t promptTokens = int64_t(prompt.size());
        QCOMPARE(batched.tokens, promptTokens + expanded);
        QCOMPARE(single.tokens, batched.tokens);
        QCOMPARE(single.passes, 1 + int(expanded));                      // the prompt, then every beam on its own
        QCOMPARE(batched.passes, 1 + int(expandedDepths.size()));        // the prompt, then one pass per step
        QCOMPARE(int(expandedDepths.size()), a.steps - 1);               // every step after the first ran one
    }

    // A width-4 step is one forwardBatch of the four beams' tokens (no end tokens and early
    // stopping "never": all four run to the end), exact or fast; the fast path's logits may differ
    // from one-row passes within the noise floor, so only the costs are checked there.
    void aWidthFourStepIsOneBatchedPass_data() {
        QTest::addColumn<bool>("exact");
        QTest::newRow("exact matmul") << true;
        QTest::newRow("fast path") << false;
    }
    void aWidthFourStepIsOneBatchedPass() {
        QFETCH(bool, exact);
        const std::string path = test::scratchDir() + "/beam-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, path);
        const auto model = Model::load(path);
        const auto backend = makeCpuBackend(*model, 1, exact);
        const auto prompt = model->tokenizer().encode("the cat sat on the mat", false, false);
        const int64_t P = int64_t(prompt.size());

        BeamOptions o;
        o.width = 4;
        o.maxNewTokens = 6;
        o.earlyStopping = EarlyStopping::Never;
        KvBlockPool pool(model->hparams(), beamPoolBlocks(P, o.maxNewTokens, o.width, 16), KvType::F16, 16);
        ModelBeamScorer scorer(*backend, pool);
        std::vector<int> passes;
        std::vector<int64_t> tokens, lastBatch;
        const BeamResult r = beamSearch(scorer, prompt, o, [&](const BeamTree&, int) {
            passes.push_back(scorer.forwardCalls());
            tokens.push_back(scorer.tokensEvaluated());
            lastBatch.push_back(backend->lastEvaluated());
            return true;
        });
        QCOMPARE(r.steps, 6);
        QCOMPARE(r.hypotheses.size(), size_t(4));
        // Step 1 evaluates the prompt; every later step is one more pass of four tokens.
        QCOMPARE(passes, (std::vector<int>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(tokens, (std::vector<int64_t>{P, P + 4, P + 8, P + 12, P + 16, P + 20}));
        QCOMPARE(lastBatch, (std::vector<int64_t>{P, 4, 4, 4, 4, 4}));   // the backend's own count of the pass
    }

    void badInputThrows() {
        TableBeamScorer scorer(test::hashedTable(3, 1));
        BeamOptions o;
        o.width = 0;
        QVERIFY_THROWS_EXCEPTION(Error, beamSearch(scorer, kPrompt, o));
        o = {};
        o.maxNewTokens = 0;
        QVERIFY_THROWS_EXCEPTION(Error, beamSearch(scorer, kPrompt, o));
        o = {};
        o.nBest = o.width + 1;
        QVERIFY_THROWS_EXCEPTION(Error, beamSearch(scorer, kPrompt, o));
        QVERIFY_THROWS_EXCEPTION(Error, beamSearch(scorer, {}, BeamOptions{}));
        QVERIFY_THROWS_EXCEPTION(Error, parseEarlyStopping("sometimes"));
        QCOMPARE(parseEarlyStopping("never"), EarlyStopping::Never);
        // NaN logits: a clear error, and the sequences are still released.
        TableBeamScorer nan([](const std::vector<TokenId>&) { return std::vector<float>{0.0f, NAN}; });
        QVERIFY_THROWS_EXCEPTION(Error, beamSearch(nan, kPrompt, BeamOptions{}));
        QCOMPARE(nan.live(), size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestBeamSearch)
#include "test_beam_search.moc"
