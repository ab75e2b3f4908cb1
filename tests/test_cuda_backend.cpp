// The CUDA backend's behaviour around the device, beyond the per-op checks: graphs replayed with
// new metadata, batched sequences, the paged KV cache mirrored on the device (copy-on-write forks,
// rows the CPU wrote, eviction's moves), attention weights and logit statistics computed there,
// cancellation, running out of GPU memory, and the fallback to the CPU with one sentence for each
// reason a GPU cannot be used.
//
// Built twice: against the real CUDA backend (every case skips without a GPU) and against the same
// backend on the CPU emulator of the CUDA runtime (test_cuda_backend_emulated), where it always
// runs; the emulator alone can also inject the conditions of the fallback cases.
#include <QtTest>

#include <atomic>
#include <cmath>

#include "core/error.h"
#include "cuda/backend_choice.h"
#include "cuda/cuda_backend.h"
#include "gguf/tiny_model.h"
#include "model/kv_cache.h"
#include "model/logit_stats.h"
#ifdef DLAB_CUDA_EMULATED
#include "emulator.h"
#endif

using namespace dlab;

namespace {

double nmse(std::span<const float> a, std::span<const float> ref) {
    double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        num += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
        den += double(ref[i]) * ref[i];
    }
    return den > 0 ? num / den : num;
}

TokenId argmax(std::span<const float> x) { return static_cast<TokenId>(std::max_element(x.begin(), x.end()) - x.begin()); }

std::vector<float> copy(std::span<const float> s) { return {s.begin(), s.end()}; }

std::vector<TokenId> prompt(int n, int salt) {
    std::vector<TokenId> t;
    for (int i = 0; i < n; ++i) t.push_back(static_cast<TokenId>((i * 37 + salt * 11 + 5) % 300));
    return t;
}

std::unique_ptr<Model> tinyModel(const std::string& arch, GgmlType type) {
    TinyModelSpec spec;
    spec.arch = arch;
    spec.weightType = type;
    spec.nEmbd = 128;   // heads of 32 values: a q8_0 KV cache needs whole 32-value blocks
    spec.nFf = 256;
    const std::string path = QDir::temp().filePath(QString("cuda_backend_%1_%2.gguf").arg(QString::fromStdString(arch)).arg(int(type))).toStdString();
    writeTinyModel(spec, path);
    return Model::load(path);
}

// The NMSE a step may differ by from the CPU's exact mode: the backends sum in other orders, the
// GEMM path rounds activations to half (about 2^-11 relative: ~1e-6 NMSE expected, the forward
// test in test_cuda_ops allows 1e-3 for the whole model).
constexpr double kBound = 1e-3;

}  // namespace

class TestCudaBackend : public QObject {
    Q_OBJECT

    std::unique_ptr<Model> model_;

    bool skipWithoutGpu() {
        const std::string reason = cudaUnavailableReason();
        if (reason.empty()) return false;
        qInfo("no GPU: %s", reason.c_str());
        return true;
    }

private slots:
    void initTestCase() { model_ = tinyModel("llama", GgmlType::Q4_1); }
    void init() {
#ifdef DLAB_CUDA_EMULATED
        emu::clearFault();
#endif
    }

    // The same decode steps with graphs (captured once, replayed with each step's metadata) and
    // without: the same kernels, so the same logits bit for bit.
    void graphsReplayWithNewMetadata() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto graphed = makeCudaBackend(*model_, {0, true});
        auto plain = makeCudaBackend(*model_, {0, false});
        KvCache cg(model_->hparams(), 64, KvType::F16), cp(model_->hparams(), 64, KvType::F16);
        std::vector<TokenId> input = prompt(10, 1);
#ifdef DLAB_CUDA_EMULATED
        const emu::Stats before = emu::stats();
#endif
        for (int step = 0; step < 13; ++step) {
            const std::vector<float> g = copy(graphed->forward(input, cg, false));
            const std::vector<float> p = copy(plain->forward(input, cp, false));
            QVERIFY2(g == p, qPrintable(QString("step %1: graphed and plain logits differ (NMSE %2)").arg(step).arg(nmse(g, p))));
            input.assign(1, argmax(g));
        }
#ifdef DLAB_CUDA_EMULATED
        // One decode shape: one capture, then a replay per step (the prefill is never graphed).
        const emu::Stats after = emu::stats();
        QCOMPARE(after.captures - before.captures, uint64_t(1));
        QCOMPARE(after.graphLaunches - before.graphLaunches, uint64_t(12));
        QVERIFY(after.kernelsInGraphs - before.kernelsInGraphs >= 12 * uint64_t(model_->hparams().nLayer) * 6);
#endif
    }

    // Batched decode steps of more than 8 sequences (the GEMM path, cuBLAS included) are graphed
    // too: one capture for the shape, a replay per step, the same logits as without graphs. Where
    // cuBLAS cannot be captured (injected on the emulator), the capture is tried once and the
    // steps run ungraphed, with the same logits.
    void batchedDecodeStepsAreGraphed_data() {
        QTest::addColumn<bool>("capturable");
        QTest::newRow("cuBLAS captured") << true;
#ifdef DLAB_CUDA_EMULATED
        QTest::newRow("cuBLAS refuses capture") << false;
#endif
    }
    void batchedDecodeStepsAreGraphed() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        QFETCH(bool, capturable);
#ifdef DLAB_CUDA_EMULATED
        emu::config().cublasCapturable = capturable;
        struct Restore {
            ~Restore() { emu::config().cublasCapturable = true; }
        } restore;
#endif
        auto graphed = makeCudaBackend(*model_, {0, true});
        auto plain = makeCudaBackend(*model_, {0, false});
        const HParams& hp = model_->hparams();
        const int B = 16;
        KvBlockPool pg(hp, 4 * B, KvType::F16), pp(hp, 4 * B, KvType::F16);
        std::vector<SeqId> sg, sp;
        std::vector<TokenId> next;
        for (int i = 0; i < B; ++i) {
            sg.push_back(pg.newSequence());
            sp.push_back(pp.newSequence());
            const auto p = prompt(2 + i % 5, i);
            graphed->forward(p, pg, sg[i], false);
            next.push_back(argmax(plain->forward(p, pp, sp[i], false)));
        }
#ifdef DLAB_CUDA_EMULATED
        const emu::Stats before = emu::stats();
#endif
        for (int step = 0; step < 4; ++step) {
            std::vector<Backend::BatchItem> ig, ip;
            for (int i = 0; i < B; ++i) {
                ig.push_back({sg[i], std::span<const TokenId>(&next[i], 1), false});
                ip.push_back({sp[i], std::span<const TokenId>(&next[i], 1), false});
            }
            const auto rg = graphed->forwardBatch(ig, pg);
            std::vector<std::vector<float>> g;
            for (const auto& r : rg) g.push_back(copy(r));
            const auto rp = plain->forwardBatch(ip, pp);
            for (int i = 0; i < B; ++i) {
                const std::vector<float> p = copy(rp[i]);
                QVERIFY2(g[i] == p, qPrintable(QString("step %1, sequence %2: NMSE %3").arg(step).arg(i).arg(nmse(g[i], p))));
                next[i] = argmax(p);
            }
        }
#ifdef DLAB_CUDA_EMULATED
        const emu::Stats after = emu::stats();
        QCOMPARE(after.captures - before.captures, uint64_t(1));
        QCOMPARE(after.graphLaunches - before.graphLaunches, uint64_t(capturable ? 4 : 0));
        QVERIFY(emu::lastFault().empty());
#else
        (void)capturable;
#endif
    }

    // The size of the pool a sequence lives in (its block table's width, the metadata's layout)
    // does not change its logits.
    void poolSizeDoesNotMatter() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        KvCache small(model_->hparams(), 24, KvType::F16), large(model_->hparams(), 2048, KvType::F16);
        std::vector<TokenId> input = prompt(5, 8);
        for (int step = 0; step < 10; ++step) {
            const std::vector<float> a = copy(gpu->forward(input, small, false));
            const std::vector<float> b = copy(gpu->forward(input, large, false));
            QVERIFY2(a == b, qPrintable(QString("step %1: NMSE %2").arg(step).arg(nmse(b, a))));
            input.assign(1, argmax(a));
        }
    }

    // Four sequences decoded in one pass equal each decoded alone, bit for bit (the matvec path
    // computes every token's row in the same order whatever the batch); a pass of more than eight
    // tokens (a prefill chunk beside decode steps: the GEMM path) stays within the bound.
    void batchEqualsAlone() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        const HParams& hp = model_->hparams();
        KvBlockPool batched(hp, 32, KvType::F16), alone(hp, 32, KvType::F16);
        std::vector<SeqId> sb, sa;
        std::vector<std::vector<TokenId>> next;
        const int lengths[] = {3, 7, 12, 20};
        for (int i = 0; i < 4; ++i) {
            sb.push_back(batched.newSequence());
            sa.push_back(alone.newSequence());
            const auto p = prompt(lengths[i], i);
            gpu->forward(p, batched, sb[i], false);
            next.push_back({argmax(gpu->forward(p, alone, sa[i], false))});
        }
        for (int step = 0; step < 6; ++step) {
            std::vector<Backend::BatchItem> items;
            for (int i = 0; i < 4; ++i) items.push_back({sb[i], next[i], false});
            const auto rows = gpu->forwardBatch(items, batched);
            QCOMPARE(rows.size(), size_t(4));
            for (int i = 0; i < 4; ++i) {
                const std::vector<float> b = copy(rows[i]);
                const std::vector<float> a = copy(gpu->forward(next[i], alone, sa[i], false));
                QVERIFY2(a == b, qPrintable(QString("step %1, sequence %2: NMSE %3").arg(step).arg(i).arg(nmse(b, a))));
                next[i].assign(1, argmax(a));
            }
        }
        // A nine-token chunk beside three decode steps: twelve tokens, the GEMM path.
        const auto chunk = prompt(9, 7);
        std::vector<Backend::BatchItem> items{{sb[0], chunk, false}};
        for (int i = 1; i < 4; ++i) items.push_back({sb[i], next[i], false});
        const auto rows = gpu->forwardBatch(items, batched);
        const std::vector<float> first = copy(rows[0]);
        std::vector<std::vector<float>> rest;
        for (int i = 1; i < 4; ++i) rest.push_back(copy(rows[i]));
        QVERIFY(nmse(first, copy(gpu->forward(chunk, alone, sa[0], false))) < 1e-5);
        for (int i = 1; i < 4; ++i) QVERIFY(nmse(rest[i - 1], copy(gpu->forward(next[i], alone, sa[i], false))) < 1e-5);
        QCOMPARE(batched.length(sb[0]), alone.length(sa[0]));
    }

    // Long contexts split attention into ranges (flash-decoding, cuda/ops/attention.h). A token's
    // ranges follow from its own context, so with splitting from 64 slots on: four sequences of
    // 20 to 300 tokens decoded in one pass (4 blocks per pair: the longest has 3 ranges) equal
    // each decoded alone bit for bit (alone, the 140-token one launches 2 blocks per pair and the
    // short ones 1), every step stays within the bound of the CPU, and a decode step is graphed
    // once per split count.
    void splitContextsStayBatchInvariant() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        TinyModelSpec spec;
        spec.arch = "llama";
        spec.weightType = GgmlType::Q8_0;
        spec.nEmbd = 128;
        spec.nFf = 256;
        spec.nCtx = 512;
        const std::string path = QDir::temp().filePath("cuda_backend_long_context.gguf").toStdString();
        writeTinyModel(spec, path);
        const auto model = Model::load(path);
        const HParams& hp = model->hparams();
        CudaOptions split;
        split.attentionSplitFrom = 64;
        auto gpu = makeCudaBackend(*model, split);
        auto cpu = makeCpuBackend(*model, 1, true);
        KvBlockPool batched(hp, 48, KvType::F16), alone(hp, 48, KvType::F16), ref(hp, 48, KvType::F16);
        std::vector<SeqId> sb, sa, sr;
        std::vector<TokenId> next;
        const int lengths[] = {300, 20, 140, 60};
        for (int i = 0; i < 4; ++i) {
            sb.push_back(batched.newSequence());
            sa.push_back(alone.newSequence());
            sr.push_back(ref.newSequence());
            const auto p = prompt(lengths[i], i);
            gpu->forward(p, batched, sb[i], false);
            gpu->forward(p, alone, sa[i], false);
            next.push_back(argmax(cpu->forward(p, ref, sr[i], false)));
        }
#ifdef DLAB_CUDA_EMULATED
        const emu::Stats before = emu::stats();
#endif
        for (int step = 0; step < 3; ++step) {
            std::vector<Backend::BatchItem> items;
            for (int i = 0; i < 4; ++i) items.push_back({sb[i], std::span<const TokenId>(&next[i], 1), false});
            const auto rows = gpu->forwardBatch(items, batched);
            std::vector<std::vector<float>> b;
            for (const auto& r : rows) b.push_back(copy(r));
            for (int i = 0; i < 4; ++i) {
                const std::vector<float> a = copy(gpu->forward(std::span<const TokenId>(&next[i], 1), alone, sa[i], false));
                const std::vector<float> c = copy(cpu->forward(std::span<const TokenId>(&next[i], 1), ref, sr[i], false));
                QVERIFY2(a == b[i], qPrintable(QString("step %1, sequence %2: batched and alone differ (NMSE %3)").arg(step).arg(i).arg(nmse(b[i], a))));
                QVERIFY2(nmse(a, c) < kBound, qPrintable(QString("step %1, sequence %2: NMSE %3 against the CPU").arg(step).arg(i).arg(nmse(a, c))));
                next[i] = argmax(c);
            }
        }
#ifdef DLAB_CUDA_EMULATED
        // Graphed shapes: the batch of 4 (4 splits) and one step alone at 4, 2 and 1.
        const emu::Stats after = emu::stats();
        QCOMPARE(after.captures - before.captures, uint64_t(4));
        QVERIFY(emu::lastFault().empty());
#endif
        // Without splitting, the long sequences' logits move by rounding only.
        CudaOptions whole;
        whole.attentionSplitFrom = 0;
        auto unsplit = makeCudaBackend(*model, whole);
        KvBlockPool again(hp, 24, KvType::F16);
        const SeqId s = again.newSequence();
        const auto p = prompt(300, 0);
        unsplit->forward(p, again, s, false);
        const SeqId s2 = alone.fork(sa[0], 300);
        const std::vector<float> u = copy(unsplit->forward(std::span<const TokenId>(&next[1], 1), again, s, false));
        const std::vector<float> g = copy(gpu->forward(std::span<const TokenId>(&next[1], 1), alone, s2, false));
        QVERIFY2(nmse(g, u) < 1e-9, qPrintable(QString("split against whole: NMSE %1").arg(nmse(g, u))));

        // The environment's override, when it is not a length, is refused with a sentence.
        qputenv("DLAB_CUDA_ATTENTION_SPLIT_FROM", "long");
        QString message;
        try {
            makeCudaBackend(*model);
        } catch (const Error& e) {
            message = e.what();
        }
        qunsetenv("DLAB_CUDA_ATTENTION_SPLIT_FROM");
        QVERIFY2(message.contains("DLAB_CUDA_ATTENTION_SPLIT_FROM is \"long\""), qPrintable(message));
    }

    // A fork shares the prompt's blocks, a partial last block included; the first write into it
    // copies the block (copy-on-write), which the device mirror must replay. Both branches against
    // the CPU's exact mode doing the same, for every KV type.
    void forksCopyOnWrite_data() {
        QTest::addColumn<int>("kvType");
        QTest::newRow("f16") << int(KvType::F16);
        QTest::newRow("f32") << int(KvType::F32);
        QTest::newRow("q8_0") << int(KvType::Q8_0);
    }
    void forksCopyOnWrite() {
        QFETCH(int, kvType);
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        auto cpu = makeCpuBackend(*model_, 1, true);
        const HParams& hp = model_->hparams();
        KvBlockPool pg(hp, 16, KvType(kvType)), pc(hp, 16, KvType(kvType));
        const SeqId ag = pg.newSequence(), ac = pc.newSequence();
        const auto p = prompt(20, 3);   // 16 + 4: the fork shares a partial block
        QVERIFY(nmse(copy(gpu->forward(p, pg, ag, false)), copy(cpu->forward(p, pc, ac, false))) < kBound);
        const SeqId bg = pg.fork(ag, 20), bc = pc.fork(ac, 20);
        std::vector<TokenId> ta{11}, tb{12};
        for (int step = 0; step < 6; ++step) {
            for (int branch = 0; branch < 2; ++branch) {
                const SeqId sg = branch ? bg : ag, sc = branch ? bc : ac;
                std::vector<TokenId>& t = branch ? tb : ta;
                const std::vector<float> g = copy(gpu->forward(t, pg, sg, false));
                const std::vector<float> c = copy(cpu->forward(t, pc, sc, false));
                const double e = nmse(g, c);
                QVERIFY2(e < kBound, qPrintable(QString("step %1, branch %2: NMSE %3").arg(step).arg(branch).arg(e)));
                t.assign(1, argmax(c));
            }
        }
        QCOMPARE(pg.blockTable(ag).size(), pc.blockTable(ac).size());
    }

    // Rows the CPU wrote reach the device (the mirror uploads them), and the rows the device
    // computed reach the host (the copy-back): CPU → GPU → CPU on one pool equals the CPU alone.
    void rowsCrossBetweenBackends() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        auto cpu = makeCpuBackend(*model_, 1, true);
        const HParams& hp = model_->hparams();
        KvBlockPool shared(hp, 16, KvType::F32), ref(hp, 16, KvType::F32);
        const SeqId s = shared.newSequence(), r = ref.newSequence();
        const auto p = prompt(18, 5);
        cpu->forward(p, shared, s, false);
        std::vector<TokenId> t{argmax(cpu->forward(p, ref, r, false))};
        for (int step = 0; step < 4; ++step) {
            const bool onGpu = step < 3;
            const std::vector<float> a = copy((onGpu ? *gpu : *cpu).forward(t, shared, s, false));
            const std::vector<float> b = copy(cpu->forward(t, ref, r, false));
            QVERIFY2(nmse(a, b) < kBound, qPrintable(QString("step %1 on the %2: NMSE %3").arg(step).arg(onGpu ? "GPU" : "CPU").arg(nmse(a, b))));
            t.assign(1, argmax(b));
        }
    }

    // Eviction moves the kept rows down (a StreamingLLM window): the device replays the moves.
    void evictionMovesRowsOnTheDevice() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        auto cpu = makeCpuBackend(*model_, 1, true);
        const HParams& hp = model_->hparams();
        KvBlockPool pg(hp, 16, KvType::F16), pc(hp, 16, KvType::F16);
        const SeqId sg = pg.newSequence(), sc = pc.newSequence();
        const auto p = prompt(40, 9);
        gpu->forward(p, pg, sg, false);
        std::vector<TokenId> t{argmax(cpu->forward(p, pc, sc, false))};
        QCOMPARE(pg.evict(sg, 4, 20), int64_t(16));
        QCOMPARE(pc.evict(sc, 4, 20), int64_t(16));
        for (int step = 0; step < 4; ++step) {
            const std::vector<float> g = copy(gpu->forward(t, pg, sg, false));
            const std::vector<float> c = copy(cpu->forward(t, pc, sc, false));
            QVERIFY2(nmse(g, c) < kBound, qPrintable(QString("step %1: NMSE %2").arg(step).arg(nmse(g, c))));
            t.assign(1, argmax(c));
        }
    }

    // The KV heatmap's attention weights, computed on the device, against the CPU's. Up to eight
    // tokens the projections run in f32 (matvec); a longer prompt's run through the half GEMM, whose
    // rounding of q and k (2^-11 relative) moves a score by ~1e-3 and a weight by up to ~2e-4.
    void attentionWeightsMatchTheCpu_data() {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<double>("bound");
        QTest::newRow("6 tokens, f32 projections") << 6 << 1e-5;
        QTest::newRow("23 tokens, half GEMM") << 23 << 1e-3;
    }
    void attentionWeightsMatchTheCpu() {
        QFETCH(int, tokens);
        QFETCH(double, bound);
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        auto cpu = makeCpuBackend(*model_, 1, true);
        KvCache cg(model_->hparams(), 64, KvType::F16), cc(model_->hparams(), 64, KvType::F16);
        AttentionWeights wg, wc;
        gpu->requestAttention(&wg);
        cpu->requestAttention(&wc);
        const auto p = prompt(tokens, 2);
        gpu->forward(p, cg, false);
        cpu->forward(p, cc, false);
        QCOMPARE(wg.nSlots, wc.nSlots);
        QCOMPARE(wg.perHead.size(), wc.perHead.size());
        double worst = 0;
        for (size_t i = 0; i < wc.perHead.size(); ++i) worst = std::max(worst, std::fabs(double(wg.perHead[i]) - wc.perHead[i]));
        QVERIFY2(worst < bound, qPrintable(QString("max |Δ| %1").arg(worst)));
        for (int64_t l = 0; l < wg.nLayer; ++l)
            for (int64_t h = 0; h < wg.nHead; ++h) {
                double sum = 0;
                for (int64_t s = 0; s < wg.nSlots; ++s) sum += wg.at(l, h, s);
                QVERIFY(std::fabs(sum - 1.0) < 1e-5);
            }
    }

    // The trace's statistics from the device with the full rows left there: the same top tokens,
    // log-sum-exp and entropy as the CPU computes from its rows.
    void logitStatsWithoutTheRows() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        auto cpu = makeCpuBackend(*model_, 1, true);
        gpu->setLogitStats(8);
        gpu->setHostLogits(false);
        KvCache cg(model_->hparams(), 64, KvType::F16), cc(model_->hparams(), 64, KvType::F16);
        std::vector<TokenId> t = prompt(6, 4);
        for (int step = 0; step < 5; ++step) {
            QVERIFY(gpu->forward(t, cg, false).empty());
            const std::vector<float> c = copy(cpu->forward(t, cc, false));
            const LogitRowStats ref = logitRowStats(c, model_->hparams().nVocab, 8)[0];
            QCOMPARE(gpu->lastLogitStats().size(), size_t(1));
            const LogitRowStats& got = gpu->lastLogitStats()[0];
            QCOMPARE(got.topIds.size(), size_t(8));
            QCOMPARE(got.topIds[0], ref.topIds[0]);
            QVERIFY(std::fabs(got.logSumExp - ref.logSumExp) < 1e-3);
            QVERIFY(std::fabs(got.entropy - ref.entropy) < 1e-3);
            for (int i = 0; i < 8; ++i) QVERIFY(std::fabs(got.topLogits[i] - ref.topLogits[i]) < 1e-2);
            t.assign(1, got.topIds[0]);
        }
    }

    // A raised cancel flag stops a pass before it starts and leaves the sequence as it was; the
    // next pass runs normally (no capture left open).
    void cancelLeavesTheSequence() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        auto gpu = makeCudaBackend(*model_);
        KvCache c(model_->hparams(), 64, KvType::F16), fresh(model_->hparams(), 64, KvType::F16);
        const auto p = prompt(8, 6);
        gpu->forward(p, c, false);
        gpu->forward(p, fresh, false);
        std::atomic<bool> stop{true};
        gpu->setCancelFlag(&stop);
        const std::vector<TokenId> one{42};
        QVERIFY_THROWS_EXCEPTION(Cancelled, gpu->forward(one, c, false));
        QCOMPARE(c.size(), int64_t(8));
        stop = false;
        QVERIFY(copy(gpu->forward(one, c, false)) == copy(gpu->forward(one, fresh, false)));
    }

#ifdef DLAB_CUDA_EMULATED
    // Each reason the GPU cannot be used, injected into the emulated device: automatic falls back
    // to the CPU with one line naming it, an explicit cuda choice fails with that sentence, and
    // nothing is left behind on the device (memory, streams, cuBLAS handles).
    void fallbacks_data() {
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("driver");
        QTest::addColumn<QString>("capability");
        QTest::addColumn<qlonglong>("memory");
        QTest::addColumn<QString>("expected");
        const qlonglong plenty = qlonglong(16) << 30;
        QTest::newRow("no GPU") << 0 << 13000 << "9.0" << plenty << "no NVIDIA GPU is visible";
        QTest::newRow("no driver") << 1 << 0 << "9.0" << plenty << "no NVIDIA driver is installed";
        QTest::newRow("driver too old") << 1 << 12040 << "9.0" << plenty << "supports CUDA 12.4, older than this build's CUDA runtime needs";
        QTest::newRow("compute capability 8.6") << 1 << 13000 << "8.6" << plenty << "compute capability 8.6; this build has code for 9.0";
        QTest::newRow("no memory for the weights") << 1 << 13000 << "9.0" << qlonglong(64 << 10) << "cannot allocate";
        QTest::newRow("no memory for the scratch") << 1 << 13000 << "9.0" << qlonglong(1 << 20) << "cannot allocate";
    }
    void fallbacks() {
        QFETCH(int, devices);
        QFETCH(int, driver);
        QFETCH(QString, capability);
        QFETCH(qlonglong, memory);
        QFETCH(QString, expected);
        const emu::Config saved = emu::config();
        emu::config().devices = devices;
        emu::config().driverVersion = driver;
        emu::config().major = capability.section('.', 0, 0).toInt();
        emu::config().minor = capability.section('.', 1, 1).toInt();
        emu::config().memoryBytes = size_t(memory);
        struct Restore {
            emu::Config c;
            ~Restore() { emu::config() = c; }
        } restore{saved};

        BackendChoice choice = makeBackend(*model_, BackendKind::Auto, 1);
        QCOMPARE(QString::fromUtf8(choice.backend->name().data(), int(choice.backend->name().size())), QString("cpu"));
        QVERIFY2(choice.notice.rfind("using the CPU: ", 0) == 0 && choice.notice.find(expected.toStdString()) != std::string::npos,
                 choice.notice.c_str());
        QVERIFY2(choice.notice.find('\n') == std::string::npos, "the notice is one line");
        QVERIFY(!choice.backend->forward(prompt(4, 0), *std::make_unique<KvCache>(model_->hparams(), 16, KvType::F16), false).empty());
        try {
            makeBackend(*model_, BackendKind::Cuda, 1);
            QFAIL("--backend cuda did not fail");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find(expected.toStdString()) != std::string::npos, e.what());
        }
        QCOMPARE(emu::deviceMemoryInUse(), size_t(0));
        QCOMPARE(emu::liveStreams(), 0);
        QCOMPARE(emu::liveCublasHandles(), 0);
    }

    // GPU memory that runs out for a KV cache: one sentence naming it, and the backend goes on with
    // a cache that fits.
    void kvCacheOutOfMemory() {
        auto gpu = makeCudaBackend(*model_);
        const emu::Config saved = emu::config();
        emu::config().memoryBytes = emu::deviceMemoryInUse() + (64 << 10);
        struct Restore {
            emu::Config c;
            ~Restore() { emu::config() = c; }
        } restore{saved};
        KvCache big(model_->hparams(), 4096, KvType::F32);
        try {
            gpu->forward(prompt(4, 1), big, false);
            QFAIL("a KV cache larger than the GPU memory was allocated");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("cannot allocate") != std::string::npos &&
                         std::string(e.what()).find("for the KV cache") != std::string::npos,
                     e.what());
        }
        QCOMPARE(big.size(), int64_t(0));
        KvCache small(model_->hparams(), 32, KvType::F16);
        QVERIFY(!gpu->forward(prompt(4, 1), small, false).empty());
    }
#endif
};

QTEST_APPLESS_MAIN(TestCudaBackend)
#include "test_cuda_backend.moc"
