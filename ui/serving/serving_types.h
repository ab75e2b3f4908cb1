#pragma once
// Value structs between the Serving lab page and its controller on the engine thread (queued
// signals). They carry the engine's own results (serve/trace_run.h, serve/serve_experiments.h):
// every number the page draws is in them, measured by the run.
#include <QMetaType>
#include <QString>

#include <memory>
#include <vector>

#include "safety/safety_pipeline.h"
#include "serve/serve_experiments.h"

namespace dlab::ui {

// The Load tab: one Poisson trace, run with static and then continuous batching.
struct ServingLoadRequest {
    LoadSpec spec;                  // requests, rate, prompt / output ranges, system prompt, seed
    int maxBatch = 4;
    int tokenBudget = 256;
    bool prefixCache = true;
};

struct ServingModeRun {
    TraceRunResult run;             // every step and every request's timings
    ServeSummary summary;           // summarize(run)
    bool done = false;              // measured (false: not reached before Stop)
};

struct ServingLoadView {
    ServingLoadRequest request;
    ServingModeRun staticRun, continuousRun;
    bool cancelled = false;
    const ServingModeRun& mode(BatchingMode m) const { return m == BatchingMode::Static ? staticRun : continuousRun; }
};
using ServingLoadPtr = std::shared_ptr<const ServingLoadView>;

// A run as far as it got (runTrace's onStep), for the live Gantt.
struct ServingLiveRun {
    BatchingMode mode = BatchingMode::Static;
    int requests = 0;               // in the trace
    std::shared_ptr<const TraceRunResult> run;
};

// The Batch size tab.
struct ServingSweepRequest {
    std::vector<int> batches{1, 2, 4, 8};
    int promptTokens = 32;
    int outputTokens = 16;
};

struct ServingSweepView {
    ServingSweepRequest request;
    std::vector<BatchSweepPoint> points;
    bool cancelled = false;
};

// The Prefix cache tab.
struct ServingPrefixRequest {
    int systemPromptTokens = 500;
    int userTokens = 32;
    int outputTokens = 8;
    int requests = 6;
};

struct ServingPrefixView {
    ServingPrefixRequest request;
    PrefixCacheResult result;
    bool cancelled = false;
};

// The Safety tab: one prompt through the four layers (safety/safety_pipeline.h); the request is
// dlab::SafetyRequest itself.
using ServingSafetyPtr = std::shared_ptr<const SafetyRun>;

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::ServingLoadRequest)
Q_DECLARE_METATYPE(dlab::ui::ServingLoadPtr)
Q_DECLARE_METATYPE(dlab::ui::ServingLiveRun)
Q_DECLARE_METATYPE(dlab::ui::ServingSweepRequest)
Q_DECLARE_METATYPE(dlab::ui::ServingSweepView)
Q_DECLARE_METATYPE(dlab::BatchSweepPoint)
Q_DECLARE_METATYPE(dlab::ui::ServingPrefixRequest)
Q_DECLARE_METATYPE(dlab::ui::ServingPrefixView)
Q_DECLARE_METATYPE(dlab::SafetyRequest)
Q_DECLARE_METATYPE(dlab::ui::ServingSafetyPtr)
