#include "serve/trace_run.h"

#include <algorithm>
#include <map>
#include <thread>

#include "core/error.h"

namespace dlab {

TraceRunResult runTrace(const Model& model, Backend& backend, const std::vector<TracedRequest>& trace,
                        const TraceRunOptions& options, const std::atomic<bool>* cancel,
                        const std::function<void(const StepRecord&, const TraceRunResult&)>& onStep) {
    options.scheduler.validate();
    if (options.concurrency < 0) throw Error("the concurrency must be at least 0 (0 = use the arrival times)");
    int64_t longest = 1;
    for (const TracedRequest& r : trace) longest = std::max<int64_t>(longest, static_cast<int64_t>(r.prompt.size()) + r.outputTokens);
    const int64_t ctx = std::min<int64_t>(model.hparams().nCtxTrain, std::max<int64_t>(longest, 2));
    // Room for every slot's worst case, and as much again for the prefix cache to keep.
    const int64_t blocks = 2 * KvBlockPool::blocksFor(ctx, options.kvBlockSize) * options.scheduler.maxBatch;
    KvBlockPool pool(model.hparams(), blocks, options.kvType, options.kvBlockSize);
    pool.setContextLimit(ctx);

    TraceRunResult result;
    result.mode = options.scheduler.mode;
    result.maxBatch = options.scheduler.maxBatch;
    std::map<RequestId, int> indexOf;
    std::vector<RequestOutcome> done;
    int open = 0;
    Scheduler scheduler(model, backend, pool, options.scheduler, [&](const ServeEvent& e) {
        if (e.kind != ServeEvent::Kind::Finished) return;
        RequestOutcome o;
        o.id = e.request;
        o.index = indexOf.count(e.request) ? indexOf[e.request] : -1;
        o.reason = e.reason;
        o.error = e.error;
        o.timings = e.timings;
        done.push_back(std::move(o));
        --open;
    });
    size_t next = 0;
    const auto submitNext = [&] {
        const TracedRequest& t = trace[next];
        ServeRequest req;
        req.prompt = t.prompt;
        req.maxTokens = t.outputTokens;
        req.stopAtEndOfGeneration = false;  // every request runs to its drawn length
        req.sampler.temperature = options.temperature;
        req.sampler.seed = next + 1;
        ++open;
        const RequestId id = scheduler.nextId();
        indexOf[id] = static_cast<int>(next);
        scheduler.submit(std::move(req));
        ++next;
    };
    while (next < trace.size() || !scheduler.idle()) {
        if (cancel && cancel->load()) {
            result.stopped = true;
            break;
        }
        const double now = scheduler.nowMs();
        if (options.concurrency > 0) {
            while (next < trace.size() && open < options.concurrency) submitNext();
        } else {
            while (next < trace.size() && trace[next].arrivalMs <= now) submitNext();
        }
        if (next == trace.size()) scheduler.flush();
        std::optional<StepRecord> rec = scheduler.step();
        if (rec) {
            result.steps.push_back(std::move(*rec));
            if (onStep) {
                result.requests = done;
                onStep(result.steps.back(), result);
            }
            continue;
        }
        // Nothing to run: sleep until the next arrival (or briefly while a static batch forms).
        double waitMs = 1.0;
        if (options.concurrency == 0 && next < trace.size() && scheduler.idle()) waitMs = std::max(0.0, trace[next].arrivalMs - now);
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(std::min(waitMs, 50.0) * 1000)));
    }
    result.wallMs = scheduler.nowMs();
    std::sort(done.begin(), done.end(), [](const RequestOutcome& a, const RequestOutcome& b) { return a.index < b.index; });
    result.requests = std::move(done);
    return result;
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
    const size_t lo = static_cast<size_t>(pos);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

ServeSummary summarize(const TraceRunResult& run) {
    ServeSummary s;
    s.requests = static_cast<int>(run.requests.size());
    s.wallMs = run.wallMs;
    std::vector<double> ttft, itl, e2e, queue;
    int64_t prompt = 0, cached = 0;
    for (const RequestOutcome& o : run.requests) {
        const RequestTimings& t = o.timings;
        if (o.reason == FinishReason::Stop || o.reason == FinishReason::Length) ++s.completed;
        s.generatedTokens += t.generatedTokens;
        prompt += t.promptTokens;
        cached += t.cachedPromptTokens;
        if (t.firstTokenMs >= 0) ttft.push_back(t.ttftMs());
        if (t.finishedMs >= 0 && t.firstTokenMs >= 0) e2e.push_back(t.e2eMs());
        if (t.admittedMs >= 0) queue.push_back(t.admittedMs - t.arrivalMs);
        for (size_t i = 1; i < t.tokenMs.size(); ++i) itl.push_back(t.tokenMs[i] - t.tokenMs[i - 1]);
    }
    double decodeTokens = 0, decodeMs = 0, occupied = 0;
    for (const StepRecord& st : run.steps) {
        bool prefill = false;
        for (const StepRecord::Item& it : st.items) {
            if (it.work == StepRecord::Work::Padding) s.paddingTokens += it.tokens;
            if (it.work == StepRecord::Work::Prefill) {
                s.prefillTokens += it.tokens;
                prefill = true;
            }
        }
        for (const StepRecord::Item& it : st.items) occupied += it.work != StepRecord::Work::Padding ? 1.0 : 0.0;
        if (!prefill) {
            for (const StepRecord::Item& it : st.items)
                if (it.work == StepRecord::Work::Decode) decodeTokens += it.tokens;
            decodeMs += st.ms;
        }
    }
    if (!run.steps.empty() && run.maxBatch > 0) s.occupancy = occupied / static_cast<double>(run.steps.size()) / run.maxBatch;
    s.throughput = run.wallMs > 0 ? 1000.0 * static_cast<double>(s.generatedTokens) / run.wallMs : 0.0;
    s.decodeThroughput = decodeMs > 0 ? 1000.0 * decodeTokens / decodeMs : 0.0;
    s.ttftP50 = percentile(ttft, 0.5);
    s.ttftP99 = percentile(ttft, 0.99);
    s.itlP50 = percentile(itl, 0.5);
    s.itlP99 = percentile(itl, 0.99);
    s.e2eP50 = percentile(e2e, 0.5);
    s.e2eP99 = percentile(e2e, 0.99);
    s.queueP50 = percentile(queue, 0.5);
    s.prefixHitRate = prompt > 0 ? static_cast<double>(cached) / static_cast<double>(prompt) : 0.0;
    return s;
}

}  // namespace dlab
