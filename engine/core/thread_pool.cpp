#include "core/thread_pool.h"

#include <algorithm>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define DLAB_PAUSE() _mm_pause()
#else
#define DLAB_PAUSE() std::this_thread::yield()
#endif

namespace dlab {

namespace {
// A worker spins this many rounds before it sleeps on the condition variable. Each round is a
// pause, and every kYieldEvery-th round a yield, so when more threads than cores are busy (tests
// running side by side, other programs) a spinning thread hands its core to the one it waits for.
constexpr int kSpinIterations = 20000;
constexpr int kYieldEvery = 64;

inline void backoff(int round) {
    if (round % kYieldEvery == kYieldEvery - 1) std::this_thread::yield();
    else DLAB_PAUSE();
}
}

ThreadPool::ThreadPool(int threads) : nThreads_(std::max(1, threads)) { startWorkers(); }

ThreadPool::~ThreadPool() { stopWorkers(); }

void ThreadPool::startWorkers() {
    // A new worker starts with seen = 0, so the generation starts again from 0 too.
    generation_.store(0);
    stop_.store(false);
    workers_.reserve(nThreads_ - 1);
    for (int i = 1; i < nThreads_; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

void ThreadPool::stopWorkers() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_.store(true);
        generation_.fetch_add(1);
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
}

void ThreadPool::resize(int threads) {
    threads = std::max(1, threads);
    if (threads == nThreads_) return;
    stopWorkers();
    nThreads_ = threads;
    startWorkers();
}

std::pair<int64_t, int64_t> ThreadPool::splitRange(int64_t n, int ith, int nth, int64_t align) {
    const int64_t units = (n + align - 1) / align;
    const int64_t per = units / nth, extra = units % nth;
    const int64_t b = ith * per + std::min<int64_t>(ith, extra);
    const int64_t e = b + per + (ith < extra ? 1 : 0);
    return {std::min(n, b * align), std::min(n, e * align)};
}

void ThreadPool::run(const std::function<void(int, int)>& fn) {
    if (nThreads_ == 1) {
        fn(0, 1);
        return;
    }
    job_ = &fn;
    pending_.store(nThreads_ - 1, std::memory_order_relaxed);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    fn(0, nThreads_);
    for (int round = 0; pending_.load(std::memory_order_acquire) != 0; ++round) backoff(round);
    job_ = nullptr;
}

void ThreadPool::workerLoop(int index) {
    uint64_t seen = 0;
    for (;;) {
        uint64_t gen = generation_.load(std::memory_order_acquire);
        for (int spin = 0; gen == seen && spin < kSpinIterations; ++spin) {
            backoff(spin);
            gen = generation_.load(std::memory_order_acquire);
        }
        if (gen == seen) {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
            gen = generation_.load(std::memory_order_acquire);
        }
        seen = gen;
        if (stop_.load()) return;
        (*job_)(index, nThreads_);
        pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
}

}  // namespace dlab
