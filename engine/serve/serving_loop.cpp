#include "serve/serving_loop.h"

#include <algorithm>

#include "core/error.h"

namespace dlab {

std::optional<ServeEvent> RequestStream::next(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    if (!ready_.wait_for(lock, timeout, [this] { return !events_.empty(); })) return std::nullopt;
    ServeEvent e = std::move(events_.front());
    events_.pop_front();
    return e;
}

void RequestStream::push(ServeEvent e) {
    {
        std::lock_guard lock(mutex_);
        events_.push_back(std::move(e));
    }
    ready_.notify_all();
}

ServingLoop::ServingLoop(const Model& model, Backend& backend, const ServingConfig& config) : model_(model), config_(config) {
    config_.scheduler.validate();
    int64_t ctx = config_.contextLength > 0 ? config_.contextLength : std::min<int64_t>(model.hparams().nCtxTrain, 8192);
    if (ctx < 2) throw Error("the server's context must hold at least 2 tokens (got " + std::to_string(ctx) + ")");
    const int64_t blocks = config_.kvBlocks > 0
                               ? config_.kvBlocks
                               : KvBlockPool::blocksFor(ctx, config_.kvBlockSize) * config_.scheduler.maxBatch;
    pool_ = std::make_unique<KvBlockPool>(model.hparams(), blocks, config_.kvType, config_.kvBlockSize);
    pool_->setContextLimit(std::min(ctx, blocks * config_.kvBlockSize));
    scheduler_ = std::make_unique<Scheduler>(model, backend, *pool_, config_.scheduler, [this](const ServeEvent& e) { deliver(e); });
}

ServingLoop::~ServingLoop() {
    scheduler_.reset();  // before the pool it uses
}

std::shared_ptr<RequestStream> ServingLoop::submit(ServeRequest request) {
    auto stream = std::make_shared<RequestStream>();
    {
        std::lock_guard lock(mutex_);
        pending_.emplace_back(stream, std::move(request));
    }
    wake_.notify_all();
    return stream;
}

void ServingLoop::wake() { wake_.notify_all(); }

void ServingLoop::deliver(const ServeEvent& e) {
    std::shared_ptr<RequestStream> s;
    if (auto it = live_.find(e.request); it != live_.end()) {
        s = it->second;
        if (e.kind == ServeEvent::Kind::Finished) live_.erase(it);
    } else if (submitting_) {
        s = submitting_;  // rejected inside Scheduler::submit
        submitRejected_ = true;
    }
    if (e.kind == ServeEvent::Kind::Finished && onFinished) onFinished(e);
    if (s) s->push(e);
}

void ServingLoop::run(const std::atomic<bool>& stop) {
    while (!stop.load()) {
        std::deque<std::pair<std::shared_ptr<RequestStream>, ServeRequest>> incoming;
        {
            std::lock_guard lock(mutex_);
            incoming.swap(pending_);
        }
        for (auto& [stream, request] : incoming) {
            submitting_ = stream;
            submitRejected_ = false;
            const RequestId id = scheduler_->submit(std::move(request));
            submitting_.reset();
            stream->id_ = id;
            if (!submitRejected_) live_.emplace(id, stream);
        }
        std::vector<RequestId> cancelled;
        for (const auto& [id, stream] : live_)
            if (stream->cancelled()) cancelled.push_back(id);
        for (RequestId id : cancelled) scheduler_->cancel(id);

        const std::optional<StepRecord> rec = scheduler_->step();
        running_ = scheduler_->running();
        waiting_ = scheduler_->waiting();
        if (rec) {
            if (onStep) onStep(*rec, scheduler_->running(), scheduler_->waiting());
            continue;
        }
        std::unique_lock lock(mutex_);
        // Idle, or a static batch still forming: wait for a request (or the static wait to pass).
        wake_.wait_for(lock, std::chrono::milliseconds(scheduler_->idle() ? 50 : 2),
                       [&] { return !pending_.empty() || stop.load(); });
    }
    std::vector<RequestId> open;
    for (const auto& [id, stream] : live_) open.push_back(id);
    for (RequestId id : open) scheduler_->cancel(id);
    running_ = scheduler_->running();
    waiting_ = scheduler_->waiting();
    std::deque<std::pair<std::shared_ptr<RequestStream>, ServeRequest>> incoming;
    {
        std::lock_guard lock(mutex_);
        incoming.swap(pending_);
    }
    for (auto& [stream, request] : incoming) {
        ServeEvent e;
        e.kind = ServeEvent::Kind::Finished;
        e.reason = FinishReason::Cancelled;
        stream->push(e);
    }
}

}  // namespace dlab
