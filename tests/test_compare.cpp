// Side-by-side runs (compareRuns and `decoding-lab-cli compare`): run specs parse or fail with a
// message naming the spec; on a tiny model the greedy run is generate() at temperature 0 and
// beam:k=1 is greedy; the prompt is prefilled once and its full KV blocks are referenced by every
// run, with bytes saved equal to the private copies avoided; the CLI's JSON has one row per run.
// CompareOptions: tokens stream through onToken as chosen, each run's steps sum to its log-prob
// (end token included), alternatives come from the final / raw distribution, beam runs return
// their whole search with recorded next lists and KV blocks, cancel returns the current run
// partial and starts no later run; the JSONL trace parses back and agrees with the result.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>
#include <map>

#include <QFile>

#include <atomic>

#include "core/error.h"
#include "generate/compare.h"
#include "generate/compare_trace.h"
#include "generate/generator.h"
#include "gguf/tiny_model.h"
#include "test_paths.h"

using namespace dlab;

Q_DECLARE_METATYPE(std::vector<TokenId>)

namespace {

std::string tinyPath() { return test::scratchDir() + "/compare-tiny.gguf"; }

// P byte tokens (ids < 256), a fixed pattern: no BOS, no tokenizer involved.
std::vector<TokenId> promptOf(int n) {
    std::vector<TokenId> ids;
    for (int i = 0; i < n; ++i) ids.push_back(static_cast<TokenId>(97 + (i * 7) % 26));
    return ids;
}

std::vector<RunSpec> specs(const QStringList& list) {
    std::vector<RunSpec> out;
    for (const QString& s : list) out.push_back(parseRunSpec(s.toStdString()));
    return out;
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT
    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;

private slots:
    void initTestCase() {
        writeTinyModel(TinyModelSpec{}, tinyPath());
        model_ = Model::load(tinyPath());
        backend_ = makeCpuBackend(*model_, 1);
    }

    void parseGood_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("kind");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<float>("topP");
        QTest::addColumn<int>("topK");
        QTest::addColumn<float>("minP");
        QTest::addColumn<qulonglong>("seed");
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("lengthPenalty");
        const SamplerParams d;
        QTest::newRow("greedy") << "greedy" << int(RunKind::Greedy) << 0.0f << d.topP << d.topK << d.minP << qulonglong(d.seed) << 4 << 1.0;
        QTest::newRow("beam") << "beam:k=4" << int(RunKind::Beam) << d.temperature << d.topP << d.topK << d.minP << qulonglong(d.seed) << 4 << 1.0;
        QTest::newRow("beam lp") << "beam:k=2,lp=0.8" << int(RunKind::Beam) << d.temperature << d.topP << d.topK << d.minP
                                 << qulonglong(d.seed) << 2 << 0.8;
        QTest::newRow("beam defaults") << "beam" << int(RunKind::Beam) << d.temperature << d.topP << d.topK << d.minP
                                       << qulonglong(d.seed) << 4 << 1.0;
        QTest::newRow("sample all") << "sample:t=0.7,p=0.9,k=40,seed=1,minp=0.05" << int(RunKind::Sample) << 0.7f << 0.9f << 40
                                    << 0.05f << qulonglong(1) << 4 << 1.0;
        QTest::newRow("sample some") << "sample:seed=7,t=1.5" << int(RunKind::Sample) << 1.5f << d.topP << d.topK << d.minP
                                     << qulonglong(7) << 4 << 1.0;
    }
    void parseGood() {
        QFETCH(QString, spec);
        QFETCH(int, kind);
        QFETCH(float, temperature);
        QFETCH(float, topP);
        QFETCH(int, topK);
        QFETCH(float, minP);
        QFETCH(qulonglong, seed);
        QFETCH(int, width);
        QFETCH(double, lengthPenalty);
        const RunSpec r = parseRunSpec(spec.toStdString());
        QCOMPARE(QString::fromStdString(r.text), spec);
        QCOMPARE(int(r.kind), kind);
        QCOMPARE(r.sampler.temperature, temperature);
        QCOMPARE(r.sampler.topP, topP);
        QCOMPARE(r.sampler.topK, topK);
        QCOMPARE(r.sampler.minP, minP);
        QCOMPARE(qulonglong(r.sampler.seed), seed);
        QCOMPARE(r.beamWidth, width);
        QCOMPARE(r.lengthPenalty, lengthPenalty);
    }
    void parseEarlyStopping() { QCOMPARE(parseRunSpec("beam:k=3,es=never").earlyStopping, EarlyStopping::Never); }

    void distinct_data() {
        QTest::addColumn<std::vector<TokenId>>("tokens");
        QTest::addColumn<double>("d1");
        QTest::addColumn<double>("d2");
        QTest::newRow("empty") << std::vector<TokenId>{} << 0.0 << 0.0;
        QTest::newRow("one") << std::vector<TokenId>{5} << 1.0 << 0.0;
        QTest::newRow("loop") << std::vector<TokenId>{1, 2, 1, 2, 1, 2} << 2.0 / 6 << 2.0 / 5;
        QTest::newRow("all new") << std::vector<TokenId>{1, 2, 3, 4} << 1.0 << 1.0;
    }
    void distinct() {
        QFETCH(std::vector<TokenId>, tokens);
        QFETCH(double, d1);
        QFETCH(double, d2);
        QCOMPARE(distinctN(tokens, 1), d1);
        QCOMPARE(distinctN(tokens, 2), d2);
    }

    void greedyEqualsGenerate_data() {
        QTest::addColumn<int>("promptTokens");
        QTest::addColumn<int>("maxTokens");
        QTest::newRow("short prompt") << 5 << 24;
        QTest::newRow("two blocks") << 32 << 20;
        QTest::newRow("partial block") << 41 << 30;
    }
    void greedyEqualsGenerate() {
        QFETCH(int, promptTokens);
        QFETCH(int, maxTokens);
        const auto prompt = promptOf(promptTokens);
        GenerateOptions g;
        g.maxTokens = maxTokens;
        g.sampler.temperature = 0.0f;
        KvCache cache(model_->hparams(), 128, KvType::F16);
        const GenerateResult ref = generate(*model_, *backend_, cache, prompt, g);
        const CompareResult c = compareRuns(*model_, *backend_, prompt, specs({"greedy", "sample:t=0.9,seed=3", "beam:k=1"}),
                                            maxTokens, KvType::F16, 128);
        QCOMPARE(c.runs.size(), size_t(3));
        QCOMPARE(c.runs[0].tokens, ref.tokens);
        QCOMPARE(QString::fromStdString(c.runs[0].text), QString::fromStdString(ref.text));
        QCOMPARE(c.runs[0].ended, ref.stop == StopReason::EndOfGeneration);
        QVERIFY(std::isfinite(c.runs[0].logProb) && c.runs[0].logProb < 0.0);
        // beam:k=1 is greedy decoding: same tokens, same log-probability (its own sum from the search tree).
        QCOMPARE(c.runs[2].tokens, ref.tokens);
        QCOMPARE(c.runs[2].ended, c.runs[0].ended);
        QVERIFY2(std::abs(c.runs[2].logProb - c.runs[0].logProb) < 1e-3,
                 qPrintable(QString("%1 vs %2").arg(c.runs[2].logProb).arg(c.runs[0].logProb)));
        for (const RunResult& r : c.runs) {
            QVERIFY(r.distinct1 >= 0.0 && r.distinct1 <= 1.0);
            QVERIFY(r.distinct2 >= 0.0 && r.distinct2 <= 1.0);
            QVERIFY(r.tokensPerSecond > 0.0 || r.tokens.empty());
        }
    }

    // R non-beam runs after P prompt tokens: at the pool's peak (the end, as these runs only
    // grow) each of the prompt's full blocks is referenced by all R runs and by nothing else, the
    // partial last block has been copied on write (the last run keeps the original), and sharing
    // saved exactly the R - 1 private copies of the full blocks.
    void sharedPromptBlocks_data() {
        QTest::addColumn<int>("promptTokens");
        QTest::addColumn<QStringList>("runs");
        QTest::newRow("40 tokens, 3 runs") << 40 << QStringList{"greedy", "sample:t=0.8,seed=1", "sample:t=1.2,seed=2"};
        QTest::newRow("32 tokens, 2 runs") << 32 << QStringList{"greedy", "sample:t=0.7,p=0.9,seed=5"};
        QTest::newRow("17 tokens, 4 runs") << 17 << QStringList{"greedy", "greedy", "sample:seed=1", "sample:seed=2"};
        QTest::newRow("50 tokens, 1 run") << 50 << QStringList{"sample:t=1.0,seed=9"};
    }
    void sharedPromptBlocks() {
        QFETCH(int, promptTokens);
        QFETCH(QStringList, runs);
        const int64_t R = runs.size(), bs = 16, maxTokens = 12;
        const int64_t fullBlocks = promptTokens / bs;
        const CompareResult c = compareRuns(*model_, *backend_, promptOf(promptTokens), specs(runs), maxTokens, KvType::F16, 128, bs);
        const KvStats& kv = c.kvPeak;
        const HParams& hp = model_->hparams();
        QCOMPARE(kv.bytesPerBlock, int64_t(2) * hp.nLayer * bs * int64_t(kvRowBytes(KvType::F16, hp.kvDim())));

        int64_t expectUsed = fullBlocks;
        for (const RunResult& r : c.runs) {
            QVERIFY2(r.forwardCalls > 0, "every run must write once, or its copy of the partial block is not made");
            // One sequence: a pass per step but the first (it reads the prefill), one token each.
            QCOMPARE(r.decodeSteps, static_cast<int>(r.steps.size()));
            QCOMPARE(r.forwardCalls, r.decodeSteps - 1);
            QCOMPARE(r.tokensEvaluated, static_cast<int64_t>(r.forwardCalls));
            QVERIFY(r.msPerStep > 0.0);
            const int64_t blocks = KvBlockPool::blocksFor(promptTokens + r.forwardCalls, bs);
            QCOMPARE(r.kvBlocks, blocks);  // its own blocks plus the shared prompt blocks
            QCOMPARE(r.kvBlocksShared, R > 1 ? fullBlocks : 0);
            QCOMPARE(r.kvBytesSavedWithin, int64_t(0));  // one sequence per run
            expectUsed += blocks - fullBlocks;
        }
        QCOMPARE(kv.blocksUsed, expectUsed);
        QCOMPARE(kv.blocksShared, R > 1 ? fullBlocks : 0);
        QCOMPARE(kv.bytesSavedBySharing, (R - 1) * fullBlocks * kv.bytesPerBlock);
        // The prefill allocates blocks 0, 1, ... in order: the full prompt blocks are 0 .. fullBlocks-1.
        int64_t seen = 0;
        for (const KvBlockStats& b : kv.blocks) {
            if (b.block < fullBlocks) {
                QCOMPARE(int64_t(b.sequences.size()), R);
                QCOMPARE(b.filled, bs);
                ++seen;
            } else {
                QCOMPARE(b.sequences.size(), size_t(1));
            }
        }
        QCOMPARE(seen, fullBlocks);
        QCOMPARE(int64_t(kv.sequences.size()), R);
    }

    // A beam run's beams share the prompt (and common prefixes) among themselves.
    void beamSharesAmongBeams() {
        const int promptTokens = 40, width = 4;
        const CompareResult c = compareRuns(*model_, *backend_, promptOf(promptTokens), specs({"beam:k=4"}), 10, KvType::F16, 128);
        const RunResult& r = c.runs[0];
        const int64_t fullBlocks = promptTokens / 16;
        QVERIFY(!r.tokens.empty());
        // One batched pass per step after the first (as greedy), evaluating one token per running
        // beam: the tree's evaluated nodes past the (prefilled) root, at most `width` per depth.
        std::map<int, int64_t> perDepth;   // depth -> beams evaluated from it
        for (const BeamNode& n : r.beam.tree.nodes)
            if (n.evaluated && n.depth > 0) ++perDepth[n.depth];
        int64_t evaluated = 0;
        for (const auto& [depth, beams] : perDepth) {
            QVERIFY(beams <= width);
            evaluated += beams;
        }
        QCOMPARE(r.decodeSteps, r.beam.steps);
        QCOMPARE(r.forwardCalls, static_cast<int>(perDepth.size()));
        QCOMPARE(r.forwardCalls, r.decodeSteps - 1);
        QCOMPARE(r.tokensEvaluated, evaluated);
        QVERIFY(r.tokensEvaluated > r.forwardCalls);   // beams, not one sequence
        QVERIFY(r.msPerStep > 0.0);
        QVERIFY2(r.kvBytesSavedWithin >= (width - 1) * fullBlocks * c.kvPeak.bytesPerBlock,
                 qPrintable(QString::number(r.kvBytesSavedWithin)));
        QVERIFY(r.kvBlocksShared >= fullBlocks);
        QVERIFY(c.kvPeak.bytesSavedBySharing >= (width - 1) * fullBlocks * c.kvPeak.bytesPerBlock);
    }

    void errors() {
        const auto p = promptOf(10);
        QVERIFY_THROWS_EXCEPTION(Error, compareRuns(*model_, *backend_, p, {}, 8, KvType::F16, 128));
        QVERIFY_THROWS_EXCEPTION(Error, compareRuns(*model_, *backend_, {}, specs({"greedy"}), 8, KvType::F16, 128));
        try {
            compareRuns(*model_, *backend_, p, specs({"greedy"}), 200, KvType::F16, 128);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("need 210 positions but the context holds 128"), e.what());
        }
    }

    void cliJson() {
        QProcess p;
        const QStringList runs{"greedy", "beam:k=2,lp=0.5", "sample:t=0.9,p=0.9,seed=3"};
        QStringList args{"compare", "--model", QString::fromStdString(tinyPath()), "--prompt", "the cat sat on the mat",
                         "--max-tokens", "8", "--threads", "1", "--json"};
        for (const QString& r : runs) args << "--run" << r;
        p.start(QString::fromStdString(test::cliPath()), args);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(p.readAllStandardOutput(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonArray rows = doc.object()["runs"].toArray();
        QCOMPARE(rows.size(), runs.size());
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject o = rows[i].toObject();
            QCOMPARE(o["spec"].toString(), runs[i]);
            QVERIFY(o["tokens"].toArray().size() <= 8);
            QVERIFY(o["logProb"].toDouble() <= 0.0);
            QVERIFY(o["kvBlocks"].toInt() >= 1);
        }
        QCOMPARE(rows[0].toObject()["kind"].toString(), QString("greedy"));
        QCOMPARE(rows[1].toObject()["kind"].toString(), QString("beam"));
        QVERIFY(doc.object()["kvPeak"].toObject()["blocksUsed"].toInt() >= 1);
    }

    void streamsTokensAndStepsSumToLogProb() {
        const auto prompt = promptOf(9);
        CompareOptions o;
        o.maxTokens = 12;
        o.contextLimit = 128;
        o.recordTopN = 5;
        std::map<int, std::vector<RunToken>> streamed;
        std::vector<int> done, beamSteps;
        o.onToken = [&](int run, const RunToken& t) { streamed[run].push_back(t); };
        o.onBeamStep = [&](int run, const BeamTree&, int depth) { beamSteps.push_back(run * 100 + depth); return true; };
        o.onRunDone = [&](int run, const RunResult&) { done.push_back(run); };
        const CompareResult c =
            compareRuns(*model_, *backend_, prompt, specs({"greedy", "sample:t=1.2,p=0.9,seed=4", "beam:k=3"}), o);
        QCOMPARE(done, (std::vector<int>{0, 1, 2}));
        QVERIFY(!c.stopped);
        QVERIFY(!beamSteps.empty() && beamSteps.front() == 201);
        QVERIFY(!streamed.count(2));  // beam runs report through onBeamStep
        for (int i = 0; i < 3; ++i) {
            const RunResult& r = c.runs[i];
            QVERIFY(!r.stopped);
            double sum = 0.0;
            for (const RunToken& t : r.steps) sum += t.logProb;
            QCOMPARE(sum, r.logProb);  // exactly: the same sum in the same order
            QCOMPARE(r.steps.size(), r.tokens.size() + (r.ended ? 1 : 0));
            for (size_t k = 0; k < r.tokens.size(); ++k) {
                QCOMPARE(r.steps[k].token, r.tokens[k]);
                QVERIFY(!r.steps[k].end);
            }
            if (r.ended) QVERIFY(r.steps.back().end);
            if (i < 2) {
                QCOMPARE(streamed[i].size(), r.steps.size());
                for (size_t k = 0; k < r.steps.size(); ++k) QCOMPARE(streamed[i][k].token, r.steps[k].token);
            }
        }
        // Greedy: p after the chain is 1; alternatives are the raw top 5, the chosen first.
        for (const RunToken& t : c.runs[0].steps) {
            QCOMPARE(t.p, 1.0);
            QCOMPARE(t.alternatives.size(), size_t(5));
            QCOMPARE(t.alternatives[0].token, t.token);
            QVERIFY(std::abs(std::log(t.alternatives[0].p) - t.logProb) < 1e-6);
            QCOMPARE(t.alternatives[0].finalP, 1.0);
            for (size_t a = 1; a < t.alternatives.size(); ++a) {
                QVERIFY(t.alternatives[a].p <= t.alternatives[a - 1].p);
                QCOMPARE(t.alternatives[a].finalP, 0.0);
            }
        }
        // Sample: alternatives are the final distribution's best, by final p; the chosen one's final p is p.
        for (const RunToken& t : c.runs[1].steps) {
            QVERIFY(!t.alternatives.empty() && t.alternatives.size() <= 5);
            double mass = 0.0;
            for (size_t a = 0; a < t.alternatives.size(); ++a) {
                mass += t.alternatives[a].finalP;
                if (a > 0) QVERIFY(t.alternatives[a].finalP <= t.alternatives[a - 1].finalP);
                if (t.alternatives[a].token == t.token) QVERIFY(std::abs(t.alternatives[a].finalP - t.p) < 1e-6);
            }
            QVERIFY(mass <= 1.0 + 1e-5);
            QVERIFY(t.p > 0.0 && t.p <= 1.0);
        }
        // Beam: the whole search, every hypothesis, steps from the best one's nodes.
        const RunResult& b = c.runs[2];
        QCOMPARE(b.beam.hypotheses.size(), size_t(3));
        QCOMPARE(b.beamOptions.width, 3);
        QCOMPARE(b.logProb, b.beam.hypotheses[0].logProb);
        QCOMPARE(b.tokens, b.beam.hypotheses[0].tokens);
        const auto& nodes = b.beam.tree.nodes;
        for (size_t k = 0; k < b.steps.size(); ++k) {
            QVERIFY(std::abs(b.steps[k].p - std::exp(b.steps[k].logProb)) < 1e-12);
            QCOMPARE(b.steps[k].alternatives.size(), size_t(8));  // the parent's recorded next list (default 8)
        }
        const BeamNode& root = nodes[0];
        QVERIFY(root.evaluated && root.next.size() == 8 && !root.kvBlocks.empty());
        for (const BeamNode& n : nodes) {
            if (!n.evaluated) {
                QVERIFY(n.kvBlocks.empty() && n.next.empty());
                continue;
            }
            QCOMPARE(int64_t(n.kvBlocks.size()), KvBlockPool::blocksFor(int64_t(prompt.size()) + n.depth, 16));
            QVERIFY(n.nextEntropy > 0.0);
        }
    }

    // A repetition penalty changes greedy decoding the way generate() does with the same settings.
    void greedyTakesPenalties() {
        const auto prompt = promptOf(7);
        GenerateOptions g;
        g.maxTokens = 20;
        g.sampler.temperature = 0.0f;
        g.sampler.repeatPenalty = 1.8f;
        g.sampler.noRepeatNgram = 2;
        KvCache cache(model_->hparams(), 128, KvType::F16);
        const GenerateResult ref = generate(*model_, *backend_, cache, prompt, g);
        const CompareResult c = compareRuns(*model_, *backend_, prompt, specs({"greedy:rep=1.8,nrng=2", "greedy"}), 20,
                                            KvType::F16, 128);
        QCOMPARE(c.runs[0].tokens, ref.tokens);
        QVERIFY(c.runs[0].tokens != c.runs[1].tokens);
    }

    void diverseBeamRunOnTheModel() {
        const CompareResult c = compareRuns(*model_, *backend_, promptOf(20), specs({"beam:k=4,g=2,dp=0.05"}), 8, KvType::F16, 128);
        const RunResult& r = c.runs[0];
        QCOMPARE(r.beamOptions.groups, 2);
        QCOMPARE(r.beam.hypotheses.size(), size_t(4));
        int perGroup[2] = {0, 0};
        for (const BeamHypothesis& h : r.beam.hypotheses) ++perGroup[h.group];
        QCOMPARE(perGroup[0], 2);
        QCOMPARE(perGroup[1], 2);
        bool penalised = false;
        for (const BeamNode& n : r.beam.tree.nodes) {
            if (n.group != 1) QCOMPARE(n.diversityPenalty, 0.0);  // group 0 and the root are never penalised
            const double count = n.diversityPenalty / 0.05;       // a whole number of earlier choices
            QVERIFY(std::abs(count - std::round(count)) < 1e-9 && count <= 2.0 + 1e-9);
            penalised = penalised || n.diversityPenalty > 0.0;
            QVERIFY(std::abs(n.searchLogProb - (n.logProb - n.diversityPenalty)) < 1e-12);
        }
        QVERIFY(penalised);  // a small penalty leaves group 0's tokens among group 1's candidates
    }

    void cancelStopsBetweenTokens() {
        std::atomic<bool> cancel{false};
        CompareOptions o;
        o.maxTokens = 20;
        o.contextLimit = 128;
        o.cancel = &cancel;
        int seen = 0;
        o.onToken = [&](int, const RunToken&) {
            if (++seen == 3) cancel = true;
        };
        const CompareResult c = compareRuns(*model_, *backend_, promptOf(5), specs({"sample:t=1.5,seed=2", "greedy"}), o);
        QVERIFY(c.stopped);
        QCOMPARE(c.runs.size(), size_t(1));  // the greedy run never started
        QVERIFY(c.runs[0].stopped);
        QCOMPARE(c.runs[0].steps.size(), size_t(3));
        QVERIFY(!c.runs[0].text.empty() || c.runs[0].tokens.empty());

        // A beam run stopped by its callback ends alone; the next run still runs.
        CompareOptions b;
        b.maxTokens = 10;
        b.contextLimit = 128;
        b.onBeamStep = [](int, const BeamTree&, int depth) { return depth < 2; };
        const CompareResult d = compareRuns(*model_, *backend_, promptOf(5), specs({"beam:k=2", "greedy"}), b);
        QVERIFY(!d.stopped);
        QCOMPARE(d.runs.size(), size_t(2));
        QVERIFY(d.runs[0].stopped);
        QCOMPARE(d.runs[0].beam.stop, BeamStop::Callback);
        QVERIFY(!d.runs[1].stopped);

        // Cancelled before anything: no prefill, no run.
        cancel = true;
        const CompareResult e = compareRuns(*model_, *backend_, promptOf(5), specs({"greedy"}), o);
        QVERIFY(e.stopped && e.runs.empty());
    }

    void jsonlTraceParsesBack() {
        CompareOptions o;
        o.maxTokens = 6;
        o.contextLimit = 128;
        o.recordTopN = 3;
        o.beamRecordTopN = 4;
        const CompareResult c =
            compareRuns(*model_, *backend_, promptOf(18), specs({"greedy", "sample:t=0.9,seed=1", "beam:k=4,g=2,dp=0.5"}), o);
        const std::string text = compareResultJsonl(c, [](TokenId t) { return "<" + std::to_string(t) + ">"; });
        const QList<QByteArray> lines = QByteArray::fromStdString(text).split('\n');
        QCOMPARE(lines.size(), 5);  // header, three runs, and the empty piece after the last '\n'
        QVERIFY(lines.back().isEmpty());
        auto parse = [](const QByteArray& line) {
            QJsonParseError err;
            const QJsonObject o = QJsonDocument::fromJson(line, &err).object();
            return err.error == QJsonParseError::NoError ? o : QJsonObject();
        };
        const QJsonObject head = parse(lines[0]);
        QCOMPARE(head["type"].toString(), QString("compare"));
        QCOMPARE(head["promptTokens"].toInt(), 18);
        QCOMPARE(head["prompt"].toArray().size(), 18);
        QCOMPARE(head["runs"].toInt(), 3);
        QVERIFY(head["kvPeak"].toObject()["blocksUsed"].toInt() >= 2);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject run = parse(lines[i + 1]);
            const RunResult& r = c.runs[i];
            QCOMPARE(run["type"].toString(), QString("run"));
            QCOMPARE(run["run"].toInt(), i);
            QCOMPARE(run["spec"].toString(), QString::fromStdString(r.spec.text));
            QCOMPARE(run["canonical"].toString(), QString::fromStdString(runSpecText(r.spec)));
            const QJsonArray steps = run["steps"].toArray();
            QCOMPARE(steps.size(), qsizetype(r.steps.size()));
            double sum = 0.0;
            for (int k = 0; k < steps.size(); ++k) {
                const QJsonObject s = steps[k].toObject();
                QCOMPARE(s["token"].toInt(), r.steps[k].token);
                QCOMPARE(s["text"].toString(), QString("<%1>").arg(r.steps[k].token));
                sum += s["logProb"].toDouble();
                QVERIFY(std::abs(s["p"].toDouble() - r.steps[k].p) < 1e-8);
                QCOMPARE(s["alternatives"].toArray().size(), qsizetype(r.steps[k].alternatives.size()));
            }
            QVERIFY(std::abs(sum - run["logProb"].toDouble()) < 1e-6);
        }
        const QJsonObject beam = parse(lines[3])["beam"].toObject();
        QCOMPARE(beam["type"].toString(), QString("beam"));
        QCOMPARE(beam["groups"].toInt(), 2);
        QCOMPARE(beam["diversityPenalty"].toDouble(), 0.5);
        const QJsonArray nodes = beam["nodes"].toArray();
        QCOMPARE(nodes.size(), qsizetype(c.runs[2].beam.tree.nodes.size()));
        int withNext = 0;
        for (int i = 0; i < nodes.size(); ++i) {
            const QJsonObject n = nodes[i].toObject();
            const BeamNode& ref = c.runs[2].beam.tree.nodes[i];
            QCOMPARE(n["group"].toInt(), ref.group);
            QCOMPARE(n["diversityPenalty"].toDouble(), ref.diversityPenalty);
            QCOMPARE(n["evaluated"].toBool(), ref.evaluated);
            QCOMPARE(n["kvBlocks"].toArray().size(), qsizetype(ref.kvBlocks.size()));
            if (n.contains("next")) {
                ++withNext;
                QCOMPARE(n["next"].toArray().size(), 4);
                QVERIFY(n["nextEntropy"].toDouble() > 0.0);
            }
        }
        QVERIFY(withNext >= 3);
        QCOMPARE(beam["hypotheses"].toArray().size(), 4);
    }

    void cliTraceAndJsonSteps() {
        const QString trace = QString::fromStdString(test::scratchDir() + "/compare-trace.jsonl");
        QFile::remove(trace);
        QProcess p;
        p.start(QString::fromStdString(test::cliPath()),
                {"compare", "--model", QString::fromStdString(tinyPath()), "--prompt", "the cat sat", "--max-tokens", "5",
                 "--threads", "1", "--json", "--trace", trace, "--run", "greedy:rep=1.2", "--run", "beam:k=4,g=2,dp=1"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonArray rows = doc["runs"].toArray();
        QCOMPARE(rows.size(), 2);
        for (const QJsonValue& v : rows) {
            const QJsonObject row = v.toObject();
            double sum = 0.0;
            for (const QJsonValue& s : row["steps"].toArray()) {
                QVERIFY(s.toObject().contains("token") && s.toObject().contains("p"));
                sum += s.toObject()["logProb"].toDouble();
            }
            QVERIFY(std::abs(sum - row["logProb"].toDouble()) < 1e-6);
        }
        QCOMPARE(rows[1].toObject()["hypotheses"].toArray().size(), 4);
        QCOMPARE(rows[1].toObject()["canonical"].toString(), QString("beam:g=2,dp=1"));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QJsonDocument::fromJson(lines[0]).object()["type"].toString(), QString("compare"));
        const QJsonObject beam = QJsonDocument::fromJson(lines[2]).object()["beam"].toObject();
        QCOMPARE(beam["groups"].toInt(), 2);
        QVERIFY(beam["nodes"].toArray()[0].toObject().contains("kvBlocks"));
        QVERIFY(beam["nodes"].toArray()[0].toObject().contains("next"));
    }

    void cliBadSpec() {
        QProcess p;
        p.start(QString::fromStdString(test::cliPath()),
                {"compare", "--model", QString::fromStdString(tinyPath()), "--prompt", "hi", "--run", "beam:q=1"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 1);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("run 'beam:q=1': unknown key 'q'"), qPrintable(err));
    }

    void cliTable() {
        QProcess p;
        p.start(QString::fromStdString(test::cliPath()), {"compare", "--model", QString::fromStdString(tinyPath()), "--prompt",
                                                           "the cat", "--run", "greedy", "--run", "beam:k=2", "--max-tokens", "4"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.contains("| greedy |") && out.contains("| beam:k=2 |") && out.contains("KV pool at its peak"), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "test_compare.moc"
