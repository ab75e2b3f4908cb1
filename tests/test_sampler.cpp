// The basic sampler against closed-form results on hand-made logits.
#include <QTest>

#include <cmath>

#include "core/error.h"
#include "sampling/sampler.h"

using namespace dlab;

class TestSampler : public QObject {
    Q_OBJECT
private slots:
    void greedyIsArgmaxWithLowestIdOnTies() {
        const std::vector<float> logits{1.0f, 3.0f, 3.0f, -2.0f};
        Sampler s(SamplerParams{0.0f, 0, 1.0f, 7});
        QCOMPARE(s.sample(logits), 1);
        QCOMPARE(argmax(logits), 1);
    }

    void topKOneEqualsGreedy_data() {
        QTest::addColumn<uint64_t>("seed");
        for (uint64_t seed : {1u, 2u, 3u, 99u}) QTest::newRow(qPrintable(QString::number(seed))) << seed;
    }
    void topKOneEqualsGreedy() {
        QFETCH(uint64_t, seed);
        const std::vector<float> logits{0.5f, 2.0f, 1.9f, -1.0f, 1.99f};
        Sampler s(SamplerParams{1.5f, 1, 1.0f, seed});
        QCOMPARE(s.sample(logits), 1);
    }

    void softmaxWithTemperatureMatchesClosedForm() {
        const std::vector<float> logits{2.0f, 1.0f, 0.0f};
        Sampler s(SamplerParams{2.0f, 0, 1.0f, 0});
        const auto d = s.distribution(logits);
        const double z = std::exp(1.0) + std::exp(0.5) + 1.0;
        QCOMPARE(d.size(), size_t(3));
        QVERIFY(std::abs(d[0].p - std::exp(1.0) / z) < 1e-6);
        QVERIFY(std::abs(d[2].p - 1.0 / z) < 1e-6);
    }

    void topPKeepsSmallestPrefixReachingP_data() {
        QTest::addColumn<float>("p");
        QTest::addColumn<int>("kept");
        // probabilities 0.5, 0.25, 0.125, 0.125 (logits ln 4, ln 2, 0, 0)
        QTest::newRow("p=0.5") << 0.5f << 1;
        QTest::newRow("p=0.6") << 0.6f << 2;
        QTest::newRow("p=0.75") << 0.75f << 2;
        QTest::newRow("p=0.8") << 0.8f << 3;
        QTest::newRow("p=1") << 1.0f << 4;
        QTest::newRow("tiny p keeps one") << 1e-6f << 1;
    }
    void topPKeepsSmallestPrefixReachingP() {
        QFETCH(float, p);
        QFETCH(int, kept);
        const std::vector<float> logits{std::log(4.0f), std::log(2.0f), 0.0f, 0.0f};
        Sampler s(SamplerParams{1.0f, 0, p, 0});
        const auto d = s.distribution(logits);
        QCOMPARE(int(d.size()), kept);
        double sum = 0;
        for (auto& c : d) sum += c.p;
        QVERIFY(std::abs(sum - 1.0) < 1e-6);
    }

    void kLargerThanVocabularyKeepsAll() {
        const std::vector<float> logits{0.0f, 1.0f};
        Sampler s(SamplerParams{1.0f, 50, 1.0f, 0});
        QCOMPARE(s.distribution(logits).size(), size_t(2));
    }

    void minusInfinityNeverSampled() {
        const float inf = std::numeric_limits<float>::infinity();
        const std::vector<float> logits{-inf, 0.0f, -inf};
        Sampler s(SamplerParams{1.0f, 0, 1.0f, 5});
        for (int i = 0; i < 50; ++i) QCOMPARE(s.sample(logits), 1);
    }

    void nanRejected() {
        const std::vector<float> logits{0.0f, std::nanf("")};
        Sampler s(SamplerParams{1.0f, 0, 1.0f, 5});
        QVERIFY_THROWS_EXCEPTION(Error, s.sample(logits));
    }

    void sameSeedSameDraws() {
        const std::vector<float> logits{0.1f, 0.2f, 0.3f, 0.0f, 0.25f};
        Sampler a(SamplerParams{1.0f, 0, 1.0f, 42}), b(SamplerParams{1.0f, 0, 1.0f, 42}), c(SamplerParams{1.0f, 0, 1.0f, 43});
        std::vector<TokenId> ra, rb, rc;
        for (int i = 0; i < 64; ++i) { ra.push_back(a.sample(logits)); rb.push_back(b.sample(logits)); rc.push_back(c.sample(logits)); }
        QCOMPARE(ra, rb);
        QVERIFY(ra != rc);
    }

    void samplingFrequenciesFollowProbabilities() {
        const std::vector<float> logits{std::log(0.7f), std::log(0.2f), std::log(0.1f)};
        Sampler s(SamplerParams{1.0f, 0, 1.0f, 11});
        int counts[3] = {0, 0, 0};
        const int n = 20000;
        for (int i = 0; i < n; ++i) counts[s.sample(logits)]++;
        // 5 standard deviations of a binomial with n = 20000
        QVERIFY(std::abs(counts[0] / double(n) - 0.7) < 5 * std::sqrt(0.7 * 0.3 / n));
        QVERIFY(std::abs(counts[2] / double(n) - 0.1) < 5 * std::sqrt(0.1 * 0.9 / n));
    }

    void invalidParameters_data() {
        QTest::addColumn<float>("temperature");
        QTest::addColumn<int>("topK");
        QTest::addColumn<float>("topP");
        QTest::newRow("negative temperature") << -1.0f << 0 << 1.0f;
        QTest::newRow("nan temperature") << std::nanf("") << 0 << 1.0f;
        QTest::newRow("negative top-k") << 1.0f << -1 << 1.0f;
        QTest::newRow("top-p 0") << 1.0f << 0 << 0.0f;
        QTest::newRow("top-p 1.5") << 1.0f << 0 << 1.5f;
    }
    void invalidParameters() {
        QFETCH(float, temperature);
        QFETCH(int, topK);
        QFETCH(float, topP);
        QVERIFY_THROWS_EXCEPTION(Error, SamplerParams({temperature, topK, topP, 0}).validate());
    }
};

QTEST_GUILESS_MAIN(TestSampler)
#include "test_sampler.moc"
