// Forward-pass logits against llama.cpp (golden files made by tests/golden/make_llamacpp_golden.py
// with llama-cpp-python 0.3.36; see tests/golden/README.md).
//
// Rows and tolerances:
//  * tiny random-weights models (llama, qwen2, gpt2; F32/F16/Q8_0/Q4_1) written by our own GGUF
//    writer, regenerated here and checked by sha256, against llama.cpp with flash attention off
//    and an f32 KV cache. These small models are well conditioned, so differences are rounding
//    only. Measured: llama/qwen2 F32 and Q4_1 below 1e-5; gpt2 up to 2.5e-3 (ggml's GELU goes
//    through an f16 lookup table, ours is computed in f32); one Q8_0 decode step 0.023 (an
//    activation that rounds the other way). Bounds: max 5e-3 / mean 1e-3 for F32/F16 weights,
//    max 0.05 / mean 2e-3 for quantized weights, and the 64-token greedy continuations identical.
//  * the default model in "exact" mode (f32 weights copies, unquantized activations, f32 KV)
//    against llama.cpp on the same weights dequantized to F32 (flash attention off, f32 KV):
//    the same arithmetic up to summation order. Measured max 3e-5; bound max 2e-3 / mean 2e-4,
//    and all 5 × 64 greedy tokens identical.
//  * the default model on the fast path (Q4_1/Q8_0 weights × Q8_1/Q8_0 activations, f16 KV)
//    against llama.cpp's default run of the Q4_1 file. Activation quantization and f16 rounding
//    make this 30-layer model's logits move by tenths for changes that mean nothing: llama.cpp's
//    own logits move by up to 1.67 (mean 0.17) when only its attention kernel changes (flash
//    attention on vs off, "noise_floor" in the golden file), and its greedy path has
//    near-ties of 0.016. So the bound here is that noise floor with a margin (mean ≤ 0.3,
//    max ≤ 2.5; measured 1.23 / 0.16), and the greedy check is teacher-forced: at each of llama.cpp's 64 greedy steps
//    our argmax must equal llama.cpp's wherever llama.cpp's top-1/top-2 gap exceeds 1.0.
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

#include "gguf/tiny_model.h"
#include "model/backend.h"
#include "sampling/sampler.h"
#include "test_paths.h"

using namespace dlab;

namespace {

QJsonObject loadJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString sha256(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

std::vector<TokenId> ids(const QJsonArray& a) {
    std::vector<TokenId> v;
    for (const auto& x : a) v.push_back(x.toInt());
    return v;
}

// "tiny-<arch>-<type>[-tied]" -> spec (seed 1, default dimensions)
TinyModelSpec tinySpec(const QString& name) {
    const QStringList parts = name.split('-');
    TinyModelSpec s;
    s.arch = parts.value(1).toStdString();
    const QString t = parts.value(2);
    s.weightType = t == "f16" ? GgmlType::F16 : t == "q8_0" ? GgmlType::Q8_0 : t == "q4_1" ? GgmlType::Q4_1 : GgmlType::F32;
    s.tiedOutput = parts.contains("tied");
    s.seed = 1;
    return s;
}

struct Diff {
    double maxAbs = 0, sumAbs = 0;
    int64_t n = 0;
    void add(double d) { maxAbs = std::max(maxAbs, d); sumAbs += d; ++n; }
    double mean() const { return n ? sumAbs / n : 0.0; }
};

// Compares our row against the reference's top ids and logits.
void compareRow(const float* ours, const QJsonArray& topIds, const QJsonArray& topLogits, Diff& d) {
    for (int k = 0; k < topIds.size(); ++k) d.add(std::abs(double(ours[topIds[k].toInt()]) - topLogits[k].toDouble()));
}

}  // namespace

class TestForwardGolden : public QObject {
    Q_OBJECT
private slots:
    void matchesLlamaCpp_data() {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<bool>("kvF32");
        QTest::addColumn<double>("maxAbs");
        QTest::addColumn<double>("meanAbs");
        QTest::addColumn<bool>("greedyIdentical");
        for (const char* tiny : {"tiny-llama-f32", "tiny-qwen2-f32", "tiny-gpt2-f32", "tiny-gpt2-f16"})
            QTest::newRow(tiny) << QString(tiny) << false << true << 5e-3 << 1e-3 << true;
        for (const char* tiny : {"tiny-llama-q4_1-tied", "tiny-qwen2-q8_0"})
            QTest::newRow(tiny) << QString(tiny) << false << true << 5e-2 << 2e-3 << true;
        QTest::newRow("SmolLM2 exact vs llama.cpp on F32 weights")
            << "smollm2-135m-instruct-q4_1.dequant-f32" << true << true << 2e-3 << 2e-4 << true;
        QTest::newRow("SmolLM2 fast path vs llama.cpp Q4_1")
            << "smollm2-135m-instruct-q4_1" << false << false << 2.5 << 0.3 << false;
    }

    void matchesLlamaCpp() {
        QFETCH(QString, golden);
        QFETCH(bool, exact);
        QFETCH(bool, kvF32);
        QFETCH(double, maxAbs);
        QFETCH(double, meanAbs);
        QFETCH(bool, greedyIdentical);

        const QJsonObject g = loadJson(QString::fromStdString(test::dataDir()) + "/golden/" + golden + ".json");
        QVERIFY2(!g.isEmpty(), "golden file missing or unreadable");
        std::string modelPath;
        if (golden.startsWith("tiny-")) {
            modelPath = test::scratchDir() + "/" + golden.toStdString() + ".gguf";
            writeTinyModel(tinySpec(golden), modelPath);
        } else {
            modelPath = test::defaultModelPath();
            if (modelPath.empty()) QFAIL("the default model is not installed; run ./scripts/setup.sh");
        }
        QCOMPARE(sha256(modelPath), g["model"].toObject()["sha256"].toString());

        auto model = Model::load(modelPath);
        auto backend = makeCpuBackend(*model, 2, exact);
        const int64_t V = model->hparams().nVocab;
        Diff prompt, greedy;
        int checkedSteps = 0, freeRunIdentical = 0, prompts = 0;
        for (const auto& pv : g["prompts"].toArray()) {
            const QJsonObject p = pv.toObject();
            const auto tokens = ids(p["tokens"].toArray());
            const QJsonObject pos = p["positions"].toObject();
            const QJsonObject gr = p["greedy"].toObject();
            const auto ref = ids(gr["tokens"].toArray());

            // Whole prompt in one batch, every position's logits.
            KvCache cache(model->hparams(), 512, kvF32 ? KvType::F32 : KvType::F16);
            const auto logits = backend->forward(tokens, cache, true);
            for (size_t t = 0; t < tokens.size(); ++t)
                compareRow(logits.data() + t * V, pos["top_ids"].toArray()[int(t)].toArray(),
                           pos["top_logits"].toArray()[int(t)].toArray(), prompt);

            // Teacher-forced greedy: feed llama.cpp's tokens, compare every step.
            std::vector<float> last(logits.end() - V, logits.end());
            const QJsonArray gIds = gr["top_ids"].toArray(), gLogits = gr["top_logits"].toArray();
            for (size_t i = 0; i < ref.size(); ++i) {
                const QJsonArray topL = gLogits[int(i)].toArray();
                compareRow(last.data(), gIds[int(i)].toArray(), topL, greedy);
                const double gap = topL[0].toDouble() - topL[1].toDouble();
                if (greedyIdentical || gap > 1.0) {
                    QVERIFY2(argmax(last) == ref[i], qPrintable(QString("prompt %1 greedy step %2: ours %3, llama.cpp %4 (gap %5)")
                                                                   .arg(p["name"].toString()).arg(i).arg(argmax(last)).arg(ref[i]).arg(gap)));
                    ++checkedSteps;
                }
                if (i + 1 == ref.size()) break;
                const TokenId one[1] = {ref[i]};
                const auto next = backend->forward(one, cache, false);
                last.assign(next.begin(), next.end());
            }

            // Free-running greedy from the prompt: how many tokens agree before the first difference.
            // (Where every teacher-forced step had to match, free running reproduces the same path.)
            ++prompts;
            if (greedyIdentical) {
                freeRunIdentical += int(ref.size());
                continue;
            }
            KvCache free(model->hparams(), 512, kvF32 ? KvType::F32 : KvType::F16);
            auto l = backend->forward(tokens, free, false);
            int same = 0;
            for (size_t i = 0; i < ref.size(); ++i) {
                const TokenId t = argmax(l);
                if (t != ref[i]) break;
                ++same;
                const TokenId one[1] = {t};
                l = backend->forward(one, free, false);
            }
            freeRunIdentical += same;
        }
        qInfo("%s: prompt logits max |diff| %.5f mean %.5f; greedy-step logits max %.5f mean %.5f; "
              "%d greedy steps checked; free-running greedy identical for %d tokens over %d prompts",
              qPrintable(golden), prompt.maxAbs, prompt.mean(), greedy.maxAbs, greedy.mean(), checkedSteps,
              freeRunIdentical, prompts);
        QVERIFY2(prompt.maxAbs <= maxAbs && greedy.maxAbs <= maxAbs, "max |logit difference| above tolerance");
        QVERIFY2(prompt.mean() <= meanAbs && greedy.mean() <= meanAbs, "mean |logit difference| above tolerance");
    }
};

QTEST_GUILESS_MAIN(TestForwardGolden)
#include "test_forward_golden.moc"
