// KV memory arithmetic: 2 · layers · kv_heads · head_dim · positions · bytes per value, for the
// presets and through `decoding-lab-cli kv`.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include "core/error.h"
#include "model/kv_memory.h"
#include "test_paths.h"

using namespace dlab;

class TestKvMemory : public QObject {
    Q_OBJECT
private slots:
    void presetBytes_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("type");
        QTest::addColumn<qint64>("positions");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("Llama 2 7B, 4096 f16 = 2 GiB") << "llama2-7b" << "f16" << 4096LL << 1LL << (2LL << 30);
        QTest::newRow("Llama 3 8B, 1 f16 = 128 KiB") << "llama3-8b" << "f16" << 1LL << 1LL << (128LL << 10);
        QTest::newRow("Llama 3 8B, 8192 f32 = 2 GiB") << "Llama 3 8B" << "f32" << 8192LL << 1LL << (2LL << 30);
        QTest::newRow("Llama 3 70B, 1 f16 = 320 KiB") << "llama3-70b" << "f16" << 1LL << 1LL << (320LL << 10);
        QTest::newRow("Mistral 7B, 1 f16 = 128 KiB") << "mistral-7b" << "f16" << 1LL << 1LL << (128LL << 10);
        QTest::newRow("Qwen2.5 0.5B, 1 f16 = 12 KiB") << "qwen2.5-0.5b" << "f16" << 1LL << 1LL << (12LL << 10);
        QTest::newRow("Qwen2.5 7B, 1 f16 = 56 KiB") << "qwen2.5-7b" << "f16" << 1LL << 1LL << (56LL << 10);
        QTest::newRow("SmolLM2 135M, 1 f16 = 22.5 KiB") << "smollm2-135m" << "f16" << 1LL << 1LL << 23040LL;
        // q8_0: 34 bytes per 32 values
        QTest::newRow("Llama 2 7B, 4096 q8_0") << "llama2-7b" << "q8_0" << 4096LL << 1LL << (2LL << 30) / 2 * 34 / 32;
        QTest::newRow("Llama 3 8B, 4096 f16 × 8") << "llama3-8b" << "f16" << 4096LL << 8LL << (4LL << 30);
    }
    void presetBytes() {
        QFETCH(QString, preset);
        QFETCH(QString, type);
        QFETCH(qint64, positions);
        QFETCH(qint64, batch);
        QFETCH(qint64, bytes);
        QCOMPARE(qint64(kvCacheBytes(findKvPreset(preset.toStdString()), positions, parseKvType(type.toStdString()), batch)), bytes);
    }

    // The largest counts the CLI accepts (--context 2^30, --batch 2^20) are past 2^63 bytes for the
    // big presets: the result must be an error, never a wrapped (negative) number.
    void countsPast63BitsAreAnError_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("positions");
        QTest::addColumn<qint64>("batch");
        QTest::newRow("Llama 2 7B, 2^30 × 20000") << "llama2-7b" << (1LL << 30) << 20000LL;
        QTest::newRow("Llama 3 70B, 2^30 × 2^20") << "llama3-70b" << (1LL << 30) << (1LL << 20);
        QTest::newRow("GPT-2, 2^30 × 2^20") << "gpt2" << (1LL << 30) << (1LL << 20);
    }
    void countsPast63BitsAreAnError() {
        QFETCH(QString, preset);
        QFETCH(qint64, positions);
        QFETCH(qint64, batch);
        try {
            const qint64 bytes = kvCacheBytes(findKvPreset(preset.toStdString()), positions, KvType::F16, batch);
            QFAIL(qPrintable(QString("no error; got %1 bytes").arg(bytes)));
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("more than 8 EiB"), e.what());
            QVERIFY2(QString(e.what()).contains(QString::number(positions)), e.what());
        }
    }

    // Just below the limit the exact product comes back: 2^19 bytes per position × 2^30 × 2^13 = 2^62.
    void largestCountsThatFitAreExact() {
        QCOMPARE(qint64(kvCacheBytes(findKvPreset("llama2-7b"), 1LL << 30, KvType::F16, 1LL << 13)), qint64(1LL << 62));
    }

    void cliSaysWhenTheCacheDoesNotFit() {
        QProcess p;
        p.start(QString::fromStdString(test::cliPath()),
                {"kv", "--preset", "llama2-7b", "--context", "1073741824", "--batch", "20000"});
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput()), err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(!out.contains('-'), qPrintable("stdout: " + out));
        QVERIFY2(err.contains("more than 8 EiB"), qPrintable("stderr: " + err));
    }

    void unknownPresetListsTheKnownOnes() {
        try {
            findKvPreset("llama9-1t");
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("llama3-8b"), e.what());
        }
    }

    void cliPrintsTheBytes() {
        QProcess p;
        p.start(QString::fromStdString(test::cliPath()),
                {"kv", "--preset", "llama2-7b", "--context", "4096", "--dtype", "f16", "--batch", "2", "--json"});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(o["bytes"].toDouble(), double(4LL << 30));
        QCOMPARE(o["bytes_per_position"].toDouble(), double(512 << 10));
        QCOMPARE(o["blocks"].toDouble(), 512.0);
    }

    // The lesson's numbers (inference chapter and serving page), from the calculator's functions.
    void lessonNumbers() {
        const double GiB = double(1LL << 30);
        const KvShape l2 = findKvPreset("llama2-7b");
        const int64_t perSeq = kvCacheBytes(l2, 4096, KvType::F16);
        QCOMPARE(perSeq, 2LL << 30);                                        // "≈ 2 GB per sequence"
        QCOMPARE(sequencesThatFit(40 * GiB, 0, double(perSeq)), 20);        // "roughly 20 concurrent sequences" in 40 GB
        QCOMPARE(sequencesThatFit(40 * GiB, weightsBytes(l2), double(perSeq)), 13);  // after 13.5 GB of f16 weights
        QCOMPARE(kvCacheBytes(findKvPreset("llama3-8b"), 128 * 1024, KvType::F16), 16LL << 30);   // 16 GB at 128K
        QCOMPARE(kvCacheBytes(findKvPreset("llama3-70b"), 128 * 1024, KvType::F16), 40LL << 30);  // 40 GB at 128K
        QCOMPARE(sequencesThatFit(24 * GiB, 30 * GiB, 1.0), 0);             // weights alone do not fit
        QCOMPARE(gpuSizesGiB(), (std::vector<int>{24, 40, 80, 141}));
    }

    void headLayouts_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("layout");
        QTest::addColumn<qint64>("kvHeads");
        QTest::newRow("Llama 3 8B as trained (GQA 8)") << "llama3-8b" << int(KvHeadLayout::AsTrained) << 8LL;
        QTest::newRow("Llama 3 8B as MHA") << "llama3-8b" << int(KvHeadLayout::Mha) << 32LL;
        QTest::newRow("Llama 3 8B as MQA") << "llama3-8b" << int(KvHeadLayout::Mqa) << 1LL;
        QTest::newRow("SmolLM2 as MHA") << "smollm2-135m" << int(KvHeadLayout::Mha) << 9LL;
    }
    void headLayouts() {
        QFETCH(QString, preset);
        QFETCH(int, layout);
        QFETCH(qint64, kvHeads);
        const KvShape s = withHeadLayout(findKvPreset(preset.toStdString()), KvHeadLayout(layout));
        QCOMPARE(qint64(s.nHeadKv), kvHeads);
        QCOMPARE(qint64(kvBytesPerPosition(s, KvType::F16)), 2 * s.nLayer * kvHeads * s.headDim * 2);
    }
};

QTEST_GUILESS_MAIN(TestKvMemory)
#include "test_kv_memory.moc"
