// Generation on the default model: reproducible with a seed across thread counts, greedy is
// temperature 0, chat prompts stop at the end-of-turn token, and cancellation works.
#include <QTest>

#include "generate/generator.h"
#include "test_paths.h"
#include "generate/chat_prompt.h"

using namespace dlab;

class TestGenerateRealModel : public QObject {
    Q_OBJECT
    std::unique_ptr<Model> model_;

    GenerateResult run(const std::string& prompt, const GenerateOptions& opt, int threads, bool chat = false,
                       const std::atomic<bool>* cancel = nullptr) {
        auto backend = makeCpuBackend(*model_, threads);
        KvCache cache(model_->hparams(), 512, KvType::F16);
        std::vector<TokenId> ids;
        if (chat)
            ids = chatPromptTokens(*model_, {{"user", prompt}});
        else
            ids = model_->tokenizer().encode(prompt, model_->tokenizer().addsBosByDefault(), false);
        return generate(*model_, *backend, cache, ids, opt, {}, cancel);
    }

private slots:
    void initTestCase() {
        const std::string path = test::defaultModelPath();
        if (path.empty()) QFAIL("the default model is not installed; run ./scripts/setup.sh");
        model_ = Model::load(path);
    }

    void sameSeedSameTextAcrossThreadCounts_data() {
        QTest::addColumn<uint64_t>("seed");
        QTest::newRow("seed 1") << uint64_t(1);
        QTest::newRow("seed 2024") << uint64_t(2024);
    }
    void sameSeedSameTextAcrossThreadCounts() {
        QFETCH(uint64_t, seed);
        GenerateOptions opt;
        opt.maxTokens = 40;
        opt.stopAtEndOfGeneration = false;
        opt.sampler = SamplerParams{0.9f, 50, 0.95f, seed};
        const auto one = run("Once upon a time, in a small village,", opt, 1);
        const auto two = run("Once upon a time, in a small village,", opt, 2);
        const auto again = run("Once upon a time, in a small village,", opt, 2);
        QCOMPARE(one.tokens.size(), size_t(40));
        QCOMPARE(one.tokens, two.tokens);
        QCOMPARE(two.tokens, again.tokens);
        QCOMPARE(one.text, two.text);
    }

    void differentSeedsDiffer() {
        GenerateOptions opt;
        opt.maxTokens = 40;
        opt.stopAtEndOfGeneration = false;
        opt.sampler = SamplerParams{1.0f, 0, 1.0f, 1};
        const auto a = run("Once upon a time", opt, 2);
        opt.sampler.seed = 2;
        const auto b = run("Once upon a time", opt, 2);
        QVERIFY(a.tokens != b.tokens);
    }

    void temperatureZeroIsGreedyAndTopKOneToo() {
        GenerateOptions greedy;
        greedy.maxTokens = 24;
        greedy.sampler = SamplerParams{0.0f, 0, 1.0f, 3};
        GenerateOptions topk1 = greedy;
        topk1.sampler = SamplerParams{1.3f, 1, 1.0f, 99};
        QCOMPARE(run("The capital of France is", greedy, 2).tokens, run("The capital of France is", topk1, 2).tokens);
    }

    void chatAnswerStopsAtEndOfTurn() {
        GenerateOptions opt;
        opt.maxTokens = 200;
        opt.sampler = SamplerParams{0.0f, 0, 1.0f, 0};
        const auto r = run("Say hello.", opt, 2, true);
        QCOMPARE(r.stop, StopReason::EndOfGeneration);
        QVERIFY(!r.text.empty());
        QVERIFY(r.text.find("<|im_end|>") == std::string::npos);
    }

    void cancelFlagStopsGeneration() {
        std::atomic<bool> cancel{true};
        GenerateOptions opt;
        opt.maxTokens = 50;
        const auto r = run("Hello", opt, 2, false, &cancel);
        QCOMPARE(r.stop, StopReason::Cancelled);
        QVERIFY(r.tokens.empty());
    }
};

QTEST_GUILESS_MAIN(TestGenerateRealModel)
#include "test_generate_realmodel.moc"
