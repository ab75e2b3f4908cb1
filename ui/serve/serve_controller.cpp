#include "ui/serve/serve_controller.h"

#include <QElapsedTimer>

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/error.h"
#include "model/backend.h"
#include "model/model.h"
#include "serve/serving_loop.h"
#if DLAB_HAS_HTTP
#include "http_server.h"
#endif

namespace dlab::ui {

qint64 steadyMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

ServeController::ServeController(EngineContext* engine) : QObject(engine), engine_(*engine) {}

void ServeController::requestStop() {
    // Paired with start(): it sets serving_ after beginWork() and then reads stopRequested_, so
    // either it sees this request or this sees it serving, and the cancel is not cleared.
    stopRequested_.store(true);
    if (serving_.load()) engine_.cancel();
}

void ServeController::start(const ServeStartRequest& r) {
    if (stopRequested_.exchange(false)) {   // stopped while still queued
        emit stopped();
        return;
    }
    if (!engine_.hasModel()) {
        emit failed(tr("No model is loaded, so there is nothing to serve."));
        emit stopped();
        return;
    }
#if DLAB_HAS_HTTP
    engine_.beginWork();
    try {
        const Model& model = engine_.model();
        Backend& backend = engine_.backend();
        ServingConfig cfg;
        cfg.scheduler.maxBatch = r.maxBatch;
        cfg.scheduler.tokenBudget = std::max(512, r.maxBatch);
        cfg.scheduler.prefillChunk = 256;
        cfg.scheduler.prefixCache = r.prefixCache;
        cfg.scheduler.mode = r.staticBatching ? BatchingMode::Static : BatchingMode::Continuous;
        cfg.contextLength = std::min<int64_t>(std::max(2, r.contextLength), model.hparams().nCtxTrain);
        ServingLoop loop(model, backend, cfg);

        server::ServerOptions opt;
        opt.host = r.host.toStdString();
        opt.port = r.port;
        opt.modelId = engine_.modelName().isEmpty() ? std::string("decoding-lab") : engine_.modelName().toStdString();
        server::OpenAiServer http(loop, opt);
        http.onRequest = [this](const server::RequestLog& e) {
            ServeLogEntry l;
            l.time = QTime::currentTime();
            l.method = q(e.method);
            l.path = q(e.path);
            l.status = e.status;
            l.stream = e.stream;
            l.promptTokens = e.promptTokens;
            l.completionTokens = e.completionTokens;
            l.ms = e.ms;
            l.finish = q(e.finish);
            l.error = q(e.error);
            emit requestLogged(l);
        };

        // Live counters: the loop's own callbacks, on this thread; sent at most every kCountersEveryMs
        // and whenever the loop falls idle, so the last step is never held back.
        ServeCounters totals;
        QElapsedTimer sinceSent;
        sinceSent.start();
        const auto send = [&](bool force) {
            if (!force && sinceSent.elapsed() < kCountersEveryMs) return;
            emit counters(totals);
            totals.ticks.clear();
            sinceSent.restart();
        };
        loop.onStep = [&](const dlab::StepRecord& step, int running, int waiting) {
            int decoded = 0;
            for (const dlab::StepRecord::Item& it : step.items)
                if (it.work == dlab::StepRecord::Work::Decode) decoded += it.tokens;
            totals.ticks.push_back({steadyMs(), decoded});
            totals.running = running;
            totals.waiting = waiting;
            send(running == 0 && waiting == 0);
        };
        loop.onFinished = [&](const ServeEvent& e) {
            if (e.reason == FinishReason::Stop || e.reason == FinishReason::Length) ++totals.served;
            else ++totals.failed;
            totals.generatedTokens += e.timings.generatedTokens;
            send(loop.running() == 0 && loop.waiting() == 0);
        };

        int port = 0;
        try {
            port = http.start();
        } catch (const Error&) {
            emit failed(r.port == 0 ? tr("Cannot listen on %1: the address is not this machine's.").arg(r.host)
                                    : tr("Cannot listen on %1:%2: the port is in use or the address is not this machine's. "
                                         "Choose another port (0 picks a free one).")
                                          .arg(r.host)
                                          .arg(r.port));
            emit stopped();
            return;
        }
        ServeStarted info;
        info.host = r.host;
        info.port = port;
        info.modelId = q(opt.modelId);
        info.contextLength = loop.contextLength();
        info.maxBatch = cfg.scheduler.maxBatch;
        info.staticBatching = r.staticBatching;
        info.prefixCache = r.prefixCache;
        emit started(info);
        emit counters(totals);

        serving_.store(true);
        if (!stopRequested_.load()) {
            // Between steps only: a Stop must not throw out of a step with requests half done.
            ScopedCancelFlag noCancelInsideSteps(backend, nullptr);
            loop.run(*engine_.cancelFlag());
        }
        serving_.store(false);
        stopRequested_.store(false);
        loop.onStep = nullptr;
        loop.onFinished = nullptr;
        http.stop();
        send(true);
    } catch (const std::exception& e) {
        serving_.store(false);
        emit failed(QString::fromUtf8(e.what()));
    }
#else
    (void)r;
    emit failed(tr("This build of Decoding Lab has no HTTP server (it was built without cpp-httplib)."));
#endif
    emit stopped();
}

}  // namespace dlab::ui
