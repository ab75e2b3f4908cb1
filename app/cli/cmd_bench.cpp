// decoding-lab-cli bench: prompt processing (pp) and token generation (tg) speed, like llama-bench.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "commands.h"
#include "core/error.h"
#include "interrupt.h"
#include "core/json_writer.h"
#include "model/backend.h"
#include "sampling/sampler.h"

namespace dlab::cli {

namespace {

struct Stat {
    double mean = 0, sd = 0;
};
Stat stats(const std::vector<double>& v) {
    Stat s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    for (double x : v) s.sd += (x - s.mean) * (x - s.mean);
    s.sd = v.size() > 1 ? std::sqrt(s.sd / (v.size() - 1)) : 0.0;
    return s;
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

namespace {

// bench --batch 1,2,4,...: aggregate decode tokens/s with B sequences, each its own KV sequence
// with a prompt of nPrompt tokens (as llama-batched-bench's -npp / -ntg / -npl), stepped nGen
// times: one forwardBatch per step, beside B forward() calls per step in the same run.
int benchBatches(const Model& model, Backend& backend, const std::vector<int>& sizes, int nPrompt, int nGen, int reps,
                 KvType kvType, bool json, int threads) {
    const HParams& hp = model.hparams();
    JsonWriter j;
    j.beginArray();
    if (!json)
        std::printf("| batch | prompt | steps | batched tokens/s | one-by-one tokens/s | batched / one-by-one |\n|---|---|---|---|---|---|\n");
    for (int B : sizes) {
        std::vector<double> batched, single;
        for (int r = 0; r <= reps; ++r) {   // r == 0 is a warm-up
            for (int mode = 0; mode < 2; ++mode) {
                KvBlockPool pool(hp, B * KvBlockPool::blocksFor(nPrompt + nGen + 1, 16) + 1, kvType, 16);
                std::vector<SeqId> seqs;
                std::vector<TokenId> next(B);
                for (int b = 0; b < B; ++b) {
                    seqs.push_back(pool.newSequence());
                    std::vector<TokenId> prompt(std::max(1, nPrompt));
                    for (int i = 0; i < static_cast<int>(prompt.size()); ++i) prompt[i] = static_cast<TokenId>((i * 7919 + 13 + b * 101) % hp.nVocab);
                    backend.forward(prompt, pool, seqs[b], false);
                    next[b] = static_cast<TokenId>((b * 31 + 7) % hp.nVocab);
                }
                const auto t0 = std::chrono::steady_clock::now();
                for (int step = 0; step < nGen; ++step) {
                    if (mode == 0) {
                        std::vector<Backend::BatchItem> items;
                        for (int b = 0; b < B; ++b) items.push_back({seqs[b], std::span(&next[b], 1), false});
                        const auto logits = backend.forwardBatch(items, pool);
                        for (int b = 0; b < B; ++b) next[b] = argmax(logits[b]);
                    } else {
                        for (int b = 0; b < B; ++b) {
                            next[b] = argmax(backend.forward(std::span(&next[b], 1), pool, seqs[b], false));
                        }
                    }
                }
                if (r > 0) (mode == 0 ? batched : single).push_back(double(B) * nGen / seconds(t0));
            }
        }
        const Stat a = stats(batched), o = stats(single);
        if (json)
            j.beginObject().field("batch", B).field("n_prompt", nPrompt).field("n_gen", nGen).field("threads", threads)
                .field("batched_tokens_per_s", a.mean).field("batched_sd", a.sd).field("one_by_one_tokens_per_s", o.mean)
                .field("one_by_one_sd", o.sd).endObject();
        else
            std::printf("| %d | %d | %d | %.1f ± %.1f | %.1f ± %.1f | %.2f× |\n", B, nPrompt, nGen, a.mean, a.sd, o.mean, o.sd, a.mean / o.mean);
        std::fflush(stdout);
    }
    j.endArray();
    if (json) std::printf("%s\n", j.str().c_str());
    return 0;
}

}  // namespace

int runBench(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const int nPrompt = static_cast<int>(args.integer("-p", 512, 0, 1 << 16));
    const int nGen = static_cast<int>(args.integer("-n", 128, 0, 1 << 16));
    const int reps = static_cast<int>(args.integer("--reps", 3, 1, 100));
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const bool json = args.flag("--json");
    const bool noKvCache = args.flag("--no-kv-cache");  // recompute the prefix every step (the lesson)
    const auto batch = args.value("--batch");
    args.finish();
    std::vector<int> sizes;
    if (batch)
        for (long long b : integerList(*batch, "--batch", "batch sizes", "batch size", 1, 256)) sizes.push_back(static_cast<int>(b));
    if (batch && noKvCache) throw Error("bench: --batch measures decoding with the cache; drop --no-kv-cache");

    auto model = Model::load(path);
    auto backend = makeCpuBackend(*model, threads);
    if (batch) {
        backend->setCancelFlag(installInterruptHandler());
        return benchBatches(*model, *backend, sizes, nPrompt == 512 ? 32 : nPrompt, nGen == 128 ? 32 : nGen, reps, kvType, json, threads);
    }
    backend->setRecomputePrefix(noKvCache);
    const HParams& hp = model->hparams();
    KvCache cache(hp, std::max(nPrompt, nGen) + 1, kvType);
    // Token ids do not change the amount of work; use a fixed spread of ids as llama-bench does.
    std::vector<TokenId> prompt(nPrompt);
    for (int i = 0; i < nPrompt; ++i) prompt[i] = static_cast<TokenId>((i * 7919 + 13) % hp.nVocab);

    backend->setCancelFlag(installInterruptHandler());
    std::fprintf(stderr, "[bench: a warm-up, then %d repetition%s; Ctrl-C stops and reports what was measured]\n", reps,
                 reps == 1 ? "" : "s");
    std::vector<double> pp, tg;
    bool stopped = false;  // Ctrl-C: report the repetitions measured so far
    try {
        for (int r = 0; r <= reps; ++r) {  // r == 0 is a warm-up
            if (nPrompt > 0) {
                cache.clear();
                const auto t0 = std::chrono::steady_clock::now();
                backend->forward(prompt, cache, false);
                if (r > 0) pp.push_back(nPrompt / seconds(t0));
            }
            if (nGen > 0) {
                cache.clear();
                TokenId tok = 1 % hp.nVocab;
                const auto t0 = std::chrono::steady_clock::now();
                for (int i = 0; i < nGen; ++i) {
                    const TokenId one[1] = {tok};
                    auto logits = backend->forward(one, cache, false);
                    tok = static_cast<TokenId>(std::max_element(logits.begin(), logits.end()) - logits.begin());
                }
                if (r > 0) tg.push_back(nGen / seconds(t0));
            }
        }
    } catch (const Cancelled&) {
        stopped = true;
    }
    const Stat p = pp.empty() ? Stat{} : stats(pp), g = tg.empty() ? Stat{} : stats(tg);
    if (json) {
        JsonWriter j;
        j.beginObject().field("model", path).field("backend", std::string(backend->name())).field("threads", threads)
            .field("kv_type", kvTypeName(kvType)).field("kv_cache", !noKvCache).field("n_prompt", nPrompt).field("n_gen", nGen).field("reps", reps)
            .field("pp_tokens_per_s", p.mean).field("pp_sd", p.sd).field("tg_tokens_per_s", g.mean).field("tg_sd", g.sd);
        if (stopped)
            j.field("interrupted", true).field("pp_reps_done", static_cast<int64_t>(pp.size()))
                .field("tg_reps_done", static_cast<int64_t>(tg.size()));
        j.endObject();
        std::printf("%s\n", j.str().c_str());
    } else {
        std::printf("| model | backend | threads | test | tokens/s |\n|---|---|---|---|---|\n");
        auto row = [&](const char* test, int n, const std::vector<double>& done, const Stat& st) {
            char speed[64] = "interrupted before a measurement";
            if (!done.empty()) std::snprintf(speed, sizeof speed, "%.2f ± %.2f", st.mean, st.sd);
            std::printf("| %s | %s | %d | %s%d | %s |\n", hp.archName.c_str(), std::string(backend->name()).c_str(), threads, test,
                        n, speed);
        };
        if (nPrompt > 0) row("pp", nPrompt, pp, p);
        if (nGen > 0) row("tg", nGen, tg, g);
    }
    if (stopped)
        std::fprintf(stderr, "[interrupted: %zu of %d repetitions of pp%d and %zu of tg%d measured (the warm-up is not counted)]\n",
                     pp.size(), reps, nPrompt, tg.size(), nGen);
    return stopped ? kInterruptedExit : 0;
}

}  // namespace dlab::cli
