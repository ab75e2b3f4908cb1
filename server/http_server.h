#pragma once
// The OpenAI-compatible HTTP face of a ServingLoop (cpp-httplib from Debian): POST
// /v1/completions and /v1/chat/completions (with "stream": true as server-sent events),
// GET /v1/models and /health. Every request runs on the loop's scheduler beside the others
// (continuous batching); a streaming client that goes away cancels its request, which frees its
// batch slot and KV blocks at the next step. Errors are OpenAI's error object with the status.
//
// Listens on loopback unless told otherwise: binding another address is the caller's explicit
// choice (the CLI's --host, the Serve page's checkbox).
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "serve/serving_loop.h"

namespace httplib {
class Server;
}

namespace dlab {
class ConstraintCache;
}

namespace dlab::server {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;            // 0: any free port (see port())
    std::string modelId;        // the name clients pass as "model"
    int connections = 256;      // served at once (each streaming client holds one)
};

// One line of the server's log, for the CLI and the Serve page.
struct RequestLog {
    std::string method, path;
    int status = 0;
    bool stream = false;
    int promptTokens = 0, completionTokens = 0;
    double ms = 0.0;            // until the response was complete
    std::string finish;         // "stop", "length", "cancelled" (the client went away), "error", or empty
    std::string error;          // the error message sent, if any
};

class OpenAiServer {
public:
    OpenAiServer(ServingLoop& loop, ServerOptions options);
    ~OpenAiServer();
    OpenAiServer(const OpenAiServer&) = delete;
    OpenAiServer& operator=(const OpenAiServer&) = delete;

    // Binds and starts answering on a thread of its own; returns the port. Throws dlab::Error
    // naming the address when it cannot listen there (in use, not this machine's).
    int start();
    void stop();                 // stops answering; open streams end
    int port() const { return port_; }
    bool running() const { return running_; }
    const ServerOptions& options() const { return options_; }

    // Called on the server's threads after every request (keep it short and thread-safe).
    std::function<void(const RequestLog&)> onRequest;

private:
    void routes();
    void log(const RequestLog& entry);

    ServingLoop& loop_;
    ServerOptions options_;
    std::unique_ptr<httplib::Server> http_;
    std::thread listener_;
    std::atomic<bool> running_{false};
    int port_ = 0;
    std::mutex logMutex_;
    std::unique_ptr<ConstraintCache> constraints_;  // response_format schemas compiled once for all requests
};

}  // namespace dlab::server
