// The paged KV cache on the default model (SmolLM2-135M, fast path):
//  * a sequence forked mid-block continues exactly as a sequence computed without sharing;
//  * f16 and q8_0 caches stay close to an f32 cache: along the f32 cache's 64-step greedy path,
//    the KL divergence KL(p_f32 || p_type) of every step's next-token distribution is reported and
//    bounded (bounds below, with the measurements);
//  * the no-cache mode picks the same greedy tokens, and its step cost grows with the position.
#include <QTest>

#include <chrono>
#include <algorithm>
#include <cmath>
#include <functional>

#include "model/backend.h"
#include "sampling/sampler.h"
#include "test_paths.h"

using namespace dlab;

namespace {

std::vector<double> softmax(std::span<const float> l) {
    const float mx = *std::max_element(l.begin(), l.end());
    std::vector<double> p(l.size());
    double sum = 0;
    for (size_t i = 0; i < l.size(); ++i) sum += p[i] = std::exp(double(l[i]) - mx);
    for (double& x : p) x /= sum;
    return p;
}

// KL(p || q) in nats.
double kl(std::span<const float> p, std::span<const float> q) {
    const auto a = softmax(p), b = softmax(q);
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] > 0) d += a[i] * (std::log(a[i]) - std::log(std::max(b[i], 1e-300)));
    return d;
}

double maxAbsDiff(std::span<const float> a, std::span<const float> b) {
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i) d = std::max(d, double(std::abs(a[i] - b[i])));
    return d;
}

const char* kText =
    "The history of the printing press begins in the fifteenth century, when Johannes Gutenberg, a goldsmith "
    "from Mainz, combined movable metal type with an oil-based ink and a screw press adapted from";

}  // namespace

class TestKvRealModel : public QObject {
    Q_OBJECT
    std::unique_ptr<Model> model_;
    std::vector<TokenId> prompt_;

private slots:
    void initTestCase() {
        const std::string path = test::defaultModelPath();
        if (path.empty()) QFAIL("the default model is not installed; run ./scripts/setup.sh");
        model_ = Model::load(path);
        prompt_ = model_->tokenizer().encode(kText, model_->tokenizer().addsBosByDefault(), false);
        QVERIFY(prompt_.size() > 24);
    }

    void forkedSequenceMatchesFreshOne() {
        auto be = makeCpuBackend(*model_, 2);
        KvBlockPool pool(model_->hparams(), 16, KvType::F16);
        const SeqId parent = pool.newSequence();
        auto l = be->forward(prompt_, pool, parent, false);
        for (int i = 0; i < 6; ++i) {
            const TokenId one[1] = {argmax(l)};
            l = be->forward(one, pool, parent, false);
        }
        const int64_t at = 20;  // inside the second block of 16
        const SeqId child = pool.fork(parent, at);
        QCOMPARE(pool.stats().blocksShared, int64_t(2));
        const std::vector<TokenId> branch = {504, 2114, 28, 253, 1345, 30};
        std::vector<std::vector<float>> childLogits;
        for (TokenId t : branch) {
            const TokenId one[1] = {t};
            const auto r = be->forward(one, pool, child, false);
            childLogits.emplace_back(r.begin(), r.end());
        }
        QCOMPARE(pool.stats().blocksShared, int64_t(1));  // the partial block was copied on write

        // Without sharing: the first `at` prompt tokens as a prompt, then the same branch.
        KvCache fresh(model_->hparams(), 64, KvType::F16);
        be->forward(std::span(prompt_).first(at), fresh, false);
        double d = 0;
        for (size_t i = 0; i < branch.size(); ++i) {
            const TokenId one[1] = {branch[i]};
            d = std::max(d, maxAbsDiff(be->forward(one, fresh, false), childLogits[i]));
        }
        qInfo("forked vs fresh: max |logit diff| %.3g", d);
        QCOMPARE(d, 0.0);
    }

    // Measured on SmolLM2-135M Q4_1, 2 threads, 64 steps (KL mean / max per step, nats):
    //   fast path   f16 3.2e-3 / 9.7e-3 (top-1 61/64)   q8_0 4.2e-3 / 1.7e-2 (62/64)
    //   exact mode  f16 4.2e-7 / 2.8e-6 (64/64)         q8_0 6.3e-4 / 4.3e-3 (63/64)
    // On the fast path both are dominated by activation quantization, which turns any small
    // change into a flipped rounding somewhere (f16 alone is 4e-7 in exact mode). Bounds: about
    // three times the measurements.
    void cacheTypesStayCloseToF32_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<double>("maxMeanKl");
        QTest::addColumn<double>("maxStepKl");
        QTest::newRow("f16 fast path") << "f16" << false << 1e-2 << 3e-2;
        QTest::newRow("q8_0 fast path") << "q8_0" << false << 1.5e-2 << 5e-2;
        QTest::newRow("f16 exact mode") << "f16" << true << 1.5e-6 << 1e-5;
        QTest::newRow("q8_0 exact mode") << "q8_0" << true << 2e-3 << 1.5e-2;
    }
    void cacheTypesStayCloseToF32() {
        QFETCH(QString, type);
        QFETCH(bool, exact);
        QFETCH(double, maxMeanKl);
        QFETCH(double, maxStepKl);
        auto be = makeCpuBackend(*model_, 2, exact);
        constexpr int kSteps = 64;
        // Reference: the f32 cache's greedy path.
        KvCache ref(model_->hparams(), 256, KvType::F32);
        std::vector<std::vector<float>> refLogits;
        std::vector<TokenId> path;
        auto l = be->forward(prompt_, ref, false);
        for (int i = 0; i < kSteps; ++i) {
            refLogits.emplace_back(l.begin(), l.end());
            path.push_back(argmax(l));
            const TokenId one[1] = {path.back()};
            if (i + 1 < kSteps) l = be->forward(one, ref, false);
        }
        // The other type, teacher-forced along that path.
        KvCache c(model_->hparams(), 256, parseKvType(type.toStdString()));
        l = be->forward(prompt_, c, false);
        double sum = 0, worst = 0;
        int sameTop1 = 0;
        for (int i = 0; i < kSteps; ++i) {
            const double k = kl(refLogits[i], l);
            sum += k;
            worst = std::max(worst, k);
            sameTop1 += argmax(l) == path[i];
            const TokenId one[1] = {path[i]};
            if (i + 1 < kSteps) l = be->forward(one, c, false);
        }
        qInfo("%s%s cache vs f32 over %d greedy steps: KL mean %.3g max %.3g nats; top-1 equal at %d/%d steps",
              qPrintable(type), exact ? " (exact mode)" : "", kSteps, sum / kSteps, worst, sameTop1, kSteps);
        QVERIFY(sum / kSteps <= maxMeanKl);
        QVERIFY(worst <= maxStepKl);
    }

    // Exact mode (f32 weights, unquantized activations): a row's arithmetic does not depend on
    // the batch, so recomputing the prefix gives the same bits and the same tokens.
    void noCacheModeIsExactInExactMode() {
        auto be = makeCpuBackend(*model_, 2, true);
        const std::span<const TokenId> prompt = std::span(prompt_).first(24);
        KvCache cached(model_->hparams(), 64, KvType::F32), recomputed(model_->hparams(), 64, KvType::F32);
        auto l = be->forward(prompt, cached, false);
        std::vector<float> a(l.begin(), l.end());
        be->setRecomputePrefix(true);
        l = be->forward(prompt, recomputed, false);
        double d = maxAbsDiff(a, l);
        for (int i = 0; i < 6; ++i) {
            const TokenId one[1] = {argmax(a)};
            QCOMPARE(argmax(l), one[0]);
            be->setRecomputePrefix(false);
            l = be->forward(one, cached, false);
            a.assign(l.begin(), l.end());
            be->setRecomputePrefix(true);
            l = be->forward(one, recomputed, false);
            d = std::max(d, maxAbsDiff(a, l));
        }
        be->setRecomputePrefix(false);
        qInfo("exact mode, no cache vs cached: max |logit diff| %.3g over 6 steps", d);
        QCOMPARE(d, 0.0);
    }

    // Fast path: the quantized kernels take a different route for one token than for a batch
    // (a matvec vs register tiles), so a recomputed row may differ in the last bits and a
    // near-tie may flip. Teacher-forced along the cached greedy path, the no-cache argmax must
    // agree wherever the cached top-1/top-2 gap exceeds 0.5; the step costs are reported.
    void noCacheModeGivesSameTokens() {
        auto be = makeCpuBackend(*model_, 2);
        constexpr int kSteps = 24;
        KvCache cached(model_->hparams(), 256, KvType::F16), recomputed(model_->hparams(), 256, KvType::F16);
        auto l = be->forward(prompt_, cached, false);
        std::vector<float> a(l.begin(), l.end());
        be->setRecomputePrefix(true);
        l = be->forward(prompt_, recomputed, false);
        std::vector<float> b(l.begin(), l.end());
        double d = 0;
        int same = 0, checked = 0;
        std::vector<double> cachedMs, recomputeMs;
        auto timed = [&](KvCache& c, TokenId t, bool recompute, std::vector<double>& ms, std::vector<float>& out) {
            be->setRecomputePrefix(recompute);
            const TokenId one[1] = {t};
            const auto t0 = std::chrono::steady_clock::now();
            const auto r = be->forward(one, c, false);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            out.assign(r.begin(), r.end());
        };
        for (int i = 0; i < kSteps; ++i) {
            d = std::max(d, maxAbsDiff(a, b));
            const TokenId t = argmax(a);
            same += argmax(b) == t;
            std::vector<float> sorted = a;
            std::nth_element(sorted.begin(), sorted.begin() + 1, sorted.end(), std::greater<float>());
            if (sorted[0] - sorted[1] > 0.5f) {
                ++checked;
                QCOMPARE(argmax(b), t);
            }
            timed(cached, t, false, cachedMs, a);
            timed(recomputed, t, true, recomputeMs, b);
        }
        be->setRecomputePrefix(false);
        qInfo("no cache vs cached: max |logit diff| %.3g; same argmax at %d/%d steps (%d checked); step cost at "
              "positions %zu / %zu: cached %.1f / %.1f ms, no cache %.1f / %.1f ms",
              d, same, kSteps, checked, prompt_.size(), prompt_.size() + kSteps - 1, cachedMs.front(), cachedMs.back(),
              recomputeMs.front(), recomputeMs.back());
        QVERIFY(checked >= kSteps / 2);
    }
};

QTEST_GUILESS_MAIN(TestKvRealModel)
#include "test_kv_realmodel.moc"
