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
#include "generate/beam_search.h"
#include "generate/model_beam_scorer.h"
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
                        for (int b = 0; b < B; ++b)
                            next[b] = logits[b].empty() ? backend.lastLogitStats()[b].topIds.front() : argmax(logits[b]);
                    } else {
                        for (int b = 0; b < B; ++b) {
                            const auto l = backend.forward(std::span(&next[b], 1), pool, seqs[b], false);
                            next[b] = l.empty() ? backend.lastLogitStats().front().topIds.front() : argmax(l);
                        }
                    }
                }
                if (r > 0) (mode == 0 ? batched : single).push_back(double(B) * nGen / seconds(t0));
            }
        }
        const Stat a = stats(batched), o = stats(single);
        if (json)
            j.beginObject().field("batch", B).field("n_prompt", nPrompt).field("n_gen", nGen).field("threads", threads)
                .field("backend_settings", backend.settings())
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

// bench --beam 4,8,...: what a beam-search step costs against a greedy step. Each repetition
// prefills one prompt of nPrompt tokens (not timed), then times nGen greedy steps (one forward()
// and an argmax each) and a width-K beamSearch over a ModelBeamScorer for nGen + 1 depths (no end
// tokens and early stopping "never", so all K beams run to the end; the first depth forks from the
// prefill's logits, so nGen passes follow): batched (one forwardBatch per step, what beamSearch
// does) and one beam at a time (setBatched(false): K forward() calls per step). A step's time is
// the whole step: the pass and the search's own work (softmax, top-2K, forks) over K beams.
int benchBeams(const Model& model, Backend& backend, const std::vector<int>& widths, int nPrompt, int nGen, int reps,
               KvType kvType, bool json, int threads) {
    const HParams& hp = model.hparams();
    std::vector<TokenId> prompt(std::max(1, nPrompt));
    for (int i = 0; i < static_cast<int>(prompt.size()); ++i) prompt[i] = static_cast<TokenId>((i * 7919 + 13) % hp.nVocab);
    constexpr int64_t kBlockSize = 16;
    JsonWriter j;
    j.beginArray();
    if (!json)
        std::printf("| beams | prompt | steps | greedy ms/step | beam batched ms/step | beam one-by-one ms/step | batched / greedy | "
                    "one-by-one / greedy | passes/step (tokens/step) |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int K : widths) {
        std::vector<double> greedyMs, batchedMs, singleMs;
        int passes = 0;
        int64_t tokens = 0;
        for (int r = 0; r <= reps; ++r) {   // r == 0 is a warm-up
            for (int mode = 0; mode < 3; ++mode) {   // greedy, beam batched, beam one by one
                KvBlockPool pool(hp, beamPoolBlocks(static_cast<int64_t>(prompt.size()), nGen + 1, K, kBlockSize), kvType, kBlockSize);
                const SeqId root = pool.newSequence();
                const std::span<const float> first = backend.forward(prompt, pool, root, false);
                std::vector<float> rootLogits(first.begin(), first.end());
                double ms = 0.0;
                if (mode == 0) {
                    TokenId tok = argmax(rootLogits);
                    const auto t0 = std::chrono::steady_clock::now();
                    for (int step = 0; step < nGen; ++step) tok = argmax(backend.forward(std::span(&tok, 1), pool, root, false));
                    ms = 1000.0 * seconds(t0) / nGen;
                } else {
                    ModelBeamScorer scorer(backend, pool, root, std::move(rootLogits));
                    scorer.setBatched(mode == 1);
                    BeamOptions o;
                    o.width = K;
                    o.maxNewTokens = nGen + 1;
                    o.earlyStopping = EarlyStopping::Never;
                    const auto t0 = std::chrono::steady_clock::now();
                    beamSearch(scorer, prompt, o);
                    ms = 1000.0 * seconds(t0) / nGen;   // nGen steps ran a pass (batched: nGen passes; else nGen * K)
                    if (mode == 1) {
                        passes = scorer.forwardCalls();
                        tokens = scorer.tokensEvaluated();
                    }
                }
                if (r > 0) (mode == 0 ? greedyMs : mode == 1 ? batchedMs : singleMs).push_back(ms);
            }
        }
        const Stat g = stats(greedyMs), b = stats(batchedMs), o = stats(singleMs);
        const double perStepPasses = static_cast<double>(passes) / nGen, perStepTokens = static_cast<double>(tokens) / nGen;
        if (json)
            j.beginObject().field("beams", K).field("n_prompt", nPrompt).field("n_gen", nGen).field("threads", threads)
                .field("greedy_ms_per_step", g.mean).field("greedy_sd", g.sd).field("beam_batched_ms_per_step", b.mean)
                .field("beam_batched_sd", b.sd).field("beam_one_by_one_ms_per_step", o.mean).field("beam_one_by_one_sd", o.sd)
                .field("batched_vs_greedy", b.mean / g.mean).field("one_by_one_vs_greedy", o.mean / g.mean)
                .field("passes_per_step", perStepPasses).field("tokens_per_step", perStepTokens).endObject();
        else
            std::printf("| %d | %d | %d | %.2f ± %.2f | %.2f ± %.2f | %.2f ± %.2f | %.2f× | %.2f× | %.2f (%.2f) |\n", K, nPrompt, nGen,
                        g.mean, g.sd, b.mean, b.sd, o.mean, o.sd, b.mean / g.mean, o.mean / g.mean, perStepPasses, perStepTokens);
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
    const BackendOption backendKind = backendOption(args);
    const int nPrompt = static_cast<int>(args.integer("-p", 512, 0, 1 << 16));
    const int nGen = static_cast<int>(args.integer("-n", 128, 0, 1 << 16));
    const int depth = static_cast<int>(args.integer("-d", 0, 0, 1 << 17));   // llama-bench's -d: tokens already cached
    const int reps = static_cast<int>(args.integer("--reps", 3, 1, 100));
    const KvType kvType = parseKvType(args.value("--kv-type", "f16"));
    const bool json = args.flag("--json");
    const bool noKvCache = args.flag("--no-kv-cache");  // recompute the prefix every step (the lesson)
    const auto batch = args.value("--batch");
    const auto beam = args.value("--beam");
    const int statsTopN = static_cast<int>(args.integer("--stats", 0, 0, 32));
    const bool noHostLogits = args.flag("--no-host-logits");
    args.finish();
    if (noHostLogits && statsTopN == 0) throw Error("bench: --no-host-logits needs --stats N (the statistics are then all a step returns)");
    std::vector<int> sizes, widths;
    if (batch)
        for (long long b : integerList(*batch, "--batch", "batch sizes", "batch size", 1, 256)) sizes.push_back(static_cast<int>(b));
    if (beam)
        for (long long k : integerList(*beam, "--beam", "beam widths", "beam width", 1, 64)) widths.push_back(static_cast<int>(k));
    if (batch && noKvCache) throw Error("bench: --batch measures decoding with the cache; drop --no-kv-cache");
    if (beam && noKvCache) throw Error("bench: --beam measures decoding with the cache; drop --no-kv-cache");
    if (batch && beam) throw Error("bench: --batch and --beam are two benchmarks; give one of them");
    if (depth > 0 && (batch || beam || noKvCache)) throw Error("bench: -d goes with plain pp / tg runs only, not with --batch, --beam or --no-kv-cache");

    auto model = Model::load(path);
    auto backend = openBackend(*model, backendKind, threads);
    backend->setLogitStats(statsTopN);
    if (noHostLogits) backend->setHostLogits(false);
    if (batch) {
        backend->setCancelFlag(installInterruptHandler());
        return benchBatches(*model, *backend, sizes, nPrompt == 512 ? 32 : nPrompt, nGen == 128 ? 32 : nGen, reps, kvType, json, threads);
    }
    if (beam) {
        if (nGen < 1) throw Error("bench: --beam needs -n of at least 1 (the steps to time)");
        backend->setCancelFlag(installInterruptHandler());
        return benchBeams(*model, *backend, widths, nPrompt == 512 ? 32 : nPrompt, nGen == 128 ? 32 : nGen, reps, kvType, json, threads);
    }
    backend->setRecomputePrefix(noKvCache);
    const HParams& hp = model->hparams();
    KvCache cache(hp, depth + std::max(nPrompt, nGen) + 1, kvType);
    // Token ids do not change the amount of work; use a fixed spread of ids as llama-bench does.
    std::vector<TokenId> prompt(nPrompt), context(depth);
    for (int i = 0; i < nPrompt; ++i) prompt[i] = static_cast<TokenId>((i * 7919 + 13) % hp.nVocab);
    for (int i = 0; i < depth; ++i) context[i] = static_cast<TokenId>((i * 104729 + 17) % hp.nVocab);
    // -d N: each measurement starts from N cached tokens (filled untimed), as llama-bench's depth.
    auto startAtDepth = [&] {
        cache.clear();
        if (depth > 0) backend->forward(context, cache, false);
    };

    backend->setCancelFlag(installInterruptHandler());
    std::fprintf(stderr, "[bench: a warm-up, then %d repetition%s; Ctrl-C stops and reports what was measured]\n", reps,
                 reps == 1 ? "" : "s");
    std::vector<double> pp, tg;
    bool stopped = false;  // Ctrl-C: report the repetitions measured so far
    try {
        for (int r = 0; r <= reps; ++r) {  // r == 0 is a warm-up
            if (nPrompt > 0) {
                startAtDepth();
                const auto t0 = std::chrono::steady_clock::now();
                backend->forward(prompt, cache, false);
                if (r > 0) pp.push_back(nPrompt / seconds(t0));
            }
            if (nGen > 0) {
                startAtDepth();
                TokenId tok = 1 % hp.nVocab;
                const auto t0 = std::chrono::steady_clock::now();
                for (int i = 0; i < nGen; ++i) {
                    const TokenId one[1] = {tok};
                    auto logits = backend->forward(one, cache, false);
                    tok = logits.empty() ? backend->lastLogitStats().front().topIds.front()
                                         : static_cast<TokenId>(std::max_element(logits.begin(), logits.end()) - logits.begin());
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
        j.beginObject().field("model", path).field("backend", std::string(backend->name())).field("backend_settings", backend->settings())
            .field("threads", threads)
            .field("kv_type", kvTypeName(kvType)).field("kv_cache", !noKvCache).field("stats_top_n", statsTopN).field("host_logits", !noHostLogits).field("n_prompt", nPrompt).field("n_gen", nGen).field("depth", depth).field("reps", reps)
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
            const std::string at = depth > 0 ? " @ d" + std::to_string(depth) : "";
            std::printf("| %s | %s | %d | %s%d%s | %s |\n", hp.archName.c_str(), std::string(backend->name()).c_str(), threads, test,
                        n, at.c_str(), speed);
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
