#include "cmd_kv_lab.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "commands.h"
#include "core/error.h"
#include "core/stopwatch.h"
#include "core/json_writer.h"
#include "interrupt.h"
#include "kv/kv_compression.h"
#include "kv/kv_eviction.h"
#include "kv/kv_run.h"

namespace dlab::cli {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// A text of at least n tokens: the file's tokens, or the prompt's repeated.
std::vector<TokenId> tokensOfLength(const std::vector<TokenId>& seed, int64_t n) {
    if (seed.empty()) throw Error("the text is empty");
    std::vector<TokenId> out;
    while (static_cast<int64_t>(out.size()) < n) out.insert(out.end(), seed.begin(), seed.end());
    out.resize(n);
    return out;
}

std::vector<TokenId> promptTokens(const Model& model, const std::string& text) {
    const Tokenizer& tok = model.tokenizer();
    auto ids = tok.encode(text, tok.addsBosByDefault(), false);
    if (ids.empty()) throw Error("the prompt is empty; give --prompt TEXT");
    return ids;
}

// kv-growth --at: one decode step after a prefix of p tokens, timed three ways.
int growthAtPositions(const Model& model, Backend& backend, const std::vector<TokenId>& text, const std::vector<int64_t>& at,
                      KvType type, int reps, bool json) {
    const HParams& hp = model.hparams();
    JsonWriter j;
    j.beginArray();
    if (!json)
        std::printf("| position | with cache ms | + attention request ms | request overhead | without cache ms | without / with |\n"
                    "|---|---|---|---|---|---|\n");
    for (int64_t p : at) {
        const std::vector<TokenId> prefix = tokensOfLength(text, p);
        const TokenId next[1] = {text[p % text.size()]};
        KvCache cache(hp, p + 2, type);
        backend.forward(prefix, cache, false);
        std::vector<double> with, withAttention, without;
        AttentionWeights w;
        for (int r = 0; r < reps; ++r) {
            auto t0 = std::chrono::steady_clock::now();
            backend.forward(next, cache, false);
            with.push_back(msSince(t0));
            cache.truncate(p);
            backend.requestAttention(&w);
            t0 = std::chrono::steady_clock::now();
            backend.forward(next, cache, false);
            withAttention.push_back(msSince(t0));
            cache.truncate(p);
        }
        backend.setRecomputePrefix(true);
        for (int r = 0; r < std::max(1, reps / 3); ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            backend.forward(next, cache, false);
            without.push_back(msSince(t0));
            cache.truncate(p);
        }
        backend.setRecomputePrefix(false);
        const double a = median(with), b = median(withAttention), c = median(without);
        if (json)
            j.beginObject().field("position", p).field("withCacheMs", a).field("withAttentionMs", b).field("withoutCacheMs", c).endObject();
        else
            std::printf("| %lld | %.2f | %.2f | %+.1f %% | %.1f | %.0f× |\n", (long long)p, a, b, 100.0 * (b - a) / a, c, c / a);
        std::fflush(stdout);
    }
    j.endArray();
    if (json) std::printf("%s\n", j.str().c_str());
    return 0;
}

}  // namespace

int runKvGrowth(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const std::string prompt = args.value("--prompt", "The key and value vectors of every token are kept so that");
    const auto file = args.value("--file");
    const int steps = static_cast<int>(args.integer("--steps", 64, 1, 1 << 14));
    const auto at = args.value("--at");
    const int reps = static_cast<int>(args.integer("--reps", 9, 1, 1000));
    const KvType type = parseKvType(args.value("--kv-type", "f16"));
    const bool json = args.flag("--json");
    args.finish();
    auto model = Model::load(path);
    auto backend = openBackend(*model, backendKind, threads);
    backend->setCancelFlag(installInterruptHandler());
    const std::vector<TokenId> text = file ? promptTokens(*model, readTextFile(*file)) : promptTokens(*model, prompt);
    if (at) {
        const std::vector<long long> list = integerList(*at, "--at", "positions", "position", 1, 1 << 20);
        return growthAtPositions(*model, *backend, text, std::vector<int64_t>(list.begin(), list.end()), type, reps, json);
    }

    KvRunOptions o;
    o.steps = steps;
    o.sampler.temperature = 0.0f;
    o.type = type;
    const KvRunResult cached = runKvExplorer(*model, *backend, text, o);
    o.attentionEvery = 1;
    o.forcedTokens = cached.generated[0];
    const KvRunResult attention = runKvExplorer(*model, *backend, text, o);
    o.attentionEvery = 0;
    o.withoutCache = true;
    const KvRunResult recomputed = runKvExplorer(*model, *backend, text, o);
    const size_t n = std::min({cached.steps.size(), attention.steps.size(), recomputed.steps.size()});
    JsonWriter j;
    j.beginArray();
    if (!json)
        std::printf("| step | positions | rows computed (cache) | ms (cache) | ms (+ attention) | rows computed (no cache) | ms (no cache) "
                    "| total ms (cache) | total ms (no cache) |\n|---|---|---|---|---|---|---|---|---|\n");
    double totalWith = 0, totalWithout = 0;
    for (size_t i = 0; i < n; ++i) {
        const KvRunStep &a = cached.steps[i], &b = attention.steps[i], &c = recomputed.steps[i];
        totalWith += a.forwardMs;
        totalWithout += c.forwardMs;
        if (json)
            j.beginObject().field("step", a.step).field("positions", a.positions).field("computed", a.computed)
                .field("reused", a.reused).field("bytesInUse", a.bytesInUse).field("withCacheMs", a.forwardMs)
                .field("withAttentionMs", b.forwardMs).field("withoutCacheComputed", c.computed).field("withoutCacheMs", c.forwardMs)
                .field("totalWithCacheMs", totalWith).field("totalWithoutCacheMs", totalWithout).endObject();
        else
            std::printf("| %d | %lld | %lld | %.2f | %.2f | %lld | %.2f | %.1f | %.1f |\n", a.step, (long long)a.positions,
                        (long long)a.computed, a.forwardMs, b.forwardMs, (long long)c.computed, c.forwardMs, totalWith, totalWithout);
    }
    j.endArray();
    if (json) std::printf("%s\n", j.str().c_str());
    if (!json && cached.generated[0] != recomputed.generated[0])
        std::printf("note: the no-cache run chose other tokens (summation order differs); its steps are still timed on the forced text\n");
    return 0;
}

int runKvDtypes(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const std::string prompt = args.value("--prompt", "The key and value vectors of every token are kept so that");
    const int steps = static_cast<int>(args.integer("--steps", 64, 1, 1 << 14));
    const bool json = args.flag("--json");
    // f32 weights and activations: the KL then comes from the cache's storage alone, not from the
    // fast path's activation quantization amplifying the cache's rounding.
    const bool exact = args.flag("--exact");
    const std::string typeList = args.value("--types", "f16,q8_0");
    args.finish();
    std::vector<KvType> types;
    std::stringstream ss(typeList);
    for (std::string item; std::getline(ss, item, ',');) types.push_back(parseKvType(item));
    auto model = Model::load(path);
    auto backend = openBackend(*model, backendKind, threads, exact);
    backend->setCancelFlag(installInterruptHandler());
    const auto rows = compareKvTypes(*model, *backend, promptTokens(*model, prompt), steps, types);
    JsonWriter j;
    j.beginArray();
    if (!json) std::printf("| KV type | bytes / position | mean KL from f32 (nats) | max KL | top-1 agreement | decode ms / step |\n|---|---|---|---|---|---|\n");
    for (const auto& r : rows) {
        if (json)
            j.beginObject().field("type", kvTypeName(r.type)).field("bytesPerPosition", r.bytesPerPosition).field("meanKl", r.meanKl)
                .field("maxKl", r.maxKl).field("top1Agreement", r.top1Agreement).field("msPerStep", r.msPerStep)
                .field("steps", static_cast<int64_t>(r.kl.size())).endObject();
        else
            std::printf("| %s | %lld | %.2e | %.2e | %.1f %% | %.2f |\n", kvTypeName(r.type), (long long)r.bytesPerPosition, r.meanKl,
                        r.maxKl, 100.0 * r.top1Agreement, r.msPerStep);
    }
    j.endArray();
    if (json) std::printf("%s\n", j.str().c_str());
    return 0;
}

int runKvEvict(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const auto file = args.value("--file");
    const int64_t nTokens = args.integer("--tokens", 1024, 2, 1 << 20);
    const int64_t sinks = args.integer("--sinks", 4, 1, 1 << 16);
    const int64_t budget = args.integer("--cache", 128, 2, 1 << 20);
    const KvType type = parseKvType(args.value("--kv-type", "f16"));
    const bool json = args.flag("--json");
    args.finish();
    if (!file) throw Error("kv-evict: --file TEXT is required (a long text to read)");
    if (sinks >= budget) throw Error("kv-evict: --sinks must be smaller than --cache (" + std::to_string(budget) + ")");
    const std::string text = readTextFile(*file);
    auto model = Model::load(path);
    auto backend = openBackend(*model, backendKind, threads);
    std::vector<TokenId> tokens = promptTokens(*model, text);
    if (static_cast<int64_t>(tokens.size()) < nTokens)
        throw Error(*file + ": the text has " + std::to_string(tokens.size()) + " tokens; --tokens asks for " + std::to_string(nTokens));
    tokens.resize(nTokens);
    const std::vector<EvictionPolicy> policies = {
        {"full cache", 0, 0},
        {"sinks " + std::to_string(sinks) + " + window " + std::to_string(budget - sinks), sinks, budget - sinks},
        {"window " + std::to_string(budget), 0, budget},
    };
    EvictionOptions o;
    o.scoreFrom = budget;  // before that no policy has evicted anything
    o.type = type;
    o.cancel = installInterruptHandler();
    o.progress = [&](int64_t done, int64_t total) {
        if (done % 128 == 0 || done == total) std::fprintf(stderr, "[%lld/%lld tokens]\n", (long long)done, (long long)total);
    };
    const auto results = runEvictionExperiment(*model, *backend, tokens, policies, o);
    JsonWriter j;
    j.beginArray();
    if (!json)
        std::printf("| policy | cache positions | KV bytes | perplexity (tokens %lld..%lld) | mean KL from full (nats) |\n|---|---|---|---|---|\n",
                    (long long)budget + 1, (long long)nTokens - 1);
    for (const auto& r : results) {
        if (json)
            j.beginObject().field("policy", r.policy.name).field("sinks", r.policy.sinks).field("window", r.policy.window)
                .field("maxSlots", r.maxSlots).field("bytesPeak", r.bytesPeak).field("perplexity", r.perplexity).field("meanKl", r.meanKl)
                .field("scored", static_cast<int64_t>(r.nll.size()) - budget).endObject();
        else
            std::printf("| %s | %lld | %lld | %.3f | %.4f |\n", r.policy.name.c_str(), (long long)r.maxSlots, (long long)r.bytesPeak,
                        r.perplexity, r.meanKl);
    }
    j.endArray();
    if (json) std::printf("%s\n", j.str().c_str());
    return 0;
}

}  // namespace dlab::cli
