// What of the CUDA backend runs without a GPU: the kernels' per-element arithmetic (cuda/quant_hd.h
// is compiled for both sides, so the host calls the very code the device runs) against the
// engine's reference, the backend choice and its fallback, the KV pool's mirror log, the logit
// statistics the trace uses, the random-weights model of the default model's shape, and (in a
// CUDA build) that cuBLAS loads at run time.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

#include "core/error.h"
#include "cpu/ops.h"
#include "cuda/backend_choice.h"
#include "cuda/cuda_backend.h"
#include "test_paths.h"
#include "cuda/quant_hd.h"
#include "gguf/gguf_writer.h"
#include "gguf/tiny_model.h"
#include "model/kv_block_pool.h"
#include "model/kv_cache.h"
#include "model/logit_stats.h"
#include "quant/fp16.h"
#include "quant/matmul.h"
#include "quant/quantize.h"
#ifdef DLAB_HAVE_CUDA
#include "cuda/cublas_loader.h"
#endif

using namespace dlab;
Q_DECLARE_METATYPE(dlab::GgmlType)
Q_DECLARE_METATYPE(dlab::KvType)

namespace {

std::vector<float> normal(size_t n, float scale, uint32_t seed) {
    std::mt19937 g(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = d(g);
    return v;
}

std::vector<uint8_t> encodeRow(GgmlType type, const std::vector<float>& src) {
    std::vector<uint8_t> bytes(ggmlRowBytes(type, static_cast<int64_t>(src.size())));
    if (type == GgmlType::F32) std::memcpy(bytes.data(), src.data(), bytes.size());
    else if (type == GgmlType::F16 || type == GgmlType::BF16)
        for (size_t i = 0; i < src.size(); ++i) {
            const uint16_t h = type == GgmlType::F16 ? fp32ToFp16(src[i]) : fp32ToBf16(src[i]);
            std::memcpy(bytes.data() + 2 * i, &h, 2);
        }
    else quantize(type, src.data(), bytes.data(), static_cast<int64_t>(src.size()));
    return bytes;
}

template <GgmlType T>
void chunks(const uint8_t* row, int64_t n, float* out) {
    for (int64_t c = 0; c < n / 8; ++c) cuda::dequantChunk8<T>(row, c, out + 8 * c);
}
void deviceDequant(GgmlType t, const uint8_t* row, int64_t n, float* out) {
    using G = GgmlType;
    switch (t) {
    case G::F32: return chunks<G::F32>(row, n, out);
    case G::F16: return chunks<G::F16>(row, n, out);
    case G::BF16: return chunks<G::BF16>(row, n, out);
    case G::Q4_0: return chunks<G::Q4_0>(row, n, out);
    case G::Q4_1: return chunks<G::Q4_1>(row, n, out);
    case G::Q8_0: return chunks<G::Q8_0>(row, n, out);
    case G::Q4_K: return chunks<G::Q4_K>(row, n, out);
    case G::Q5_K: return chunks<G::Q5_K>(row, n, out);
    case G::Q6_K: return chunks<G::Q6_K>(row, n, out);
    default: QFAIL("type without a device reader");
    }
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); }

std::unique_ptr<Model> tinyModel(const std::string& name) {
    TinyModelSpec spec;
    spec.weightType = GgmlType::Q8_0;
    const std::string path = dlab::test::scratchDir() + "/" + name;
    writeTinyModel(spec, path);
    return Model::load(path);
}

}  // namespace

class TestCudaHost : public QObject {
    Q_OBJECT

private slots:
    void dequantChunksEqualTheEngine_data() {
        QTest::addColumn<GgmlType>("type");
        QTest::addColumn<bool>("randomBytes");
        for (GgmlType t : {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q8_0, GgmlType::Q4_K,
                           GgmlType::Q5_K, GgmlType::Q6_K}) {
            QTest::newRow((ggmlTypeName(t) + " quantized").c_str()) << t << false;
            // Every bit pattern a file may hold, not only what our quantizer writes (K-quant scales, high bits).
            if (t != GgmlType::F32) QTest::newRow((ggmlTypeName(t) + " random bytes").c_str()) << t << true;
        }
    }
    void dequantChunksEqualTheEngine() {
        QFETCH(GgmlType, type);
        QFETCH(bool, randomBytes);
        const int64_t n = 1024;   // 4 K-quant super-blocks, 32 small blocks
        std::vector<uint8_t> row = encodeRow(type, normal(n, 0.7f, 11));
        if (randomBytes) {
            std::mt19937 g(5);
            for (auto& b : row) b = static_cast<uint8_t>(g());
        }
        std::vector<float> ref(n), dev(n);
        dequantize(type, row.data(), ref.data(), n);
        deviceDequant(type, row.data(), n, dev.data());
        for (int64_t i = 0; i < n; ++i)
            if (!sameBits(ref[i], dev[i])) QFAIL(qPrintable(QString("element %1: device %2, engine %3").arg(i).arg(dev[i]).arg(ref[i])));
    }

    void q8_0BlockEqualsTheEngine() {
        for (uint32_t seed = 1; seed <= 50; ++seed) {
            auto x = normal(64, seed % 2 ? 0.01f : 30.0f, seed);
            if (seed == 7) std::fill(x.begin(), x.begin() + 32, 0.0f);   // an all-zero block: d = 0
            std::vector<uint8_t> ref(68), dev(68);
            quantize(GgmlType::Q8_0, x.data(), ref.data(), 64);
            cuda::quantizeQ8_0Block(x.data(), dev.data());
            cuda::quantizeQ8_0Block(x.data() + 32, dev.data() + 34);
            QCOMPARE(dev, ref);
        }
    }

    void kvElementEqualsLoadKvRow_data() {
        QTest::addColumn<KvType>("type");
        QTest::newRow("f32") << KvType::F32;
        QTest::newRow("f16") << KvType::F16;
        QTest::newRow("q8_0") << KvType::Q8_0;
    }
    void kvElementEqualsLoadKvRow() {
        QFETCH(KvType, type);
        const int n = 192;
        const auto x = normal(n, 2.0f, 3);
        std::vector<uint8_t> row(kvRowBytes(type, n));
        storeKvRow(type, x.data(), row.data(), n);
        std::vector<float> ref(n);
        loadKvRow(type, row.data(), ref.data(), n);
        for (int i = 0; i < n; ++i) QVERIFY(sameBits(cuda::kvElement(static_cast<int>(type), row.data(), i), ref[i]));
    }

    void activationsEqualTheCpu() {
        auto x = normal(1000, 4.0f, 9), y = normal(1000, 1.0f, 10);
        auto silu = x, gelu = x;
        ops::siluMul(silu.data(), y.data(), 1000);
        ops::gelu(gelu.data(), 1000);
        for (int i = 0; i < 1000; ++i) {
            QCOMPARE(cuda::silu(x[i]) * y[i], silu[i]);
            QCOMPARE(cuda::geluTanh(x[i]), gelu[i]);
        }
    }

    void backendKindParses() {
        QCOMPARE(parseBackendKind("auto"), BackendKind::Auto);
        QCOMPARE(parseBackendKind("cpu"), BackendKind::Cpu);
        QCOMPARE(parseBackendKind("cuda"), BackendKind::Cuda);
        try {
            parseBackendKind("gpu");
            QFAIL("accepted 'gpu'");
        } catch (const Error& e) {
            QCOMPARE(QString(e.what()), QString("--backend takes auto, cpu or cuda (got 'gpu')"));
        }
    }

    // Without a usable GPU: auto is the CPU with the reason, cuda fails with it, never a crash.
    void autoFallsBackWithoutAGpu() {
        const std::string reason = cudaUnavailableReason();
        if (reason.empty()) QSKIP("a GPU is usable here: the fallback is not what runs");
        auto model = tinyModel("cuda_host_fallback.gguf");
        BackendChoice c = makeBackend(*model, BackendKind::Auto, 1);
        QCOMPARE(std::string(c.backend->name()), std::string("cpu"));
        if (cudaBuiltIn()) QCOMPARE(c.notice, "using the CPU: " + reason);
        else QVERIFY(c.notice.empty());   // a CPU-only build has nothing to fall back from
        try {
            makeBackend(*model, BackendKind::Cuda, 1);
            QFAIL("--backend cuda without a GPU did not fail");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find(reason) != std::string::npos, e.what());
        }
        QCOMPARE(std::string(makeBackend(*model, BackendKind::Cpu, 1).backend->name()), std::string("cpu"));
    }

    // What a device mirror replays: copy-on-write copies, eviction's moves; host writes are counted.
    void kvPoolLogsWhatAMirrorReplays() {
        HParams hp;
        hp.nLayer = 2;
        hp.nHead = 2;
        hp.nHeadKv = 1;
        hp.headDim = 32;
        hp.nEmbd = 64;
        auto pool = std::make_unique<KvBlockPool>(hp, 8, KvType::F32, 4);
        const SeqId a = pool->newSequence();
        pool->prepareWrite(a, 0, 6);
        const std::vector<TokenId> six{1, 2, 3, 4, 5, 6};
        pool->commit(a, 0, six);
        std::vector<float> row(32, 1.0f);
        pool->storeK(a, 0, 0, row.data());   // before a mirror: not counted
        const auto log = pool->attachMirror();
        QCOMPARE(pool->attachMirror(), log);
        pool->storeK(a, 0, 1, row.data());
        pool->storeV(a, 1, 1, row.data());
        QCOMPARE(log->hostWrites, uint64_t(2));
        const SeqId b = pool->fork(a, 6);   // shares both blocks; the partial second one is written next
        const int32_t shared = pool->blockTable(b)[1];
        pool->prepareWrite(b, 6, 1);
        QCOMPARE(log->events.size(), size_t(1));
        QCOMPARE(log->events[0].srcBlock, shared);
        QCOMPARE(log->events[0].srcSlot, -1);
        QCOMPARE(log->events[0].dstBlock, pool->blockTable(b)[1]);
        log->events.clear();
        const std::vector<TokenId> one{7};
        pool->commit(b, 6, one);
        pool->evict(b, 1, 2);   // keeps slot 0 and the last two: 7 -> 3 slots, rows 5, 6 move to 1, 2
        QVERIFY(log->events.size() >= 2);
        const KvRowEvent& last = log->events.back();
        QCOMPARE(last.dstSlot, 2);
        QCOMPARE(last.srcSlot, 6 % 4);
        // A copy of the pool starts without a mirror; destroying the pool tells the mirror.
        KvBlockPool copy = *pool;
        QVERIFY(log->poolAlive);
        QVERIFY(copy.attachMirror() != log);
        pool.reset();
        QVERIFY(!log->poolAlive);
    }

    void logitRowStatsMatchBruteForce() {
        auto x = normal(3000, 3.0f, 21);
        x[10] = x[20] = 40.0f;   // a tie at the top: the smaller id first
        x[30] = -INFINITY;
        const auto s = logitRowStats(x, 3000, 5);
        QCOMPARE(s.size(), size_t(1));
        double mx = -INFINITY, sum = 0, h = 0;
        for (float v : x) mx = std::max<double>(mx, v);
        for (float v : x) sum += std::exp(double(v) - mx);
        for (float v : x)
            if (v != -INFINITY) {
                const double p = std::exp(double(v) - mx) / sum;
                h -= p * std::log(p);
            }
        QCOMPARE(s[0].maxLogit, 40.0f);
        QVERIFY(std::fabs(s[0].logSumExp - (mx + std::log(sum))) < 1e-4);
        QVERIFY(std::fabs(s[0].entropy - h) < 1e-5);
        QCOMPARE(s[0].topIds.front(), 10);
        QCOMPARE(s[0].topIds[1], 20);
    }

    // The CPU computes the trace's statistics from its rows and keeps its logits on the host.
    void cpuBackendFillsLogitStats() {
        auto model = tinyModel("cuda_host_stats.gguf");
        auto cpu = makeCpuBackend(*model, 1);
        cpu->setLogitStats(8);
        KvCache cache(model->hparams(), 32, KvType::F16);
        const std::vector<TokenId> prompt{5, 6, 7, 8};
        const auto logits = cpu->forward(prompt, cache, true);
        const auto expect = logitRowStats(logits, model->hparams().nVocab, 8);
        QCOMPARE(cpu->lastLogitStats().size(), size_t(4));
        for (size_t r = 0; r < 4; ++r) {
            QCOMPARE(cpu->lastLogitStats()[r].topIds, expect[r].topIds);
            QCOMPARE(cpu->lastLogitStats()[r].logSumExp, expect[r].logSumExp);
        }
        QVERIFY_THROWS_EXCEPTION(Error, cpu->setHostLogits(false));
    }

    // The GPU machine's model: the default model's shape and tensor types, random weights.
    void defaultShapedModel() {
        const std::string path = dlab::test::scratchDir() + "/cuda_host_smollm2_shape.gguf";
        writeTinyModel(smollm2_135mShape(), path);
        auto m = Model::load(path);
        const HParams& hp = m->hparams();
        QCOMPARE(hp.nLayer, 30);
        QCOMPARE(hp.nEmbd, 576);
        QCOMPARE(hp.nHead, 9);
        QCOMPARE(hp.nHeadKv, 3);
        QCOMPARE(hp.nFf, 1536);
        QCOMPARE(hp.nVocab, 49152);
        QCOMPARE(hp.ropeFreqBase, 100000.0f);
        QVERIFY(m->tiedOutput());
        QCOMPARE(m->parameterCount(), int64_t(134515008));   // the default model's count
        QCOMPARE(QString::fromStdString(m->tensorTypeSummary()), QString("F32 (61), Q4_1 (210), Q8_0 (1)"));
        std::remove(path.c_str());
    }

    void cublasLoadsAtRunTime() {
#ifdef DLAB_HAVE_CUDA
        const auto& api = cuda::cublas();   // throws with the library's name when it is missing
        QVERIFY(api.gemmEx && api.create && api.statusString);
        QCOMPARE(QString(api.statusName(CUBLAS_STATUS_NOT_INITIALIZED)), QString("CUBLAS_STATUS_NOT_INITIALIZED"));
#else
        QSKIP("this build has no CUDA backend");
#endif
    }
};

QTEST_APPLESS_MAIN(TestCudaHost)
#include "test_cuda_host.moc"
