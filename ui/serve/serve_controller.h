#pragma once
// The Serve page's engine side, on the engine thread (a child of the EngineContext). start()
// builds a ServingLoop on the loaded model and the OpenAI-compatible HTTP server in front of it
// (server/http_server.h), then runs the loop on the engine thread until the engine's cancel flag
// is raised: while it serves, the server holds the engine and every other page's work waits in
// the engine thread's queue. The backend's own cancel flag is switched off meanwhile, so a Stop
// ends the loop between steps (never inside one) and every open request finishes as cancelled.
//
// requestStop() may come from any thread (the GUI's): a start still queued behind another page's
// work is dropped, a running server stops within a step plus the loop's 50 ms idle wait.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <atomic>

#include "ui/engine/engine_context.h"
#include "ui/serve/serve_types.h"

namespace dlab::ui {

class ServeController : public QObject {
    Q_OBJECT
public:
    explicit ServeController(EngineContext* engine);

    static constexpr int kCountersEveryMs = 200;   // the live counters, at most this often

    // Any thread.
    void prepareStart() { stopRequested_.store(false); }
    void requestStop();
    bool serving() const { return serving_.load(); }

public slots:
    void start(const dlab::ui::ServeStartRequest& request);

signals:
    void started(const dlab::ui::ServeStarted& info);
    void counters(const dlab::ui::ServeCounters& counters);
    void requestLogged(const dlab::ui::ServeLogEntry& entry);   // emitted on the server's threads
    void failed(const QString& message);        // could not start (one sentence); stopped() follows
    void stopped();

private:
    EngineContext& engine_;
    std::atomic<bool> stopRequested_{false};
    std::atomic<bool> serving_{false};
};

}  // namespace dlab::ui
