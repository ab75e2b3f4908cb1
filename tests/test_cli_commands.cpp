// The command-line tool's commands do what they say, on a tiny model and a vocabulary-only file.
#include <QJsonArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <fstream>

#include "gguf/tiny_model.h"
#include "test_paths.h"

using namespace dlab;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

// env: NAME=VALUE entries added to the environment.
Run cli(const QStringList& args, const QString& program = QString::fromStdString(test::cliPath()), const QStringList& env = {}) {
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
        p.setProcessEnvironment(e);
    }
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString tinyModel() { return QString::fromStdString(test::scratchDir() + "/tiny-llama.gguf"); }
QString vocabOnly() { return QString::fromStdString(test::dataDir() + "/tokenizer/ggml-vocab-gpt-2.gguf"); }

}  // namespace

class TestCliCommands : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { writeTinyModel(TinyModelSpec{}, tinyModel().toStdString()); }

    void infoJsonDescribesTheModel() {
        const Run r = cli({"info", "--model", tinyModel(), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["architecture"].toString(), QString("llama"));
        QCOMPARE(o["n_layer"].toInt(), 2);
        QCOMPARE(o["n_head_kv"].toInt(), 2);
        // 2 (K and V) · 2 layers · 2 KV heads · 16 head size · 2 bytes
        QCOMPARE(o["kv_bytes_per_token_f16"].toInt(), 2 * 2 * 2 * 16 * 2);
        QCOMPARE(o["tokenizer"].toObject()["vocab"].toInt(), kTinyVocabSize);
    }

    void infoAndTokenizeWorkOnVocabularyOnlyFiles() {
        const Run info = cli({"info", "--model", vocabOnly()});
        QCOMPARE(info.exitCode, 0);
        QVERIFY(info.out.contains("vocabulary-only"));
        const Run tok = cli({"tokenize", "--model", vocabOnly(), "--text", "Hello world", "--ids-only"});
        QCOMPARE(tok.exitCode, 0);
        QCOMPARE(tok.out, QByteArray("15496 995\n"));  // GPT-2's ids, as llama.cpp gives them
    }

    void detokenizeInvertsTokenize() {
        const Run tok = cli({"tokenize", "--model", vocabOnly(), "--text", "Decoding, step by step.", "--ids-only"});
        QCOMPARE(tok.exitCode, 0);
        QStringList args{"detokenize", "--model", vocabOnly()};
        args << QString::fromUtf8(tok.out.trimmed()).split(' ');
        const Run detok = cli(args);
        QCOMPARE(detok.exitCode, 0);
        QCOMPARE(detok.out, QByteArray("Decoding, step by step.\n"));
    }

    void generateIsReproducibleAcrossThreadCounts_data() {
        QTest::addColumn<QString>("temperature");
        QTest::newRow("greedy") << "0";
        QTest::newRow("sampled") << "0.9";
    }
    void generateIsReproducibleAcrossThreadCounts() {
        QFETCH(QString, temperature);
        const QStringList common{"generate", "--model", tinyModel(), "--prompt", "the cat", "--max-tokens", "24",
                                 "--temperature", temperature, "--seed", "11", "--quiet"};
        const Run one = cli(common + QStringList{"--threads", "1"});
        const Run two = cli(common + QStringList{"--threads", "2"});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(two.exitCode, 0);
        QVERIFY(one.out.size() > 1);
        QCOMPARE(one.out, two.out);
    }

    void benchReportsBothTests() {
        const Run r = cli({"bench", "--model", tinyModel(), "-p", "32", "-n", "8", "--reps", "1", "--threads", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o["pp_tokens_per_s"].toDouble() > 0);
        QVERIFY(o["tg_tokens_per_s"].toDouble() > 0);
        QCOMPARE(o["depth"].toInt(), 0);
        // How the CPU ran, beside its figures: the SIMD kernel path and the threads.
        QVERIFY2(QRegularExpression("^(scalar|avx2|avx512) kernels, 2 threads$").match(o["backend_settings"].toString()).hasMatch(),
                 qPrintable(o["backend_settings"].toString()));
    }

    // -d N (llama-bench's depth): pp and tg start from N cached tokens; the table names the depth.
    void benchAtDepth() {
        const Run j = cli({"bench", "--model", tinyModel(), "-d", "64", "-p", "16", "-n", "8", "--reps", "1", "--threads", "2", "--json"});
        QCOMPARE(j.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(o["depth"].toInt(), 64);
        QVERIFY(o["tg_tokens_per_s"].toDouble() > 0);
        const Run t = cli({"bench", "--model", tinyModel(), "-d", "64", "-p", "16", "-n", "8", "--reps", "1", "--threads", "2"});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains("| tg8 @ d64 |"), t.out.constData());
    }

    void branchEvaluatesOnlyTheNewTokens() {
        // 24 steps, branch at step 20: the branch takes steps 20..23, one new token each; the
        // prompt and steps 0..19 are shared with the original, not evaluated again.
        const Run r = cli({"branch", "--model", tinyModel(), "--prompt", "the quick brown fox jumps", "--max-tokens", "24",
                           "--at", "20", "--temperature", "0", "--alternative", "2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(", 3 more for the branch"), r.out.constData());
        QVERIFY2(r.out.contains("shared by both branches"), r.out.constData());
        QVERIFY(!r.out.contains(" 0 shared by both branches"));
    }

    // --at on the last step replaces the last token; it used to pass validation, generate, and then
    // fail with "a run needs at least 1 step".
    void branchAtTheLastStep() {
        const Run r = cli({"branch", "--model", tinyModel(), "--prompt", "hi", "--max-tokens", "4", "--at", "3", "--temperature", "0"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("branch at step 3 with"), r.out.constData());
        QVERIFY2(r.out.contains("(4 tokens):"), r.out.constData());
    }

    // Options are rejected when given twice, except the two that are meant to repeat.
    void repeatableOptionsStillRepeat() {
        const Run compare = cli({"compare", "--model", tinyModel(), "--prompt", "hi", "--max-tokens", "4", "--run", "greedy",
                                 "--run", "sample:t=0.7,seed=1", "--json"});
        QVERIFY2(compare.exitCode == 0, compare.err.constData());
        QCOMPARE(QJsonDocument::fromJson(compare.out).object()["runs"].toArray().size(), 2);

        const std::string logits = test::scratchDir() + "/three.json";
        std::ofstream(logits) << "[3.0, 2.0, 1.0]";
        const Run sample = cli({"sample", "--logits", QString::fromStdString(logits), "--temperature", "0", "--logit-bias", "0=-inf",
                                "--logit-bias=1=-inf", "--json"});
        QVERIFY2(sample.exitCode == 0, sample.err.constData());
        QCOMPARE(QJsonDocument::fromJson(sample.out).object()["chosen"].toObject()["id"].toInt(), 2);
    }

    // Diverse beam search from the command line: every hypothesis names its group, the trace
    // holds the tree with groups, penalties, next-token lists and KV blocks.
    void generateDiverseBeamSearch() {
        const std::string trace = test::scratchDir() + "/diverse-beam.jsonl";
        const Run r = cli({"generate", "--model", tinyModel(), "--prompt", "the cat", "--max-tokens", "6", "--strategy", "beam",
                           "--beams", "4", "--beam-groups", "2", "--diversity-penalty", "0.1", "--no-repeat-ngram", "2",
                           "--trace", QString::fromStdString(trace), "--top-n", "3"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.count(" group 0"), 2);
        QCOMPARE(r.out.count(" group 1"), 2);
        QVERIFY2(r.err.contains("width 4, 2 groups"), r.err.constData());
        std::ifstream in(trace);
        std::string line;
        std::getline(in, line);
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
        QCOMPARE(o["groups"].toInt(), 2);
        QCOMPARE(o["diversityPenalty"].toDouble(), 0.1);
        QCOMPARE(o["noRepeatNgram"].toInt(), 2);
        const QJsonObject root = o["nodes"].toArray()[0].toObject();
        QCOMPARE(root["group"].toInt(), -1);
        QCOMPARE(root["next"].toArray().size(), 3);
        QVERIFY(!root["kvBlocks"].toArray().isEmpty());
        bool sawGroup1 = false;
        for (const QJsonValue& n : o["nodes"].toArray()) sawGroup1 = sawGroup1 || n.toObject()["group"].toInt() == 1;
        QVERIFY(sawGroup1);
    }

    // One group and no penalty print what plain beam search printed.
    void generateBeamWithOneGroupIsPlainBeamSearch() {
        const QStringList common{"generate", "--model", tinyModel(), "--prompt", "the cat", "--max-tokens", "6",
                                 "--strategy", "beam", "--beams", "3", "--quiet"};
        const Run plain = cli(common);
        const Run grouped = cli(common + QStringList{"--beam-groups", "1", "--diversity-penalty", "0"});
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(grouped.out, plain.out);
        QVERIFY(!plain.out.contains("group"));
    }

    void perplexityIsAPositiveNumberBelowTheVocabularySize() {
        const std::string path = test::scratchDir() + "/text.txt";
        std::ofstream(path) << QByteArray("the quick brown fox jumps over the lazy dog. ").repeated(20).toStdString();
        const Run r = cli({"perplexity", "--model", tinyModel(), "--file", QString::fromStdString(path), "--ctx", "64"});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> words = r.out.split(' ');
        QCOMPARE(words.value(0), QByteArray("perplexity"));
        const double ppl = words.value(1).toDouble();
        // A random-weights model is close to uniform over its 320 tokens, never better than 1.
        QVERIFY2(ppl > 1.0 && ppl < 2.0 * kTinyVocabSize, r.out.constData());
    }

    void benchBatchReportsEverySize() {
        const Run r = cli({"bench", "--model", tinyModel(), "--batch", "1,3", "-p", "8", "-n", "4", "--reps", "1", "--threads", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1].toObject()["batch"].toInt(), 3);
        QVERIFY(rows[1].toObject()["batched_tokens_per_s"].toDouble() > 0);
        QVERIFY(rows[1].toObject()["one_by_one_tokens_per_s"].toDouble() > 0);
        QVERIFY(rows[1].toObject()["backend_settings"].toString().endsWith(" kernels, 2 threads"));
    }

    void benchBeamTimesAStepAgainstGreedy() {
        const Run r = cli({"bench", "--model", tinyModel(), "--beam", "1,4", "-p", "8", "-n", "5", "--reps", "1", "--threads", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(rows.size(), 2);
        const QJsonObject four = rows[1].toObject();
        QCOMPARE(four["beams"].toInt(), 4);
        QCOMPARE(four["passes_per_step"].toDouble(), 1.0);   // one batched pass per step
        QCOMPARE(four["tokens_per_step"].toDouble(), 4.0);   // of the four beams' tokens
        QCOMPARE(rows[0].toObject()["tokens_per_step"].toDouble(), 1.0);
        for (const char* key : {"greedy_ms_per_step", "beam_batched_ms_per_step", "beam_one_by_one_ms_per_step", "batched_vs_greedy"})
            QVERIFY2(four[key].toDouble() > 0, key);
    }

    void kvGrowthTimesBothModes() {
        const Run r = cli({"kv-growth", "--model", tinyModel(), "--prompt", "the cat", "--steps", "6", "--threads", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(rows.size(), 6);
        for (int i = 1; i < rows.size(); ++i) {
            const QJsonObject o = rows[i].toObject();
            QCOMPARE(o["computed"].toInt(), 1);                                  // with the cache: the new token only
            QCOMPARE(o["withoutCacheComputed"].toInt(), o["positions"].toInt());  // without: every position again
            QVERIFY(o["withCacheMs"].toDouble() > 0 && o["withoutCacheMs"].toDouble() > 0);
        }
    }

    void kvDtypesReportsF32AsItsOwnReference() {
        // The tiny model's heads are 16 wide: q8_0 (blocks of 32) does not fit it, f16 does.
        const Run r = cli({"kv-dtypes", "--model", tinyModel(), "--prompt", "the cat", "--steps", "6", "--types", "f16", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["type"].toString(), QString("f32"));
        QCOMPARE(rows[0].toObject()["meanKl"].toDouble(), 0.0);
        QCOMPARE(rows[1].toObject()["type"].toString(), QString("f16"));
        QCOMPARE(rows[1].toObject()["bytesPerPosition"].toInt() * 2, rows[0].toObject()["bytesPerPosition"].toInt());
        QCOMPARE(rows[1].toObject()["steps"].toInt(), 6);
    }

    void kvEvictRunsThreePolicies() {
        const std::string path = test::scratchDir() + "/evict.txt";
        std::ofstream(path) << QByteArray("the quick brown fox jumps over the lazy dog. ").repeated(8).toStdString();
        const Run r = cli({"kv-evict", "--model", tinyModel(), "--file", QString::fromStdString(path), "--tokens", "64", "--cache", "16",
                           "--sinks", "2", "--threads", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0].toObject()["maxSlots"].toInt(), 63);
        QCOMPARE(rows[1].toObject()["maxSlots"].toInt(), 16);
        QCOMPARE(rows[2].toObject()["maxSlots"].toInt(), 16);
        QCOMPARE(rows[0].toObject()["meanKl"].toDouble(), 0.0);
        QVERIFY(rows[1].toObject()["meanKl"].toDouble() > 0.0);
    }

    void generateWritesAttentionIntoTheTrace() {
        const QString trace = QString::fromStdString(test::scratchDir() + "/attention.jsonl");
        const Run r = cli({"generate", "--model", tinyModel(), "--prompt", "the cat", "--max-tokens", "3", "--temperature", "0",
                           "--trace", trace, "--trace-attention", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        int lines = 0;
        while (!f.atEnd()) {
            const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
            const QJsonObject a = o["attention"].toObject();
            QCOMPARE(a["slots"].toInt(), o["pos"].toInt());
            const QJsonArray layers = a["perKvGroup"].toArray();
            QCOMPARE(layers.size(), a["layers"].toInt());
            double sum = 0;
            for (const QJsonValue v : layers[0].toArray()[0].toArray()) sum += v.toDouble();
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
            QVERIFY(!a["blocks"].toArray().isEmpty());
            ++lines;
        }
        QCOMPARE(lines, 3);
    }

    // bench on the CUDA emulator says how the GPU ran beside its figures: which code the driver
    // loaded, graphs, whether the dependent launches asked for went out, where attention splits
    // and whether decode folds the KV store into attention.
    void benchSaysHowTheGpuRan_data() {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QString>("settings");
        const QString folded = "; KV store folded into decode attention; cuBLAS GEMM from 9 tokens";
        QTest::newRow("Hopper") << QStringList{} << "sm_90 code; graphs on; dependent launches off; attention split from 512 slots" + folded;
        QTest::newRow("Hopper, dependent launches") << QStringList{"DLAB_CUDA_PDL=1"}
                                                    << "sm_90 code; graphs on; dependent launches on; attention split from 512 slots" + folded;
        QTest::newRow("Ampere, dependent launches asked for")
            << QStringList{"DLAB_CUDA_PDL=1", "DLAB_CUDA_EMU_CC=8.6"}
            << "compute_75 PTX compiled for sm_86; graphs on; dependent launches off; attention split from 512 slots" + folded;
        QTest::newRow("no graphs, never split, the KV store a kernel, GEMM for every pass")
            << QStringList{"DLAB_CUDA_GRAPHS=0", "DLAB_CUDA_ATTENTION_SPLIT_FROM=0", "DLAB_CUDA_FOLD_STORE=0", "DLAB_CUDA_GEMM_FROM=1"}
            << "sm_90 code; graphs off; dependent launches off; attention never split; KV store a kernel of its own; cuBLAS GEMM from 1 token";
    }
    // serve answers to the model's published name, the id the app's server uses too (it used the
    // file stem, "Tiny-Test-Model.Q8_0", where the app said "Tiny-Test-Model").
    void serveUsesThePublishedName() {
        const QString named = QString::fromStdString(test::scratchDir()) + QStringLiteral("/Tiny-Test-Model.Q8_0.gguf");
        QFile::remove(named);
        QVERIFY(QFile::copy(tinyModel(), named));
        QProcess p;
        p.setReadChannel(QProcess::StandardError);   // where serve announces itself
        p.start(QString::fromStdString(test::cliPath()), {"serve", "--model", named, "--port", "0", "--threads", "1"});
        QVERIFY(p.waitForStarted());
        QString line;
        while (!line.contains(QLatin1Char('\n')) && p.waitForReadyRead(30000)) line += QString::fromUtf8(p.readAllStandardError());
        p.kill();
        p.waitForFinished();
        if (line.contains(QStringLiteral("without cpp-httplib"))) QSKIP("this build has no HTTP server (no cpp-httplib)");
        QVERIFY2(line.contains(QStringLiteral(" as 'Tiny-Test-Model' on http://127.0.0.1:")), qPrintable(line));
    }

    void benchSaysHowTheGpuRan() {
#ifndef DLAB_CLI_EMULATED_PATH
        QSKIP("no CUDA emulator in this build (no CUDA toolkit)");
#else
        QFETCH(QStringList, env);
        QFETCH(QString, settings);
        const Run r = cli({"bench", "--model", tinyModel(), "--backend", "cuda", "-p", "0", "-n", "2", "--reps", "1", "--json"},
                          DLAB_CLI_EMULATED_PATH, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["backend"].toString(), QString("cuda"));
        QCOMPARE(o["backend_settings"].toString(), settings);
#endif
    }

    // parity on the CUDA emulator: the tiny model's greedy steps on the emulated GPU against the
    // CPU's exact mode, with a prompt long enough for the half GEMM and one in 2-token passes.
    void parityOnTheEmulatedGpu_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("f16 KV, prompt in one GEMM pass") << QStringList{"--kv-type", "f16"};
        QTest::newRow("f32 KV, prompt 2 tokens a pass") << QStringList{"--kv-type", "f32", "--prefill-chunk", "2"};
    }
    void parityOnTheEmulatedGpu() {
#ifndef DLAB_CLI_EMULATED_PATH
        QSKIP("no CUDA emulator in this build (no CUDA toolkit)");
#else
        QFETCH(QStringList, extra);
        const Run r = cli(QStringList{"parity", "--model", tinyModel(), "--steps", "3", "--prompt", "the quick brown fox jumps over the lazy dog", "--json"} + extra,
                          DLAB_CLI_EMULATED_PATH);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(o["pass"].toBool(), r.out.constData());
        QCOMPARE(o["steps_run"].toInt(), 3);
        QCOMPARE(o["tokens_identical"].toInt(), 3);
        QCOMPARE(o["mismatches_at_near_ties"].toInt(), 0);
        QVERIFY(o["prompt_tokens"].toInt() > 8);
        QVERIFY(o["worst_nmse"].toDouble() < 1e-3);
        const QJsonArray steps = o["steps"].toArray();
        QCOMPARE(steps.size(), 3);
        for (const QJsonValue v : steps) {
            QCOMPARE(v["cpu"].toInt(), v["cuda"].toInt());
            QVERIFY(!v["near_tie"].toBool());
            QVERIFY(v["margin"].toDouble() >= 0);
        }
        QVERIFY(!o["kv_rows_max_abs_k"].toArray().isEmpty());
        QVERIFY2(r.err.contains("parity: 3 of 3 greedy tokens identical; worst NMSE"), r.err.constData());
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliCommands)
#include "test_cli_commands.moc"
