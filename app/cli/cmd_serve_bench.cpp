// decoding-lab-cli serve-bench: the serving lab's experiments on the loaded model, as JSON.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cmd_serve.h"
#include "commands.h"
#include "core/error.h"
#include "interrupt.h"
#include "model/backend.h"
#include "serve/serve_experiments.h"

namespace dlab::cli {

namespace {

nlohmann::json summaryJson(const ServeSummary& s) {
    return {{"requests", s.requests},
            {"completed", s.completed},
            {"generated_tokens", s.generatedTokens},
            {"padding_tokens", s.paddingTokens},
            {"prefill_tokens", s.prefillTokens},
            {"wall_ms", s.wallMs},
            {"throughput_tok_s", s.throughput},
            {"decode_throughput_tok_s", s.decodeThroughput},
            {"ttft_ms", {{"p50", s.ttftP50}, {"p99", s.ttftP99}}},
            {"itl_ms", {{"p50", s.itlP50}, {"p99", s.itlP99}}},
            {"e2e_ms", {{"p50", s.e2eP50}, {"p99", s.e2eP99}}},
            {"queue_ms_p50", s.queueP50},
            {"occupancy", s.occupancy},
            {"prefix_hit_rate", s.prefixHitRate}};
}

std::vector<int> ints(const std::string& text, const std::string& option, const std::string& what, const std::string& one, int lo, int hi) {
    const std::vector<long long> v = integerList(text, option, what, one, lo, hi);
    return {v.begin(), v.end()};
}

std::vector<double> rateList(const std::string& text) {
    std::vector<double> out;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || end != item.c_str() + item.size() || !(v > 0) || v > 1e6)
            throw Error("--rates takes arrival rates (requests per second, above 0) separated by commas; '" + item + "' is not one");
        out.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

}  // namespace

int runServeBench(Args& args) {
    const std::string path = modelPathOption(args);
    const int threads = threadsOption(args);
    const BackendOption backendKind = backendOption(args);
    const std::string experiment = args.value("--experiment", "all");
    if (experiment != "all" && experiment != "sweep" && experiment != "load" && experiment != "prefix")
        throw Error("--experiment must be sweep, load, prefix or all (got '" + experiment + "')");
    const std::vector<int> batches = ints(args.value("--batches", "1,2,4,8,16"), "--batches", "batch sizes", "batch size", 1, 256);
    const int promptTokens = static_cast<int>(args.integer("--prompt-tokens", 64, 1, 4096));
    const int outputTokens = static_cast<int>(args.integer("--output-tokens", 32, 1, 4096));
    const double itlBound = args.number("--itl-bound", 100.0);
    const double ttftBound = args.number("--ttft-bound", 1000.0);
    const std::vector<double> rates = rateList(args.value("--rates", "1,2,4,8"));
    LoadSpec load;
    load.requests = static_cast<int>(args.integer("--requests", 24, 1, 10000));
    load.promptMin = static_cast<int>(args.integer("--prompt-min", 32, 1, 4096));
    load.promptMax = static_cast<int>(args.integer("--prompt-max", 96, 1, 4096));
    load.outputMin = static_cast<int>(args.integer("--output-min", 16, 1, 4096));
    load.outputMax = static_cast<int>(args.integer("--output-max", 48, 1, 4096));
    load.systemPromptTokens = static_cast<int>(args.integer("--system-prompt", 0, 0, 4096));
    load.seed = static_cast<uint64_t>(args.integer("--seed", 1, 0, 1LL << 62));
    SchedulerOptions sched;
    sched.maxBatch = static_cast<int>(args.integer("--max-batch", 8, 1, 256));
    sched.tokenBudget = static_cast<int>(args.integer("--token-budget", 512, 1, 8192));
    sched.prefillChunk = static_cast<int>(args.integer("--prefill-chunk", 256, 1, 8192));
    sched.prefixCache = !args.flag("--no-prefix-cache");
    const int systemTokens = static_cast<int>(args.integer("--system-tokens", 500, 1, 4096));
    const int userTokens = static_cast<int>(args.integer("--user-tokens", 32, 1, 4096));
    const int prefixRequests = static_cast<int>(args.integer("--prefix-requests", 8, 1, 1000));
    args.finish();
    sched.validate();
    load.validate();
    if (!(itlBound > 0) || !(ttftBound > 0)) throw Error("--itl-bound and --ttft-bound must be above 0 ms");

    auto model = Model::load(path);
    auto backend = openBackend(*model, backendKind, threads);
    const std::atomic<bool>* cancel = installInterruptHandler();
    nlohmann::json out = {{"model", path}, {"threads", threads}};
    const bool all = experiment == "all";
    if (all || experiment == "sweep") {
        const auto sweep = batchSweep(*model, *backend, batches, promptTokens, outputTokens, cancel, [](const BatchSweepPoint& p) {
            std::fprintf(stderr, "sweep: batch %d: %.1f decode tok/s, ITL p50 %.1f ms\n", p.batch, p.summary.decodeThroughput,
                         p.summary.itlP50);
        });
        nlohmann::json points = nlohmann::json::array();
        for (const auto& p : sweep) points.push_back({{"batch", p.batch}, {"summary", summaryJson(p.summary)}});
        nlohmann::json advice = nlohmann::json::array();
        for (const auto& a : workloadAdvice(sweep, itlBound, ttftBound))
            advice.push_back({{"workload", a.workload}, {"optimises", a.optimises}, {"batch", a.batch}, {"why", a.why}});
        out["sweep"] = {{"prompt_tokens", promptTokens}, {"output_tokens", outputTokens}, {"points", points},
                        {"itl_bound_ms", itlBound}, {"ttft_bound_ms", ttftBound}, {"workloads", advice}};
    }
    if ((all || experiment == "load") && !interrupted()) {
        const auto points = loadSweep(*model, *backend, load, rates, sched, cancel, [](const LoadSweepPoint& p) {
            std::fprintf(stderr, "load: %.2f req/s: TTFT p50 static %.0f ms, continuous %.0f ms\n", p.rate, p.staticBatching.ttftP50,
                         p.continuousBatching.ttftP50);
        });
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& p : points)
            arr.push_back({{"rate", p.rate}, {"static", summaryJson(p.staticBatching)}, {"continuous", summaryJson(p.continuousBatching)}});
        out["load"] = {{"requests", load.requests},
                       {"prompt_tokens", {load.promptMin, load.promptMax}},
                       {"output_tokens", {load.outputMin, load.outputMax}},
                       {"system_prompt_tokens", load.systemPromptTokens},
                       {"max_batch", sched.maxBatch},
                       {"token_budget", sched.tokenBudget},
                       {"points", arr}};
    }
    if ((all || experiment == "prefix") && !interrupted()) {
        const PrefixCacheResult r = prefixCacheExperiment(*model, *backend, systemTokens, userTokens, 8, prefixRequests, cancel);
        std::fprintf(stderr, "prefix: TTFT p50 %.1f ms with the cache, %.1f ms without\n", r.withCache.ttftP50, r.withoutCache.ttftP50);
        out["prefix"] = {{"system_prompt_tokens", systemTokens}, {"user_tokens", userTokens}, {"requests", prefixRequests},
                         {"with_cache", summaryJson(r.withCache)}, {"without_cache", summaryJson(r.withoutCache)}};
    }
    std::printf("%s\n", out.dump(2).c_str());
    return interrupted() ? kInterruptedExit : 0;
}

}  // namespace dlab::cli
