// Every CUDA op against its CPU reference (cuda/op_checks.h: NMSE under a bound per op, exact ops
// bit for bit), and the CUDA backend's whole forward pass against the CPU's exact mode on the
// tiny models of every architecture. Skips (QSKIP) where no GPU is usable; on the GPU machine,
// which has no Qt, the same checks run as `decoding-lab-cli cuda-check` and `parity`.
#include <QtTest>

#include <cmath>

#include "cuda/cuda_backend.h"
#include "test_paths.h"
#include "gguf/tiny_model.h"
#include "model/kv_cache.h"
#ifdef DLAB_HAVE_CUDA
#include "cuda/op_checks.h"
#endif

using namespace dlab;

class TestCudaOps : public QObject {
    Q_OBJECT

private slots:
    void opsMatchTheCpu() {
        const std::string reason = cudaUnavailableReason();
        if (!reason.empty()) QSKIP(qPrintable(QString::fromStdString("no GPU: " + reason)));
#ifdef DLAB_HAVE_CUDA
        int failed = 0;
        for (const auto& c : cuda::runOpChecks()) {
            if (!c.pass) {
                ++failed;
                qWarning("%s %s: NMSE %.3g (bound %.3g), %ld mismatches %s", c.op.c_str(), c.variant.c_str(), c.nmse, c.bound, c.mismatches,
                         c.error.c_str());
            }
        }
        QCOMPARE(failed, 0);
#endif
    }

    void forwardMatchesTheCpu_data() {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("type");
        for (const char* arch : {"llama", "qwen2", "gpt2"})
            for (GgmlType t : {GgmlType::F32, GgmlType::Q8_0, GgmlType::Q4_1})
                QTest::newRow((std::string(arch) + " " + ggmlTypeName(t)).c_str()) << QString(arch) << static_cast<int>(t);
    }
    // Prefill (GEMM path, 40 tokens) and 16 decode steps (graphs), the logits against the exact CPU.
    void forwardMatchesTheCpu() {
        QFETCH(QString, arch);
        QFETCH(int, type);
        const std::string reason = cudaUnavailableReason();
        if (!reason.empty()) QSKIP(qPrintable(QString::fromStdString("no GPU: " + reason)));
        TinyModelSpec spec;
        spec.arch = arch.toStdString();
        spec.weightType = static_cast<GgmlType>(type);
        const std::string path = dlab::test::scratchDir() + "/cuda_ops_" + arch.toStdString() + ".gguf";
        writeTinyModel(spec, path);
        auto model = Model::load(path);
        auto gpu = makeCudaBackend(*model);
        auto cpu = makeCpuBackend(*model, 1, true);
        KvCache cg(model->hparams(), 64, KvType::F16), cc(model->hparams(), 64, KvType::F16);
        std::vector<TokenId> input;
        for (int i = 0; i < 40; ++i) input.push_back((i * 37 + 11) % 300);
        for (int step = 0; step < 17; ++step) {
            const auto g = gpu->forward(input, cg, false);
            const std::vector<float> gv(g.begin(), g.end());
            const auto c = cpu->forward(input, cc, false);
            double num = 0, den = 0;
            for (size_t i = 0; i < c.size(); ++i) {
                num += (double(gv[i]) - c[i]) * (double(gv[i]) - c[i]);
                den += double(c[i]) * c[i];
            }
            QVERIFY2(num / den < 1e-3, qPrintable(QString("step %1: NMSE %2").arg(step).arg(num / den)));
            input.assign(1, static_cast<TokenId>(std::max_element(c.begin(), c.end()) - c.begin()));
        }
        // The K/V rows copied back equal what the device stored: the host pool is the truth.
        QCOMPARE(cg.pool().length(cg.sequence()), cc.pool().length(cc.sequence()));
    }
};

QTEST_APPLESS_MAIN(TestCudaOps)
#include "test_cuda_ops.moc"
