// The thread pool and the backend's thread count changed in place (the GUI's Settings -> CPU
// threads no longer reloads the model): every thread index runs once per run() at every size,
// before and after resize(); the backend's logits do not depend on the thread count (the split
// is by rows, each row summed by one thread), and a count outside 1..256 is refused by name.
#include <QtTest>

#include <atomic>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "gguf/tiny_model.h"
#include "model/backend.h"
#include "model/kv_cache.h"
#include "model/model.h"
#include "test_paths.h"

using namespace dlab;

class TestThreadPool : public QObject {
    Q_OBJECT

    static void checkRuns(ThreadPool& pool, int expected) {
        QCOMPARE(pool.size(), expected);
        for (int round = 0; round < 50; ++round) {
            std::vector<std::atomic<int>> hits(static_cast<size_t>(expected));
            std::atomic<int> total{0};
            pool.run([&](int ith, int nth) {
                QCOMPARE(nth, expected);
                hits[static_cast<size_t>(ith)].fetch_add(1);
                total.fetch_add(1);
            });
            QCOMPARE(total.load(), expected);
            for (auto& h : hits) QCOMPARE(h.load(), 1);
        }
    }

private slots:
    void resizeKeepsEveryThreadRunningOnce_data() {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("1 -> 4") << 1 << 4;
        QTest::newRow("4 -> 1") << 4 << 1;
        QTest::newRow("2 -> 3") << 2 << 3;
        QTest::newRow("3 -> 3") << 3 << 3;
        QTest::newRow("0 means 1") << 2 << 0;
    }

    void resizeKeepsEveryThreadRunningOnce() {
        QFETCH(int, from);
        QFETCH(int, to);
        ThreadPool pool(from);
        checkRuns(pool, from);
        pool.resize(to);
        checkRuns(pool, std::max(1, to));
        pool.resize(from);   // and back, after the generation counter has moved on
        checkRuns(pool, from);
    }

    void backendChangesThreadsInPlace() {
        const std::string path = test::scratchDir() + "/thread-pool-tiny.gguf";
        writeTinyModel(TinyModelSpec{}, path);
        auto model = Model::load(path);
        auto backend = makeCpuBackend(*model, 1);
        const std::vector<TokenId> prompt = {1, 5, 9, 3, 7};
        KvCache one(model->hparams(), 64, KvType::F32);
        const auto a = backend->forward(prompt, one, false);
        const std::vector<float> logitsOne(a.begin(), a.end());
        backend->setThreads(3);
        QCOMPARE(backend->threads(), 3);
        KvCache three(model->hparams(), 64, KvType::F32);
        const auto b = backend->forward(prompt, three, false);
        QCOMPARE(std::vector<float>(b.begin(), b.end()), logitsOne);
        try {
            backend->setThreads(1000);
            QFAIL("1000 threads were accepted");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains("between 1 and 256"), e.what());
        }
        QCOMPARE(backend->threads(), 3);   // a refused count changes nothing
    }
};

QTEST_APPLESS_MAIN(TestThreadPool)
#include "test_thread_pool.moc"
