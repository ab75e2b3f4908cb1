// `decoding-lab-cli sample`: the chain on logits from a JSON file, and the sampler options of
// `generate`; bad input gives exit code 1 and one clear line.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <fstream>

#include "test_paths.h"

namespace {

struct Run {
    int exitCode;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QString::fromStdString(dlab::test::cliPath()), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        return {-1, "", "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString writeFile(const std::string& name, const std::string& text) {
    const std::string path = dlab::test::scratchDir() + "/" + name;
    std::ofstream(path) << text;
    return QString::fromStdString(path);
}

}  // namespace

class TestSamplerCli : public QObject {
    Q_OBJECT
    QString abc_;

private slots:
    void initTestCase() {
        const Run probe = cli({"sample", "--help"});
        if (probe.err.contains("unknown command")) QSKIP("app/cli/main.cpp does not register the 'sample' command yet");
        abc_ = writeFile("abc.json", R"({"tokens": ["a", "b", "c", "d"], "logits": [2.0, 1.0, 0.0, -Infinity],
                                        "history": [0, 0], "prompt_length": 1})");
    }

    void jsonShowsEveryStage() {
        const Run r = cli({"sample", "--logits", abc_, "--json", "--temperature", "2", "--top-k", "0", "--top-p", "0.6"});
        QCOMPARE(r.exitCode, 0);
        const auto doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const auto stages = doc["stages"].toArray();
        QCOMPARE(stages.size(), 8);  // hf: 4 penalty stages, temperature, top-k, top-p, min-p
        const auto topP = stages[6].toObject();
        QCOMPARE(topP["stage"].toString(), QString("top-p"));
        QCOMPARE(topP["kept"].toInt(), 2);
        QVERIFY(qAbs(topP["mass"].toDouble() - (std::exp(2.0) + std::exp(1.0)) / (std::exp(2.0) + std::exp(1.0) + 1.0)) < 1e-5);
        // Of what temperature 2 handed it (logits 1, 0.5, 0): a different share.
        QVERIFY(qAbs(topP["input_mass"].toDouble() - (std::exp(1.0) + std::exp(0.5)) / (std::exp(1.0) + std::exp(0.5) + 1.0)) < 1e-5);
        QCOMPARE(stages[4].toObject()["input_mass"].toDouble(), 1.0);   // temperature removes nothing
        QCOMPARE(topP["top"].toArray()[0].toObject()["token"].toString(), QString("a"));
        QCOMPARE(doc["raw"].toObject()["vocab"].toInt(), 4);
    }

    void llamaCppOrderKeepsOne() {
        const Run r = cli({"sample", "--logits", abc_, "--json", "--order", "llama.cpp", "--temperature", "2", "--top-k", "0",
                           "--top-p", "0.6", "--seed", "5"});
        QCOMPARE(r.exitCode, 0);
        const auto doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["stages"].toArray().last().toObject()["kept"].toInt(), 1);
        QCOMPARE(doc["chosen"].toObject()["token"].toString(), QString("a"));
    }

    void penaltiesSeeTheHistory() {
        // history [a, a], prompt length 1: the presence penalty counts the generated 'a' only.
        const Run r = cli({"sample", "--logits", abc_, "--json", "--presence-penalty", "1.5", "--temperature", "0"});
        QCOMPARE(r.exitCode, 0);
        const auto stages = QJsonDocument::fromJson(r.out.toUtf8()).object()["stages"].toArray();
        const auto fp = stages[2].toObject();
        QCOMPARE(fp["stage"].toString(), QString("freq-presence"));
        QCOMPARE(fp["top"].toArray()[0].toObject()["token"].toString(), QString("b"));
        QCOMPARE(fp["top"].toArray()[1].toObject()["logit"].toDouble(), 0.5);
    }

    void textOutput() {
        const Run r = cli({"sample", "--logits", abc_, "--top-n", "2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("raw logits: 4 tokens"));
        QVERIFY(r.out.contains("top-k"));
        QVERIFY(r.out.contains("chosen: id"));
    }

    void rejects_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString nan = writeFile("nan.json", R"({"logits": [1.0, NaN, 0.5]})");
        const QString mismatch = writeFile("mismatch.json", R"({"logits": [1, 2, 3], "tokens": ["a"]})");
        const QString broken = writeFile("broken.json", R"({"logits": [1, 2,)");
        const QString badHistory = writeFile("history.json", R"({"logits": [1, 2], "history": [5]})");
        QTest::newRow("NaN logit") << QStringList{"sample", "--logits", nan} << "token 1 is NaN";
        QTest::newRow("token count") << QStringList{"sample", "--logits", mismatch} << "one token text per logit";
        QTest::newRow("broken JSON") << QStringList{"sample", "--logits", broken} << "broken.json: not valid JSON, expected a number or a value at byte";
        QTest::newRow("history out of range") << QStringList{"sample", "--logits", badHistory} << "outside the vocabulary";
        QTest::newRow("no file option") << QStringList{"sample"} << "--logits FILE.json is required";
        QTest::newRow("missing file") << QStringList{"sample", "--logits", "/nonexistent/x.json"} << "cannot open";
        QTest::newRow("unknown stage") << QStringList{"sample", "--logits", abc_, "--order", "top-k,topp"} << "unknown sampler stage 'topp'";
        QTest::newRow("min-p range") << QStringList{"sample", "--logits", abc_, "--min-p", "2"} << "--min-p must be between 0 and 1";
        QTest::newRow("xtc outside order") << QStringList{"sample", "--logits", abc_, "--xtc-probability", "0.5"} << "has no xtc stage";
        QTest::newRow("bad logit bias") << QStringList{"sample", "--logits", abc_, "--logit-bias", "x=1"} << "--logit-bias wants ID=BIAS";
        QTest::newRow("bias outside vocabulary") << QStringList{"sample", "--logits", abc_, "--logit-bias", "9=1"} << "outside the vocabulary";
        QTest::newRow("generate: order") << QStringList{"generate", "--model", "/nonexistent/m.gguf", "--prompt", "hi", "--order", "top-k,nope"} << "unknown sampler stage 'nope'";
        QTest::newRow("generate: typical outside hf") << QStringList{"generate", "--model", "/nonexistent/m.gguf", "--prompt", "hi", "--typical-p", "0.5"} << "has no typical stage";
        QTest::newRow("generate: penalty-last-n") << QStringList{"generate", "--model", "/nonexistent/m.gguf", "--prompt", "hi", "--penalty-last-n", "-5"} << "--penalty-last-n must be between -1";
    }
    void rejects() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(expected), qPrintable("stderr was: " + r.err));
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable("expected one line, got: " + r.err));
    }
};

QTEST_GUILESS_MAIN(TestSamplerCli)
#include "test_sampler_cli.moc"
