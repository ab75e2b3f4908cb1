// The CUDA emulator itself (tests/cuda_emulator/emulator.h): the checks that the CUDA backend's
// emulated suites rely on must hold, or a green emulated run would prove nothing. Each case runs
// a small kernel (tests/cuda_emulator/test_kernels.cu) and compares with what CUDA specifies:
// thread coordinates, block reductions and shuffles; work that runs only at synchronisation;
// graphs that replay captured arguments and read pinned memory at replay; the calls a capture
// refuses; and the faults (out of bounds, a shuffle with an exited lane, divergent barriers,
// deadlocks, pageable pointers, host code touching device memory) with their sticky errors.
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "cuda/cublas_loader.h"
#include "emulator.h"
#include "test_kernels.h"

using namespace dlab;
using namespace dlab::emu::testing;

namespace {

// A device buffer of n T's for a test (freed at the end of the scope).
template <class T>
struct Dev {
    T* p = nullptr;
    size_t n = 0;
    explicit Dev(size_t count) : n(count) {
        if (cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)) != cudaSuccess) qFatal("cudaMalloc failed");
    }
    ~Dev() { cudaFree(p); }
    void upload(const std::vector<T>& v) { QCOMPARE(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess); }
    std::vector<T> download() const {
        std::vector<T> v(n);
        const cudaError_t e = cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) qWarning("download: %s", cudaGetErrorString(e));
        return v;
    }
};

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

class TestCudaEmulator : public QObject {
    Q_OBJECT

    cudaStream_t stream_ = nullptr;

private slots:
    void initTestCase() { QCOMPARE(cudaStreamCreate(&stream_), cudaSuccess); }
    void cleanupTestCase() { cudaStreamDestroy(stream_); }
    void init() {
        emu::clearFault();
        emu::config().order = emu::ThreadOrder::Forward;
    }

    void threadCoordinates_data() {
        QTest::addColumn<QList<int>>("shape");   // grid x, y, z, block x, y, z
        QTest::newRow("one thread") << QList<int>{1, 1, 1, 1, 1, 1};
        QTest::newRow("1-D") << QList<int>{5, 1, 1, 128, 1, 1};
        QTest::newRow("3-D grid and block") << QList<int>{3, 2, 2, 4, 3, 2};
        QTest::newRow("2-D, a warp and a half") << QList<int>{2, 3, 1, 16, 3, 1};
    }
    void threadCoordinates() {
        QFETCH(QList<int>, shape);
        const dim3 grid(shape[0], shape[1], shape[2]), block(shape[3], shape[4], shape[5]);
        const size_t n = size_t(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
        Dev<int> out(n);
        launchIndex(out.p, grid, block, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaSuccess);
        const std::vector<int> got = out.download();
        size_t i = 0;
        for (unsigned bz = 0; bz < grid.z; ++bz)
            for (unsigned by = 0; by < grid.y; ++by)
                for (unsigned bx = 0; bx < grid.x; ++bx)
                    for (unsigned tz = 0; tz < block.z; ++tz)
                        for (unsigned ty = 0; ty < block.y; ++ty)
                            for (unsigned tx = 0; tx < block.x; ++tx, ++i)
                                QCOMPARE(got[i], int(bx | by << 5 | bz << 10 | tx << 15 | ty << 20 | tz << 25));
    }

    void blockSums_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("n");
        for (int threads : {32, 64, 256, 1024})
            for (int n : {1, 100, 5000}) QTest::newRow(qPrintable(QString("%1 threads, %2 values").arg(threads).arg(n))) << threads << n;
    }
    // The backend's blockSum (cuda/ops/common.cuh): warp shuffles, shared memory, two barriers.
    void blockSums() {
        QFETCH(int, threads);
        QFETCH(int, n);
        const int blocks = 3;
        std::mt19937 gen(7);
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        std::vector<float> x(size_t(blocks) * n);
        for (float& v : x) v = d(gen);
        Dev<float> dx(x.size()), dout(blocks);
        dx.upload(x);
        launchBlockSums(dx.p, dout.p, n, blocks, threads, stream_);
        const std::vector<float> got = dout.download();
        for (int b = 0; b < blocks; ++b) {
            double ref = 0;
            for (int i = 0; i < n; ++i) ref += x[size_t(b) * n + i];
            QVERIFY2(std::fabs(got[b] - ref) < 1e-4 * (1 + std::fabs(ref)), qPrintable(QString("block %1: %2 vs %3").arg(b).arg(got[b]).arg(ref)));
        }
    }

    void shuffles() {
        const int threads = 64;
        Dev<int> out(3 * threads);
        launchShuffles(out.p, threads, stream_);
        const std::vector<int> got = out.download();
        for (int t = 0; t < threads; ++t) {
            const int lane = t & 31, warp0 = t - lane;
            QCOMPARE(got[3 * t], t ^ 1);
            QCOMPARE(got[3 * t + 1], lane + 3 < 32 ? t + 3 : t);   // past the warp's edge a lane keeps its value
            QCOMPARE(got[3 * t + 2], warp0 + 7);
        }
    }

    void votes() {
        const int threads = 64;
        Dev<unsigned> out(3 * threads);
        launchVotes(out.p, threads, stream_);
        const std::vector<unsigned> got = out.download();
        for (int t = 0; t < threads; ++t) {
            const int warp0 = t & ~31;
            unsigned bits = 0;
            for (int l = 0; l < 32; ++l) bits |= (warp0 + l) % 3 == 0 ? 1u << l : 0u;
            QCOMPARE(got[3 * t], bits);
            QCOMPARE(got[3 * t + 1], warp0 == 32 ? 1u : 0u);   // thread 37 is in the second warp
            QCOMPARE(got[3 * t + 2], warp0 == 0 ? 1u : 0u);    // lane 31 of the second warp says no
        }
    }

    // Work runs at a synchronisation point, as on a GPU: an asynchronous copy into pinned memory
    // has not happened when the call returns.
    void workWaitsForSynchronisation() {
        const int n = 300;
        std::vector<float> x(n);
        for (int i = 0; i < n; ++i) x[i] = float(i);
        Dev<float> in(n), out(n);
        in.upload(x);
        float* pinned = nullptr;
        QCOMPARE(cudaMallocHost(reinterpret_cast<void**>(&pinned), n * sizeof(float)), cudaSuccess);
        QVERIFY(std::isnan(pinned[0]));   // fresh memory holds 0xff bytes
        launchAffine(in.p, out.p, 2.0f, 1.0f, n, stream_);
        QCOMPARE(cudaMemcpyAsync(pinned, out.p, n * sizeof(float), cudaMemcpyDeviceToHost, stream_), cudaSuccess);
        QVERIFY2(std::isnan(pinned[10]), "the copy ran before the stream was synchronised");
        QCOMPARE(cudaStreamSynchronize(stream_), cudaSuccess);
        for (int i = 0; i < n; ++i) QCOMPARE(pinned[i], 2.0f * i + 1.0f);
        // Into pageable memory the copy completes before the call returns (the driver stages it).
        std::vector<float> pageable(n, -1.0f);
        launchAffine(in.p, out.p, 3.0f, 0.0f, n, stream_);
        QCOMPARE(cudaMemcpyAsync(pageable.data(), out.p, n * sizeof(float), cudaMemcpyDeviceToHost, stream_), cudaSuccess);
        QCOMPARE(pageable[5], 15.0f);
        cudaFreeHost(pinned);
    }

    // A graph replays the kernel arguments it captured; its copies read pinned memory at replay.
    void graphReplaysCapturedArguments() {
        const int n = 100;
        float* pinned = nullptr;
        QCOMPARE(cudaMallocHost(reinterpret_cast<void**>(&pinned), n * sizeof(float)), cudaSuccess);
        Dev<float> in(n), out(n);
        const emu::Stats before = emu::stats();
        QCOMPARE(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), cudaSuccess);
        QCOMPARE(cudaMemcpyAsync(in.p, pinned, n * sizeof(float), cudaMemcpyHostToDevice, stream_), cudaSuccess);
        float scale = 2.0f;
        launchAffine(in.p, out.p, scale, 1.0f, n, stream_);
        scale = 100.0f;   // too late: the launch copied its arguments
        cudaGraph_t graph = nullptr;
        QCOMPARE(cudaStreamEndCapture(stream_, &graph), cudaSuccess);
        cudaGraphExec_t exec = nullptr;
        QCOMPARE(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
        cudaGraphDestroy(graph);
        QCOMPARE(emu::stats().kernels, before.kernels);   // capturing ran nothing
        for (int replay = 0; replay < 3; ++replay) {
            for (int i = 0; i < n; ++i) pinned[i] = float(i + replay);
            QCOMPARE(cudaGraphLaunch(exec, stream_), cudaSuccess);
            QCOMPARE(cudaStreamSynchronize(stream_), cudaSuccess);
            const std::vector<float> got = out.download();
            for (int i = 0; i < n; ++i) QCOMPARE(got[i], 2.0f * float(i + replay) + 1.0f);
        }
        QCOMPARE(emu::stats().graphLaunches - before.graphLaunches, uint64_t(3));
        QCOMPARE(emu::stats().kernelsInGraphs - before.kernelsInGraphs, uint64_t(3));
        cudaGraphExecDestroy(exec);
        cudaFreeHost(pinned);
    }

    void captureRefusesUnsafeCalls_data() {
        QTest::addColumn<int>("call");
        QTest::newRow("cudaMalloc") << 0;
        QTest::newRow("synchronising the capturing stream") << 1;
        QTest::newRow("a copy from pageable memory") << 2;
        QTest::newRow("cudaFree") << 3;
    }
    void captureRefusesUnsafeCalls() {
        QFETCH(int, call);
        Dev<float> buf(16);
        std::vector<float> host(16, 1.0f);
        QCOMPARE(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), cudaSuccess);
        void* p = nullptr;
        cudaError_t e = cudaSuccess;
        if (call == 0) e = cudaMalloc(&p, 64);
        if (call == 1) e = cudaStreamSynchronize(stream_);
        if (call == 2) e = cudaMemcpyAsync(buf.p, host.data(), 64, cudaMemcpyHostToDevice, stream_);
        if (call == 3) e = cudaFree(buf.p);
        QCOMPARE(e, cudaErrorStreamCaptureUnsupported);
        cudaStreamCaptureStatus status{};
        QCOMPARE(cudaStreamIsCapturing(stream_, &status), cudaSuccess);
        QCOMPARE(status, cudaStreamCaptureStatusInvalidated);
        cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(1);
        QCOMPARE(cudaStreamEndCapture(stream_, &graph), cudaErrorStreamCaptureInvalidated);
        QVERIFY(graph == nullptr);
        cudaGetLastError();
        QCOMPARE(cudaStreamIsCapturing(stream_, &status), cudaSuccess);
        QCOMPARE(status, cudaStreamCaptureStatusNone);
    }

    // An out-of-bounds read faults with the kernel, block, thread and allocation named; the error
    // is sticky (every later call returns it) until the device is reset.
    void outOfBoundsReadFaults() {
        const int n = 200;
        Dev<float> x(n), out(1);
        launchReadPastEnd(x.p, out.p, n, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaErrorIllegalAddress);
        const std::string fault = emu::lastFault();
        QVERIFY2(contains(fault, "readPastEndKernel") && contains(fault, "past its end") && contains(fault, "800-byte device allocation") &&
                     contains(fault, "thread (72,0,0)") && contains(fault, "block (1,0,0)"),
                 fault.c_str());
        void* p = nullptr;
        QCOMPARE(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
        QCOMPARE(cudaGetLastError(), cudaErrorIllegalAddress);
        QVERIFY(contains(cudaGetErrorString(cudaErrorIllegalAddress), "readPastEndKernel"));
        QCOMPARE(cudaDeviceReset(), cudaSuccess);
        QVERIFY(emu::lastFault().empty());
        QCOMPARE(cudaMalloc(&p, 16), cudaSuccess);
        cudaFree(p);
    }

    // A vector load from an address that is not a multiple of its size faults, as on a GPU.
    void misalignedLoadFaults() {
        Dev<float> x(16), out(1);
        launchMisalignedLoad(x.p, out.p, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaErrorMisalignedAddress);
        const std::string fault = emu::lastFault();
        QVERIFY2(contains(fault, "misalignedLoadKernel") && contains(fault, "misaligned address: a 4-byte access") && contains(fault, "thread (0,0,0)"),
                 fault.c_str());
        QCOMPARE(cudaDeviceReset(), cudaSuccess);
    }

    void warpAndBarrierFaults_data() {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<QString>("expected");
        QTest::newRow("shuffle after a lane exited") << 0 << "which has exited";
        QTest::newRow("__syncthreads in both branches") << 1 << "__syncthreads at different places";
        QTest::newRow("shuffle waiting for a lane at __syncthreads") << 2 << "deadlock";
    }
    void warpAndBarrierFaults() {
        QFETCH(int, kernel);
        QFETCH(QString, expected);
        Dev<float> out(32);
        if (kernel == 0) launchShuffleAfterExit(out.p, stream_);
        if (kernel == 1) launchDivergentBarrier(out.p, stream_);
        if (kernel == 2) launchShuffleDeadlock(out.p, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaErrorLaunchFailure);
        QVERIFY2(contains(emu::lastFault(), expected.toStdString().c_str()), emu::lastFault().c_str());
    }

    void invalidConfigurationRunsNothing() {
        Dev<float> out(2048);
        const uint64_t kernels = emu::stats().kernels;
        launchTooManyThreads(out.p, stream_);
        QCOMPARE(cudaGetLastError(), cudaErrorInvalidConfiguration);
        QCOMPARE(cudaGetLastError(), cudaSuccess);   // not sticky
        QCOMPARE(cudaDeviceSynchronize(), cudaSuccess);
        QCOMPARE(emu::stats().kernels, kernels);
    }

    void pageablePointerInAKernelFaults() {
        std::vector<float> host(64, 1.0f);
        Dev<float> out(64);
        launchAffine(host.data(), out.p, 1.0f, 0.0f, 64, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaErrorIllegalAddress);
        QVERIFY2(contains(emu::lastFault(), "pageable host pointer"), emu::lastFault().c_str());
    }

    // Thread 0 writes, the others read with no barrier between: in the forward order the write
    // happens to come first; the reverse order shows the race.
    void reverseOrderExposesAMissingBarrier() {
        Dev<float> out(64);
        launchMissingBarrier(out.p, 1.0f, stream_);
        std::vector<float> got = out.download();
        QVERIFY(std::all_of(got.begin(), got.end(), [](float v) { return v == 1.0f; }));
        emu::config().order = emu::ThreadOrder::Reverse;
        launchMissingBarrier(out.p, 2.0f, stream_);
        got = out.download();
        QCOMPARE(got[0], 2.0f);
        QVERIFY(std::count(got.begin(), got.end(), 2.0f) == 1);   // the others read before thread 0 wrote
    }

    // Block b adds 1 to what block b - 1 wrote, with nothing ordering the blocks. Forward, the
    // chain happens to complete; reversed, every block reads a 0; shuffled, some block runs
    // before its predecessor. The orders other than forward show a race between blocks.
    void blockOrderExposesARaceBetweenBlocks_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<bool>("chainComplete");
        QTest::addColumn<int>("ones");   // how many blocks read a 0 (wrote 1); -1: at least 2
        QTest::newRow("forward") << int(emu::ThreadOrder::Forward) << true << 1;
        QTest::newRow("reverse") << int(emu::ThreadOrder::Reverse) << false << 64;
        QTest::newRow("shuffle") << int(emu::ThreadOrder::Shuffle) << false << -1;
    }
    void blockOrderExposesARaceBetweenBlocks() {
        QFETCH(int, order);
        QFETCH(bool, chainComplete);
        QFETCH(int, ones);
        emu::config().order = emu::ThreadOrder(order);
        emu::config().shuffleSeed = 7;
        Dev<float> out(64);
        out.upload(std::vector<float>(64, 0.0f));
        launchCrossBlockChain(out.p, 64, stream_);
        const std::vector<float> got = out.download();
        bool complete = true;
        for (int b = 0; b < 64; ++b) complete = complete && got[b] == float(b + 1);
        QCOMPARE(complete, chainComplete);
        const auto n1 = std::count(got.begin(), got.end(), 1.0f);
        if (ones >= 0) QCOMPARE(int(n1), ones);
        else QVERIFY2(n1 >= 2, std::to_string(n1).c_str());
    }

    // The order every thread of a 6 x 40 grid ran in: forward is the identity, reverse its
    // mirror (blocks and threads), shuffle a permutation that the seed repeats and another
    // seed changes.
    void runOrderOfBlocksAndThreads() {
        constexpr int kBlocks = 6, kThreads = 40, kAll = kBlocks * kThreads;
        Dev<int> out(kAll), counter(1);
        auto run = [&](emu::ThreadOrder order, uint64_t seed) {
            emu::config().order = order;
            emu::config().shuffleSeed = seed;
            counter.upload({0});
            launchRunOrder(out.p, counter.p, kBlocks, kThreads, stream_);
            return out.download();
        };
        std::vector<int> identity(kAll), mirror(kAll);
        for (int i = 0; i < kAll; ++i) identity[i] = i, mirror[i] = kAll - 1 - i;
        QCOMPARE(run(emu::ThreadOrder::Forward, 1), identity);
        QCOMPARE(run(emu::ThreadOrder::Reverse, 1), mirror);
        // (A seed change restarts the generator: 5, 6, then 5 again replays the first order.)
        const std::vector<int> a = run(emu::ThreadOrder::Shuffle, 5), c = run(emu::ThreadOrder::Shuffle, 6), b = run(emu::ThreadOrder::Shuffle, 5);
        QVERIFY(std::is_permutation(a.begin(), a.end(), identity.begin()));
        QVERIFY(a != identity && a != mirror);
        QCOMPARE(a, b);
        QVERIFY(a != c);
        // The blocks are interleaved with nothing: each block's threads hold consecutive positions.
        for (int blk = 0; blk < kBlocks; ++blk) {
            const auto first = a.begin() + blk * kThreads;
            const auto [lo, hi] = std::minmax_element(first, first + kThreads);
            QCOMPARE(*hi - *lo, kThreads - 1);
        }
    }

    // A dependent launch right after a kernel (or a cuBLAS GEMM, kernels too on a GPU): its first
    // block runs up to the wait before that kernel, so what it reads there is what the kernel
    // had not written yet; after the wait, and in every other block, it reads the kernel's
    // result. An ordinary launch, or a dependent one after a copy, waits for everything.
    void dependentLaunchOverlapsThePreviousKernel_data() {
        QTest::addColumn<bool>("dependent");
        QTest::addColumn<QString>("previous");   // what writes x: kernel, gemm or copy
        QTest::addColumn<bool>("graphed");
        QTest::newRow("dependent, after a kernel") << true << "kernel" << false;
        QTest::newRow("dependent, after a kernel, graph replay") << true << "kernel" << true;
        QTest::newRow("dependent, after a GEMM") << true << "gemm" << false;
        QTest::newRow("dependent, after a copy") << true << "copy" << false;
        QTest::newRow("ordinary, after a kernel") << false << "kernel" << false;
    }
    void dependentLaunchOverlapsThePreviousKernel() {
        QFETCH(bool, dependent);
        QFETCH(QString, previous);
        QFETCH(bool, graphed);
        constexpr int n = 256, threads = 64, k = 8;
        Dev<float> in(n), x(n), before(n), after(n);
        Dev<__half> ones(size_t(n) * k), quarters(k);
        in.upload(std::vector<float>(n, 1.0f));
        x.upload(std::vector<float>(n, -5.0f));
        ones.upload(std::vector<__half>(size_t(n) * k, __float2half_rn(1.0f)));
        quarters.upload(std::vector<__half>(k, __float2half_rn(0.25f)));
        cublasHandle_t h = nullptr;
        const auto& api = cuda::cublas();
        QCOMPARE(api.create(&h), CUBLAS_STATUS_SUCCESS);
        QCOMPARE(api.setStream(h, stream_), CUBLAS_STATUS_SUCCESS);
        const emu::Stats start = emu::stats();
        auto enqueue = [&] {
            if (previous == "kernel") {
                launchAffine(in.p, x.p, 2.0f, 0.0f, n, stream_);   // x = 2
            } else if (previous == "gemm") {   // x (n, 1) = ones (n, k) · quarters (k, 1) = 2
                const float alpha = 1.0f, beta = 0.0f;
                QCOMPARE(api.gemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, 1, k, &alpha, ones.p, CUDA_R_16F, n, quarters.p, CUDA_R_16F, k, &beta, x.p,
                                    CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                         CUBLAS_STATUS_SUCCESS);
            } else {
                QCOMPARE(cudaMemcpyAsync(x.p, in.p, n * sizeof(float), cudaMemcpyDeviceToDevice, stream_), cudaSuccess);   // x = 1
            }
            launchReadAroundWait(x.p, before.p, after.p, n, threads, dependent, stream_);
        };
        cudaGraphExec_t exec = nullptr;
        if (graphed) {
            QCOMPARE(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), cudaSuccess);
            enqueue();
            cudaGraph_t graph = nullptr;
            QCOMPARE(cudaStreamEndCapture(stream_, &graph), cudaSuccess);
            QCOMPARE(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
            cudaGraphDestroy(graph);
            QCOMPARE(cudaGraphLaunch(exec, stream_), cudaSuccess);
        } else {
            enqueue();
        }
        QCOMPARE(cudaStreamSynchronize(stream_), cudaSuccess);
        if (exec) cudaGraphExecDestroy(exec);
        api.destroy(h);
        const float result = previous == "copy" ? 1.0f : 2.0f;
        const std::vector<float> b = before.download(), a = after.download();
        const bool early = dependent && previous != "copy";
        for (int i = 0; i < n; ++i) {
            QCOMPARE(a[i], result);
            QCOMPARE(b[i], early && i < threads ? -5.0f : result);   // block 0 read before the kernel ran
        }
        QCOMPARE(emu::stats().earlyBlocks - start.earlyBlocks, uint64_t(early ? 1 : 0));
        QCOMPARE(emu::stats().dependentKernels - start.dependentKernels, uint64_t(dependent ? 1 : 0));
    }

    // A dependent launch as the code the driver loaded makes it: with code compiled for 9.0 the
    // early block waits for the kernel ahead (the case above); code compiled from the compute_75
    // PTX has no wait in it (cuda/ops/pdl.cuh), so the early block reads x before that kernel wrote
    // it, after the "wait" too; below 9.0 the grid runs as an ordinary one.
    void dependentLaunchAndTheLoadedCode_data() {
        QTest::addColumn<QString>("capability");
        QTest::addColumn<QString>("images");
        QTest::addColumn<bool>("forcePtxJit");
        QTest::addColumn<bool>("early");        // block 0 ran before the kernel ahead
        QTest::addColumn<bool>("waited");       // ... and its wait held it until that kernel ran
        QTest::newRow("9.0, sm_90 SASS") << "9.0" << "75-virtual;90-real;90-virtual" << false << true << true;
        QTest::newRow("9.0, compute_90 PTX") << "9.0" << "75-virtual;90-virtual" << false << true << true;
        QTest::newRow("9.0, compute_75 PTX (forced)") << "9.0" << "75-virtual;90-real" << true << true << false;
        QTest::newRow("8.6, compute_75 PTX") << "8.6" << "75-virtual;90-real;90-virtual" << false << false << true;
    }
    void dependentLaunchAndTheLoadedCode() {
        QFETCH(QString, capability);
        QFETCH(QString, images);
        QFETCH(bool, forcePtxJit);
        QFETCH(bool, early);
        QFETCH(bool, waited);
        const emu::ConfigScope restore;
        emu::setCapability(emu::config(), capability.toStdString());
        emu::config().images = images.toStdString();
        emu::config().forcePtxJit = forcePtxJit;
        constexpr int n = 128, threads = 32;
        Dev<float> in(n), x(n), before(n), after(n);
        in.upload(std::vector<float>(n, 1.0f));
        x.upload(std::vector<float>(n, -5.0f));
        const emu::Stats start = emu::stats();
        launchAffine(in.p, x.p, 2.0f, 0.0f, n, stream_);   // x = 2
        launchReadAroundWait(x.p, before.p, after.p, n, threads, true, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaSuccess);
        const std::vector<float> b = before.download(), a = after.download();
        for (int i = 0; i < n; ++i) {
            const bool stale = early && i < threads;
            QCOMPARE(b[i], stale ? -5.0f : 2.0f);
            QCOMPARE(a[i], stale && !waited ? -5.0f : 2.0f);
        }
        QCOMPARE(emu::stats().earlyBlocks - start.earlyBlocks, uint64_t(early ? 1 : 0));
        QCOMPARE(emu::stats().dependentKernels - start.dependentKernels, uint64_t(1));
    }

    // The driver's choice among a build's code images (emulator.h's loadedCode): SASS of the
    // device's major version and a minor no higher, else the newest PTX no newer than the device.
    void loadedCode_data() {
        QTest::addColumn<QString>("images");
        QTest::addColumn<QString>("capability");
        QTest::addColumn<bool>("forcePtxJit");
        QTest::addColumn<int>("ptx");
        QTest::addColumn<int>("binary");
        const QString build = "75-virtual;90-real;90-virtual";
        QTest::newRow("H200: its SASS") << build << "9.0" << false << 90 << 90;
        QTest::newRow("RTX 3060: compute_75 PTX") << build << "8.6" << false << 75 << 86;
        QTest::newRow("T4: compute_75 PTX") << build << "7.5" << false << 75 << 75;
        QTest::newRow("Blackwell: compute_90 PTX") << build << "12.0" << false << 90 << 120;
        QTest::newRow("H200, PTX forced: the newest PTX") << build << "9.0" << true << 90 << 90;
        QTest::newRow("H200, PTX forced, only compute_75") << "75-virtual;90-real" << "9.0" << true << 75 << 90;
        QTest::newRow("V100: nothing") << build << "7.0" << false << 0 << 0;
        QTest::newRow("sm_80 SASS runs on 8.6") << "80-real" << "8.6" << false << 80 << 80;
        QTest::newRow("sm_86 SASS not on 8.0") << "86-real" << "8.0" << false << 0 << 0;
        QTest::newRow("SASS only, other major") << "90-real" << "8.6" << false << 0 << 0;
        QTest::newRow("SASS only, PTX forced") << "90-real" << "9.0" << true << 0 << 0;
        QTest::newRow("both, no suffix") << "75,86" << "8.9" << false << 86 << 86;
        QTest::newRow("90a on 9.0") << "90a-real" << "9.0" << false << 90 << 90;
        QTest::newRow("90a not on 10.0") << "90a-real" << "10.0" << false << 0 << 0;
    }
    void loadedCode() {
        QFETCH(QString, images);
        QFETCH(QString, capability);
        QFETCH(bool, forcePtxJit);
        QFETCH(int, ptx);
        QFETCH(int, binary);
        emu::Config device;
        emu::setCapability(device, capability.toStdString());
        const cuda::CodeImage code = emu::loadedCode(images.toStdString(), device.major, device.minor, forcePtxJit);
        QCOMPARE(code.ptxVersion, ptx);
        QCOMPARE(code.binaryVersion, binary);
    }

    // A device the build has no code for: every launch fails with cudaErrorNoKernelImageForDevice
    // (not sticky, nothing runs) and cudaFuncGetAttributes says so; with code, the attributes say
    // which was loaded.
    void launchWithoutCodeFails() {
        const emu::ConfigScope restore;
        Dev<float> in(64), out(64);
        in.upload(std::vector<float>(64, 1.0f));
        emu::config().major = 8;
        emu::config().minor = 6;
        emu::config().images = "90-real";
        const uint64_t kernels = emu::stats().kernels;
        launchAffine(in.p, out.p, 2.0f, 0.0f, 64, stream_);
        QCOMPARE(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
        QCOMPARE(cudaGetLastError(), cudaSuccess);
        QCOMPARE(cudaDeviceSynchronize(), cudaSuccess);
        QCOMPARE(emu::stats().kernels, kernels);
        cudaFuncAttributes attr{};
        QCOMPARE(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(&launchAffine)), cudaErrorNoKernelImageForDevice);
        cudaGetLastError();
        emu::config().images = "75-virtual;90-real;90-virtual";
        QCOMPARE(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(&launchAffine)), cudaSuccess);
        QCOMPARE(attr.ptxVersion, 75);
        QCOMPARE(attr.binaryVersion, 86);
        launchAffine(in.p, out.p, 2.0f, 0.0f, 64, stream_);
        QCOMPARE(cudaGetLastError(), cudaSuccess);
        QCOMPARE(cudaDeviceSynchronize(), cudaSuccess);
        QCOMPARE(out.download(), std::vector<float>(64, 2.0f));
    }

    // Dependent launches in a row: each one's first block starts before the kernel ahead of it,
    // while that kernel's own first block still waits (two held at once), and each reads its
    // predecessor's result after its wait.
    void chainOfDependentLaunches() {
        constexpr int n = 128, threads = 32;
        Dev<float> in(n), x(n), b1(n), a1(n), b2(n), a2(n), b3(n), a3(n);
        in.upload(std::vector<float>(n, 3.0f));
        launchAffine(in.p, x.p, 1.0f, 0.0f, n, stream_);
        launchReadAroundWait(x.p, b1.p, a1.p, n, threads, true, stream_);
        launchReadAroundWait(a1.p, b2.p, a2.p, n, threads, true, stream_);
        launchReadAroundWait(a2.p, b3.p, a3.p, n, threads, true, stream_);
        QCOMPARE(cudaStreamSynchronize(stream_), cudaSuccess);
        for (const Dev<float>* a : {&a1, &a2, &a3}) {
            const std::vector<float> v = a->download();
            QVERIFY(std::all_of(v.begin(), v.end(), [](float f) { return f == 3.0f; }));
        }
        const std::vector<float> early = b3.download();   // a2 was not written yet: allocation fill (NaN)
        QVERIFY(std::isnan(early[0]));
        QCOMPARE(early[threads], 3.0f);
    }

    // Host code that dereferences a device pointer faults, as on a GPU (in a child process: it ends it).
    void hostTouchingDeviceMemoryFaults() {
        int pipeFds[2];
        QCOMPARE(pipe(pipeFds), 0);
        const pid_t pid = fork();
        if (pid == 0) {
            dup2(pipeFds[1], 2);
            float* p = nullptr;
            if (cudaMalloc(reinterpret_cast<void**>(&p), 4096) != cudaSuccess) _exit(3);
            p[10] = 1.0f;   // faults
            _exit(0);
        }
        close(pipeFds[1]);
        std::string err;
        char buf[512];
        for (ssize_t r; (r = read(pipeFds[0], buf, sizeof buf)) > 0;) err.append(buf, size_t(r));
        close(pipeFds[0]);
        int status = 0;
        QCOMPARE(waitpid(pid, &status, 0), pid);
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, qPrintable(QString("status %1").arg(status)));
        QVERIFY2(contains(err, "host code touched device memory") && contains(err, "byte 40 of a 4096-byte device allocation"), err.c_str());
    }

    // GemmEx: column-major, both transposes, alpha/beta, against a double-precision product; with
    // beta = 0, C is not read (NaN there does not leak).
    void gemm_data() {
        QTest::addColumn<bool>("transA");
        QTest::addColumn<bool>("transB");
        QTest::addColumn<float>("beta");
        for (bool ta : {false, true})
            for (bool tb : {false, true})
                for (float beta : {0.0f, 1.0f}) QTest::newRow(qPrintable(QString("%1%2 beta %3").arg(ta ? "T" : "N").arg(tb ? "T" : "N").arg(beta))) << ta << tb << beta;
    }
    void gemm() {
        QFETCH(bool, transA);
        QFETCH(bool, transB);
        QFETCH(float, beta);
        const int m = 13, n = 7, k = 24, lda = (transA ? k : m) + 3, ldb = (transB ? n : k) + 1, ldc = m + 2;
        const int aCols = transA ? m : k, bCols = transB ? k : n;
        std::mt19937 gen(3);
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        std::vector<__half> a(size_t(lda) * aCols), b(size_t(ldb) * bCols);
        for (auto& v : a) v = __float2half_rn(d(gen));
        for (auto& v : b) v = __float2half_rn(d(gen));
        std::vector<float> c(size_t(ldc) * n);
        for (auto& v : c) v = beta == 0.0f ? NAN : d(gen);
        Dev<__half> da(a.size()), db(b.size());
        Dev<float> dc(c.size());
        da.upload(a);
        db.upload(b);
        dc.upload(c);
        cublasHandle_t h = nullptr;
        const auto& api = cuda::cublas();
        QCOMPARE(api.create(&h), CUBLAS_STATUS_SUCCESS);
        QCOMPARE(api.setStream(h, stream_), CUBLAS_STATUS_SUCCESS);
        const float alpha = 0.5f;
        QCOMPARE(api.gemmEx(h, transA ? CUBLAS_OP_T : CUBLAS_OP_N, transB ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, &alpha, da.p, CUDA_R_16F, lda,
                            db.p, CUDA_R_16F, ldb, &beta, dc.p, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_SUCCESS);
        // An lda that is too small is refused as cuBLAS refuses it.
        QCOMPARE(api.gemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da.p, CUDA_R_16F, m - 1, db.p, CUDA_R_16F, ldb, &beta, dc.p,
                            CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_INVALID_VALUE);
        const std::vector<float> got = dc.download();
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double ref = 0;
                for (int l = 0; l < k; ++l) {
                    const float av = __half2float(a[transA ? size_t(l) + size_t(i) * lda : size_t(i) + size_t(l) * lda]);
                    const float bv = __half2float(b[transB ? size_t(j) + size_t(l) * ldb : size_t(l) + size_t(j) * ldb]);
                    ref += double(av) * bv;
                }
                ref = alpha * ref + (beta == 0.0f ? 0.0 : double(beta) * c[size_t(i) + size_t(j) * ldc]);
                QVERIFY2(std::fabs(got[size_t(i) + size_t(j) * ldc] - ref) < 1e-5, qPrintable(QString("C(%1,%2)").arg(i).arg(j)));
            }
        QCOMPARE(api.destroy(h), CUBLAS_STATUS_SUCCESS);
    }

    // The injected device conditions the backend's fallback tests use.
    void injectedConditions() {
        const emu::ConfigScope restore;   // a failed comparison leaves no injected condition behind
        const emu::Config saved = emu::config();
        int count = -1, driver = -1;
        emu::config().devices = 0;
        QCOMPARE(cudaGetDeviceCount(&count), cudaErrorNoDevice);
        emu::config() = saved;
        emu::config().driverVersion = 12040;
        QCOMPARE(cudaGetDeviceCount(&count), cudaErrorInsufficientDriver);
        QCOMPARE(cudaDriverGetVersion(&driver), cudaSuccess);
        QCOMPARE(driver, 12040);
        emu::config() = saved;
        emu::config().memoryBytes = 1 << 20;
        void* p = nullptr;
        QCOMPARE(cudaMalloc(&p, 2 << 20), cudaErrorMemoryAllocation);
        QCOMPARE(cudaGetLastError(), cudaErrorMemoryAllocation);
        QCOMPARE(cudaGetLastError(), cudaSuccess);
        emu::config() = saved;
        QCOMPARE(cudaGetDeviceCount(&count), cudaSuccess);
        QCOMPARE(count, 1);
        cudaDeviceProp prop{};
        QCOMPARE(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
        QCOMPARE(prop.major, 9);
        QVERIFY(contains(prop.name, "emulator"));
    }
};

QTEST_APPLESS_MAIN(TestCudaEmulator)
#include "test_cuda_emulator.moc"
