#pragma once
// A fixed pool of worker threads for data-parallel loops (matmuls, attention heads).
//
// Decode issues a few hundred parallel loops per token, each only tens of microseconds long,
// so waking sleeping threads through a condition variable would cost as much as the work.
// Like ggml, workers spin on an atomic generation counter for a short while before sleeping.
// The calling thread always takes part, so a pool of N threads starts N-1 workers.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dlab {

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return nThreads_; }

    // Stops the workers and starts `threads` - 1 new ones (the GUI changes the thread count
    // without reloading the model or losing its sessions). Not while run() is in progress.
    void resize(int threads);

    // Runs fn(thread_index, n_threads) once on every thread of the pool and returns when all
    // have finished. fn splits the work itself (see splitRange). Not reentrant.
    void run(const std::function<void(int, int)>& fn);

    // Splits [0, n) into n_threads contiguous chunks, aligned to `align`; returns [begin, end).
    static std::pair<int64_t, int64_t> splitRange(int64_t n, int ith, int nth, int64_t align = 1);

private:
    void workerLoop(int index);
    void startWorkers();
    void stopWorkers();

    int nThreads_;
    std::vector<std::thread> workers_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::atomic<uint64_t> generation_{0};
    std::atomic<int> pending_{0};
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
};

}  // namespace dlab
