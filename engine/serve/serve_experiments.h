#pragma once
// The serving lesson's experiments, each a set of real runs of runTrace on the loaded model:
//  * batchSweep: B requests at once with a batch of B, for each B: decode tokens/s against the
//    inter-token latency each user sees (the lesson's "batch 8 -> 140 tok/s, 51 ms/tok");
//  * loadSweep: the same Poisson trace per offered rate under static and continuous batching:
//    TTFT and inter-token latency p50/p99 against load;
//  * prefixCacheExperiment: requests sharing one long system prompt, one after another, with the
//    prefix cache on and off: TTFT and the hit rate;
//  * workloadAdvice: which batch size each workload should run at, answered from a sweep.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "serve/trace_run.h"

namespace dlab {

struct BatchSweepPoint {
    int batch = 0;
    ServeSummary summary;   // decodeThroughput, itlP50/P99, ttftP50/P99 are what the curve draws
};
// One closed batch per size: `batch` requests of promptTokens (distinct text) generating
// outputTokens each, submitted together. onPoint sees each point as it is measured.
std::vector<BatchSweepPoint> batchSweep(const Model& model, Backend& backend, const std::vector<int>& batches, int promptTokens,
                                        int outputTokens, const std::atomic<bool>* cancel = nullptr,
                                        const std::function<void(const BatchSweepPoint&)>& onPoint = {});

struct LoadSweepPoint {
    double rate = 0.0;             // offered requests per second
    ServeSummary staticBatching, continuousBatching;
};
std::vector<LoadSweepPoint> loadSweep(const Model& model, Backend& backend, LoadSpec spec, const std::vector<double>& rates,
                                      SchedulerOptions scheduler, const std::atomic<bool>* cancel = nullptr,
                                      const std::function<void(const LoadSweepPoint&)>& onPoint = {});

// One request of the experiment, both ways (trace order; -1 where it did not finish).
struct PrefixRequestTiming {
    int promptTokens = 0;
    int cachedTokens = 0;          // served from the prefix cache in the run with it
    double ttftWithMs = -1.0, ttftWithoutMs = -1.0;
};
struct PrefixCacheResult {
    int systemPromptTokens = 0;
    ServeSummary withCache, withoutCache;   // TTFT p50 and prefixHitRate are the lesson's numbers
    std::vector<PrefixRequestTiming> requests;   // the first computes the shared prompt, the rest reuse it
};
// `requests` requests, each the shared system prompt and userTokens of its own, run one at a time.
PrefixCacheResult prefixCacheExperiment(const Model& model, Backend& backend, int systemPromptTokens, int userTokens,
                                        int outputTokens, int requests, const std::atomic<bool>* cancel = nullptr);

struct WorkloadAnswer {
    std::string workload;        // "interactive chat", "batch processing", "code completion"
    std::string optimises;       // the metric it cares about
    int batch = 0;               // 0: no measured batch size meets the bound
    std::string why;             // one sentence with the measured numbers
};
// Interactive chat: the largest batch whose p99 inter-token latency is within itlBoundMs. Batch
// processing: the batch with the highest decode throughput. Code completion: the largest batch
// whose p99 time to first token is within ttftBoundMs.
std::vector<WorkloadAnswer> workloadAdvice(const std::vector<BatchSweepPoint>& sweep, double itlBoundMs, double ttftBoundMs);

}  // namespace dlab
