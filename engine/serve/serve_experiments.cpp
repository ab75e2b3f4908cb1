#include "serve/serve_experiments.h"

#include <cstdio>

#include "core/error.h"

namespace dlab {

namespace {

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, f, a, b, c);
    return buf;
}

}  // namespace

std::vector<BatchSweepPoint> batchSweep(const Model& model, Backend& backend, const std::vector<int>& batches, int promptTokens,
                                        int outputTokens, const std::atomic<bool>* cancel,
                                        const std::function<void(const BatchSweepPoint&)>& onPoint) {
    if (batches.empty()) throw Error("the batch sweep needs at least one batch size");
    std::vector<BatchSweepPoint> out;
    for (int b : batches) {
        if (b < 1 || b > 256) throw Error("batch sizes must be between 1 and 256 (got " + std::to_string(b) + ")");
        LoadSpec spec;
        spec.requests = b;
        spec.promptMin = spec.promptMax = promptTokens;
        spec.outputMin = spec.outputMax = outputTokens;
        spec.seed = 1000 + static_cast<uint64_t>(b);
        std::vector<TracedRequest> trace = makeLoadTrace(model, spec);
        for (TracedRequest& r : trace) r.arrivalMs = 0.0;  // all at once
        TraceRunOptions opt;
        opt.scheduler.maxBatch = b;
        opt.scheduler.tokenBudget = std::max(512, b);
        opt.scheduler.prefillChunk = std::min(256, opt.scheduler.tokenBudget);
        opt.scheduler.prefixCache = false;
        const TraceRunResult run = runTrace(model, backend, trace, opt, cancel);
        if (run.stopped) break;
        BatchSweepPoint p{b, summarize(run)};
        out.push_back(p);
        if (onPoint) onPoint(p);
    }
    return out;
}

std::vector<LoadSweepPoint> loadSweep(const Model& model, Backend& backend, LoadSpec spec, const std::vector<double>& rates,
                                      SchedulerOptions scheduler, const std::atomic<bool>* cancel,
                                      const std::function<void(const LoadSweepPoint&)>& onPoint) {
    if (rates.empty()) throw Error("the load sweep needs at least one arrival rate");
    std::vector<LoadSweepPoint> out;
    for (double rate : rates) {
        spec.ratePerSecond = rate;
        const std::vector<TracedRequest> trace = makeLoadTrace(model, spec);
        LoadSweepPoint p;
        p.rate = rate;
        for (BatchingMode mode : {BatchingMode::Static, BatchingMode::Continuous}) {
            TraceRunOptions opt;
            opt.scheduler = scheduler;
            opt.scheduler.mode = mode;
            const TraceRunResult run = runTrace(model, backend, trace, opt, cancel);
            if (run.stopped) return out;
            (mode == BatchingMode::Static ? p.staticBatching : p.continuousBatching) = summarize(run);
        }
        out.push_back(p);
        if (onPoint) onPoint(p);
    }
    return out;
}

PrefixCacheResult prefixCacheExperiment(const Model& model, Backend& backend, int systemPromptTokens, int userTokens,
                                        int outputTokens, int requests, const std::atomic<bool>* cancel) {
    LoadSpec spec;
    spec.requests = requests;
    spec.systemPromptTokens = systemPromptTokens;
    spec.promptMin = spec.promptMax = userTokens;
    spec.outputMin = spec.outputMax = outputTokens;
    const std::vector<TracedRequest> trace = makeLoadTrace(model, spec);
    PrefixCacheResult r;
    r.systemPromptTokens = systemPromptTokens;
    r.requests.resize(trace.size());
    for (bool cache : {true, false}) {
        TraceRunOptions opt;
        opt.scheduler.maxBatch = 1;
        opt.scheduler.tokenBudget = 512;
        opt.scheduler.prefillChunk = 512;
        opt.scheduler.prefixCache = cache;
        opt.concurrency = 1;  // one at a time: TTFT is the prefill, not queueing
        const TraceRunResult run = runTrace(model, backend, trace, opt, cancel);
        (cache ? r.withCache : r.withoutCache) = summarize(run);
        for (const RequestOutcome& o : run.requests) {
            if (o.index < 0 || size_t(o.index) >= r.requests.size()) continue;
            PrefixRequestTiming& t = r.requests[size_t(o.index)];
            t.promptTokens = o.timings.promptTokens;
            (cache ? t.ttftWithMs : t.ttftWithoutMs) = o.timings.ttftMs();
            if (cache) t.cachedTokens = o.timings.cachedPromptTokens;
        }
    }
    return r;
}

std::vector<WorkloadAnswer> workloadAdvice(const std::vector<BatchSweepPoint>& sweep, double itlBoundMs, double ttftBoundMs) {
    std::vector<WorkloadAnswer> out;
    WorkloadAnswer chat{"interactive chat", "p99 inter-token latency", 0, {}};
    WorkloadAnswer batch{"batch processing", "throughput (tokens/s)", 0, {}};
    WorkloadAnswer code{"code completion", "p99 time to first token", 0, {}};
    const BatchSweepPoint* bestChat = nullptr;
    const BatchSweepPoint* bestBatch = nullptr;
    const BatchSweepPoint* bestCode = nullptr;
    for (const BatchSweepPoint& p : sweep) {
        if (p.summary.itlP99 <= itlBoundMs && (!bestChat || p.batch > bestChat->batch)) bestChat = &p;
        if (!bestBatch || p.summary.decodeThroughput > bestBatch->summary.decodeThroughput) bestBatch = &p;
        if (p.summary.ttftP99 <= ttftBoundMs && (!bestCode || p.batch > bestCode->batch)) bestCode = &p;
    }
    if (bestChat) {
        chat.batch = bestChat->batch;
        chat.why = fmt("batch %.0f keeps p99 inter-token latency at %.1f ms (bound %.0f ms)", bestChat->batch, bestChat->summary.itlP99, itlBoundMs);
    } else {
        chat.why = fmt("no measured batch keeps p99 inter-token latency within %.0f ms", itlBoundMs);
    }
    if (bestBatch) {
        batch.batch = bestBatch->batch;
        batch.why = fmt("batch %.0f decodes the most: %.0f tokens/s", bestBatch->batch, bestBatch->summary.decodeThroughput);
    }
    if (bestCode) {
        code.batch = bestCode->batch;
        code.why = fmt("batch %.0f keeps p99 time to first token at %.0f ms (bound %.0f ms)", bestCode->batch, bestCode->summary.ttftP99, ttftBoundMs);
    } else {
        code.why = fmt("no measured batch keeps p99 time to first token within %.0f ms", ttftBoundMs);
    }
    out = {chat, batch, code};
    return out;
}

}  // namespace dlab
