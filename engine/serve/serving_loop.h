#pragma once
// A thread-safe front on the Scheduler for a server: any thread submits a request and reads its
// events from a RequestStream; one thread (the engine's) runs the loop that admits, steps and
// delivers. Cancelling a stream (a client that went away) ends its request at the next step and
// frees its KV blocks. The loop owns the KV pool and the scheduler.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "serve/scheduler.h"

namespace dlab {

class RequestStream {
public:
    // The next event, waiting at most `timeout`; nothing on timeout. After the Finished event there
    // are no more.
    std::optional<ServeEvent> next(std::chrono::milliseconds timeout);
    // Ends the request (thread-safe, idempotent); a Finished event with Cancelled follows unless it
    // had already finished.
    void cancel() { cancelled_ = true; }
    bool cancelled() const { return cancelled_; }

private:
    friend class ServingLoop;
    void push(ServeEvent e);
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<ServeEvent> events_;
    std::atomic<bool> cancelled_{false};
    RequestId id_ = 0;
};

struct ServingConfig {
    SchedulerOptions scheduler;
    KvType kvType = KvType::F16;
    int64_t kvBlockSize = 16;
    int64_t contextLength = 0;   // per request; 0 = the model's trained context (capped at 8192)
    int64_t kvBlocks = 0;        // pool size; 0 = enough for maxBatch requests of contextLength
};

class ServingLoop {
public:
    // Throws dlab::Error for invalid options.
    ServingLoop(const Model& model, Backend& backend, const ServingConfig& config);
    ~ServingLoop();

    std::shared_ptr<RequestStream> submit(ServeRequest request);   // any thread
    // checkServeRequest against this loop's pool (any thread: the pool's size never changes).
    void check(const ServeRequest& request) const { checkServeRequest(request, model_, *pool_); }
    const Model& model() const { return model_; }
    // Runs until `stop` is raised (then every open request finishes as Cancelled). One thread only.
    void run(const std::atomic<bool>& stop);
    // Wakes run() so it sees `stop` at once.
    void wake();

    // Called on the loop's thread after every step and for every finished request (for live views).
    std::function<void(const StepRecord&, int running, int waiting)> onStep;
    std::function<void(const ServeEvent&)> onFinished;

    int64_t contextLength() const { return pool_->contextLimit(); }
    // After the last step (any thread): requests holding a batch slot, and queued ones.
    int running() const { return running_; }
    int waiting() const { return waiting_; }
    const ServingConfig& config() const { return config_; }

private:
    void deliver(const ServeEvent& e);

    const Model& model_;
    ServingConfig config_;
    std::unique_ptr<KvBlockPool> pool_;
    std::unique_ptr<Scheduler> scheduler_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::pair<std::shared_ptr<RequestStream>, ServeRequest>> pending_;
    std::map<RequestId, std::shared_ptr<RequestStream>> live_;   // loop thread only
    std::shared_ptr<RequestStream> submitting_;                  // during Scheduler::submit
    bool submitRejected_ = false;
    std::atomic<int> running_{0}, waiting_{0};
};

}  // namespace dlab
