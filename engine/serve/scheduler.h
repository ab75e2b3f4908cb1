#pragma once
// An iteration-level scheduler (Orca's, vLLM's): requests wait in a queue, and every step() builds
// one batch for one Backend::forwardBatch from the requests that hold a slot: a decode token for
// each that is generating and prefill chunks for those still reading their prompt, within a token
// budget. Two policies, on the same engine:
//   continuous: a request joins the batch at the first step with a free slot and enough KV blocks,
//               and leaves it the step it finishes; its slot is refilled at the next step.
//   static:     a batch is admitted only when maxBatch requests wait (or flush() says no more are
//               coming) and runs until its longest request finishes; a finished request keeps its
//               slot and is stepped with padding (its last token again, output discarded), as a
//               padded static batch computes, while new requests wait.
// Admission is first come, first served and reserves each request's worst case of KV blocks
// (prompt + maxTokens), so a running request never runs out of blocks; nothing waits behind a
// request that could never fit (it is rejected at submit()).
//
// Not thread-safe: one thread submits, cancels and steps (ServingLoop puts a thread-safe front on it).
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "model/backend.h"
#include "sampling/sampler_chain.h"
#include "serve/prefix_cache.h"
#include "serve/serve_request.h"

namespace dlab {

enum class BatchingMode { Continuous, Static };
const char* batchingModeName(BatchingMode m);

struct SchedulerOptions {
    BatchingMode mode = BatchingMode::Continuous;
    int maxBatch = 8;           // [1, 256] requests holding a slot at once
    int tokenBudget = 512;      // [maxBatch, 8192] tokens evaluated per step (decode tokens + prefill chunks)
    int prefillChunk = 256;     // [1, tokenBudget] prompt tokens of one request per step (chunked prefill)
    bool prefixCache = true;    // automatic prefix caching across requests
    double staticMaxWaitMs = 1000.0;  // static: admit a partial batch once its oldest request waited this long
    void validate() const;      // throws dlab::Error naming the option and its range
};

// One step as it happened: who was in the batch with how many tokens, for the Gantt view.
struct StepRecord {
    enum class Work { Prefill, Decode, Padding };
    struct Item {
        RequestId request = 0;
        Work work = Work::Decode;
        int tokens = 0;
    };
    int64_t index = 0;
    double startMs = 0.0, ms = 0.0;   // on the scheduler's clock; ms includes sampling
    std::vector<Item> items;
    int waiting = 0;                  // requests still queued after admission
    int64_t kvBlocksUsed = 0;         // of the pool, after the step
    int tokens() const;
};

// Throws dlab::Error with one sentence if the request could never run on this pool (what
// Scheduler::submit rejects); a server calls it first to answer 400 before streaming anything.
void checkServeRequest(const ServeRequest& request, const Model& model, const KvBlockPool& pool);

class Scheduler {
public:
    using EventSink = std::function<void(const ServeEvent&)>;
    // The pool must be empty or hold only sequences nobody else writes; it and the backend outlive
    // the scheduler. Throws dlab::Error for invalid options.
    Scheduler(const Model& model, Backend& backend, KvBlockPool& pool, SchedulerOptions options, EventSink onEvent);
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // Queues a request. A request that can never run (empty prompt, bad settings, longer than the
    // context or the whole pool) finishes at once with FinishReason::Error and its sentence.
    RequestId submit(ServeRequest request);
    RequestId nextId() const { return nextId_; }   // what the next submit() returns
    // Ends a waiting or running request now: its slot and KV blocks are free before this returns,
    // and a Finished event with FinishReason::Cancelled follows. Unknown or finished ids are ignored.
    void cancel(RequestId id);
    // Static batching: admit a partial batch (no more requests are coming for now).
    // Lasts until the next submit().
    void flush() { flush_ = true; }

    // One iteration: admit, run one forward pass over the batch, sample, emit events. Returns the
    // record, or nothing when there was no work (nothing running and nothing admissible).
    std::optional<StepRecord> step();
    bool idle() const { return running_.empty() && waiting_.empty(); }
    int running() const { return static_cast<int>(running_.size()); }
    int waiting() const { return static_cast<int>(waiting_.size()); }

    double nowMs() const;   // the scheduler's clock: ms since construction
    const SchedulerOptions& options() const { return options_; }
    const PrefixCache* prefixCache() const { return cache_.get(); }
    KvBlockPool& pool() { return pool_; }

private:
    struct Active;
    bool admit(std::unique_ptr<Active>& r);          // false: not enough blocks now
    void admitWaiting();
    int64_t blocksAvailable() const;                 // free + evictable - still reserved by running ones
    void sampleNext(Active& r, std::span<const float> logits);
    void finish(Active& r, FinishReason reason, std::string error = {});
    void release(Active& r);                         // frees its KV sequence
    void reject(RequestId id, ServeRequest&& req, double arrival, const std::string& why);

    const Model& model_;
    Backend& backend_;
    KvBlockPool& pool_;
    SchedulerOptions options_;
    EventSink onEvent_;
    std::unique_ptr<PrefixCache> cache_;
    std::chrono::steady_clock::time_point start_;
    std::deque<std::unique_ptr<Active>> waiting_;
    std::vector<std::unique_ptr<Active>> running_;   // admission order
    RequestId nextId_ = 1;
    int64_t steps_ = 0;
    bool flush_ = false;
    bool inStep_ = false;                            // cancel() during step() waits for its end
    bool staticBatchOpen_ = false;                   // static: a batch is running
};

}  // namespace dlab
