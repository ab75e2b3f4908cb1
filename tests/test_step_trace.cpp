// Step traces as JSONL: every field survives a round trip through Qt's JSON parser, token text
// with quotes, backslashes, control characters and broken UTF-8 is escaped (the raw bytes kept in
// hex), non-finite numbers become null, and one trace is exactly one line.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

#include "generate/step_trace.h"
#include "model/kv_stats.h"

using namespace dlab;

namespace {

StepTrace sample() {
    StepTrace t;
    t.step = 7;
    t.seq = 3;
    t.pos = 41;
    t.phase = Phase::Decode;
    t.evaluated = 1;
    t.chosen = 262;
    t.text = " the";
    t.chosenProbability = 0.375f;
    t.raw = LogitSummary{320, 318, 12.5f, 14.25, 2.5f};
    StageSnapshot a;
    a.stage = "temperature";
    a.top = {Candidate{262, 12.5f, 0.375f}, Candidate{11, 11.0f, 0.25f}};
    a.kept = 318;
    a.massKept = 1.0f;
    a.entropy = 2.25f;
    a.changed = true;
    StageSnapshot b;
    b.stage = "top-k";
    b.top = {Candidate{262, 12.5f, 0.5f}};
    b.kept = 40;
    b.massKept = 0.875f;
    b.inputMassKept = 0.9375f;   // of what the stage before handed it
    b.entropy = 1.5f;
    b.changed = false;
    t.stages = {a, b};
    t.kv = KvTraceStats{42, 3, 13, 2, 196608, 131072};
    t.forwardMs = 3.25;
    t.sampleMs = 0.125;
    return t;
}

QJsonObject parse(const std::string& line) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(line), &err);
    if (err.error != QJsonParseError::NoError) qWarning() << err.errorString() << line.c_str();
    return doc.object();
}

}  // namespace

class TestStepTrace : public QObject {
    Q_OBJECT
private slots:
    void everyFieldRoundTrips() {
        const StepTrace t = sample();
        const std::string line = stepTraceJson(t);
        QVERIFY(line.find('\n') == std::string::npos);
        const QJsonObject o = parse(line);
        QVERIFY(!o.isEmpty());
        QCOMPARE(o.keys().size(), 14);
        QCOMPARE(o["step"].toInt(), 7);
        QCOMPARE(o["seq"].toInt(), 3);
        QCOMPARE(o["pos"].toInt(), 41);
        QCOMPARE(o["phase"].toString(), QString("decode"));
        QCOMPARE(o["evaluated"].toInt(), 1);
        QCOMPARE(o["chosen"].toInt(), 262);
        QCOMPARE(o["text"].toString(), QString(" the"));
        QCOMPARE(o["bytes"].toString(), QString("20746865"));
        QCOMPARE(o["p"].toDouble(), 0.375);

        const QJsonObject raw = o["raw"].toObject();
        QCOMPARE(raw.keys().size(), 5);
        QCOMPARE(raw["vocab"].toInt(), 320);
        QCOMPARE(raw["finite"].toInt(), 318);
        QCOMPARE(raw["maxLogit"].toDouble(), 12.5);
        QCOMPARE(raw["logSumExp"].toDouble(), 14.25);
        QCOMPARE(raw["entropy"].toDouble(), 2.5);

        const QJsonArray stages = o["stages"].toArray();
        QCOMPARE(stages.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const StageSnapshot& want = t.stages[i];
            const QJsonObject s = stages[i].toObject();
            QCOMPARE(s.keys().size(), want.inputMassKept ? 7 : 6);   // the share of its input where recorded
            QCOMPARE(s.contains("inputMassKept"), want.inputMassKept.has_value());
            if (want.inputMassKept) QCOMPARE(s["inputMassKept"].toDouble(), double(*want.inputMassKept));
            QCOMPARE(s["stage"].toString(), QString::fromStdString(want.stage));
            QCOMPARE(s["kept"].toInt(), want.kept);
            QCOMPARE(s["massKept"].toDouble(), double(want.massKept));
            QCOMPARE(s["entropy"].toDouble(), double(want.entropy));
            QCOMPARE(s["changed"].toBool(), want.changed);
            const QJsonArray top = s["top"].toArray();
            QCOMPARE(top.size(), qsizetype(want.top.size()));
            for (int j = 0; j < top.size(); ++j) {
                const QJsonObject c = top[j].toObject();
                QCOMPARE(c.keys().size(), 3);  // no "text" without a TokenText
                QCOMPARE(c["id"].toInt(), want.top[j].id);
                QCOMPARE(c["logit"].toDouble(), double(want.top[j].logit));
                QCOMPARE(c["p"].toDouble(), double(want.top[j].p));
            }
        }

        const QJsonObject kv = o["kv"].toObject();
        QCOMPARE(kv.keys().size(), 6);
        QCOMPARE(kv["positions"].toInteger(), qint64(42));
        QCOMPARE(kv["blocksUsed"].toInteger(), qint64(3));
        QCOMPARE(kv["blocksFree"].toInteger(), qint64(13));
        QCOMPARE(kv["blocksShared"].toInteger(), qint64(2));
        QCOMPARE(kv["bytesInUse"].toInteger(), qint64(196608));
        QCOMPARE(kv["bytesSaved"].toInteger(), qint64(131072));
        QCOMPARE(o["forwardMs"].toDouble(), 3.25);
        QCOMPARE(o["sampleMs"].toDouble(), 0.125);
    }

    void prefillPhaseAndCandidateText() {
        StepTrace t = sample();
        t.phase = Phase::Prefill;
        t.step = 0;
        const QJsonObject o = parse(stepTraceJson(t, [](TokenId id) { return "tok\"" + std::to_string(id); }));
        QCOMPARE(o["phase"].toString(), QString("prefill"));
        const QJsonObject c = o["stages"].toArray()[0].toObject()["top"].toArray()[1].toObject();
        QCOMPARE(c["text"].toString(), QString("tok\"11"));
    }

    void specialCharactersAreEscaped_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("quote-backslash") << QByteArray("say \"hi\" \\o/") << QString("say \"hi\" \\o/");
        QTest::newRow("newline-tab-cr") << QByteArray("a\nb\tc\rd") << QString("a\nb\tc\rd");
        QTest::newRow("control") << QByteArray("\x01\x1f\x7f", 3) << QString::fromUtf8("\x01\x1f\x7f", 3);
        QTest::newRow("nul") << QByteArray("a\0b", 3) << QString::fromUtf8("a\0b", 3);
        QTest::newRow("utf8") << QByteArray("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80") << QString::fromUtf8("café 中 😀");
        QTest::newRow("line-separator") << QByteArray("\xe2\x80\xa8") << QString(QChar(0x2028));
        // A token holding the first two bytes of a three-byte character ("—" is e2 80 94).
        QTest::newRow("partial-char") << QByteArray("\xe2\x80") << QString(QChar(0xfffd));
        QTest::newRow("lone-continuation") << QByteArray("x\x94y") << QString("x") + QChar(0xfffd) + "y";
    }
    void specialCharactersAreEscaped() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        StepTrace t = sample();
        t.text = bytes.toStdString();
        const std::string line = stepTraceJson(t);
        QVERIFY(line.find('\n') == std::string::npos);
        QVERIFY(line.find('\r') == std::string::npos);
        const QJsonObject o = parse(line);
        QVERIFY(!o.isEmpty());
        QCOMPARE(o["text"].toString(), text);
        QCOMPARE(QByteArray::fromHex(o["bytes"].toString().toLatin1()), bytes);
    }

    // Floats are written in their shortest form and read back as the same float.
    void floatsRoundTripShortest() {
        StepTrace t = sample();
        t.chosenProbability = 0.1f;
        t.stages[0].top[0].logit = -3.3333333f;
        t.raw.entropy = 1e-7f;
        const std::string line = stepTraceJson(t);
        QVERIFY(line.find("\"p\":0.1,") != std::string::npos);
        const QJsonObject o = parse(line);
        QCOMPARE(float(o["p"].toDouble()), 0.1f);
        QCOMPARE(float(o["stages"].toArray()[0].toObject()["top"].toArray()[0].toObject()["logit"].toDouble()), -3.3333333f);
        QCOMPARE(float(o["raw"].toObject()["entropy"].toDouble()), 1e-7f);
    }

    void nonFiniteNumbersAreNull() {
        StepTrace t = sample();
        t.raw.maxLogit = -std::numeric_limits<float>::infinity();
        t.raw.entropy = std::numeric_limits<float>::quiet_NaN();
        t.stages[0].massKept = std::numeric_limits<float>::infinity();
        t.stages[0].top[1].logit = -std::numeric_limits<float>::infinity();
        t.forwardMs = std::numeric_limits<double>::quiet_NaN();
        const QJsonObject o = parse(stepTraceJson(t));
        QVERIFY(!o.isEmpty());
        QVERIFY(o["raw"].toObject()["maxLogit"].isNull());
        QVERIFY(o["raw"].toObject()["entropy"].isNull());
        QCOMPARE(o["raw"].toObject()["logSumExp"].toDouble(), 14.25);
        const QJsonObject s = o["stages"].toArray()[0].toObject();
        QVERIFY(s["massKept"].isNull());
        QVERIFY(s["top"].toArray()[1].toObject()["logit"].isNull());
        QCOMPARE(s["top"].toArray()[0].toObject()["logit"].toDouble(), 12.5);
        QVERIFY(o["forwardMs"].isNull());
        QCOMPARE(o["sampleMs"].toDouble(), 0.125);
    }

    void emptyStagesAndTokenText() {
        StepTrace t;
        const QJsonObject o = parse(stepTraceJson(t));
        QVERIFY(o["stages"].isArray());
        QCOMPARE(o["stages"].toArray().size(), 0);
        QCOMPARE(o["text"].toString(), QString());
        QCOMPARE(o["bytes"].toString(), QString());
        QCOMPARE(o["chosen"].toInt(), -1);
    }

    void kvStatsConversion() {
        KvStats s;
        s.blocksUsed = 5;
        s.blocksFree = 11;
        s.blocksShared = 2;
        s.bytesInUse = 5000;
        s.bytesSavedBySharing = 2000;
        const KvTraceStats k = kvTraceStats(s, 70);
        QCOMPARE(k.positions, int64_t(70));
        QCOMPARE(k.blocksUsed, int64_t(5));
        QCOMPARE(k.blocksFree, int64_t(11));
        QCOMPARE(k.blocksShared, int64_t(2));
        QCOMPARE(k.bytesInUse, int64_t(5000));
        QCOMPARE(k.bytesSaved, int64_t(2000));
    }
};

QTEST_APPLESS_MAIN(TestStepTrace)
#include "test_step_trace.moc"
