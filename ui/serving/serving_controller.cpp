#include "ui/serving/serving_controller.h"

#include <QElapsedTimer>

#include <algorithm>

#include "core/error.h"
#include "model/backend.h"
#include "model/model.h"

namespace dlab::ui {

ServingController::ServingController(EngineContext* engine) : QObject(engine), engine_(*engine) {}

void ServingController::checkFits(int64_t tokens) const {
    const int64_t ctx = engine_.model().hparams().nCtxTrain;
    if (tokens > ctx)
        throw Error(tr("A request of up to %1 tokens (prompt and answer) does not fit the model's context of %2 positions: "
                       "shorten the prompts or the answers.")
                        .arg(tokens)
                        .arg(ctx)
                        .toStdString());
}

void ServingController::runLoad(const ServingLoadRequest& r) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        const Model& model = engine_.model();
        Backend& backend = engine_.backend();
        r.spec.validate();
        checkFits(int64_t(r.spec.systemPromptTokens) + r.spec.promptMax + r.spec.outputMax);
        const std::vector<TracedRequest> trace = makeLoadTrace(model, r.spec);
        auto view = std::make_shared<ServingLoadView>();
        view->request = r;
        ScopedCancelFlag betweenSteps(backend, nullptr);
        for (BatchingMode mode : {BatchingMode::Static, BatchingMode::Continuous}) {
            TraceRunOptions opt;
            opt.scheduler.mode = mode;
            opt.scheduler.maxBatch = r.maxBatch;
            opt.scheduler.tokenBudget = std::max(r.tokenBudget, r.maxBatch);
            opt.scheduler.prefillChunk = std::min(256, opt.scheduler.tokenBudget);
            opt.scheduler.prefixCache = r.prefixCache;
            QElapsedTimer live;
            const int n = int(trace.size());
            TraceRunResult run = runTrace(model, backend, trace, opt, engine_.cancelFlag(), [&](const dlab::StepRecord&, const TraceRunResult& sofar) {
                if (live.isValid() && live.elapsed() < kLiveEveryMs) return;
                live.start();
                emit loadLive({mode, n, std::make_shared<const TraceRunResult>(sofar)});
            });
            ServingModeRun& m = mode == BatchingMode::Static ? view->staticRun : view->continuousRun;
            m.summary = summarize(run);
            m.done = !run.stopped;
            m.run = std::move(run);
            if (!m.done) {
                view->cancelled = true;
                break;
            }
        }
        emit loadReady(view);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void ServingController::sweep(const ServingSweepRequest& r) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        checkFits(int64_t(r.promptTokens) + r.outputTokens);
        Backend& backend = engine_.backend();
        ScopedCancelFlag betweenSteps(backend, nullptr);
        ServingSweepView v;
        v.request = r;
        int done = 0;
        const int total = int(r.batches.size());
        v.points = batchSweep(engine_.model(), backend, r.batches, r.promptTokens, r.outputTokens, engine_.cancelFlag(),
                              [&](const BatchSweepPoint& p) { emit sweepPoint(p, ++done, total); });
        v.cancelled = engine_.cancelRequested() && int(v.points.size()) < total;
        emit sweepReady(v);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void ServingController::measurePrefix(const ServingPrefixRequest& r) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        checkFits(int64_t(r.systemPromptTokens) + r.userTokens + r.outputTokens);
        Backend& backend = engine_.backend();
        ScopedCancelFlag betweenSteps(backend, nullptr);
        ServingPrefixView v;
        v.request = r;
        v.result = prefixCacheExperiment(engine_.model(), backend, r.systemPromptTokens, r.userTokens, r.outputTokens, r.requests,
                                         engine_.cancelFlag());
        v.cancelled = engine_.cancelRequested();
        emit prefixReady(v);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void ServingController::runSafety(const SafetyRequest& r) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        QElapsedTimer live;
        auto run = std::make_shared<SafetyRun>(runSafetyPipeline(engine_.model(), engine_.backend(), r, engine_.cancelFlag(),
                                                                 [&](const SafetyStep& s) {
                                                                     if (live.isValid() && live.elapsed() < kLiveEveryMs) return;
                                                                     live.start();
                                                                     emit safetyStep(s.step + 1, r.maxTokens);
                                                                 }));
        emit safetyReady(run);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

}  // namespace dlab::ui
