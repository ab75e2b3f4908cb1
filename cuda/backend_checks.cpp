#include "cuda/backend_checks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <unistd.h>

#include "core/error.h"
#include "cuda/cuda_backend.h"
#include "gguf/tiny_model.h"
#include "model/kv_cache.h"
#include "model/logit_stats.h"

namespace dlab::cuda {

namespace {

// A missed expectation: the check stops there and reports the sentence.
struct CheckFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
};
void expect(bool ok, const std::string& what) {
    if (!ok) throw CheckFailed(what);
}

// The caller's hook for "the steps begin" (runBackendCheck's beforeSteps), for the one running check.
thread_local const std::function<void()>* g_beforeSteps = nullptr;
void stepsBegin() {
    if (g_beforeSteps && *g_beforeSteps) (*g_beforeSteps)();
}

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", v);
    return b;
}

double nmse(std::span<const float> a, std::span<const float> ref) {
    double e = 0, r = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        e += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
        r += double(ref[i]) * ref[i];
    }
    return r > 0 ? e / r : e;
}

TokenId argmax(std::span<const float> x) { return static_cast<TokenId>(std::max_element(x.begin(), x.end()) - x.begin()); }

std::vector<float> copy(std::span<const float> s) { return {s.begin(), s.end()}; }

std::string at(int step, int seq = -1) { return "step " + std::to_string(step) + (seq >= 0 ? ", sequence " + std::to_string(seq) : ""); }

// The NMSE a step may differ by from the CPU's exact mode: the backends sum in other orders, the
// GEMM path rounds activations to half (about 2^-11 relative: ~1e-6 NMSE expected).
constexpr double kBound = 1e-3;

// A tiny llama with heads of 32 values (a q8_0 KV cache needs whole 32-value blocks): 4 query
// heads sharing 2 KV heads, 2 layers. Written to a file of this process's own and loaded.
std::unique_ptr<Model> tinyModel(GgmlType type, int nCtx) {
    TinyModelSpec spec;
    spec.arch = "llama";
    spec.weightType = type;
    spec.nEmbd = 128;
    spec.nFf = 256;
    spec.nCtx = nCtx;
    const auto path = std::filesystem::temp_directory_path() /
                      ("dlab-backend-check-" + std::to_string(::getpid()) + "-" + std::to_string(int(type)) + ".gguf");
    writeTinyModel(spec, path.string());
    auto model = Model::load(path.string());
    std::filesystem::remove(path);
    return model;
}
const Model& longContextModel() {
    static const std::unique_ptr<Model> m = tinyModel(GgmlType::Q8_0, 512);
    return *m;
}

// The same greedy run on two sides (a backend and its cache each) that must agree bit for bit:
// the prompt in passes of `chunk` tokens (0: one pass), then `steps` decode steps. `differ` says
// what a difference means ("graphed and plain logits differ").
void expectSameGreedySteps(Backend& a, KvCache& ca, Backend& b, KvCache& cb, const std::vector<TokenId>& prompt, size_t chunk,
                           int steps, const std::string& differ) {
    const size_t n = chunk > 0 ? chunk : prompt.size();
    auto compare = [&](std::span<const TokenId> tokens, const std::string& where) {
        const std::vector<float> x = copy(a.forward(tokens, ca, false)), y = copy(b.forward(tokens, cb, false));
        expect(x == y, where + ": " + differ + " (NMSE " + num(nmse(x, y)) + ")");
        return argmax(x);
    };
    TokenId next = 0;
    for (size_t i = 0; i < prompt.size(); i += n) next = compare(std::span(prompt).subspan(i, std::min(n, prompt.size() - i)), "the prompt");
    for (int step = 0; step < steps; ++step) next = compare(std::span(&next, 1), at(step));
}

// One batched decode step: token next[i] for sequence seqs[i] of pool; each row's logits, copied.
std::vector<std::vector<float>> batchedStep(Backend& backend, KvBlockPool& pool, const std::vector<SeqId>& seqs, const std::vector<TokenId>& next) {
    std::vector<Backend::BatchItem> items;
    for (size_t i = 0; i < seqs.size(); ++i) items.push_back({seqs[i], std::span<const TokenId>(&next[i], 1), false});
    std::vector<std::vector<float>> rows;
    for (const auto& r : backend.forwardBatch(items, pool)) rows.push_back(copy(r));
    return rows;
}

// The check model on two backends that must agree bit for bit (options oa and ob, a cache of kv
// each), through expectSameGreedySteps: checkPrompt(10, salt) in passes of `chunk` tokens (0: one
// pass), then 12 decode steps; `after` may compare what the two caches hold.
void optionsAgree(const CudaOptions& oa, const CudaOptions& ob, KvType kv, int salt, size_t chunk, const std::string& differ,
                  const std::function<void(const KvCache&, const KvCache&)>& after = {}) {
    const Model& model = checkModel();
    auto a = makeCudaBackend(model, oa);
    auto b = makeCudaBackend(model, ob);
    KvCache ca(model.hparams(), 64, kv), cb(model.hparams(), 64, kv);
    stepsBegin();
    expectSameGreedySteps(*a, ca, *b, cb, checkPrompt(10, salt), chunk, 12, differ);
    if (after) after(ca, cb);
}

// The same decode steps with graphs (captured once, replayed with each step's metadata) and
// without: the same kernels, so the same logits bit for bit. 13 passes: the prefill, 12 steps.
void graphsReplayWithNewMetadata(KvType kv) { optionsAgree({0, true}, {0, false}, kv, 1, 0, "graphed and plain logits differ"); }

// The matvecs and attention as programmatic dependent launches against ordinary ones, graphed:
// the same kernels, so the same logits bit for bit. The prompt goes in passes of 4 tokens (the
// matvec path), then 12 decode steps. On a GPU a kernel that read what the kernel before it
// writes before waiting for it would differ here; on the emulator its first block runs before
// that kernel (tests/cuda_emulator/emulator.h).
void dependentLaunchesEqualOrdinary(KvType kv) {
    CudaOptions dependent, ordinary;
    dependent.dependentLaunches = 1;
    ordinary.dependentLaunches = 0;
    optionsAgree(dependent, ordinary, kv, 2, 4, "dependent and ordinary launches give different logits");
}

// Decode steps with the KV store folded into attention against the store kernel of their own: the
// same arithmetic, so the same logits bit for bit, and the same rows copied back into the host
// pool. The prompt (10 tokens in one pass) takes the store kernel on both sides; the 12 steps
// differ. On a GPU a block that read the token's own row from the cache before the group's writer
// stored it would differ here; on the emulator, in reverse or shuffled block order.
void foldedStoreEqualsSeparate(KvType kv) {
    CudaOptions folded, separate;
    folded.foldKvStore = 1;
    separate.foldKvStore = 0;
    optionsAgree(folded, separate, kv, 3, 0, "the folded and the separate KV store give different logits", [](const KvCache& cf, const KvCache& ck) {
        const KvBlockPool &pf = cf.pool(), &pk = ck.pool();
        long differ = 0;
        for (int64_t l = 0; l < pf.nLayer(); ++l)
            for (int64_t p = 0; p < cf.size(); ++p)
                differ += std::memcmp(pf.kRow(cf.sequence(), l, p), pk.kRow(ck.sequence(), l, p), pf.rowBytes()) != 0 ||
                          std::memcmp(pf.vRow(cf.sequence(), l, p), pk.vRow(ck.sequence(), l, p), pf.rowBytes()) != 0;
        expect(differ == 0, std::to_string(differ) + " cached rows differ between the folded and the separate KV store");
    });
}

// 16 sequences a batched decode step (the GEMM path, cuBLAS in the graph), 4 steps: graphed
// equals ungraphed bit for bit.
void batchedDecodeStepsAreGraphed() {
    const Model& model = checkModel();
    auto graphed = makeCudaBackend(model, {0, true});
    auto plain = makeCudaBackend(model, {0, false});
    const HParams& hp = model.hparams();
    const int B = 16;
    KvBlockPool pg(hp, 4 * B, KvType::F16), pp(hp, 4 * B, KvType::F16);
    std::vector<SeqId> sg, sp;
    std::vector<TokenId> next;
    for (int i = 0; i < B; ++i) {
        sg.push_back(pg.newSequence());
        sp.push_back(pp.newSequence());
        const auto p = checkPrompt(2 + i % 5, i);
        graphed->forward(p, pg, sg[i], false);
        next.push_back(argmax(plain->forward(p, pp, sp[i], false)));
    }
    stepsBegin();
    for (int step = 0; step < 4; ++step) {
        const auto g = batchedStep(*graphed, pg, sg, next), p = batchedStep(*plain, pp, sp, next);
        for (int i = 0; i < B; ++i) {
            expect(g[i] == p[i], at(step, i) + ": graphed and plain logits differ (NMSE " + num(nmse(g[i], p[i])) + ")");
            next[i] = argmax(p[i]);
        }
    }
}

// The size of the pool a sequence lives in (its block table's width, the metadata's layout) does
// not change its logits.
void poolSizeDoesNotMatter() {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    KvCache small(model.hparams(), 24, KvType::F16), large(model.hparams(), 2048, KvType::F16);
    expectSameGreedySteps(*gpu, small, *gpu, large, checkPrompt(5, 8), 0, 9, "a 24- and a 2,048-slot cache give different logits");
}

// Four sequences decoded in one pass equal each decoded alone, bit for bit (the matvec path
// computes every token's row in the same order whatever the batch); a pass of more than eight
// tokens (a prefill chunk beside decode steps: the GEMM path) stays within 1e-5.
void batchEqualsAlone(KvType kv) {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    const HParams& hp = model.hparams();
    KvBlockPool batched(hp, 32, kv), alone(hp, 32, kv);
    std::vector<SeqId> sb, sa;
    std::vector<std::vector<TokenId>> next;
    const int lengths[] = {3, 7, 12, 20};
    for (int i = 0; i < 4; ++i) {
        sb.push_back(batched.newSequence());
        sa.push_back(alone.newSequence());
        const auto p = checkPrompt(lengths[i], i);
        gpu->forward(p, batched, sb[i], false);
        next.push_back({argmax(gpu->forward(p, alone, sa[i], false))});
    }
    for (int step = 0; step < 6; ++step) {
        std::vector<Backend::BatchItem> items;
        for (int i = 0; i < 4; ++i) items.push_back({sb[i], next[i], false});
        const auto rows = gpu->forwardBatch(items, batched);
        expect(rows.size() == 4, at(step) + ": " + std::to_string(rows.size()) + " rows for 4 sequences");
        for (int i = 0; i < 4; ++i) {
            const std::vector<float> b = copy(rows[i]);
            const std::vector<float> a = copy(gpu->forward(next[i], alone, sa[i], false));
            expect(a == b, at(step, i) + ": batched and alone differ (NMSE " + num(nmse(b, a)) + ")");
            next[i].assign(1, argmax(a));
        }
    }
    // A nine-token chunk beside three decode steps: twelve tokens, the GEMM path.
    const auto chunk = checkPrompt(9, 7);
    std::vector<Backend::BatchItem> items{{sb[0], chunk, false}};
    for (int i = 1; i < 4; ++i) items.push_back({sb[i], next[i], false});
    std::vector<std::vector<float>> rows;
    for (const auto& r : gpu->forwardBatch(items, batched)) rows.push_back(copy(r));
    for (int i = 0; i < 4; ++i) {
        const double e = nmse(rows[i], copy(gpu->forward(i == 0 ? std::span<const TokenId>(chunk) : std::span<const TokenId>(next[i]), alone, sa[i], false)));
        expect(e < 1e-5, "a GEMM pass (a 9-token chunk and 3 steps), sequence " + std::to_string(i) + ": NMSE " + num(e) + " against alone");
    }
    expect(batched.length(sb[0]) == alone.length(sa[0]), "the chunk's sequence has another length batched than alone");
}

// Long contexts split attention into ranges (cuda/ops/attention.h). A token's ranges follow from
// its own context, so with splitting from 64 slots on: four sequences of 20 to 300 tokens decoded
// in one pass equal each decoded alone bit for bit, every step stays within the bound of the CPU,
// and split against whole at 301 slots differs by rounding only.
void splitContextsStayBatchInvariant() {
    const Model& model = longContextModel();
    const HParams& hp = model.hparams();
    CudaOptions split;
    split.attentionSplitFrom = 64;
    auto gpu = makeCudaBackend(model, split);
    auto cpu = makeCpuBackend(model, 1, true);
    KvBlockPool batched(hp, 48, KvType::F16), alone(hp, 48, KvType::F16), ref(hp, 48, KvType::F16);
    std::vector<SeqId> sb, sa, sr;
    std::vector<TokenId> next;
    const int lengths[] = {300, 20, 140, 60};
    for (int i = 0; i < 4; ++i) {
        sb.push_back(batched.newSequence());
        sa.push_back(alone.newSequence());
        sr.push_back(ref.newSequence());
        const auto p = checkPrompt(lengths[i], i);
        gpu->forward(p, batched, sb[i], false);
        gpu->forward(p, alone, sa[i], false);
        next.push_back(argmax(cpu->forward(p, ref, sr[i], false)));
    }
    stepsBegin();
    for (int step = 0; step < 3; ++step) {
        const auto b = batchedStep(*gpu, batched, sb, next);
        for (int i = 0; i < 4; ++i) {
            const std::vector<float> a = copy(gpu->forward(std::span<const TokenId>(&next[i], 1), alone, sa[i], false));
            const std::vector<float> c = copy(cpu->forward(std::span<const TokenId>(&next[i], 1), ref, sr[i], false));
            expect(a == b[i], at(step, i) + ": batched and alone differ (NMSE " + num(nmse(b[i], a)) + ")");
            expect(nmse(a, c) < kBound, at(step, i) + ": NMSE " + num(nmse(a, c)) + " against the CPU");
            next[i] = argmax(c);
        }
    }
    CudaOptions whole;
    whole.attentionSplitFrom = 0;
    auto unsplit = makeCudaBackend(model, whole);
    KvBlockPool again(hp, 24, KvType::F16);
    const SeqId s = again.newSequence();
    unsplit->forward(checkPrompt(300, 0), again, s, false);
    const SeqId s2 = alone.fork(sa[0], 300);
    const std::vector<float> u = copy(unsplit->forward(std::span<const TokenId>(&next[1], 1), again, s, false));
    const std::vector<float> g = copy(gpu->forward(std::span<const TokenId>(&next[1], 1), alone, s2, false));
    expect(nmse(g, u) < 1e-9, "split against whole after 300 tokens: NMSE " + num(nmse(g, u)));
}

// Every pass through cuBLAS (gemmFrom 1: single tokens and batches of 4 too), or every pass
// through the matvec (gemmFrom 2^20: prompts of 23 and 12 tokens in launches of 8, the norms not
// folded in past 8): four prompts, then 3 batched decode steps, each sequence against the CPU's
// exact mode. The GEMM path rounds activations and weights to half (kBound); the matvec path is
// f32 (1e-6). The emulated test also counts the GEMMs: 15 a pass, or none.
void projectionPathMatchesTheCpu(int gemmFrom) {
    const Model& model = checkModel();
    const HParams& hp = model.hparams();
    auto cpu = makeCpuBackend(model, 1, true);
    CudaOptions o;
    o.gemmFrom = gemmFrom;
    auto gpu = makeCudaBackend(model, o);
    const double bound = gemmFrom == 1 ? kBound : 1e-6;
    KvBlockPool pg(hp, 24, KvType::F16), pc(hp, 24, KvType::F16);
    std::vector<SeqId> sg, sc;
    std::vector<TokenId> next;
    const int lengths[] = {23, 5, 12, 2};
    stepsBegin();
    for (int i = 0; i < 4; ++i) {
        sg.push_back(pg.newSequence());
        sc.push_back(pc.newSequence());
        const auto p = checkPrompt(lengths[i], 20 + i);
        const std::vector<float> g = copy(gpu->forward(p, pg, sg[i], false)), c = copy(cpu->forward(p, pc, sc[i], false));
        expect(nmse(g, c) < bound, "a prompt of " + std::to_string(lengths[i]) + ": NMSE " + num(nmse(g, c)) + " against the CPU");
        next.push_back(argmax(c));
    }
    for (int step = 0; step < 3; ++step) {
        const auto b = batchedStep(*gpu, pg, sg, next);
        for (int i = 0; i < 4; ++i) {
            const std::vector<float> c = copy(cpu->forward(std::span<const TokenId>(&next[i], 1), pc, sc[i], false));
            expect(nmse(b[i], c) < bound, at(step, i) + ": NMSE " + num(nmse(b[i], c)) + " against the CPU");
            next[i] = argmax(c);
        }
    }
}

// A fork shares the prompt's blocks, a partial last block included; the first write into it
// copies the block (copy-on-write), which the device mirror must replay. Both branches against
// the CPU's exact mode doing the same.
void forksCopyOnWrite(KvType kv) {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    auto cpu = makeCpuBackend(model, 1, true);
    const HParams& hp = model.hparams();
    KvBlockPool pg(hp, 16, kv), pc(hp, 16, kv);
    const SeqId ag = pg.newSequence(), ac = pc.newSequence();
    const auto p = checkPrompt(20, 3);   // 16 + 4: the fork shares a partial block
    const double e0 = nmse(copy(gpu->forward(p, pg, ag, false)), copy(cpu->forward(p, pc, ac, false)));
    expect(e0 < kBound, "the prompt: NMSE " + num(e0) + " against the CPU");
    const SeqId bg = pg.fork(ag, 20), bc = pc.fork(ac, 20);
    std::vector<TokenId> ta{11}, tb{12};
    for (int step = 0; step < 6; ++step) {
        for (int branch = 0; branch < 2; ++branch) {
            const SeqId sg = branch ? bg : ag, sc = branch ? bc : ac;
            std::vector<TokenId>& t = branch ? tb : ta;
            const std::vector<float> g = copy(gpu->forward(t, pg, sg, false));
            const std::vector<float> c = copy(cpu->forward(t, pc, sc, false));
            const double e = nmse(g, c);
            expect(e < kBound, at(step) + ", branch " + std::to_string(branch) + ": NMSE " + num(e) + " against the CPU");
            t.assign(1, argmax(c));
        }
    }
    expect(pg.blockTable(ag).size() == pc.blockTable(ac).size(), "the forked sequence holds another number of blocks than on the CPU");
}

// Rows the CPU wrote reach the device (the mirror uploads them), and the rows the device computed
// reach the host (the copy-back): CPU → GPU → CPU on one pool equals the CPU alone.
void rowsCrossBetweenBackends() {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    auto cpu = makeCpuBackend(model, 1, true);
    const HParams& hp = model.hparams();
    KvBlockPool shared(hp, 16, KvType::F32), ref(hp, 16, KvType::F32);
    const SeqId s = shared.newSequence(), r = ref.newSequence();
    const auto p = checkPrompt(18, 5);
    cpu->forward(p, shared, s, false);
    std::vector<TokenId> t{argmax(cpu->forward(p, ref, r, false))};
    for (int step = 0; step < 4; ++step) {
        const bool onGpu = step < 3;
        const std::vector<float> a = copy((onGpu ? *gpu : *cpu).forward(t, shared, s, false));
        const std::vector<float> b = copy(cpu->forward(t, ref, r, false));
        expect(nmse(a, b) < kBound, at(step) + " on the " + (onGpu ? "GPU" : "CPU") + ": NMSE " + num(nmse(a, b)));
        t.assign(1, argmax(b));
    }
}

// Eviction moves the kept rows down (a StreamingLLM window): the device replays the moves.
void evictionMovesRowsOnTheDevice() {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    auto cpu = makeCpuBackend(model, 1, true);
    const HParams& hp = model.hparams();
    KvBlockPool pg(hp, 16, KvType::F16), pc(hp, 16, KvType::F16);
    const SeqId sg = pg.newSequence(), sc = pc.newSequence();
    const auto p = checkPrompt(40, 9);
    gpu->forward(p, pg, sg, false);
    std::vector<TokenId> t{argmax(cpu->forward(p, pc, sc, false))};
    expect(pg.evict(sg, 4, 20) == 16 && pc.evict(sc, 4, 20) == 16, "evicting down to 4 + 20 slots did not drop 16");
    for (int step = 0; step < 4; ++step) {
        const std::vector<float> g = copy(gpu->forward(t, pg, sg, false));
        const std::vector<float> c = copy(cpu->forward(t, pc, sc, false));
        expect(nmse(g, c) < kBound, at(step) + " after eviction: NMSE " + num(nmse(g, c)));
        t.assign(1, argmax(c));
    }
}

// The KV heatmap's attention weights, computed on the device, against the CPU's. Up to eight
// tokens the projections run in f32 (matvec); a longer prompt's run through the half GEMM, whose
// rounding of q and k (2^-11 relative) moves a score by ~1e-3 and a weight by up to ~2e-4.
void attentionWeightsMatchTheCpu(int tokens, double bound) {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    auto cpu = makeCpuBackend(model, 1, true);
    KvCache cg(model.hparams(), 64, KvType::F16), cc(model.hparams(), 64, KvType::F16);
    AttentionWeights wg, wc;
    gpu->requestAttention(&wg);
    cpu->requestAttention(&wc);
    const auto p = checkPrompt(tokens, 2);
    gpu->forward(p, cg, false);
    cpu->forward(p, cc, false);
    expect(wg.nSlots == wc.nSlots && wg.perHead.size() == wc.perHead.size(), "the weights have another shape than the CPU's");
    double worst = 0;
    for (size_t i = 0; i < wc.perHead.size(); ++i) worst = std::max(worst, std::fabs(double(wg.perHead[i]) - wc.perHead[i]));
    expect(worst < bound, "max |Δ| " + num(worst) + " against the CPU (bound " + num(bound) + ")");
    for (int64_t l = 0; l < wg.nLayer; ++l)
        for (int64_t h = 0; h < wg.nHead; ++h) {
            double sum = 0;
            for (int64_t s = 0; s < wg.nSlots; ++s) sum += wg.at(l, h, s);
            expect(std::fabs(sum - 1.0) < 1e-5, "layer " + std::to_string(l) + ", head " + std::to_string(h) + ": weights sum to " + num(sum));
        }
}

// The trace's statistics from the device with the full rows left there: the same top tokens,
// log-sum-exp and entropy as the CPU computes from its rows.
void logitStatsWithoutTheRows() {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    auto cpu = makeCpuBackend(model, 1, true);
    gpu->setLogitStats(8);
    gpu->setHostLogits(false);
    KvCache cg(model.hparams(), 64, KvType::F16), cc(model.hparams(), 64, KvType::F16);
    std::vector<TokenId> t = checkPrompt(6, 4);
    for (int step = 0; step < 5; ++step) {
        expect(gpu->forward(t, cg, false).empty(), at(step) + ": logits came back though the host asked for none");
        const std::vector<float> c = copy(cpu->forward(t, cc, false));
        const LogitRowStats ref = logitRowStats(c, model.hparams().nVocab, 8)[0];
        expect(gpu->lastLogitStats().size() == 1, at(step) + ": " + std::to_string(gpu->lastLogitStats().size()) + " rows of statistics for 1");
        const LogitRowStats& got = gpu->lastLogitStats()[0];
        expect(got.topIds.size() == 8 && got.topIds[0] == ref.topIds[0], at(step) + ": another top token than the CPU's");
        expect(std::fabs(got.logSumExp - ref.logSumExp) < 1e-3, at(step) + ": log-sum-exp " + num(got.logSumExp) + ", the CPU's " + num(ref.logSumExp));
        expect(std::fabs(got.entropy - ref.entropy) < 1e-3, at(step) + ": entropy " + num(got.entropy) + ", the CPU's " + num(ref.entropy));
        for (int i = 0; i < 8; ++i)
            expect(std::fabs(got.topLogits[i] - ref.topLogits[i]) < 1e-2, at(step) + ": top logit " + std::to_string(i) + " is " + num(got.topLogits[i]) +
                                                                              ", the CPU's " + num(ref.topLogits[i]));
        t.assign(1, got.topIds[0]);
    }
}

// A raised cancel flag stops a pass before it starts and leaves the sequence as it was; the next
// pass runs normally (no capture left open).
void cancelLeavesTheSequence() {
    const Model& model = checkModel();
    auto gpu = makeCudaBackend(model);
    KvCache c(model.hparams(), 64, KvType::F16), fresh(model.hparams(), 64, KvType::F16);
    const auto p = checkPrompt(8, 6);
    gpu->forward(p, c, false);
    gpu->forward(p, fresh, false);
    std::atomic<bool> stop{true};
    gpu->setCancelFlag(&stop);
    const std::vector<TokenId> one{42};
    bool cancelled = false;
    try {
        gpu->forward(one, c, false);
    } catch (const Cancelled&) {
        cancelled = true;
    }
    expect(cancelled, "a pass ran with the cancel flag raised");
    expect(c.size() == 8, "the cancelled pass changed the sequence's length to " + std::to_string(c.size()));
    stop = false;
    expect(copy(gpu->forward(one, c, false)) == copy(gpu->forward(one, fresh, false)), "the pass after the cancelled one differs from a fresh one");
}

struct Entry {
    std::string name;
    std::function<void()> run;
};

const std::vector<Entry>& entries() {
    static const std::vector<Entry> all = [] {
        std::vector<Entry> e;
        for (KvType kv : {KvType::F16, KvType::Q8_0})
            e.push_back({"graphed decode equals plain, " + std::string(kvTypeName(kv)) + " KV", [kv] { graphsReplayWithNewMetadata(kv); }});
        for (KvType kv : {KvType::F16, KvType::Q8_0})
            e.push_back({"dependent launches equal ordinary ones, " + std::string(kvTypeName(kv)) + " KV", [kv] { dependentLaunchesEqualOrdinary(kv); }});
        for (KvType kv : {KvType::F16, KvType::F32, KvType::Q8_0})
            e.push_back({"KV store folded into attention equals its own kernel, " + std::string(kvTypeName(kv)) + " KV", [kv] { foldedStoreEqualsSeparate(kv); }});
        e.push_back({"batched decode of 16 (GEMM) graphed equals plain", batchedDecodeStepsAreGraphed});
        e.push_back({"every pass through cuBLAS matches the CPU", [] { projectionPathMatchesTheCpu(1); }});
        e.push_back({"every pass through the matvec matches the CPU", [] { projectionPathMatchesTheCpu(1 << 20); }});
        e.push_back({"the pool's size does not change the logits", poolSizeDoesNotMatter});
        for (KvType kv : {KvType::F16, KvType::Q8_0})
            e.push_back({"4 sequences batched equal each alone, " + std::string(kvTypeName(kv)) + " KV", [kv] { batchEqualsAlone(kv); }});
        e.push_back({"split long contexts stay batch-invariant", splitContextsStayBatchInvariant});
        for (KvType kv : {KvType::F16, KvType::F32, KvType::Q8_0})
            e.push_back({"forks copy on write, " + std::string(kvTypeName(kv)) + " KV", [kv] { forksCopyOnWrite(kv); }});
        e.push_back({"rows written by the CPU and the GPU cross over", rowsCrossBetweenBackends});
        e.push_back({"eviction's moves replayed on the device", evictionMovesRowsOnTheDevice});
        e.push_back({"attention weights, 6 tokens (f32 projections)", [] { attentionWeightsMatchTheCpu(6, 1e-5); }});
        e.push_back({"attention weights, 23 tokens (half GEMM)", [] { attentionWeightsMatchTheCpu(23, 1e-3); }});
        e.push_back({"logit statistics with the rows left on the device", logitStatsWithoutTheRows});
        e.push_back({"a cancelled pass leaves the sequence", cancelLeavesTheSequence});
        return e;
    }();
    return all;
}

}  // namespace

const Model& checkModel() {
    static const std::unique_ptr<Model> m = tinyModel(GgmlType::Q4_1, 128);
    return *m;
}

std::vector<TokenId> checkPrompt(int n, int salt) {
    std::vector<TokenId> t;
    for (int i = 0; i < n; ++i) t.push_back(static_cast<TokenId>((i * 37 + salt * 11 + 5) % 300));
    return t;
}

std::vector<std::string> backendCheckNames() {
    std::vector<std::string> names;
    for (const Entry& e : entries()) names.push_back(e.name);
    return names;
}

BackendCheckResult runBackendCheck(const std::string& name, const std::function<void()>& beforeSteps) {
    const auto& all = entries();
    const auto it = std::find_if(all.begin(), all.end(), [&](const Entry& e) { return e.name == name; });
    if (it == all.end()) throw Error("cuda-check: there is no backend check named \"" + name + "\"");
    BackendCheckResult r;
    r.name = name;
    const auto t0 = std::chrono::steady_clock::now();
    g_beforeSteps = &beforeSteps;
    struct Reset {
        ~Reset() { g_beforeSteps = nullptr; }
    } reset;
    try {
        it->run();
        r.pass = true;
    } catch (const CheckFailed& e) {
        r.detail = e.what();
    } catch (const std::exception& e) {
        r.detail = std::string("error: ") + e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::vector<BackendCheckResult> runBackendChecks() {
    std::vector<BackendCheckResult> results;
    for (const Entry& e : entries()) results.push_back(runBackendCheck(e.name));
    return results;
}

}  // namespace dlab::cuda
