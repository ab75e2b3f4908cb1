#pragma once
// The Serving lab's engine side, on the engine thread (a child of the EngineContext). Each slot is
// one experiment of serve/serve_experiments.h on the loaded model, measured in real time:
//   runLoad()        one Poisson trace (makeLoadTrace) through runTrace with static and then
//                    continuous batching; the run so far goes to the page a few times a second
//                    for the live Gantt;
//   sweep()          batchSweep: one closed batch per size, each point as it is measured;
//   measurePrefix()  prefixCacheExperiment: a shared system prompt with the cache on and off;
//   runSafety()      runSafetyPipeline: one prompt through the four safety layers.
// Stop is EngineContext::cancel(), checked between steps (the backend's own flag is off during a
// run, so a step is never cut in half and what was measured so far comes back).
#include <QObject>
#include <QString>

#include "ui/engine/engine_context.h"
#include "ui/serving/serving_types.h"

namespace dlab::ui {

class ServingController : public QObject {
    Q_OBJECT
public:
    explicit ServingController(EngineContext* engine);

    static constexpr int kLiveEveryMs = 150;   // the live run, at most this often

public slots:
    void runLoad(const dlab::ui::ServingLoadRequest& request);
    void sweep(const dlab::ui::ServingSweepRequest& request);
    void measurePrefix(const dlab::ui::ServingPrefixRequest& request);
    void runSafety(const dlab::SafetyRequest& request);

signals:
    void loadLive(const dlab::ui::ServingLiveRun& live);
    void loadReady(const dlab::ui::ServingLoadPtr& view);
    void sweepPoint(const dlab::BatchSweepPoint& point, int done, int total);
    void sweepReady(const dlab::ui::ServingSweepView& view);
    void prefixReady(const dlab::ui::ServingPrefixView& view);
    void safetyStep(int steps, int maxSteps);
    void safetyReady(const dlab::ui::ServingSafetyPtr& run);
    void failed(const QString& message);

private:
    void checkFits(int64_t tokens) const;   // throws dlab::Error when a request cannot fit the context

    EngineContext& engine_;
};

}  // namespace dlab::ui
