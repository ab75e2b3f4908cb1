#pragma once
// Value structs between the Serve page and its controller on the engine thread (queued signals).
// Counters and log lines come from the serving loop's own callbacks (ServingLoop::onStep /
// onFinished) and the HTTP server's request log (OpenAiServer::onRequest).
#include <QList>
#include <QMetaType>
#include <QString>
#include <QTime>

namespace dlab::ui {

struct ServeStartRequest {
    QString host = QStringLiteral("127.0.0.1");   // 0.0.0.0 only when the page's checkbox says so
    int port = 8080;                 // 0: any free port
    int maxBatch = 8;
    int contextLength = 2048;        // per request; capped at the model's trained context
    bool staticBatching = false;
    bool prefixCache = true;
};

struct ServeStarted {
    QString host;
    int port = 0;                    // the port bound (the one asked for, or the one picked for 0)
    QString modelId;                 // what clients pass as "model"
    qint64 contextLength = 0;
    int maxBatch = 0;
    bool staticBatching = false;
    bool prefixCache = true;
};

// One step's decode tokens, stamped when the step ended (steadyMs(): std::chrono::steady_clock in ms,
// the same clock on every thread): the page's "tokens/s over the last seconds" sums these.
qint64 steadyMs();

struct ServeTick {
    qint64 atMs = 0;
    int tokens = 0;
};

struct ServeCounters {
    int served = 0;                  // requests finished with "stop" or "length"
    int failed = 0;                  // finished cancelled (the client went away) or with an error
    qint64 generatedTokens = 0;      // by the served and failed requests
    int running = 0, waiting = 0;    // after the last step
    QList<ServeTick> ticks;          // the steps since the previous counters
};

// One line of the server's log (server::RequestLog) with the time it was answered.
struct ServeLogEntry {
    QTime time;
    QString method, path;
    int status = 0;
    bool stream = false;
    int promptTokens = 0, completionTokens = 0;
    double ms = 0.0;
    QString finish;                  // "stop", "length", "cancelled", "error" or empty
    QString error;
};

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::ServeStartRequest)
Q_DECLARE_METATYPE(dlab::ui::ServeStarted)
Q_DECLARE_METATYPE(dlab::ui::ServeCounters)
Q_DECLARE_METATYPE(dlab::ui::ServeLogEntry)
