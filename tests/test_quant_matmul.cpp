// matmul() on every kernel path this CPU has (scalar, AVX2, AVX-512) against a double-precision
// reference built from the dequantized weights and the dequantized quantized activations, over
// odd shapes; plus an exact check that each path quantizes activations exactly as the scalar one.
#include <QtTest>

#include <cmath>
#include <array>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "quant/activations.h"
#include "quant/block_types.h"
#include "quant/fp16.h"
#include "quant/kernel_path.h"
#include "quant/matmul.h"
#include "quant/quantize.h"

using namespace dlab;

Q_DECLARE_METATYPE(dlab::GgmlType)
Q_DECLARE_METATYPE(dlab::KernelPath)

namespace {

std::vector<float> gaussian(int64_t n, uint32_t seed, float scale, float offset) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(offset, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

ThreadPool& pool(int threads) {
    static ThreadPool one(1), three(3);
    return threads == 1 ? one : three;
}

// One token's activations as the kernels see them, in double: a (cols) and, for Q4_1, the
// per-block difference between Q8_1's stored sum term s = fp16(d·Σq) and the exact d·Σq.
struct RefAct {
    std::vector<double> a;
    std::vector<double> sExcess;
};

RefAct referenceActivations(GgmlType type, const float* x, int64_t cols) {
    RefAct r;
    r.a.resize(cols);
    switch (type) {
    case GgmlType::Q4_0:
    case GgmlType::Q4_1:
    case GgmlType::Q8_0: {
        const auto l = quant::q8RowLayout(cols);
        std::vector<uint8_t> row(l.rowBytes);
        quant::quantizeRowQ8(x, cols, row.data());
        const auto* qs = reinterpret_cast<const int8_t*>(row.data());
        const auto* d = reinterpret_cast<const float*>(row.data() + l.dOff);
        const auto* s = reinterpret_cast<const float*>(row.data() + l.sOff);
        for (int64_t b = 0; b < l.nb; ++b) {
            double sum = 0;
            for (int j = 0; j < 32; ++j) r.a[32 * b + j] = double(d[b]) * qs[32 * b + j], sum += qs[32 * b + j];
            r.sExcess.push_back(double(s[b]) - double(d[b]) * sum);
        }
        break;
    }
    case GgmlType::Q4_K:
    case GgmlType::Q5_K:
    case GgmlType::Q6_K: {
        std::vector<quant::BlockQ8_K> q(cols / 256);
        quant::quantizeRowQ8K(x, q.data(), cols);
        for (int64_t k = 0; k < cols; ++k) r.a[k] = double(q[k / 256].d) * q[k / 256].qs[k % 256];
        break;
    }
    default: {
        std::vector<float> f(x, x + cols);
        if (type == GgmlType::F16) quant::roundRowToFp16(x, f.data(), cols);
        if (type == GgmlType::BF16) quant::roundRowToBf16(x, f.data(), cols);
        for (int64_t k = 0; k < cols; ++k) r.a[k] = f[k];
    }
    }
    return r;
}

// Each shape with 1 and 3 threads; the 3-thread runs use a row stride 6 bytes longer than a row
// (weight views need not be packed).
void addShapes(GgmlType type, std::initializer_list<std::array<int64_t, 3>> shapes) {
    for (KernelPath path : {KernelPath::Scalar, KernelPath::Avx2, KernelPath::Avx512})
        for (const auto& s : shapes)
            for (int threads : {1, 3}) {
                const QString name = QString("%1 %2 %3x%4 nTok=%5 t=%6")
                                         .arg(kernelPathName(path), ggmlTypeName(type).c_str())
                                         .arg(s[0]).arg(s[1]).arg(s[2]).arg(threads);
                QTest::newRow(qPrintable(name)) << path << type << qint64(s[0]) << qint64(s[1]) << qint64(s[2]) << threads
                                                << (threads == 3 ? 6 : 0);
            }
}

}  // namespace

class TestQuantMatmul : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { setKernelPathForTesting(KernelPath::Auto); }
    void matchesReference_data();
    void matchesReference();
    void activationsMatchScalar_data();
    void activationsMatchScalar();
    void fewTokensMatchOneToken_data();
    void fewTokensMatchOneToken();
    void pathSelection();
};

void TestQuantMatmul::matchesReference_data() {
    QTest::addColumn<KernelPath>("path");
    QTest::addColumn<GgmlType>("type");
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<qint64>("nTok");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("stridePad");
    // Rows off the tile sizes, one-block rows, odd block counts, nTok around the token tiles, and
    // 130 tokens of 4096 columns: more than one token chunk.
    // Then batched decode's few tokens (the AVX-512 few-token kernel's groups of 2..4 and 5..8 and
    // what is left over, up to its limit of 16 and one past it), with odd rows and odd block counts.
    for (GgmlType t : {GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q8_0})
        addShapes(t, {{1, 32, 1}, {3, 32, 3}, {5, 64, 1}, {17, 96, 17}, {7, 160, 2}, {64, 576, 1},
                      {67, 576, 5}, {33, 576, 17}, {9, 4096, 130},
                      {5, 64, 2}, {7, 96, 3}, {9, 576, 4}, {3, 160, 5}, {6, 576, 6}, {5, 1536, 7},
                      {11, 576, 8}, {4, 96, 9}, {13, 160, 12}, {7, 576, 16}});
    for (GgmlType t : {GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K})
        addShapes(t, {{1, 256, 1}, {3, 256, 3}, {17, 512, 17}, {5, 768, 1}, {33, 256, 130}});
    for (GgmlType t : {GgmlType::F32, GgmlType::F16, GgmlType::BF16})
        addShapes(t, {{1, 1, 1}, {3, 33, 3}, {5, 64, 1}, {17, 100, 17}, {67, 576, 5}, {9, 1000, 130}});
}

void TestQuantMatmul::matchesReference() {
    QFETCH(KernelPath, path);
    QFETCH(GgmlType, type);
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(qint64, nTok);
    QFETCH(int, threads);
    QFETCH(int, stridePad);
    if (!kernelPathAvailable(path)) QSKIP("kernel path not available on this CPU");
    setKernelPathForTesting(path);
    QCOMPARE(activeKernelPath(), path);

    // Weights with an offset (exercises Q4_1's min and the K-quants' mins); activations with a
    // few outliers so block scales differ.
    const auto wf = gaussian(rows * cols, 1234 + rows, 0.5f, 0.1f);
    const size_t rowBytes = ggmlRowBytes(type, cols) + stridePad;
    std::vector<uint8_t> wq(rows * rowBytes, 0xEE);
    for (int64_t r = 0; r < rows; ++r) quantize(type, wf.data() + r * cols, wq.data() + r * rowBytes, cols);
    auto x = gaussian(nTok * cols, 99 + nTok, 1.0f, 0.0f);
    for (size_t k = 0; k < x.size(); k += 37) x[k] *= 8.0f;
    const WeightMatrix w{type, rows, cols, wq.data(), rowBytes};

    std::vector<float> y(nTok * rows, NAN);
    matmul(w, x.data(), nTok, y.data(), pool(threads));

    std::vector<float> wrow(cols);
    for (int64_t t = 0; t < nTok; ++t) {
        const RefAct act = referenceActivations(type, x.data() + t * cols, cols);
        for (int64_t r = 0; r < rows; ++r) {
            dequantizeRow(w, r, wrow.data());
            double ref = 0, mag = 0;
            for (int64_t k = 0; k < cols; ++k) ref += wrow[k] * act.a[k], mag += std::fabs(wrow[k] * act.a[k]);
            if (type == GgmlType::Q4_1) {  // ggml adds m·s with Q8_1's rounded s: so do we
                for (int64_t b = 0; b < cols / 32; ++b) {
                    quant::BlockQ4_1 blk;
                    std::memcpy(&blk, wq.data() + r * rowBytes + b * sizeof blk, sizeof blk);
                    const double m = fp16ToFp32(blk.m);
                    ref += m * act.sExcess[b];
                    mag += std::fabs(m * act.sExcess[b]);
                }
            }
            // The kernels differ from this only by f32 rounding: block dots are exact in int32,
            // each block's scale product rounds once (2^-24), and the block terms are summed in
            // f32 over at most ~500 additions per lane, so |error| < 500 · 2^-24 · Σ|w·a| < 3e-5 Σ|w·a|.
            // Any wrong element, block, scale or offset is off by a sizeable part of Σ|w·a|.
            const double got = y[t * rows + r];
            if (!(std::fabs(got - ref) <= 3e-5 * mag + 1e-30))
                QFAIL(qPrintable(QString("token %1 row %2: got %3, reference %4 (scale %5)")
                                     .arg(t).arg(r).arg(got, 0, 'g', 9).arg(ref, 0, 'g', 9).arg(mag)));
        }
    }
}

// Weights that pick one column per row (rows = cols, value exactly 1) make y the kernels' own
// dequantized activations, with no rounding at all. Every path must reproduce the scalar
// quantization bit for bit (ggml's x86 rule), including round-half-even ties.
void TestQuantMatmul::activationsMatchScalar_data() {
    QTest::addColumn<KernelPath>("path");
    QTest::addColumn<GgmlType>("type");
    QTest::addColumn<qint64>("nTok");
    for (KernelPath path : {KernelPath::Scalar, KernelPath::Avx2, KernelPath::Avx512})
        for (GgmlType type : {GgmlType::Q8_0, GgmlType::Q4_1, GgmlType::Q4_K, GgmlType::Q6_K, GgmlType::F16, GgmlType::BF16})
            for (qint64 nTok : {1, 6})
                QTest::newRow(qPrintable(QString("%1 %2 nTok=%3").arg(kernelPathName(path), ggmlTypeName(type).c_str()).arg(nTok)))
                    << path << type << nTok;
}

void TestQuantMatmul::activationsMatchScalar() {
    QFETCH(KernelPath, path);
    QFETCH(GgmlType, type);
    QFETCH(qint64, nTok);
    if (!kernelPathAvailable(path)) QSKIP("kernel path not available on this CPU");
    const int64_t n = ggmlTypeTraits(type).blockSize == 256 ? 512 : 96;
    const size_t rowBytes = ggmlRowBytes(type, n);
    std::vector<uint8_t> wq(n * rowBytes, 0);
    for (int64_t r = 0; r < n; ++r) {
        uint8_t* row = wq.data() + r * rowBytes;
        const int64_t b = r / 32, j = r % 32;
        switch (type) {
        case GgmlType::Q8_0: {
            auto* blk = reinterpret_cast<quant::BlockQ8_0*>(row);
            for (int64_t i = 0; i < n / 32; ++i) blk[i].d = 0x3C00;
            blk[b].qs[j] = 1;
            break;
        }
        case GgmlType::Q4_1: {
            auto* blk = reinterpret_cast<quant::BlockQ4_1*>(row);
            for (int64_t i = 0; i < n / 32; ++i) blk[i].d = 0x3C00;
            blk[b].qs[j % 16] = static_cast<uint8_t>(j < 16 ? 1 : 0x10);
            break;
        }
        case GgmlType::Q4_K: {  // d = 1, every sub-block scale 1, mins 0
            auto* blk = reinterpret_cast<quant::BlockQ4_K*>(row) + r / 256;
            for (int64_t i = 0; i < n / 256; ++i) {
                auto& k = reinterpret_cast<quant::BlockQ4_K*>(row)[i];
                k.d = 0x3C00;
                for (int s = 0; s < 4; ++s) k.scales[s] = 1, k.scales[s + 8] = 1;
            }
            const int64_t e = r % 256, c = e / 64, l = e % 32;
            blk->qs[32 * c + l] = static_cast<uint8_t>((e % 64) < 32 ? 1 : 0x10);
            break;
        }
        case GgmlType::Q6_K: {  // d = 1, scales 1, q = 32 (zero) except 33 at the chosen element
            auto* blocks = reinterpret_cast<quant::BlockQ6_K*>(row);
            for (int64_t i = 0; i < n / 256; ++i) {
                auto& k = blocks[i];
                k.d = 0x3C00;
                for (int s = 0; s < 16; ++s) k.scales[s] = 1;
                for (int l = 0; l < 64; ++l) k.qh[l] = 0xAA;  // high bits 2 -> q = 32 with low bits 0
            }
            auto& k = blocks[r / 256];
            const int64_t e = r % 256, h = e / 128, g = (e % 128) / 32, l = e % 32;
            k.ql[64 * h + 32 * (g % 2) + l] |= static_cast<uint8_t>(g < 2 ? 1 : 0x10);
            break;
        }
        default: {  // F16 / BF16 one
            const uint16_t one = type == GgmlType::F16 ? 0x3C00 : 0x3F80;
            std::memcpy(row + 2 * r, &one, 2);
        }
        }
    }
    const WeightMatrix w{type, n, n, wq.data(), rowBytes};
    // Values on rounding ties of the Q8 grid (x = (k + 0.5) · amax / 127) plus random ones.
    auto x = gaussian(nTok * n, 5, 1.0f, 0.0f);
    for (int64_t i = 0; i < nTok * n; i += 3) x[i] = (static_cast<float>(i % 254) - 126.5f) / 127.0f;
    for (int64_t i = 0; i < nTok * n; i += 32) x[i] = 1.0f;  // amax = 1 in every block

    std::vector<float> want(nTok * n), got(nTok * n);
    setKernelPathForTesting(KernelPath::Scalar);
    matmul(w, x.data(), nTok, want.data(), pool(1));
    for (int64_t t = 0; t < nTok; ++t) {  // and the scalar path itself against the activation functions
        const RefAct act = referenceActivations(type, x.data() + t * n, n);
        for (int64_t k = 0; k < n; ++k) QCOMPARE(want[t * n + k], float(act.a[k]));  // d·q rounded once
    }
    setKernelPathForTesting(path);
    matmul(w, x.data(), nTok, got.data(), pool(3));
    for (int64_t i = 0; i < nTok * n; ++i)
        if (std::memcmp(&got[i], &want[i], 4) != 0)
            QFAIL(qPrintable(QString("token %1 element %2: %3, scalar %4").arg(i / n).arg(i % n).arg(got[i], 0, 'g', 9).arg(want[i], 0, 'g', 9)));
}

// Batched decode multiplies a few tokens at once; for Q4_0 / Q4_1 / Q8_0 every path gives each of
// up to 16 tokens exactly what multiplying that token alone gives (the AVX-512 few-token kernel
// does the one-token kernel's operations in its order; the scalar and AVX2 paths run tokens
// through the same dots), so a batched decode step changes no logit.
void TestQuantMatmul::fewTokensMatchOneToken_data() {
    QTest::addColumn<KernelPath>("path");
    QTest::addColumn<GgmlType>("type");
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<qint64>("nTok");
    QTest::addColumn<int>("threads");
    for (KernelPath path : {KernelPath::Scalar, KernelPath::Avx2, KernelPath::Avx512})
        for (GgmlType type : {GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q8_0})
            for (qint64 nTok : {2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16})
                for (auto [rows, cols, threads] : {std::array<int64_t, 3>{9, 160, 1}, {67, 576, 3}}) {
                    const QString name = QString("%1 %2 %3x%4 nTok=%5 t=%6")
                                             .arg(kernelPathName(path), ggmlTypeName(type).c_str())
                                             .arg(rows).arg(cols).arg(nTok).arg(threads);
                    QTest::newRow(qPrintable(name)) << path << type << qint64(rows) << qint64(cols) << nTok << int(threads);
                }
}

void TestQuantMatmul::fewTokensMatchOneToken() {
    QFETCH(KernelPath, path);
    QFETCH(GgmlType, type);
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(qint64, nTok);
    QFETCH(int, threads);
    if (!kernelPathAvailable(path)) QSKIP("kernel path not available on this CPU");
    setKernelPathForTesting(path);
    const auto wf = gaussian(rows * cols, 77 + rows, 0.5f, 0.1f);
    const size_t rowBytes = ggmlRowBytes(type, cols);
    std::vector<uint8_t> wq(rows * rowBytes);
    for (int64_t r = 0; r < rows; ++r) quantize(type, wf.data() + r * cols, wq.data() + r * rowBytes, cols);
    auto x = gaussian(nTok * cols, 7 + nTok, 1.0f, 0.0f);
    for (size_t k = 0; k < x.size(); k += 29) x[k] *= 8.0f;
    const WeightMatrix w{type, rows, cols, wq.data(), rowBytes};

    std::vector<float> batch(nTok * rows, NAN), one(rows, NAN);
    matmul(w, x.data(), nTok, batch.data(), pool(threads));
    for (int64_t t = 0; t < nTok; ++t) {
        matmul(w, x.data() + t * cols, 1, one.data(), pool(threads));
        for (int64_t r = 0; r < rows; ++r)
            if (std::memcmp(&batch[t * rows + r], &one[r], 4) != 0)
                QFAIL(qPrintable(QString("token %1 row %2: %3 in the batch, %4 alone")
                                     .arg(t).arg(r).arg(batch[t * rows + r], 0, 'g', 9).arg(one[r], 0, 'g', 9)));
    }
}

void TestQuantMatmul::pathSelection() {
    QVERIFY(kernelPathAvailable(KernelPath::Scalar));
    setKernelPathForTesting(KernelPath::Scalar);
    QCOMPARE(activeKernelPath(), KernelPath::Scalar);
    setKernelPathForTesting(KernelPath::Auto);
    QVERIFY(activeKernelPath() != KernelPath::Auto);
    for (KernelPath p : {KernelPath::Avx2, KernelPath::Avx512})
        if (!kernelPathAvailable(p)) QVERIFY_THROWS_EXCEPTION(Error, setKernelPathForTesting(p));
    qInfo("default kernel path here: %s", kernelPathName(activeKernelPath()));
}

QTEST_APPLESS_MAIN(TestQuantMatmul)
#include "test_quant_matmul.moc"
