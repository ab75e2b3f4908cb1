// Side-by-side runs (compareRuns and `decoding-lab-cli compare`): run specs parse or fail with a
// message naming the spec; on a tiny model the greedy run is generate() at temperature 0 and
// beam:k=1 is greedy; the prompt is prefilled once and its full KV blocks are referenced by every
// run, with bytes saved equal to the private copies avoided; the CLI's JSON has one row per run.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

#include "core/error.h"
#include "generate/compare.h"
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

    void parseBad_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown kind") << "nucleus:p=0.9" << "unknown kind 'nucleus'";
        QTest::newRow("empty") << "" << "unknown kind ''";
        QTest::newRow("unknown beam key") << "beam:width=4" << "unknown key 'width' for beam; its keys are dp, es, g, k, lp, nrng, rep";
        QTest::newRow("unknown sample key") << "sample:temp=0.7" << "unknown key 'temp' for sample";
        QTest::newRow("width zero") << "beam:k=0" << "k must be between 1 and 64; got 0";
        QTest::newRow("width words") << "beam:k=four" << "k must be a whole number; got 'four'";
        QTest::newRow("lp not a number") << "beam:lp=x" << "lp must be a number; got 'x'";
        QTest::newRow("bad early stopping") << "beam:es=maybe" << "early-stopping mode 'maybe'";
        QTest::newRow("temperature words") << "sample:t=hot" << "t must be a number; got 'hot'";
        QTest::newRow("temperature negative") << "sample:t=-1" << "--temperature must be between 0 and 100";
        QTest::newRow("top-p zero") << "sample:p=0" << "--top-p must be greater than 0";
        QTest::newRow("min-p above one") << "sample:minp=2" << "--min-p must be between 0 and 1";
        QTest::newRow("top-k negative") << "sample:k=-3" << "k must be between 0 and";
        QTest::newRow("seed fraction") << "sample:seed=1.5" << "seed must be a whole number";
        QTest::newRow("greedy sampling settings") << "greedy:t=1" << "unknown key 't' for greedy; its keys are freq, lastn, nrng, pres, rep";
        QTest::newRow("no value") << "sample:t" << "setting 't' needs a value";
        QTest::newRow("empty value") << "sample:t=" << "t must be a number; got ''";
        QTest::newRow("nothing after colon") << "sample:" << "nothing after ':'";
        QTest::newRow("double comma") << "sample:t=0.7,,p=0.9" << "empty setting between commas";
    }
    void parseBad() {
        QFETCH(QString, spec);
        QFETCH(QString, expected);
        try {
            parseRunSpec(spec.toStdString());
            QFAIL("no error");
        } catch (const Error& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith("run '" + spec + "': "), qPrintable(msg));
            QVERIFY2(msg.contains(expected), qPrintable(msg));
        }
    }

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
        QCOMPARE(r.forwardCalls > width, true);
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
