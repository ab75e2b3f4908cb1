// Our stages against llama.cpp's own samplers on the same hand-made logits and histories
// (tests/data/golden/sampler-llamacpp.json, made by tests/golden/make_sampler_golden.py):
// the same tokens must survive, with the same logits. Mirostat 1 cases also carry llama.cpp's
// renormalised p, the token it drew and a second step that shows mu's update.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "sampling/sampler_chain.h"
#include "test_paths.h"

using namespace dlab;

class TestSamplerLlamaCpp : public QObject {
    Q_OBJECT
    QJsonArray cases_;

    static SamplerParams paramsOf(const QJsonObject& p) {
        SamplerParams s;
        s.temperature = float(p["temperature"].toDouble(1.0));
        s.topK = p["top_k"].toInt(0);
        s.topP = float(p["top_p"].toDouble(1.0));
        s.minP = float(p["min_p"].toDouble(0.0));
        s.typicalP = float(p["typical_p"].toDouble(1.0));
        s.topNSigma = float(p["top_n_sigma"].toDouble(0.0));
        s.xtcProbability = float(p["xtc_probability"].toDouble(0.0));
        s.xtcThreshold = float(p["xtc_threshold"].toDouble(0.1));
        s.repeatPenalty = float(p["repeat_penalty"].toDouble(1.0));
        s.frequencyPenalty = float(p["frequency_penalty"].toDouble(0.0));
        s.presencePenalty = float(p["presence_penalty"].toDouble(0.0));
        s.penaltyLastN = p["penalty_last_n"].toInt(64);
        s.dryMultiplier = float(p["dry_multiplier"].toDouble(0.0));
        s.dryBase = float(p["dry_base"].toDouble(1.75));
        s.dryAllowedLength = p["dry_allowed_length"].toInt(2);
        s.dryPenaltyLastN = p["dry_penalty_last_n"].toInt(-1);
        s.mirostatTau = float(p["mirostat_tau"].toDouble(0.0));
        s.mirostatEta = float(p["mirostat_eta"].toDouble(0.1));
        s.mirostatM = p["mirostat_m"].toInt(100);
        s.order = p["order"].toString().toStdString();
        return s;
    }

private slots:
    void initTestCase() {
        QFile f(QString::fromStdString(test::dataDir() + "/golden/sampler-llamacpp.json"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "tests/data/golden/sampler-llamacpp.json is missing");
        cases_ = QJsonDocument::fromJson(f.readAll()).object()["cases"].toArray();
        QVERIFY(cases_.size() >= 20);
        const auto mirostat = std::count_if(cases_.begin(), cases_.end(), [](const QJsonValue& v) { return v.toObject().contains("mirostat"); });
        QVERIFY2(mirostat >= 6, "the golden file has fewer than 6 Mirostat 1 cases");
    }

    void sameSurvivorsAsLlamaCpp_data() {
        QTest::addColumn<QJsonObject>("c");
        for (const auto& v : cases_) QTest::newRow(qPrintable(v.toObject()["name"].toString())) << v.toObject();
    }
    void sameSurvivorsAsLlamaCpp() {
        QFETCH(QJsonObject, c);
        const SamplerParams s = paramsOf(c["params"].toObject());

        std::vector<float> logits;
        for (const auto& v : c["logits"].toArray()) logits.push_back(float(v.toDouble()));
        std::vector<TokenId> history;
        for (const auto& v : c["history"].toArray()) history.push_back(v.toInt());

        SamplerChain chain(s, 8);
        SamplerState state(1);
        chain.sample(logits, History{history, 0}, state, false);  // all history counts as generated, as in llama.cpp
        std::vector<Candidate> ours;
        for (const auto& k : chain.candidates())
            if (k.logit != -std::numeric_limits<float>::infinity()) ours.push_back(k);
        std::sort(ours.begin(), ours.end(), [](const Candidate& a, const Candidate& b) { return a.id < b.id; });

        const QJsonArray kept = c["kept"].toArray(), keptLogits = c["kept_logits"].toArray();
        QCOMPARE(int(ours.size()), int(kept.size()));
        for (int i = 0; i < kept.size(); ++i) {
            QCOMPARE(ours[size_t(i)].id, kept[i].toInt());
            const double want = keptLogits[i].toDouble();
            QVERIFY2(std::abs(ours[size_t(i)].logit - want) <= 1e-5 * (1.0 + std::abs(want)),
                     qPrintable(QString("token %1: ours %2, llama.cpp %3").arg(kept[i].toInt()).arg(ours[size_t(i)].logit).arg(want)));
        }
    }

    // Mirostat 1: llama.cpp draws inside its apply with its own RNG, so we replay its choice. Step 1:
    // the same survivors with the same p; then accept(llama.cpp's token) updates mu; step 2 on new
    // logits must again keep exactly llama.cpp's set (which a stage with a wrong mu update misses:
    // the script checks that an unchanged mu keeps a different number of tokens).
    void mirostatV1AsLlamaCpp_data() {
        QTest::addColumn<QJsonObject>("c");
        for (const auto& v : cases_)
            if (v.toObject().contains("mirostat")) QTest::newRow(qPrintable(v.toObject()["name"].toString())) << v.toObject();
    }
    void mirostatV1AsLlamaCpp() {
        QFETCH(QJsonObject, c);
        const SamplerParams s = paramsOf(c["params"].toObject());
        const QJsonObject mir = c["mirostat"].toObject();
        const QJsonArray steps = mir["steps"].toArray();
        QCOMPARE(steps.size(), 2);
        SamplerChain chain(s, 8);
        SamplerState state(1);
        CandidateArray cands;
        std::vector<double> muErrors;
        for (int step = 0; step < steps.size(); ++step) {
            const QJsonObject st = steps[step].toObject();
            std::vector<float> logits;
            for (const auto& v : st["logits"].toArray()) logits.push_back(float(v.toDouble()));
            QCOMPARE(int(logits.size()), mir["n_vocab"].toInt());  // our N is the logit row, as llama.cpp's n_vocab
            cands.reset(logits, &state);
            chain.apply(cands, History{});
            if (!cands.probsValid()) cands.softmax();
            std::vector<Candidate> ours(cands.begin(), cands.end());
            std::sort(ours.begin(), ours.end(), ranksAbove);

            const QJsonArray kept = st["kept"].toArray(), keptP = st["kept_p"].toArray();
            QVERIFY2(int(ours.size()) == kept.size(),
                     qPrintable(QString("step %1: we keep %2 tokens, llama.cpp %3 (%4 with an unchanged mu)")
                                    .arg(step + 1).arg(ours.size()).arg(kept.size()).arg(st["kept_if_mu_unchanged"].toInt(-1))));
            for (int i = 0; i < kept.size(); ++i) {
                QCOMPARE(ours[size_t(i)].id, kept[i].toInt());  // same set, same order (most probable first)
                const double want = keptP[i].toDouble();
                QVERIFY2(std::abs(ours[size_t(i)].p - want) <= 1e-5,
                         qPrintable(QString("step %1 token %2: p ours %3, llama.cpp %4").arg(step + 1).arg(kept[i].toInt())
                                        .arg(ours[size_t(i)].p).arg(want)));
            }
            const TokenId selected = st["selected"].toInt();
            auto it = std::find_if(ours.begin(), ours.end(), [&](const Candidate& k) { return k.id == selected; });
            QVERIFY2(it != ours.end(), "llama.cpp drew a token that we removed");
            QVERIFY(std::abs(it->p - st["selected_p"].toDouble()) <= 1e-5);
            const float muBefore = state.mirostatMu;
            if (step == 0) QCOMPARE(muBefore, 2.0f * s.mirostatTau);
            chain.accept(selected, it->p, state);
            muErrors.push_back(std::abs(state.mirostatMu - (muBefore - s.mirostatEta * (-std::log2(it->p) - s.mirostatTau))));
        }
        // Checked last, so a stage that learns wrongly first fails on llama.cpp's second step above.
        for (double e : muErrors) QVERIFY(e <= 1e-5);
    }
};

QTEST_GUILESS_MAIN(TestSamplerLlamaCpp)
#include "test_sampler_llamacpp.moc"
