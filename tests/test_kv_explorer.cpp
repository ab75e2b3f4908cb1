// The KV explorer's engine side on tiny random models:
//  * attention weights recorded on request sum to 1 over the slots for every layer, head and KV
//    group, and layer 0's equal a direct computation from the model's weights and the cached keys;
//  * the per-block statistics and the paged-vs-contiguous report equal the pool's state after
//    forks and copy-on-write;
//  * sink + window eviction keeps exactly the slots it should, at their positions, and on a
//    one-layer model its logits equal a fresh run over the kept tokens at the same positions;
//  * the run with and without the cache picks the same tokens while computing 1 against all rows;
//  * the dtype and eviction experiments report what their definitions say (f32 vs itself: KL 0).
#include <QTest>

#include <cmath>
#include <utility>

#include "core/error.h"
#include "cpu/ops.h"
#include "generate/generator.h"
#include "gguf/tiny_model.h"
#include "kv/kv_allocation.h"
#include "kv/kv_cell_stats.h"
#include "kv/kv_compression.h"
#include "kv/kv_eviction.h"
#include "kv/kv_run.h"
#include "model/backend.h"
#include "quant/matmul.h"
#include "sampling/sampler.h"
#include "test_paths.h"

using namespace dlab;

namespace {

std::unique_ptr<Model> tinyModel(const std::string& arch, int nLayer = 2) {
    TinyModelSpec spec;
    spec.arch = arch;
    spec.nEmbd = 128;
    spec.nHead = 4;
    spec.nHeadKv = arch == "gpt2" ? 4 : 2;
    spec.nFf = 256;
    spec.nLayer = nLayer;
    const std::string path = test::scratchDir() + "/kvx-" + arch + "-" + std::to_string(nLayer) + ".gguf";
    writeTinyModel(spec, path);
    return Model::load(path);
}

const std::vector<TokenId> kPrompt = {316, 84, 104, 101, 32, 113, 117, 105, 99, 107, 32, 98, 114, 111, 119, 110, 32, 102, 111, 120};

std::vector<TokenId> text(int n) {
    std::vector<TokenId> t;
    for (int i = 0; i < n; ++i) t.push_back(kPrompt[(i * 7 + i / 3) % kPrompt.size()]);
    return t;
}

}  // namespace

class TestKvExplorer : public QObject {
    Q_OBJECT

private slots:
    void attentionSumsToOne_data() {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("kvType");
        for (const char* arch : {"llama", "qwen2", "gpt2"})
            for (const char* type : {"f32", "f16", "q8_0"}) QTest::newRow((std::string(arch) + "/" + type).c_str()) << arch << type;
    }
    void attentionSumsToOne() {
        QFETCH(QString, arch);
        QFETCH(QString, kvType);
        auto model = tinyModel(arch.toStdString());
        auto be = makeCpuBackend(*model, 2);
        KvCache cache(model->hparams(), 64, parseKvType(kvType.toStdString()), 8);
        AttentionWeights w;
        for (int round = 0; round < 2; ++round) {  // the prefill, then one decode step
            be->requestAttention(&w);
            if (round == 0) be->forward(kPrompt, cache, false);
            else be->forward(std::vector<TokenId>{101}, cache, false);
            QCOMPARE(w.nSlots, cache.size());
            QCOMPARE(w.nLayer, model->hparams().nLayer);
            const auto group = w.perKvGroup();
            const auto mean = w.meanOverHeads();
            for (int64_t l = 0; l < w.nLayer; ++l) {
                for (int64_t h = 0; h < w.nHead; ++h) {
                    double s = 0;
                    for (int64_t p = 0; p < w.nSlots; ++p) {
                        QVERIFY(w.at(l, h, p) >= 0.0f);
                        s += w.at(l, h, p);
                    }
                    QVERIFY2(std::abs(s - 1.0) < 1e-5, qPrintable(QString("layer %1 head %2 sums to %3").arg(l).arg(h).arg(s)));
                }
                for (int64_t g = 0; g < w.nHeadKv; ++g) {
                    double s = 0;
                    for (int64_t p = 0; p < w.nSlots; ++p) s += group[(l * w.nHeadKv + g) * w.nSlots + p];
                    QVERIFY(std::abs(s - 1.0) < 1e-5);
                }
                double s = 0;
                for (int64_t p = 0; p < w.nSlots; ++p) s += mean[l * w.nSlots + p];
                QVERIFY(std::abs(s - 1.0) < 1e-5);
            }
        }
        // The request lapses after one forward pass.
        w.perHead.clear();
        be->forward(std::vector<TokenId>{102}, cache, false);
        QVERIFY(w.perHead.empty());
    }

    // Layer 0 by hand: q = RoPE(Wq · rmsnorm(embedding)) of the last token, scores against the
    // f32 cache's keys, softmax per head — no code of the attention kernel involved.
    void attentionEqualsDirectComputation() {
        auto model = tinyModel("llama");
        const HParams& hp = model->hparams();
        auto be = makeCpuBackend(*model, 1);
        KvCache cache(hp, 64, KvType::F32, 8);
        AttentionWeights w;
        be->requestAttention(&w);
        be->forward(kPrompt, cache, false);

        const int64_t E = hp.nEmbd, D = hp.headDim, T = static_cast<int64_t>(kPrompt.size());
        std::vector<float> x(E), xn(E), q(hp.qDim()), row(E);
        dequantizeRow(model->tokenEmbedding(), kPrompt.back(), x.data());
        const LayerWeights& L = model->layers()[0];
        ops::rmsnorm(xn.data(), x.data(), L.attnNorm.data(), E, hp.normEps);
        for (int64_t r = 0; r < hp.qDim(); ++r) {
            dequantizeRow(L.wq, r, row.data());
            q[r] = ops::dotF32(row.data(), xn.data(), E);
        }
        const ops::RopeParams rope{hp.nRot, hp.ropeFreqBase, hp.ropeFreqScale, nullptr, hp.rope == RopeStyle::NeoX};
        std::vector<float> c(hp.nRot / 2), s(hp.nRot / 2);
        ops::ropeCache(c.data(), s.data(), T - 1, rope);
        ops::ropeApply(q.data(), hp.nHead, D, c.data(), s.data(), rope);

        const int64_t G = hp.nHead / hp.nHeadKv;
        std::vector<float> k(hp.kvDim());
        for (int64_t h = 0; h < hp.nHead; ++h) {
            std::vector<double> scores(T);
            double mx = -1e30;
            for (int64_t p = 0; p < T; ++p) {
                loadKvRow(KvType::F32, std::as_const(cache.pool()).kRow(cache.sequence(), 0, p), k.data(), hp.kvDim());
                double dot = 0;
                for (int64_t d = 0; d < D; ++d) dot += double(q[h * D + d]) * k[(h / G) * D + d];
                scores[p] = dot / std::sqrt(double(D));
                mx = std::max(mx, scores[p]);
            }
            double sum = 0;
            for (double& v : scores) sum += (v = std::exp(v - mx));
            for (int64_t p = 0; p < T; ++p)
                QVERIFY2(std::abs(w.at(0, h, p) - scores[p] / sum) < 2e-5,
                         qPrintable(QString("head %1 slot %2: %3 vs %4").arg(h).arg(p).arg(w.at(0, h, p)).arg(scores[p] / sum)));
        }
    }

    void blockStatsAfterForkAndCopyOnWrite() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        KvBlockPool pool(model->hparams(), 12, KvType::F16, 8);
        const SeqId a = pool.newSequence();
        be->forward(kPrompt, pool, a, false);            // 20 positions: blocks 0, 1 full, block 2 holds 4
        const SeqId b = pool.fork(a, 20), c = pool.fork(a, 12);
        be->forward(std::vector<TokenId>{101}, pool, b, false);   // b writes slot 20 of the shared block 2: copy-on-write
        const KvStats st = pool.stats();
        QCOMPARE(st.blocksUsed, 4);                      // 0, 1, 2 and b's private copy of 2
        QCOMPARE(st.blocksShared, 2);                    // 0 (a, b, c) and 1 (a, b, c)
        QCOMPARE(pool.refCount(pool.blockTable(a)[0]), 3);
        QCOMPARE(pool.refCount(pool.blockTable(a)[2]), 1);
        QVERIFY(pool.blockTable(b)[2] != pool.blockTable(a)[2]);
        for (const KvBlockStats& bs : st.blocks) {
            QCOMPARE(static_cast<int>(bs.sequences.size()), pool.refCount(bs.block));
            if (bs.block == pool.blockTable(a)[0]) QCOMPARE(bs.sequences, (std::vector<SeqId>{a, b, c}));
            if (bs.block == pool.blockTable(a)[1]) QCOMPARE(bs.filled, 8);  // full for a and b, 4 of c's 12
            if (bs.block == pool.blockTable(a)[2]) QCOMPARE(bs.filled, 4);
            if (bs.block == pool.blockTable(b)[2]) QCOMPARE(bs.filled, 5);
        }
        QCOMPARE(st.bytesSavedBySharing, 4 * st.bytesPerBlock);  // two extra references on each of two blocks

        const KvAllocationReport r = kvAllocationReport(pool, 64);
        QCOMPARE(r.sequences, 3);
        QCOMPARE(r.positions, 20 + 21 + 12);
        QCOMPARE(r.pagedBlocks, 4);
        QCOMPARE(r.uniqueSlotsFilled, 8 + 8 + 4 + 5);
        QCOMPARE(r.pagedUnusedBytes, (4 * 8 - 25) * r.bytesPerSlot);
        QCOMPARE(r.contiguousBytes, 3 * 64 * r.bytesPerSlot);
        QCOMPARE(r.contiguousUnusedBytes, (3 * 64 - 53) * r.bytesPerSlot);
        QCOMPARE(r.bytesSavedBySharing, st.bytesSavedBySharing);
        QCOMPARE(r.perSequence[0].lastBlockUnused, 4);   // a: 20 of 24
        QCOMPARE(r.perSequence[1].lastBlockUnused, 3);   // b: 21 of 24
        QCOMPARE(r.perSequence[2].lastBlockUnused, 4);   // c: 12 of 16
        QCOMPARE(r.perSequence[2].sharedBlocks, 2);
        QVERIFY(r.contiguousWasteFraction() > 0.7);
        QVERIFY_THROWS_EXCEPTION(Error, kvAllocationReport(pool, 16));
    }

    void evictionKeepsSinksAndWindow() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        KvBlockPool pool(model->hparams(), 8, KvType::F16, 8);
        const SeqId s = pool.newSequence();
        const std::vector<TokenId> t = text(30);
        be->forward(t, pool, s, false);
        std::vector<std::vector<uint8_t>> kBefore;
        for (int64_t slot = 0; slot < 30; ++slot)
            kBefore.emplace_back(std::as_const(pool).kRow(s, 1, slot), std::as_const(pool).kRow(s, 1, slot) + pool.rowBytes());
        const SeqId shared = pool.fork(s, 30);  // the eviction must copy, not change, what `shared` sees

        QCOMPARE(pool.evict(s, 4, 10), 16);
        QCOMPARE(pool.length(s), 14);
        std::vector<TokenId> kept(t.begin(), t.begin() + 4);
        kept.insert(kept.end(), t.begin() + 20, t.end());
        QCOMPARE(pool.tokens(s), kept);
        for (int64_t slot = 0; slot < 14; ++slot) {
            const int64_t pos = slot < 4 ? slot : slot + 16;
            QCOMPARE(pool.positionOf(s, slot), pos);
            QVERIFY(std::equal(kBefore[pos].begin(), kBefore[pos].end(), std::as_const(pool).kRow(s, 1, slot)));
        }
        QCOMPARE(pool.positionOf(s, 14), 30);  // the next token continues the text
        QCOMPARE(pool.length(shared), 30);
        for (int64_t slot = 0; slot < 30; ++slot)
            QVERIFY(std::equal(kBefore[slot].begin(), kBefore[slot].end(), std::as_const(pool).kRow(shared, 1, slot)));
        QCOMPARE(pool.blockTable(s).size(), size_t(2));

        // A second eviction continues the count; nothing to drop is a no-op.
        be->forward(std::vector<TokenId>{101, 102}, pool, s, false);
        QCOMPARE(pool.evict(s, 4, 10), 2);
        QCOMPARE(pool.evicted(s), 18);
        QCOMPARE(pool.positionOf(s, 13), 31);
        QCOMPARE(pool.evict(s, 4, 10), 0);
        QVERIFY_THROWS_EXCEPTION(Error, pool.evict(s, 2, 10));   // one sink count for life
        QVERIFY_THROWS_EXCEPTION(Error, pool.evict(s, -1, 10));
    }

    // One layer: a token's K/V depend only on the token and its position, so the streamed run's
    // kept rows are exactly what a fresh run over the kept tokens at their positions computes.
    void evictionEqualsFreshRunOnOneLayer() {
        auto model = tinyModel("llama", 1);
        auto be = makeCpuBackend(*model, 2);
        const std::vector<TokenId> t = text(26);
        const int64_t sinks = 3, window = 7;
        KvBlockPool pool(model->hparams(), 8, KvType::F32, 4);
        const SeqId s = pool.newSequence();
        std::vector<float> streamed;
        for (TokenId tok : t) {
            pool.evict(s, sinks, window - 1);
            const TokenId one[1] = {tok};
            const auto l = be->forward(one, pool, s, false);
            streamed.assign(l.begin(), l.end());
        }
        QCOMPARE(pool.length(s), sinks + window);

        // Fresh: the sinks, filler tokens only to reach the window's first position (then evicted
        // before the window is computed), then the window's tokens in one batch.
        const SeqId f = pool.newSequence();
        be->forward(std::span(t).first(sinks), pool, f, false);
        const int64_t gap = 26 - sinks - window;
        be->forward(std::vector<TokenId>(gap, 32), pool, f, false);
        pool.evict(f, sinks, 0);
        QCOMPARE(pool.positionOf(f, sinks), 26 - window);
        const auto fresh = be->forward(std::span(t).last(window), pool, f, false);
        QCOMPARE(pool.tokens(f), pool.tokens(s));
        double d = 0;
        for (size_t i = 0; i < fresh.size(); ++i) d = std::max(d, double(std::abs(fresh[i] - streamed[i])));
        QVERIFY2(d < 1e-4, qPrintable(QString("max |fresh - streamed| = %1").arg(d)));
    }

    void runWithAndWithoutCache() {
        auto model = tinyModel("qwen2");
        auto be = makeCpuBackend(*model, 2);
        KvRunOptions o;
        o.steps = 12;
        o.sampler.temperature = 0.0f;
        o.attentionEvery = 1;
        o.blockSize = 8;
        const KvRunResult cached = runKvExplorer(*model, *be, kPrompt, o);
        o.withoutCache = true;
        const KvRunResult recomputed = runKvExplorer(*model, *be, kPrompt, o);
        QVERIFY(!be->recomputePrefix());  // the switch comes back
        QCOMPARE(cached.generated, recomputed.generated);
        QCOMPARE(cached.steps.size(), size_t(12));
        for (size_t i = 0; i < cached.steps.size(); ++i) {
            const KvRunStep& a = cached.steps[i];
            const KvRunStep& b = recomputed.steps[i];
            QCOMPARE(a.positions, int64_t(kPrompt.size() + i));
            QCOMPARE(a.computed, i == 0 ? int64_t(kPrompt.size()) : int64_t(1));
            QCOMPARE(a.reused, a.positions - a.computed);
            QCOMPARE(b.computed, b.positions);   // without the cache every row is new
            QCOMPARE(b.reused, int64_t(0));
            QCOMPARE(a.bytesInUse, KvBlockPool::blocksFor(a.positions, 8) * cached.pool->bytesPerBlock());
            QCOMPARE(a.attention.nSlots, a.positions);
        }
        const KvCellStats cells = kvCellStats(*cached.pool, cached.sequences[0], model->hparams().headDim);
        QCOMPARE(cells.nSlots, int64_t(kPrompt.size() + 11));
        QCOMPARE(cells.nHeadKv, model->hparams().nHeadKv);
        for (float v : cells.kNorm) QVERIFY(v > 0.0f && std::isfinite(v));
    }

    void sequencesShareThePrompt() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        KvRunOptions o;
        o.steps = 6;
        o.sequences = 3;
        o.sampler.temperature = 1.0f;
        o.blockSize = 8;
        const KvRunResult r = runKvExplorer(*model, *be, kPrompt, o);
        QCOMPARE(r.sequences.size(), size_t(3));
        for (SeqId s : r.sequences) QCOMPARE(r.pool->length(s), int64_t(kPrompt.size() + 5));
        // The two full prompt blocks are shared by all three; the partial third was copied on write.
        QCOMPARE(r.pool->refCount(r.pool->blockTable(r.sequences[0])[0]), 3);
        QCOMPARE(r.pool->refCount(r.pool->blockTable(r.sequences[0])[1]), 3);
        QCOMPARE(r.pool->refCount(r.pool->blockTable(r.sequences[1])[2]), 1);
        QCOMPARE(r.steps.back().blocksShared, int64_t(2));
    }

    void quantErrorAgainstF32() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        KvRunOptions o;
        o.steps = 4;
        o.sampler.temperature = 0.0f;
        o.type = KvType::F32;
        const KvRunResult ref = runKvExplorer(*model, *be, kPrompt, o);
        o.forcedTokens = ref.generated[0];
        for (KvType t : {KvType::F32, KvType::Q8_0}) {
            o.type = t;
            const KvRunResult run = runKvExplorer(*model, *be, kPrompt, o);
            KvCellStats cells = kvCellStats(*run.pool, run.sequences[0], model->hparams().headDim);
            addKvQuantError(cells, *run.pool, run.sequences[0], *ref.pool, ref.sequences[0], model->hparams().headDim);
            float mx = 0;
            for (float e : cells.kError) mx = std::max(mx, e);
            if (t == KvType::F32) QCOMPARE(mx, 0.0f);
            else QVERIFY2(mx > 1e-4f && mx < 0.1f, qPrintable(QString("q8_0 max relative K error %1").arg(mx)));
        }
        KvRunOptions other = o;
        other.forcedTokens.assign(4, 33);
        const KvRunResult wrong = runKvExplorer(*model, *be, kPrompt, other);
        KvCellStats cells = kvCellStats(*wrong.pool, wrong.sequences[0], model->hparams().headDim);
        QVERIFY_THROWS_EXCEPTION(Error, addKvQuantError(cells, *wrong.pool, wrong.sequences[0], *ref.pool, ref.sequences[0], 32));
    }

    void compareTypes() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        const auto rows = compareKvTypes(*model, *be, kPrompt, 8, {KvType::Q8_0, KvType::F16});
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0].type, KvType::F32);
        QCOMPARE(rows[0].maxKl, 0.0);
        QCOMPARE(rows[0].kl.size(), size_t(8));
        QCOMPARE(rows[1].type, KvType::Q8_0);
        QCOMPARE(rows[2].type, KvType::F16);
        for (const auto& r : rows) {
            QVERIFY(r.meanKl >= 0.0 && r.meanKl < 0.05);
            QVERIFY(r.top1Agreement > 0.5);
        }
        QCOMPARE(rows[0].bytesPerPosition, 2 * 2 * 64 * 4);  // 2 layers, kvDim 64, f32
        QCOMPARE(rows[2].bytesPerPosition, 2 * 2 * 64 * 2);
        QCOMPARE(rows[1].bytesPerPosition, 2 * 2 * 2 * 34);   // two 32-value q8_0 blocks per row
    }

    void evictionExperiment() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        const std::vector<TokenId> t = text(48);
        const auto r = runEvictionExperiment(*model, *be, t,
                                             {{"full", 0, 0}, {"sinks 4 + window 12", 4, 12}, {"window 16", 0, 16}, {"wide", 2, 100}});
        QCOMPARE(r.size(), size_t(4));
        for (const auto& p : r) QCOMPARE(p.nll.size(), size_t(47));
        QCOMPARE(r[0].meanKl, 0.0);
        QCOMPARE(r[0].maxSlots, 47);
        QCOMPARE(r[1].maxSlots, 16);
        QCOMPARE(r[2].maxSlots, 16);
        QCOMPARE(r[1].evicted, 47 - 16);
        // Until the cache first fills, every policy sees what the full cache sees.
        for (int i = 0; i < 16; ++i) QCOMPARE(r[1].nll[i], r[0].nll[i]);
        QVERIFY(r[1].meanKl > 0.0);
        QCOMPARE(r[3].meanKl, 0.0);     // a window wider than the text never evicts
        QCOMPARE(r[3].perplexity, r[0].perplexity);
        QVERIFY_THROWS_EXCEPTION(Error, runEvictionExperiment(*model, *be, t, {{"bad", 4, 0}}));
        QVERIFY_THROWS_EXCEPTION(Error, runEvictionExperiment(*model, *be, {1}, {{"full", 0, 0}}));
    }

    void generateTracesAttention() {
        auto model = tinyModel("llama");
        auto be = makeCpuBackend(*model, 2);
        KvCache cache(model->hparams(), 64, KvType::F16, 8);
        GenerateOptions o;
        o.maxTokens = 4;
        o.sampler.temperature = 0.0f;
        o.stopAtEndOfGeneration = false;
        o.traceAttention = true;
        std::vector<StepTrace> traces;
        o.onTrace = [&](const StepTrace& t) { traces.push_back(t); };
        generate(*model, *be, cache, kPrompt, o);
        QCOMPARE(traces.size(), size_t(4));
        for (const StepTrace& t : traces) {
            QCOMPARE(t.attention.nSlots, t.pos);
            QCOMPARE(t.attention.perKvGroup.size(), size_t(2 * 2 * t.pos));
            QCOMPARE(t.attention.blocks.size(), size_t(KvBlockPool::blocksFor(t.pos, 8)));
            const std::string json = stepTraceJson(t);
            QVERIFY(json.find("\"attention\":{\"layers\":2,\"kvHeads\":2,\"slots\":" + std::to_string(t.pos)) != std::string::npos);
        }
        o.traceAttention = false;
        traces.clear();
        cache.clear();
        generate(*model, *be, cache, kPrompt, o);
        QVERIFY(traces[0].attention.empty());
        QVERIFY(stepTraceJson(traces[0]).find("attention") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestKvExplorer)
#include "test_kv_explorer.moc"
