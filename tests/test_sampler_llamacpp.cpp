// Our stages against llama.cpp's own samplers on the same hand-made logits and histories
// (tests/data/golden/sampler-llamacpp.json, made by tests/golden/make_sampler_golden.py):
// the same tokens must survive, with the same logits.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

#include "sampling/sampler_chain.h"
#include "test_paths.h"

using namespace dlab;

class TestSamplerLlamaCpp : public QObject {
    Q_OBJECT
    QJsonArray cases_;

private slots:
    void initTestCase() {
        QFile f(QString::fromStdString(test::dataDir() + "/golden/sampler-llamacpp.json"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "tests/data/golden/sampler-llamacpp.json is missing");
        cases_ = QJsonDocument::fromJson(f.readAll()).object()["cases"].toArray();
        QVERIFY(cases_.size() >= 20);
    }

    void sameSurvivorsAsLlamaCpp_data() {
        QTest::addColumn<QJsonObject>("c");
        for (const auto& v : cases_) QTest::newRow(qPrintable(v.toObject()["name"].toString())) << v.toObject();
    }
    void sameSurvivorsAsLlamaCpp() {
        QFETCH(QJsonObject, c);
        const QJsonObject p = c["params"].toObject();
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
        s.order = p["order"].toString().toStdString();

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
};

QTEST_GUILESS_MAIN(TestSamplerLlamaCpp)
#include "test_sampler_llamacpp.moc"
