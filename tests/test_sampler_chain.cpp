// The sampler chain stage by stage against closed-form results on hand-made logits, the two named
// orders where they must differ, snapshots, seeds and re-running a cached step.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/error.h"
#include "sampling/dry_breakers.h"
#include "sampling/sampler_chain.h"
#include "sampling/stages_llamacpp.h"

using namespace dlab;


namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Run {
    SampleResult result;
    std::vector<Candidate> survivors;  // final distribution, most probable first
    std::vector<TokenId> ids() const {
        std::vector<TokenId> out;
        for (const auto& c : survivors) out.push_back(c.id);
        return out;
    }
};

Run run(const std::vector<float>& logits, const SamplerParams& p, const std::vector<TokenId>& history = {},
        size_t promptLength = 0, SamplerState* state = nullptr) {
    SamplerChain chain(p, 64);
    SamplerState own(p.seed);
    Run r;
    r.result = chain.sample(logits, History{history, promptLength}, state ? *state : own, true);
    for (const auto& c : chain.candidates())
        if (c.p > 0.0f) r.survivors.push_back(c);
    std::sort(r.survivors.begin(), r.survivors.end(), ranksAbove);
    return r;
}

const StageSnapshot& snap(const Run& r, const std::string& stage) {
    for (const auto& s : r.result.stages)
        if (s.stage == stage) return s;
    throw Error("no snapshot for stage " + stage);
}

// Only the named stages, everything else neutral.
SamplerParams only(const std::string& order) {
    SamplerParams p;
    p.temperature = 1.0f;
    p.topK = 0;
    p.topP = 1.0f;
    p.order = order;
    return p;
}

std::vector<float> logOf(std::initializer_list<double> ps) {
    std::vector<float> out;
    for (double x : ps) out.push_back(static_cast<float>(std::log(x)));
    return out;
}

double entropyOf(std::initializer_list<double> ps) {
    double h = 0;
    for (double x : ps) h -= x * std::log(x);
    return h;
}

bool near(double a, double b, double tol = 1e-5) { return std::abs(a - b) <= tol; }

}  // namespace

class TestSamplerChain : public QObject {
    Q_OBJECT
private slots:
    // ---- temperature ----
    void temperatureSoftmaxClosedForm() {
        auto p = only("temperature");
        p.temperature = 2.0f;
        const Run r = run({2.0f, 1.0f, 0.0f}, p);
        const double z = std::exp(1.0) + std::exp(0.5) + 1.0;
        const auto& s = snap(r, "temperature");
        QCOMPARE(s.kept, 3);
        QVERIFY(near(s.massKept, 1.0));
        QVERIFY(near(s.top[0].p, std::exp(1.0) / z));
        QVERIFY(near(s.top[2].p, 1.0 / z));
        QCOMPARE(s.top[0].logit, 1.0f);
        QVERIFY(near(s.entropy, entropyOf({std::exp(1.0) / z, std::exp(0.5) / z, 1.0 / z})));
    }

    void greedyEqualsTemperatureZeroAndTopKOne_data() {
        QTest::addColumn<std::vector<float>>("logits");
        QTest::addColumn<QString>("order");
        QTest::addColumn<int>("expected");
        for (const char* order : {"hf", "llama.cpp"}) {
            QTest::newRow(qPrintable(QString("%1 plain").arg(order))) << std::vector<float>{0.5f, 2.0f, 1.9f, -1.0f} << order << 1;
            QTest::newRow(qPrintable(QString("%1 tie to lowest id").arg(order))) << std::vector<float>{1.0f, 3.0f, 3.0f, -2.0f} << order << 1;
            QTest::newRow(qPrintable(QString("%1 with -inf").arg(order))) << std::vector<float>{-kInf, -5.0f, -kInf} << order << 1;
        }
    }
    void greedyEqualsTemperatureZeroAndTopKOne() {
        QFETCH(std::vector<float>, logits);
        QFETCH(QString, order);
        QFETCH(int, expected);
        for (uint64_t seed : {1u, 2u, 77u}) {
            SamplerParams greedy;
            greedy.temperature = 0.0f;
            greedy.seed = seed;
            greedy.order = order.toStdString();
            SamplerParams k1 = greedy;
            k1.temperature = 1.7f;
            k1.topK = 1;
            QCOMPARE(run(logits, greedy).result.token, expected);
            QCOMPARE(run(logits, k1).result.token, expected);
            QCOMPARE(run(logits, greedy).survivors.size(), size_t(1));
        }
    }

    // ---- top-k ----
    void topK_data() {
        QTest::addColumn<int>("k");
        QTest::addColumn<std::vector<int>>("kept");
        // logits 1, 3, 3, 2, -inf: ties go to the lower id; -inf never survives.
        QTest::newRow("k=1") << 1 << std::vector<int>{1};
        QTest::newRow("k=2 tie") << 2 << std::vector<int>{1, 2};
        QTest::newRow("k=3") << 3 << std::vector<int>{1, 2, 3};
        QTest::newRow("k=4") << 4 << std::vector<int>{1, 2, 3, 0};
        QTest::newRow("k larger than vocabulary") << 50 << std::vector<int>{1, 2, 3, 0};
    }
    void topK() {
        QFETCH(int, k);
        QFETCH(std::vector<int>, kept);
        auto p = only("top-k");
        p.topK = k;
        const Run r = run({1.0f, 3.0f, 3.0f, 2.0f, -kInf}, p);
        QCOMPARE(r.ids(), std::vector<TokenId>(kept.begin(), kept.end()));
        QCOMPARE(snap(r, "top-k").kept, int(kept.size()));
    }

    // ---- top-p ----
    void topP_data() {
        QTest::addColumn<float>("topP");
        QTest::addColumn<int>("kept");
        // probabilities 0.5, 0.25, 0.125, 0.125
        QTest::newRow("p=0.4") << 0.4f << 1;
        QTest::newRow("p=0.5") << 0.5f << 1;
        QTest::newRow("p=0.6") << 0.6f << 2;
        QTest::newRow("p=0.75") << 0.75f << 2;
        QTest::newRow("p=0.8") << 0.8f << 3;
        QTest::newRow("p=0.9") << 0.9f << 4;
        QTest::newRow("p=1 is off") << 1.0f << 4;
        QTest::newRow("tiny p keeps one") << 1e-9f << 1;
    }
    void topP() {
        QFETCH(float, topP);
        QFETCH(int, kept);
        auto p = only("top-p");
        p.topP = topP;
        const Run r = run(logOf({0.5, 0.25, 0.125, 0.125}), p);
        QCOMPARE(int(r.survivors.size()), kept);
        const auto& s = snap(r, "top-p");
        QCOMPARE(s.kept, kept);
        const double masses[] = {0, 0.5, 0.75, 0.875, 1.0};
        QVERIFY(near(s.massKept, masses[kept]));
        double sum = 0;
        for (const auto& c : r.survivors) sum += c.p;
        QVERIFY(near(sum, 1.0));
    }

    void topPOnLargeVocabularyMatchesFullSort() {
        // The adaptive partial sort must give the same nucleus as sorting everything.
        std::mt19937 gen(5);
        std::normal_distribution<float> nd(0.0f, 3.0f);
        std::vector<float> logits(50000);
        for (auto& l : logits) l = std::round(nd(gen) * 4.0f) / 4.0f;  // many ties
        auto p = only("top-p");
        p.topP = 0.97f;
        const Run r = run(logits, p);
        std::vector<int> order(logits.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
        std::sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
        double z = 0;
        const double m = logits[order[0]];
        for (float l : logits) z += std::exp(l - m);
        double cum = 0;
        size_t expect = 0;
        while (expect < order.size()) {
            cum += std::exp(logits[order[expect]] - m) / z;
            ++expect;
            if (cum >= 0.97 - 1e-6) break;
        }
        QVERIFY(std::abs(int(r.survivors.size()) - int(expect)) <= 1);  // float vs double rounding at the edge
        for (size_t i = 0; i < std::min(expect, r.survivors.size()); ++i) QCOMPARE(r.survivors[i].id, order[i]);
    }

    void topKOnLargeVocabularyMatchesFullSort_data() {
        QTest::addColumn<int>("k");
        QTest::newRow("40 (bounded heap)") << 40;
        QTest::newRow("9000 (nth_element)") << 9000;
    }
    void topKOnLargeVocabularyMatchesFullSort() {
        QFETCH(int, k);
        std::mt19937 gen(9);
        std::uniform_int_distribution<int> ud(-300, 300);
        std::vector<float> logits(60000);
        for (auto& l : logits) l = ud(gen) / 10.0f;  // heavy ties
        auto p = only("top-k");
        p.topK = k;
        SamplerChain chain(p, 64);
        SamplerState st(1);
        const auto res = chain.sample(logits, {}, st, true);
        std::vector<int> order(logits.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
        std::sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
        std::vector<TokenId> got;
        for (const auto& c : chain.candidates()) got.push_back(c.id);
        std::sort(got.begin(), got.end());
        std::vector<TokenId> want(order.begin(), order.begin() + k);
        std::sort(want.begin(), want.end());
        QCOMPARE(got, want);
        const auto& s = res.stages.back();
        for (size_t i = 0; i < s.top.size(); ++i) QCOMPARE(s.top[i].id, order[i]);
    }

    // ---- min-p ----
    void minP_data() {
        QTest::addColumn<float>("minP");
        QTest::addColumn<float>("shift");
        QTest::addColumn<int>("kept");
        // probabilities 0.5, 0.25, 0.15, 0.1: threshold = minP * 0.5
        QTest::newRow("0.1") << 0.1f << 0.0f << 4;
        QTest::newRow("0.25") << 0.25f << 0.0f << 3;
        QTest::newRow("0.4") << 0.4f << 0.0f << 2;
        QTest::newRow("0.6") << 0.6f << 0.0f << 1;
        QTest::newRow("1 keeps the max") << 1.0f << 0.0f << 1;
        QTest::newRow("relative: shifted logits") << 0.25f << 40.0f << 3;
        QTest::newRow("relative: shifted down") << 0.4f << -17.0f << 2;
    }
    void minP() {
        QFETCH(float, minP);
        QFETCH(float, shift);
        QFETCH(int, kept);
        auto p = only("min-p");
        p.minP = minP;
        auto logits = logOf({0.5, 0.25, 0.15, 0.1});
        for (auto& l : logits) l += shift;
        const Run r = run(logits, p);
        QCOMPARE(int(r.survivors.size()), kept);
        QCOMPARE(r.survivors.front().id, 0);
    }

    // ---- typical ----
    void typical_data() {
        QTest::addColumn<float>("typicalP");
        QTest::addColumn<std::vector<int>>("kept");
        // p = 0.5, 0.25, 0.125, 0.125; H = 1.75 ln 2. |-ln p - H| = 0.75 ln2, 0.25 ln2, 1.25 ln2, 1.25 ln2:
        // the most typical token is id 1, not the most probable one.
        QTest::newRow("0.2: only the most typical") << 0.2f << std::vector<int>{1};
        QTest::newRow("0.5") << 0.5f << std::vector<int>{1, 0};
        QTest::newRow("0.8") << 0.8f << std::vector<int>{1, 0, 2};
        QTest::newRow("0.95") << 0.95f << std::vector<int>{1, 0, 2, 3};
    }
    void typical() {
        QFETCH(float, typicalP);
        QFETCH(std::vector<int>, kept);
        auto p = only("typical");
        p.typicalP = typicalP;
        const Run r = run(logOf({0.5, 0.25, 0.125, 0.125}), p);
        auto ids = r.ids();
        std::sort(ids.begin(), ids.end());
        std::vector<TokenId> want(kept.begin(), kept.end());
        std::sort(want.begin(), want.end());
        QCOMPARE(ids, want);
    }

    // ---- penalties ----
    void repetitionPenalty_data() {
        QTest::addColumn<std::vector<int>>("history");
        QTest::addColumn<int>("lastN");
        QTest::addColumn<std::vector<float>>("expected");
        // logits 2, -1, 0.5, 3 with penalty 2: positive / 2, negative * 2, once per distinct token.
        QTest::newRow("whole history") << std::vector<int>{0, 1, 1} << -1 << std::vector<float>{1.0f, -2.0f, 0.5f, 3.0f};
        QTest::newRow("last 1") << std::vector<int>{0, 1, 1} << 1 << std::vector<float>{2.0f, -2.0f, 0.5f, 3.0f};
        QTest::newRow("last 0 is off") << std::vector<int>{0, 1} << 0 << std::vector<float>{2.0f, -1.0f, 0.5f, 3.0f};
        QTest::newRow("no history") << std::vector<int>{} << -1 << std::vector<float>{2.0f, -1.0f, 0.5f, 3.0f};
    }
    void repetitionPenalty() {
        QFETCH(std::vector<int>, history);
        QFETCH(int, lastN);
        QFETCH(std::vector<float>, expected);
        auto p = only("repetition");
        p.repeatPenalty = 2.0f;
        p.penaltyLastN = lastN;
        const Run r = run({2.0f, -1.0f, 0.5f, 3.0f}, p, std::vector<TokenId>(history.begin(), history.end()), history.size());
        const auto& s = snap(r, "repetition");
        for (const auto& c : s.top) QCOMPARE(c.logit, expected[size_t(c.id)]);
    }

    void frequencyAndPresenceCountOnlyGeneratedTokens() {
        auto p = only("freq-presence");
        p.frequencyPenalty = 0.5f;
        p.presencePenalty = 1.0f;
        p.penaltyLastN = -1;
        // prompt [3], generated [0, 0, 2]: id0 2 - (2*0.5 + 1) = 0; id2 0.5 - 1.5 = -1; id3 (prompt) untouched.
        const Run r = run({2.0f, -1.0f, 0.5f, 3.0f}, p, {3, 0, 0, 2}, 1);
        const std::vector<float> expected{0.0f, -1.0f, -1.0f, 3.0f};
        for (const auto& c : snap(r, "freq-presence").top) QCOMPARE(c.logit, expected[size_t(c.id)]);
        // A window of 1 sees only the last generated token (2).
        p.penaltyLastN = 1;
        const Run w = run({2.0f, -1.0f, 0.5f, 3.0f}, p, {3, 0, 0, 2}, 1);
        const std::vector<float> windowed{2.0f, -1.0f, -1.0f, 3.0f};
        for (const auto& c : snap(w, "freq-presence").top) QCOMPARE(c.logit, windowed[size_t(c.id)]);
    }

    void noRepeatNgram_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<std::vector<int>>("banned");
        // history 5 6 7 5 6: the 3-gram "5 6 7" must not repeat, so 7 is banned after "5 6".
        QTest::newRow("n=3") << 3 << std::vector<int>{7};
        QTest::newRow("n=2") << 2 << std::vector<int>{7};
        QTest::newRow("n=1 bans everything seen") << 1 << std::vector<int>{5, 6, 7};
        QTest::newRow("n=4: prefix 7 5 6 never seen") << 4 << std::vector<int>{};
        QTest::newRow("n=7 longer than history") << 7 << std::vector<int>{};
    }
    void noRepeatNgram() {
        QFETCH(int, n);
        QFETCH(std::vector<int>, banned);
        auto p = only("no-repeat-ngram");
        p.noRepeatNgram = n;
        const Run r = run(std::vector<float>(8, 0.0f), p, {5, 6, 7, 5, 6}, 0);
        const auto& s = snap(r, "no-repeat-ngram");
        QCOMPARE(s.kept, 8 - int(banned.size()));
        QVERIFY(near(s.massKept, (8.0 - banned.size()) / 8.0));
        for (const auto& c : r.survivors) QVERIFY(std::find(banned.begin(), banned.end(), c.id) == banned.end());
    }

    void logitBias() {
        auto p = only("logit-bias");
        p.logitBias = {{0, -kInf}, {2, 1.5f}, {2, 0.5f}};
        const Run r = run({5.0f, 0.0f, 0.0f}, p);
        QCOMPARE(r.ids(), (std::vector<TokenId>{2, 1}));
        QCOMPARE(r.survivors[0].logit, 2.0f);
        p.logitBias = {{3, 1.0f}};
        QVERIFY_THROWS_EXCEPTION(Error, run({5.0f, 0.0f, 0.0f}, p));
    }

    // ---- DRY (llama.cpp's worked example) ----
    void dryRepeatLengths() {
        // a b c c b c y a b c  ->  emitting c would make "a b c c" (repeat 3), y "b c y" (2), b "c b" (1).
        const std::vector<TokenId> h{0, 1, 2, 2, 1, 2, 3, 0, 1, 2};
        DryStage dry(1.0f, 2.0f, 2, -1, {});
        const auto lengths = dry.repeatLengths(h);
        QCOMPARE(lengths.size(), size_t(2));
        QCOMPARE(lengths[0].id, 2);
        QCOMPARE(lengths[0].count, 3);
        QCOMPARE(lengths[1].id, 3);
        QCOMPARE(lengths[1].count, 2);
        DryStage loose(1.0f, 2.0f, 1, -1, {});
        QCOMPARE(loose.repeatLengths(h).size(), size_t(3));
    }

    void dryPenalty_data() {
        QTest::addColumn<std::vector<int>>("breaker");
        QTest::addColumn<std::vector<float>>("expected");
        // multiplier 1, base 2, allowed 2: penalty 2^(L - 2). Logits all 0 for ids a b c y z.
        QTest::newRow("no breakers") << std::vector<int>{} << std::vector<float>{0, 0, -2, -1, 0};
        // 'b' is a breaker one token from the end: repeats may reach back only 1 < allowed: no penalty.
        QTest::newRow("breaker b") << std::vector<int>{1} << std::vector<float>{0, 0, 0, 0, 0};
        // 'y' caps repeats at 3 and, as a single-token breaker, is never penalised itself.
        QTest::newRow("breaker y") << std::vector<int>{3} << std::vector<float>{0, 0, -2, 0, 0};
    }
    void dryPenalty() {
        QFETCH(std::vector<int>, breaker);
        QFETCH(std::vector<float>, expected);
        auto p = only("dry");
        p.dryMultiplier = 1.0f;
        p.dryBase = 2.0f;
        p.dryAllowedLength = 2;
        if (!breaker.empty()) p.dryBreakers = {std::vector<TokenId>(breaker.begin(), breaker.end())};
        const Run r = run(std::vector<float>(5, 0.0f), p, {0, 1, 2, 2, 1, 2, 3, 0, 1, 2});
        for (const auto& c : snap(r, "dry").top) QCOMPARE(c.logit, expected[size_t(c.id)]);
    }

    void dryBreakersFromText() {
        // "ab" inside a token is a single-token breaker; a token ending in "a" starts one that needs "b" next.
        const std::vector<std::string> pieces{"xa", "b", "cab", "c", "a"};
        auto piece = [&](TokenId id) { return pieces[size_t(id)]; };
        auto encode = [](const std::string& s) { return s == "b" ? std::vector<TokenId>{1} : std::vector<TokenId>{}; };
        const auto seqs = dryBreakersFromStrings({"ab"}, int(pieces.size()), piece, encode);
        QCOMPARE(seqs, (std::vector<std::vector<TokenId>>{{0, 1}, {2}, {4, 1}}));
        QCOMPARE(dryBreakersFromStrings({"ab"}, int(pieces.size()), piece).size(), size_t(1));
    }

    // ---- XTC ----
    void xtc_data() {
        QTest::addColumn<float>("threshold");
        QTest::addColumn<std::vector<int>>("kept");
        // p = 0.4, 0.3, 0.2, 0.1
        QTest::newRow("0.25 removes the top token") << 0.25f << std::vector<int>{1, 2, 3};
        QTest::newRow("0.15 removes two") << 0.15f << std::vector<int>{2, 3};
        QTest::newRow("0.35: one above, nothing removed") << 0.35f << std::vector<int>{0, 1, 2, 3};
        QTest::newRow("0.5: none above") << 0.5f << std::vector<int>{0, 1, 2, 3};
    }
    void xtc() {
        QFETCH(float, threshold);
        QFETCH(std::vector<int>, kept);
        auto p = only("xtc");
        p.xtcProbability = 1.0f;
        p.xtcThreshold = threshold;
        const Run r = run(logOf({0.4, 0.3, 0.2, 0.1}), p);
        QCOMPARE(r.ids(), std::vector<TokenId>(kept.begin(), kept.end()));
    }

    // ---- top-n-sigma ----
    void topNSigma_data() {
        QTest::addColumn<float>("n");
        QTest::addColumn<int>("kept");
        // finite logits 0 1 2 3: mean 1.5, sigma sqrt(1.25) = 1.118; keep logit >= 3 - n * sigma.
        QTest::newRow("n=1") << 1.0f << 2;
        QTest::newRow("n=2") << 2.0f << 3;
        QTest::newRow("n=3") << 3.0f << 4;
    }
    void topNSigma() {
        QFETCH(float, n);
        QFETCH(int, kept);
        auto p = only("top-n-sigma");
        p.topNSigma = n;
        const Run r = run({0.0f, 1.0f, -kInf, 2.0f, 3.0f}, p);
        QCOMPARE(int(r.survivors.size()), kept);
        QCOMPARE(r.survivors.front().id, 4);
    }

    // ---- Mirostat 2 ----
    void mirostatTruncatesBySurpriseAndLearns() {
        auto p = only("mirostat");
        p.mirostatTau = 1.0f;  // mu starts at 2 bits: keep p >= 1/4
        p.mirostatEta = 0.1f;
        p.seed = 3;
        SamplerState state(3);
        const Run r = run(logOf({0.6, 0.3, 0.07, 0.03}), p, {}, 0, &state);
        QCOMPARE(r.ids(), (std::vector<TokenId>{0, 1}));
        const double pChosen = r.result.probability;
        QVERIFY(near(pChosen, r.result.token == 0 ? 2.0 / 3.0 : 1.0 / 3.0));
        QVERIFY(near(state.mirostatMu, 2.0 - 0.1 * (-std::log2(pChosen) - 1.0)));
    }

    // ---- Mirostat 1 ----
    // p_i proportional to 1 / (i+1)^2 is an exact Zipf law: s_hat = 2, eps = 1, so
    // k = (2^mu / (1 - 1/N))^(1/2) with N the vocabulary.
    static std::vector<float> zipf2(int n) {
        std::vector<float> out;
        for (int i = 0; i < n; ++i) out.push_back(static_cast<float>(-2.0 * std::log(double(i + 1))));
        return out;
    }
    static size_t zipf2Keep(double mu, int nVocab) { return size_t(std::sqrt(std::exp2(mu) / (1.0 - 1.0 / nVocab))); }

    void mirostatV1MuStartsAtTwoTauAndLearns() {
        auto p = only("mirostat-v1");
        p.mirostatTau = 2.0f;  // mu = 4: k = sqrt(16 * 8/7) = 4.28 -> the top 4
        p.mirostatEta = 0.25f;
        SamplerState state(11);
        QVERIFY(std::isnan(state.mirostatMu));
        const auto logits = zipf2(8);
        const Run r = run(logits, p, {}, 0, &state);
        QCOMPARE(r.ids(), (std::vector<TokenId>{0, 1, 2, 3}));
        const double z = 1.0 + 1.0 / 4 + 1.0 / 9 + 1.0 / 16;  // renormalised over the 4 survivors
        for (const auto& c : r.survivors) QVERIFY(near(c.p, 1.0 / ((c.id + 1) * (c.id + 1)) / z));
        const double pChosen = 1.0 / ((r.result.token + 1) * (r.result.token + 1)) / z;
        QVERIFY(near(r.result.probability, pChosen));
        const double mu1 = 4.0 - 0.25 * (-std::log2(pChosen) - 2.0);  // mu -= eta * (surprise - tau)
        QVERIFY2(near(state.mirostatMu, mu1), qPrintable(QString::number(state.mirostatMu)));

        // The next step truncates with the learned mu, and learns again.
        const Run r2 = run(logits, p, {}, 0, &state);
        QCOMPARE(r2.survivors.size(), zipf2Keep(mu1, 8));
        const double z2 = [&] { double t = 0; for (size_t i = 1; i <= r2.survivors.size(); ++i) t += 1.0 / double(i * i); return t; }();
        const double p2 = 1.0 / ((r2.result.token + 1) * (r2.result.token + 1)) / z2;
        QVERIFY(near(state.mirostatMu, mu1 - 0.25 * (-std::log2(p2) - 2.0)));
    }

    void mirostatV1UsesTheVocabularyNotTheSurvivors() {
        // After top-k 8 the fit still sees s_hat = 2; with 2^mu = 23 the vocabulary size decides:
        // sqrt(23 * 64/63) = 4.83 -> 4 (N = 64, as llama.cpp's n_vocab), sqrt(23 * 8/7) = 5.13 -> 5 (N = 8).
        auto p = only("top-k,mirostat-v1");
        p.topK = 8;
        p.mirostatTau = float(std::log2(23.0) / 2.0);
        const Run r = run(zipf2(64), p);
        QCOMPARE(r.ids(), (std::vector<TokenId>{0, 1, 2, 3}));
        QCOMPARE(zipf2Keep(std::log2(23.0), 64), size_t(4));
        QCOMPARE(zipf2Keep(std::log2(23.0), 8), size_t(5));
    }

    void mirostatV1FitsOnlyTheTopM() {
        // p0/p1 = 8 but the tail is flat-ish: with m = 2 only the first ratio counts, s_hat = 3 log 2 / log 2 = 3.
        const std::vector<float> p = {0.8f, 0.1f, 0.05f, 0.03f, 0.02f};
        const float mu = 5.5f;
        const double s = 3.0, eps = 2.0;
        const size_t want = size_t(std::pow(eps * std::exp2(mu) / (1.0 - std::pow(100.0, -eps)), 1.0 / s));  // 4.49 -> 4
        QCOMPARE(want, size_t(4));
        QCOMPARE(MirostatV1Stage::keepCount(std::span<const float>(p).first(2), p.size(), 100, mu), want);
        // With all five (m >= 5) the fit is s_hat = 2.52 and k = 5.36: everything stays.
        QCOMPARE(MirostatV1Stage::keepCount(p, p.size(), 100, mu), size_t(5));
        // Through the stage: m = 2 keeps 4 of the 5.
        auto params = only("mirostat-v1");
        params.mirostatTau = mu / 2;
        params.mirostatM = 2;
        std::vector<float> logits;
        for (float x : p) logits.push_back(std::log(x));
        QCOMPARE(run(logits, params).ids(), (std::vector<TokenId>{0, 1, 2, 3}));
        params.mirostatM = 100;
        QCOMPARE(run(logits, params).survivors.size(), size_t(5));
        // m = 1 or one candidate: no ratio to fit (0/0), one token.
        QCOMPARE(MirostatV1Stage::keepCount(std::span<const float>(p).first(1), p.size(), 100, mu), size_t(1));
        QCOMPARE(MirostatV1Stage::keepCount(std::span<const float>(p).first(1), 1, 100, mu), size_t(1));
        // A flat top (s_hat = 0) with a large mu: k overflows to +inf; keep everything (see keepCount).
        const std::vector<float> flat(5, 0.2f);
        QCOMPARE(MirostatV1Stage::keepCount(flat, flat.size(), 5, 10.0f), size_t(5));
        // A very low mu keeps one token.
        QCOMPARE(MirostatV1Stage::keepCount(p, p.size(), 100, -20.0f), size_t(1));
    }

    void mirostatV1SharesMuWithV2AndNeedsTau() {
        auto p = only("mirostat-v1");
        p.mirostatTau = 0.0f;  // off: nothing is truncated and mu is not touched
        SamplerState state(1);
        const Run off = run(zipf2(8), p, {}, 0, &state);
        QCOMPARE(off.survivors.size(), size_t(8));
        QVERIFY(std::isnan(state.mirostatMu));
        // A mu learned by Mirostat 2 is where Mirostat 1 carries on.
        p.mirostatTau = 2.0f;
        state.mirostatMu = 2.0f;  // k = sqrt(4 * 8/7) = 2.14 -> 2
        QCOMPARE(run(zipf2(8), p, {}, 0, &state).survivors.size(), size_t(2));
    }

    // ---- snapshots ----
    void snapshotMassAndEntropyClosedForm() {
        SamplerParams p = only("top-k,temperature");
        p.topK = 2;
        p.temperature = 0.5f;
        const Run r = run(logOf({0.5, 0.25, 0.125, 0.125}), p);
        QVERIFY(near(r.result.raw.logSumExp, 0.0));
        QVERIFY(near(r.result.raw.entropy, 1.75 * std::log(2.0)));
        QVERIFY(near(r.result.raw.maxLogit, std::log(0.5)));
        QCOMPARE(r.result.stages.size(), size_t(2));
        const auto& k = r.result.stages[0];
        QCOMPARE(k.stage, std::string("top-k"));
        QCOMPARE(k.kept, 2);
        QVERIFY(near(k.massKept, 0.75));
        QVERIFY(near(k.entropy, entropyOf({2.0 / 3.0, 1.0 / 3.0})));
        QVERIFY(near(k.top[0].p, 2.0 / 3.0));
        // T = 0.5 squares the ratio: 4 : 1.
        const auto& t = r.result.stages[1];
        QVERIFY(near(t.massKept, 0.75));
        QVERIFY(near(t.top[0].p, 0.8));
        QVERIFY(near(t.entropy, entropyOf({0.8, 0.2})));
        // Of its own input: top-k saw the raw distribution; temperature removed nothing.
        QVERIFY(near(k.inputMassKept.value(), 0.75));
        QCOMPARE(t.inputMassKept.value(), 1.0f);
    }

    // inputMassKept is the survivors' share of the distribution that entered the stage, with the
    // logits it was given: after a temperature it is not the ratio of the raw shares.
    // Probabilities 0.5, 0.25, 0.125, 0.125 throughout.
    void snapshotInputMassAfterReshaping_data() {
        QTest::addColumn<QString>("order");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<float>("topP");
        QTest::addColumn<float>("minP");
        QTest::addColumn<bool>("banFirst");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<double>("inputMass");
        QTest::addColumn<double>("rawMass");
        // T = 0.5 squares: 0.25 : 0.0625 : 0.015625 : 0.015625, top two = 0.3125 / 0.34375 = 10/11.
        QTest::newRow("top-p 0.9 after T 0.5") << "temperature,top-p" << 0.5f << 0.9f << 0.0f << false << "top-p"
                                              << 10.0 / 11.0 << 0.75;
        // T = 2 takes square roots: 0.7071 : 0.5 : 0.3536 : 0.3536; min-p 0.6 keeps the top two.
        QTest::newRow("min-p 0.6 after T 2") << "temperature,min-p" << 2.0f << 1.0f << 0.6f << false << "min-p"
                                            << (std::sqrt(0.5) + 0.5) / (std::sqrt(0.5) + 0.5 + 2 * std::sqrt(0.125)) << 0.75;
        // Without reshaping before it, the share of its input is the raw share.
        QTest::newRow("top-p 0.7 first") << "top-p,temperature" << 0.5f << 0.7f << 0.0f << false << "top-p" << 0.75 << 0.75;
        QTest::newRow("temperature removes nothing") << "temperature,top-p" << 0.5f << 1.0f << 0.0f << false
                                                    << "temperature" << 1.0 << 1.0;
        // A ban first, then top-p 0.5 of the remaining 0.25 : 0.125 : 0.125 (renormalised 0.5, 0.25,
        // 0.25) keeps one token: half of its input, a quarter of raw.
        QTest::newRow("top-p after a ban") << "logit-bias,top-p" << 1.0f << 0.5f << 0.0f << true << "top-p" << 0.5 << 0.25;
        QTest::newRow("the ban itself") << "logit-bias,top-p" << 1.0f << 0.5f << 0.0f << true << "logit-bias" << 0.5 << 0.5;
    }
    void snapshotInputMassAfterReshaping() {
        QFETCH(QString, order);
        QFETCH(float, temperature);
        QFETCH(float, topP);
        QFETCH(float, minP);
        QFETCH(bool, banFirst);
        QFETCH(QString, stage);
        QFETCH(double, inputMass);
        QFETCH(double, rawMass);
        SamplerParams p = only(order.toStdString());
        p.temperature = temperature;
        p.topP = topP;
        p.minP = minP;
        if (banFirst) p.logitBias = {{0, -kInf}};
        const Run r = run(logOf({0.5, 0.25, 0.125, 0.125}), p);
        const StageSnapshot& s = snap(r, stage.toStdString());
        QVERIFY(s.inputMassKept.has_value());
        QVERIFY2(near(*s.inputMassKept, inputMass), qPrintable(QString::number(*s.inputMassKept)));
        QVERIFY2(near(s.massKept, rawMass), qPrintable(QString::number(s.massKept)));
    }

    // Every stage alone on the same step: the share of its input it reports equals one summed here
    // from the raw logits and the ids it kept, and it does what its effect() claims (Removes: the
    // survivors' logits untouched; Reshapes: nobody removed), which is what lets the chain skip the
    // copy of the input.
    void stageEffectClaimsHold_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("setting");
        const auto row = [](const char* stage, const char* setting) { QTest::newRow(setting) << stage << setting; };
        row("temperature", "temperature 0.7");
        row("temperature", "temperature 0");
        row("top-k", "top-k 10");
        row("top-p", "top-p 0.8");
        row("min-p", "min-p 0.1");
        row("typical", "typical 0.5");
        row("xtc", "xtc 1 / 0.02");
        row("top-n-sigma", "top-n-sigma 1");
        row("mirostat", "mirostat 3");
        row("mirostat-v1", "mirostat-v1 3");
        row("no-repeat-ngram", "no-repeat-ngram 2");
        row("repetition", "repetition 1.3");
        row("freq-presence", "frequency 0.5 presence 0.3");
        row("dry", "dry 0.8");
        row("logit-bias", "logit-bias bans two");
    }
    void stageEffectClaimsHold() {
        QFETCH(QString, stage);
        QFETCH(QString, setting);
        // ("mirostat" alone names an order with penalties and temperature: list it after an idle top-k.)
        SamplerParams p = only(stage.startsWith("mirostat") ? "top-k," + stage.toStdString() : stage.toStdString());
        if (setting == "temperature 0.7") p.temperature = 0.7f;
        if (setting == "temperature 0") p.temperature = 0.0f;
        p.topK = stage == "top-k" ? 10 : 0;
        if (stage == "top-p") p.topP = 0.8f;
        if (stage == "min-p") p.minP = 0.1f;
        if (stage == "typical") p.typicalP = 0.5f;
        if (stage == "xtc") p.xtcProbability = 1.0f, p.xtcThreshold = 0.02f;
        if (stage == "top-n-sigma") p.topNSigma = 1.0f;
        if (stage.startsWith("mirostat")) p.mirostatTau = 3.0f;
        if (stage == "no-repeat-ngram") p.noRepeatNgram = 2;
        if (stage == "repetition") p.repeatPenalty = 1.3f;
        if (stage == "freq-presence") p.frequencyPenalty = 0.5f, p.presencePenalty = 0.3f;
        if (stage == "dry") p.dryMultiplier = 0.8f;
        if (stage == "logit-bias") p.logitBias = {{3, -kInf}, {40, -kInf}};
        std::mt19937 gen(11);
        std::normal_distribution<float> dist(0.0f, 2.0f);
        std::vector<float> logits(300);
        for (auto& l : logits) l = dist(gen);
        for (TokenId t : {3, 5, 6, 7, 40}) logits[size_t(t)] = 6.0f + 0.1f * float(t);   // the history's tokens lead
        const std::vector<TokenId> history{3, 5, 6, 7, 5, 6, 7, 5, 6};   // 7 would repeat "5 6 7"

        SamplerChain chain(p, 8);
        const SamplerStage& theStage = *chain.stages().back();
        QCOMPARE(QString::fromUtf8(theStage.name()), stage);
        QVERIFY(theStage.enabled());
        for (const auto& other : chain.stages()) QVERIFY(other.get() == &theStage || !other->enabled());
        SamplerState state(5);
        const SampleResult r = chain.sample(logits, History{history, 2}, state, true);
        const StageSnapshot& snapshot = r.stages.back();
        QVERIFY2(snapshot.changed, "the setting did not make the stage act");

        double all = 0.0, kept = 0.0;
        int survivors = 0;
        for (float l : logits) all += std::exp(double(l));
        bool logitsKept = true;
        for (const Candidate& c : chain.candidates()) {
            if (c.logit == -kInf) continue;
            ++survivors;
            kept += std::exp(double(logits[size_t(c.id)]));
            logitsKept = logitsKept && c.logit == logits[size_t(c.id)];
        }
        QCOMPARE(snapshot.kept, survivors);
        QVERIFY(snapshot.inputMassKept.has_value());
        QVERIFY2(near(*snapshot.inputMassKept, kept / all), qPrintable(QString("%1 vs %2").arg(*snapshot.inputMassKept).arg(kept / all)));
        if (theStage.effect() == StageEffect::Removes) QVERIFY2(logitsKept, "a stage that claims Removes edited a survivor's logit");
        if (theStage.effect() == StageEffect::Reshapes) QCOMPARE(survivors, int(logits.size()));
    }

    // On a real-sized vocabulary, against a sum done here from the logits the stage was given.
    void snapshotInputMassLargeVocabulary() {
        std::mt19937 gen(7);
        std::normal_distribution<float> dist(0.0f, 3.0f);
        std::vector<float> logits(49152);
        for (auto& l : logits) l = dist(gen);
        SamplerParams p = only("temperature,top-k,top-p");
        p.temperature = 0.7f;
        p.topK = 200;
        p.topP = 0.9f;
        SamplerChain chain(p, 16);
        SamplerState st(3);
        const auto r = chain.sample(logits, {}, st, true);
        // Top-p's input: the best 200 by logit, at T = 0.7.
        std::vector<float> sorted = logits;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        sorted.resize(200);
        double all = 0.0;
        for (float l : sorted) all += std::exp((double(l) - double(sorted[0])) / 0.7);
        double kept = 0.0;
        size_t n = 0;
        while (kept / all < 0.9) kept += std::exp((double(sorted[n++]) - double(sorted[0])) / 0.7);
        const StageSnapshot& topP = r.stages[2];
        QCOMPARE(topP.kept, int(n));
        QVERIFY2(near(*topP.inputMassKept, kept / all), qPrintable(QString::number(*topP.inputMassKept)));
        QVERIFY(*topP.inputMassKept >= 0.9f);
        QVERIFY(topP.massKept < *topP.inputMassKept);   // the raw share is another number
        QVERIFY(r.stages[1].inputMassKept < 1.0f);       // top-k removed the tail
    }

    void snapshotTopIsBoundedAndUnchangedStagesCopied() {
        std::vector<float> logits(1000);
        for (size_t i = 0; i < logits.size(); ++i) logits[i] = float(i % 97) * 0.1f;
        SamplerParams p;  // hf: penalties off, temperature 0.8, top-k 40, top-p 0.95, min-p off
        SamplerChain chain(p, 8);
        SamplerState st(0);
        const auto r = chain.sample(logits, {}, st, true);
        QCOMPARE(r.stages.size(), chain.stages().size());
        QCOMPARE(r.stages[0].stage, std::string("logit-bias"));
        QVERIFY(!r.stages[0].changed);
        QCOMPARE(r.stages[0].kept, 1000);
        QVERIFY(near(r.stages[0].entropy, r.raw.entropy));
        for (const auto& s : r.stages) QVERIFY(s.top.size() <= 8);
        const auto& k = r.stages[5];
        QCOMPARE(k.stage, std::string("top-k"));
        QCOMPARE(k.kept, 40);
        QCOMPARE(r.stages.back().stage, std::string("min-p"));
        QVERIFY(!r.stages.back().changed);
    }

    // ---- the two named orders ----
    void hfAndLlamaCppOrdersDiffer() {
        // Temperature 2 flattens [2, 1, 0] before top-p in the hf order (p = .51, .31, .19: top-p 0.6 keeps 2),
        // but comes last in llama.cpp's (p = .67, .24, .09: top-p 0.6 keeps only the first).
        SamplerParams p;
        p.temperature = 2.0f;
        p.topK = 0;
        p.topP = 0.6f;
        p.order = "hf";
        const Run hf = run({2.0f, 1.0f, 0.0f}, p);
        p.order = "llama.cpp";
        const Run lc = run({2.0f, 1.0f, 0.0f}, p);
        QCOMPARE(hf.ids(), (std::vector<TokenId>{0, 1}));
        QCOMPARE(lc.ids(), (std::vector<TokenId>{0}));
        // min-p is relative, so it differs the same way: e^-0.5 = .61 >= .5 after T = 2, e^-1 = .37 < .5 before.
        p.topP = 1.0f;
        p.minP = 0.5f;
        p.order = "hf";
        QCOMPARE(run({2.0f, 1.0f, 0.0f}, p).ids(), (std::vector<TokenId>{0, 1}));
        p.order = "llama.cpp";
        QCOMPARE(run({2.0f, 1.0f, 0.0f}, p).ids(), (std::vector<TokenId>{0}));
    }

    void orderParsing_data() {
        QTest::addColumn<QString>("order");
        QTest::addColumn<QStringList>("stages");
        QTest::newRow("hf") << "hf" << QStringList{"logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "temperature", "top-k", "top-p", "min-p"};
        QTest::newRow("llama.cpp") << "llama.cpp" << QStringList{"logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "dry", "top-n-sigma", "top-k", "typical", "top-p", "min-p", "xtc", "temperature"};
        QTest::newRow("custom with aliases") << "top_k, temp,nucleus" << QStringList{"top-k", "temperature", "top-p"};
        QTest::newRow("mirostat") << "mirostat" << QStringList{"logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "temperature", "mirostat"};
        QTest::newRow("mirostat-v1") << "mirostat-v1" << QStringList{"logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "temperature", "mirostat-v1"};
        QTest::newRow("mirostat 1 aliases") << "temp,mirostat1" << QStringList{"temperature", "mirostat-v1"};
        QTest::newRow("mirostat-1 alias") << "mirostat_1" << QStringList{"mirostat-v1"};
        QTest::newRow("mirostat 2 alias") << "mirostat-v2" << QStringList{"mirostat"};
    }
    void orderParsing() {
        QFETCH(QString, order);
        QFETCH(QStringList, stages);
        QStringList got;
        for (const auto& s : resolveStageOrder(order.toStdString())) got << QString::fromStdString(s);
        QCOMPARE(got, stages);
    }

    // ---- seeds and re-running ----
    void sameSeedSameDraws() {
        const std::vector<float> logits{0.1f, 0.2f, 0.3f, 0.0f, 0.25f, -0.4f};
        SamplerParams p;
        p.temperature = 1.2f;
        p.topK = 0;
        p.topP = 1.0f;
        p.order = "llama.cpp";
        p.xtcProbability = 0.5f;
        p.xtcThreshold = 0.1f;
        auto draws = [&](uint64_t seed) {
            p.seed = seed;
            SamplerChain chain(p, 0);
            SamplerState st(seed);
            std::vector<TokenId> out;
            for (int i = 0; i < 200; ++i) out.push_back(chain.sample(logits, {}, st, false).token);
            return out;
        };
        QCOMPARE(draws(42), draws(42));
        QVERIFY(draws(42) != draws(43));
    }

    void rerunOnCachedLogitsIsPure() {
        std::vector<float> logits(5000);
        std::mt19937 gen(1);
        std::normal_distribution<float> nd(0.0f, 2.0f);
        for (auto& l : logits) l = nd(gen);
        SamplerParams p;
        p.repeatPenalty = 1.3f;
        const std::vector<TokenId> history{1, 2, 3, 2};
        SamplerChain chain(p, 16);
        SamplerState before(9);
        before.rng.uniform();  // some earlier steps
        SamplerState a = before, b = before;
        const auto ra = chain.sample(logits, History{history, 2}, a, true);
        const auto rb = chain.sample(logits, History{history, 2}, b, true);
        QCOMPARE(ra.token, rb.token);
        QCOMPARE(ra.uniform, rb.uniform);
        QCOMPARE(ra.stages.size(), rb.stages.size());
        for (size_t i = 0; i < ra.stages.size(); ++i) {
            QCOMPARE(ra.stages[i].kept, rb.stages[i].kept);
            QCOMPARE(ra.stages[i].entropy, rb.stages[i].entropy);
        }
        QCOMPARE(a.rng.uniform(), b.rng.uniform());
        // Snapshots do not change the draw.
        SamplerState c = before;
        QCOMPARE(chain.sample(logits, History{history, 2}, c, false).token, ra.token);
    }

    // ---- bad input ----
    void badLogitsRejected_data() {
        QTest::addColumn<std::vector<float>>("logits");
        QTest::addColumn<QString>("message");
        QTest::newRow("NaN") << std::vector<float>{0.0f, std::nanf(""), 1.0f} << "token 1 is NaN";
        QTest::newRow("+inf") << std::vector<float>{0.0f, kInf} << "+infinity";
        QTest::newRow("all -inf") << std::vector<float>{-kInf, -kInf} << "every logit is -infinity";
        QTest::newRow("empty") << std::vector<float>{} << "no logits";
    }
    void badLogitsRejected() {
        QFETCH(std::vector<float>, logits);
        QFETCH(QString, message);
        SamplerChain chain(SamplerParams{}, 4);
        SamplerState st(0);
        try {
            chain.sample(logits, {}, st, true);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void everyCandidateRemovedIsAnError() {
        auto p = only("logit-bias");
        p.logitBias = {{0, -kInf}, {1, -kInf}};
        QVERIFY_THROWS_EXCEPTION(Error, run({1.0f, 2.0f}, p));
    }

    void invalidSettings_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("min-p") << "minP" << 1.5 << "--min-p must be between 0 and 1";
        QTest::newRow("typical-p") << "typicalP" << 0.0 << "--typical-p must be greater than 0";
        QTest::newRow("repeat-penalty") << "repeatPenalty" << 0.0 << "--repeat-penalty must be greater than 0";
        QTest::newRow("frequency") << "frequencyPenalty" << 3.0 << "--frequency-penalty must be between -2 and 2";
        QTest::newRow("presence nan") << "presencePenalty" << double(NAN) << "--presence-penalty must be between -2 and 2";
        QTest::newRow("penalty-last-n") << "penaltyLastN" << -2.0 << "--penalty-last-n must be -1";
        QTest::newRow("xtc threshold") << "xtcThreshold" << 0.0 << "--xtc-threshold must be greater than 0";
        QTest::newRow("dry base") << "dryBase" << 0.5 << "--dry-base must be at least 1";
        QTest::newRow("mirostat not in order") << "mirostatTau" << 5.0 << "--mirostat-tau is set but the sampler order 'hf' has no mirostat stage";
        QTest::newRow("mirostat names both") << "mirostatTau" << 5.0 << "use --order mirostat (Mirostat 2) or --order mirostat-v1 (Mirostat 1)";
        QTest::newRow("mirostat-m 0") << "mirostatM" << 0.0 << "--mirostat-m must be between 1 and 16777216";
        QTest::newRow("mirostat-m huge") << "mirostatM" << 2e7 << "--mirostat-m must be between 1 and 16777216";
        QTest::newRow("xtc not in hf") << "xtcProbability" << 0.5 << "use --order llama.cpp";
    }
    void invalidSettings() {
        QFETCH(QString, field);
        QFETCH(double, value);
        QFETCH(QString, message);
        SamplerParams p;
        const float v = float(value);
        if (field == "minP") p.minP = v;
        else if (field == "typicalP") p.typicalP = v;
        else if (field == "repeatPenalty") p.repeatPenalty = v;
        else if (field == "frequencyPenalty") p.frequencyPenalty = v;
        else if (field == "presencePenalty") p.presencePenalty = v;
        else if (field == "penaltyLastN") p.penaltyLastN = int(value);
        else if (field == "xtcThreshold") p.xtcThreshold = v;
        else if (field == "dryBase") p.dryBase = v;
        else if (field == "mirostatTau") p.mirostatTau = v;
        else if (field == "mirostatM") p.mirostatM = int(value);
        else if (field == "xtcProbability") p.xtcProbability = v;
        try {
            p.validate();
            QFAIL("accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void badOrders_data() {
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown stage") << "top-k,topp" << "unknown sampler stage 'topp'";
        QTest::newRow("twice") << "top-k,top-k" << "lists the stage 'top-k' twice";
        QTest::newRow("empty item") << "top-k,,top-p" << "empty stage name";
        QTest::newRow("both mirostats") << "temperature,mirostat,mirostat1" << "lists both mirostat (Mirostat 2) and mirostat-v1";
    }
    void badOrders() {
        QFETCH(QString, order);
        QFETCH(QString, message);
        try {
            resolveStageOrder(order.toStdString());
            QFAIL("accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestSamplerChain)
#include "test_sampler_chain.moc"
