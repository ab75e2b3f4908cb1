#pragma once
// Runs a request trace through the Scheduler on the real engine, in real time: each request is
// submitted when its arrival time comes (open loop), or as soon as fewer than `concurrency` are in
// flight (closed loop), and every step and every request's timings are recorded. The serving lab
// and serve-bench measure with this.
#include <atomic>
#include <functional>
#include <vector>

#include "serve/load_trace.h"
#include "serve/scheduler.h"

namespace dlab {

struct TraceRunOptions {
    SchedulerOptions scheduler;
    KvType kvType = KvType::F16;
    int64_t kvBlockSize = 16;
    int concurrency = 0;            // 0: open loop (arrival times); N >= 1: keep N requests in flight
    float temperature = 0.8f;       // each request samples with seed = index + 1 (0 = greedy)
};

struct RequestOutcome {
    int index = 0;                  // in the trace
    RequestId id = 0;
    FinishReason reason = FinishReason::Stop;
    std::string error;
    RequestTimings timings;
};

struct TraceRunResult {
    BatchingMode mode = BatchingMode::Continuous;
    int maxBatch = 0;
    std::vector<RequestOutcome> requests;   // trace order (only those that finished, if stopped early)
    std::vector<StepRecord> steps;
    double wallMs = 0.0;
    bool stopped = false;                   // the cancel flag ended it early
};

// onStep (optional) sees every step as it happens, with the result so far. Throws dlab::Error for
// invalid options; a request the engine rejects is recorded with its error.
TraceRunResult runTrace(const Model& model, Backend& backend, const std::vector<TracedRequest>& trace,
                        const TraceRunOptions& options, const std::atomic<bool>* cancel = nullptr,
                        const std::function<void(const StepRecord&, const TraceRunResult&)>& onStep = {});

// What a run measured, the way the serving lesson reads it.
struct ServeSummary {
    int requests = 0, completed = 0;
    int64_t generatedTokens = 0, paddingTokens = 0, prefillTokens = 0;
    double wallMs = 0.0;
    double throughput = 0.0;          // generated tokens per second of the whole run
    double decodeThroughput = 0.0;    // tokens per second over the steps that only decoded
    double ttftP50 = 0, ttftP99 = 0;  // ms, time to first token (arrival to first token)
    double itlP50 = 0, itlP99 = 0;    // ms, inter-token latency (gaps between a request's tokens)
    double e2eP50 = 0, e2eP99 = 0;    // ms, arrival to last token
    double queueP50 = 0;              // ms, arrival to admission
    double occupancy = 0.0;           // mean requests doing work (prefill or decode, not padding) per step / maxBatch
    double prefixHitRate = 0.0;       // prompt tokens served from the prefix cache / prompt tokens
};
ServeSummary summarize(const TraceRunResult& run);

// The q-quantile (0..1) with linear interpolation between order statistics; 0 for no values.
double percentile(std::vector<double> values, double q);

}  // namespace dlab
