// The CUDA backend's behaviour around the device, beyond the per-op checks: every check of
// cuda/backend_checks.h (graphs, batches, the KV mirror, attention weights, statistics,
// cancellation), with what each launched and captured on the emulator; and, on the emulator alone,
// running out of GPU memory and the fallback to the CPU with one sentence for each reason a GPU
// cannot be used.
//
// Built twice: against the real CUDA backend (every case skips without a GPU) and against the same
// backend on the CPU emulator of the CUDA runtime (test_cuda_backend_emulated), where it always
// runs; the emulator alone can also inject the conditions of the fallback cases.
#include <QtTest>

#include <atomic>
#include <cmath>

#include "core/error.h"
#include "cuda/backend_checks.h"
#include "cuda/backend_choice.h"
#include "cuda/cuda_backend.h"
#include "gguf/tiny_model.h"
#include "model/kv_cache.h"
#include "model/logit_stats.h"
#ifdef DLAB_CUDA_EMULATED
#include "emulator.h"
#endif

using namespace dlab;

namespace {

std::vector<TokenId> prompt(int n, int salt) { return cuda::checkPrompt(n, salt); }

}  // namespace

class TestCudaBackend : public QObject {
    Q_OBJECT

    bool skipWithoutGpu() {
        const std::string reason = cudaUnavailableReason();
        if (reason.empty()) return false;
        qInfo("no GPU: %s", reason.c_str());
        return true;
    }

private slots:
    void init() {
#ifdef DLAB_CUDA_EMULATED
        emu::clearFault();
#endif
    }

    // Every check of cuda/backend_checks.cpp (what `decoding-lab-cli cuda-check` runs on the GPU
    // machine); on the emulator also what each one launched and captured.
    void backendChecks_data() {
        QTest::addColumn<QString>("name");
        for (const std::string& n : cuda::backendCheckNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }
    void backendChecks() {
        QFETCH(QString, name);
        if (skipWithoutGpu()) QSKIP("no GPU");
#ifdef DLAB_CUDA_EMULATED
        emu::Stats before = emu::stats();
        const cuda::BackendCheckResult r = cuda::runBackendCheck(name.toStdString(), [&] { before = emu::stats(); });
#else
        const cuda::BackendCheckResult r = cuda::runBackendCheck(name.toStdString());
#endif
        QVERIFY2(r.pass, r.detail.c_str());
#ifdef DLAB_CUDA_EMULATED
        QVERIFY2(emu::lastFault().empty(), emu::lastFault().c_str());
        const emu::Stats after = emu::stats();
        const uint64_t captures = after.captures - before.captures, launches = after.graphLaunches - before.graphLaunches;
        if (name.startsWith("graphed decode equals plain")) {
            // One decode shape: one capture, then a replay per step (the prefill is never graphed).
            QCOMPARE(captures, uint64_t(1));
            QCOMPARE(launches, uint64_t(12));
            // A step's graph: the embedding, 5 kernels a layer (the KV store folded into
            // attention), the output norm and the output projection.
            QCOMPARE(after.kernelsInGraphs - before.kernelsInGraphs, 12 * (5 * uint64_t(cuda::checkModel().hparams().nLayer) + 3));
        } else if (name.startsWith("dependent launches")) {
            // Every matvec and attention of the dependent backend's passes launched dependent: 5 a
            // layer and the output projection, 3 prompt passes and 12 steps; the first block of
            // each that follows a kernel ran up to its wait before that kernel.
            const uint64_t dependent = 15 * (5 * uint64_t(cuda::checkModel().hparams().nLayer) + 1);
            QCOMPARE(after.dependentKernels - before.dependentKernels, dependent);
            QVERIFY(after.earlyBlocks - before.earlyBlocks >= dependent - 15);
        } else if (name.startsWith("every pass through cuBLAS")) {
            // q, k, v, the output projection, gate, up and down a layer, and the logits' projection:
            // 4 prompt passes and 3 batched steps.
            QCOMPARE(after.gemms - before.gemms, 7 * (7 * uint64_t(cuda::checkModel().hparams().nLayer) + 1));
        } else if (name.startsWith("every pass through the matvec")) {
            QCOMPARE(after.gemms - before.gemms, uint64_t(0));
        } else if (name.startsWith("batched decode of 16")) {
            // The batch's shape: one capture (cuBLAS included), a replay per step.
            QCOMPARE(captures, uint64_t(1));
            QCOMPARE(launches, uint64_t(4));
        } else if (name.startsWith("split long contexts")) {
            // From the decode steps on, graphed shapes: the batch of 4 (4 blocks a pair: the
            // 300-token sequence has 3 ranges), one step alone at 4, 2 and 1 blocks, and the
            // unsplit backend's step.
            QCOMPARE(captures, uint64_t(5));
        }
#endif
    }

#ifdef DLAB_CUDA_EMULATED
    // Where cuBLAS cannot be captured (injected), a batched step's capture is tried once and the
    // steps run ungraphed, with the same logits as without graphs.
    void batchedCaptureRefused() {
        const emu::ConfigScope restore;
        emu::config().cublasCapturable = false;
        emu::Stats before = emu::stats();
        const cuda::BackendCheckResult r = cuda::runBackendCheck("batched decode of 16 (GEMM) graphed equals plain", [&] { before = emu::stats(); });
        QVERIFY2(r.pass, r.detail.c_str());
        const emu::Stats after = emu::stats();
        QCOMPARE(after.captures - before.captures, uint64_t(1));
        QCOMPARE(after.graphLaunches - before.graphLaunches, uint64_t(0));
        QVERIFY(emu::lastFault().empty());
    }
#endif

    // A tuning variable that does not hold what it should is refused with a sentence naming it.
    void environmentRefused_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("split from: a word") << QByteArray("DLAB_CUDA_ATTENTION_SPLIT_FROM") << QByteArray("long")
                                            << "DLAB_CUDA_ATTENTION_SPLIT_FROM is \"long\"; give a context length in slots";
        QTest::newRow("split from: negative") << QByteArray("DLAB_CUDA_ATTENTION_SPLIT_FROM") << QByteArray("-3")
                                              << "DLAB_CUDA_ATTENTION_SPLIT_FROM is \"-3\"; give a context length in slots";
        QTest::newRow("GEMM from: 0") << QByteArray("DLAB_CUDA_GEMM_FROM") << QByteArray("0")
                                      << "DLAB_CUDA_GEMM_FROM is \"0\"; give the tokens from which a pass projects through cuBLAS (1 or more)";
        QTest::newRow("GEMM from: 8x") << QByteArray("DLAB_CUDA_GEMM_FROM") << QByteArray("8x") << "DLAB_CUDA_GEMM_FROM is \"8x\"; give the tokens";
    }
    void environmentRefused() {
        if (skipWithoutGpu()) QSKIP("no GPU");
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        qputenv(name.constData(), value);
        QString message;
        try {
            makeCudaBackend(cuda::checkModel());
        } catch (const Error& e) {
            message = e.what();
        }
        qunsetenv(name.constData());
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void unknownCheckIsRefused() {
        QVERIFY_THROWS_EXCEPTION(Error, cuda::runBackendCheck("no such check"));
    }

#ifdef DLAB_CUDA_EMULATED
    // Each reason the GPU cannot be used, injected into the emulated device: automatic falls back
    // to the CPU with one line naming it, an explicit cuda choice fails with that sentence, and
    // nothing is left behind on the device (memory, streams, cuBLAS handles).
    void fallbacks_data() {
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("driver");
        QTest::addColumn<QString>("capability");
        QTest::addColumn<qlonglong>("memory");
        QTest::addColumn<QString>("images");   // the code the build carries ("": this build's)
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("problem");       // the kind the app words in the user's language
        QTest::addColumn<QString>("detail");    // its version or capability
        const qlonglong plenty = qlonglong(16) << 30;
        QTest::newRow("no GPU") << 0 << 13000 << "9.0" << plenty << "" << "no NVIDIA GPU is visible" << int(GpuProblem::NoGpu) << "";
        QTest::newRow("no driver") << 1 << 0 << "9.0" << plenty << "" << "no NVIDIA driver is installed" << int(GpuProblem::NoDriver) << "";
        QTest::newRow("driver too old") << 1 << 12040 << "9.0" << plenty << "" << "supports CUDA 12.4, older than this build's CUDA runtime needs"
                                        << int(GpuProblem::OldDriver) << "12.4";
        QTest::newRow("compute capability 7.0") << 1 << 13000 << "7.0" << plenty << ""
                                                << "compute capability 7.0; the CUDA 13 runtime this build uses needs 7.5 (Turing) or newer"
                                                << int(GpuProblem::GpuTooOld) << "7.0";
        QTest::newRow("no code for 8.6 in a build for 9.0") << 1 << 13000 << "8.6" << plenty << "90-real;90-virtual"
                                                            << "this build has no GPU code for it" << int(GpuProblem::NoCodeForGpu) << "8.6";
        QTest::newRow("no memory for the weights") << 1 << 13000 << "9.0" << qlonglong(64 << 10) << "" << "cannot allocate"
                                                   << int(GpuProblem::OutOfMemory) << "";
        QTest::newRow("no memory for the scratch") << 1 << 13000 << "9.0" << qlonglong(1 << 20) << "" << "cannot allocate"
                                                   << int(GpuProblem::OutOfMemory) << "";
    }
    void fallbacks() {
        QFETCH(int, devices);
        QFETCH(int, driver);
        QFETCH(QString, capability);
        QFETCH(qlonglong, memory);
        QFETCH(QString, images);
        QFETCH(QString, expected);
        QFETCH(int, problem);
        QFETCH(QString, detail);
        const emu::ConfigScope restore;
        emu::config().devices = devices;
        emu::config().driverVersion = driver;
        emu::setCapability(emu::config(), capability.toStdString());
        emu::config().memoryBytes = size_t(memory);
        if (!images.isEmpty()) emu::config().images = images.toStdString();

        BackendChoice choice = makeBackend(cuda::checkModel(), BackendKind::Auto, 1);
        QCOMPARE(QString::fromUtf8(choice.backend->name().data(), int(choice.backend->name().size())), QString("cpu"));
        QVERIFY2(choice.notice.rfind("using the CPU: ", 0) == 0 && choice.notice.find(expected.toStdString()) != std::string::npos,
                 choice.notice.c_str());
        QVERIFY2(choice.notice.find('\n') == std::string::npos, "the notice is one line");
        QCOMPARE(int(choice.fallback.problem), problem);
        QCOMPARE(choice.notice, "using the CPU: " + choice.fallback.reason);
        QCOMPARE(QString::fromStdString(choice.fallback.detail), detail);
        if (GpuProblem(problem) == GpuProblem::GpuTooOld || GpuProblem(problem) == GpuProblem::NoCodeForGpu)
            QCOMPARE(choice.fallback.gpu, emu::config().name);
        if (GpuProblem(problem) == GpuProblem::OutOfMemory) {   // the figures the app words itself
            QVERIFY(choice.fallback.bytesNeeded > 0);
            QVERIFY(choice.fallback.bytesFree > 0 && choice.fallback.bytesFree < choice.fallback.bytesNeeded);
            QVERIFY(choice.fallback.bytesFree <= size_t(memory));
        }
        QVERIFY(!choice.backend->forward(prompt(4, 0), *std::make_unique<KvCache>(cuda::checkModel().hparams(), 16, KvType::F16), false).empty());
        try {
            makeBackend(cuda::checkModel(), BackendKind::Cuda, 1);
            QFAIL("--backend cuda did not fail");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find(expected.toStdString()) != std::string::npos, e.what());
        }
        QCOMPARE(emu::deviceMemoryInUse(), size_t(0));
        QCOMPARE(emu::liveStreams(), 0);
        QCOMPARE(emu::liveCublasHandles(), 0);
    }

    // GPUs older and newer than the H100 / H200 it is measured on run the build's code: Turing to
    // Ada compile the compute_75 PTX at load time, newer ones the compute_90 PTX. Dependent launches
    // (asked for here) stay off wherever the code that runs was not compiled for 9.0: that code has
    // no wait in it, so a dependent matvec would read x before the kernel ahead of it wrote it (the
    // emulator's early block then runs straight through, and the logits differ). The check
    // compares the dependent backend's logits with an ordinary one's, bit for bit.
    void otherGpusRunTheBuild_data() {
        QTest::addColumn<QString>("capability");
        QTest::addColumn<QString>("images");
        QTest::addColumn<bool>("forcePtxJit");   // CUDA_FORCE_PTX_JIT=1
        QTest::addColumn<bool>("dependent");
        const QString build = QString::fromStdString(emu::Config::defaultImages());
        QTest::newRow("Turing 7.5: compute_75 PTX") << "7.5" << build << false << false;
        QTest::newRow("Ampere 8.6: compute_75 PTX") << "8.6" << build << false << false;
        QTest::newRow("Ada 8.9: compute_75 PTX") << "8.9" << build << false << false;
        QTest::newRow("Hopper 9.0: sm_90 SASS") << "9.0" << build << false << true;
        QTest::newRow("Blackwell 12.0: compute_90 PTX") << "12.0" << build << false << true;
        QTest::newRow("Hopper, PTX forced: compute_90") << "9.0" << build << true << true;
        QTest::newRow("Hopper, PTX forced, only compute_75 PTX") << "9.0" << "75-virtual;90-real" << true << false;
    }
    void otherGpusRunTheBuild() {
        QFETCH(QString, capability);
        QFETCH(QString, images);
        QFETCH(bool, forcePtxJit);
        QFETCH(bool, dependent);
        const emu::ConfigScope restore;
        emu::setCapability(emu::config(), capability.toStdString());
        emu::config().images = images.toStdString();
        emu::config().forcePtxJit = forcePtxJit;
        const std::string reason = cudaUnavailableReason();
        QVERIFY2(reason.empty(), reason.c_str());
        BackendChoice choice = makeBackend(cuda::checkModel(), BackendKind::Auto, 1);
        QCOMPARE(QString::fromUtf8(choice.backend->name().data(), int(choice.backend->name().size())), QString("cuda"));

        emu::Stats before = emu::stats();
        const cuda::BackendCheckResult r = cuda::runBackendCheck("dependent launches equal ordinary ones, f16 KV", [&] { before = emu::stats(); });
        QVERIFY2(r.pass, r.detail.c_str());
        QVERIFY2(emu::lastFault().empty(), emu::lastFault().c_str());
        const uint64_t launched = emu::stats().dependentKernels - before.dependentKernels;
        if (dependent) QVERIFY(launched > 0);
        else QCOMPARE(launched, uint64_t(0));
    }

    // GPU memory that runs out for a KV cache: one sentence naming it, and the backend goes on with
    // a cache that fits.
    void kvCacheOutOfMemory() {
        auto gpu = makeCudaBackend(cuda::checkModel());
        const emu::ConfigScope restore;
        emu::config().memoryBytes = emu::deviceMemoryInUse() + (64 << 10);
        KvCache big(cuda::checkModel().hparams(), 4096, KvType::F32);
        try {
            gpu->forward(prompt(4, 1), big, false);
            QFAIL("a KV cache larger than the GPU memory was allocated");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("cannot allocate") != std::string::npos &&
                         std::string(e.what()).find("for the KV cache") != std::string::npos,
                     e.what());
        }
        QCOMPARE(big.size(), int64_t(0));
        KvCache small(cuda::checkModel().hparams(), 32, KvType::F16);
        QVERIFY(!gpu->forward(prompt(4, 1), small, false).empty());
    }
#endif
};

QTEST_APPLESS_MAIN(TestCudaBackend)
#include "test_cuda_backend.moc"
