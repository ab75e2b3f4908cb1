// Quantization blocks: reference quantizers -> dequantize round trips with per-type error bounds,
// hand-built blocks with known values, and the errors a caller can run into.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "quant/block_types.h"
#include "quant/fp16.h"
#include "quant/matmul.h"
#include "quant/quantize.h"

using namespace dlab;

Q_DECLARE_METATYPE(dlab::GgmlType)

namespace {

std::vector<float> gaussian(int64_t n, uint32_t seed, float scale = 1.0f, float offset = 0.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(offset, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

std::vector<float> roundTrip(GgmlType type, const std::vector<float>& x) {
    const int64_t n = static_cast<int64_t>(x.size());
    std::vector<uint8_t> q(ggmlRowBytes(type, n));
    quantize(type, x.data(), q.data(), n);
    std::vector<float> y(n);
    dequantize(type, q.data(), y.data(), n);
    return y;
}

}  // namespace

class TestQuant : public QObject {
    Q_OBJECT
private slots:
    void blockBounds_data();
    void blockBounds();
    void kQuantRms_data();
    void kQuantRms();
    void specialBlocks_data();
    void specialBlocks();
    void handBuiltQ4_1();
    void handBuiltQ8_0AndQ4_0();
    void handBuiltQ4_K();
    void referenceQ4_0MatchesGgml();
    void dequantizeRowPicksRow();
    void errors();
};

// Q8_0 / Q4_0 / Q4_1 and the float types: a bound on every element, relative to its block.
void TestQuant::blockBounds_data() {
    QTest::addColumn<GgmlType>("type");
    QTest::newRow("F32") << GgmlType::F32;
    QTest::newRow("F16") << GgmlType::F16;
    QTest::newRow("BF16") << GgmlType::BF16;
    QTest::newRow("Q8_0") << GgmlType::Q8_0;
    QTest::newRow("Q4_0") << GgmlType::Q4_0;
    QTest::newRow("Q4_1") << GgmlType::Q4_1;
}

void TestQuant::blockBounds() {
    QFETCH(GgmlType, type);
    const auto x = gaussian(32 * 64, 11, 0.7f, 0.2f);
    const auto y = roundTrip(type, x);
    for (size_t b = 0; b < x.size() / 32; ++b) {
        float lo = x[32 * b], hi = lo, amax = 0;
        for (int j = 0; j < 32; ++j) {
            lo = std::min(lo, x[32 * b + j]), hi = std::max(hi, x[32 * b + j]);
            amax = std::max(amax, std::fabs(x[32 * b + j]));
        }
        for (int j = 0; j < 32; ++j) {
            const size_t i = 32 * b + j;
            const float err = std::fabs(y[i] - x[i]);
            float bound = 0;
            switch (type) {
            case GgmlType::F32: bound = 0; break;
            case GgmlType::F16: bound = std::fabs(x[i]) * 0x1p-11f; break;   // half an ulp of 11 bits
            case GgmlType::BF16: bound = std::fabs(x[i]) * 0x1p-8f; break;   // half an ulp of 8 bits
            // Half a step of amax / 127, plus the scale's own fp16 rounding on the largest value.
            case GgmlType::Q8_0: bound = amax / 127 * 0.5f + amax * 0x1p-10f; break;
            // Steps of amax / 8; the value at +amax clips from 16 to 15, a whole step.
            case GgmlType::Q4_0: bound = amax / 8 * 1.01f; break;
            // Half a step of (max - min) / 15, plus fp16 rounding of d (x 15 steps) and of m.
            case GgmlType::Q4_1: bound = (hi - lo) / 15 * 0.5f + (std::fabs(hi) + 2 * std::fabs(lo)) * 0x1p-10f; break;
            default: QFAIL("type");
            }
            if (err > bound)
                QFAIL(qPrintable(QString("element %1: %2 -> %3, error %4 > %5").arg(i).arg(x[i]).arg(y[i]).arg(err).arg(bound)));
        }
    }
}

// The K-quants' own search is not ggml's, so they are held to a relative RMS error on Gaussian
// data, about 20% above what they reach here (measured 0.071 / 0.035 / 0.021).
void TestQuant::kQuantRms_data() {
    QTest::addColumn<GgmlType>("type");
    QTest::addColumn<double>("maxRelRms");
    QTest::newRow("Q4_K") << GgmlType::Q4_K << 0.085;
    QTest::newRow("Q5_K") << GgmlType::Q5_K << 0.042;
    QTest::newRow("Q6_K") << GgmlType::Q6_K << 0.026;
}

void TestQuant::kQuantRms() {
    QFETCH(GgmlType, type);
    QFETCH(double, maxRelRms);
    for (float offset : {0.0f, 0.8f}) {
        const auto x = gaussian(256 * 32, 5, 1.0f, offset);
        const auto y = roundTrip(type, x);
        double se = 0, ss = 0, maxErr = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            se += double(y[i] - x[i]) * (y[i] - x[i]);
            ss += double(x[i] - offset) * (x[i] - offset);
            maxErr = std::max(maxErr, double(std::fabs(y[i] - x[i])));
        }
        const double rel = std::sqrt(se / ss);
        qInfo("%s offset %.1f: relative RMS error %.4f, max error %.3f", ggmlTypeName(type).c_str(), offset, rel, maxErr);
        QVERIFY2(rel < maxRelRms, qPrintable(QString::number(rel)));
        QVERIFY(maxErr < 0.5);
    }
}

// Zeros, constants and single spikes must give finite, valid blocks.
void TestQuant::specialBlocks_data() {
    QTest::addColumn<GgmlType>("type");
    for (GgmlType t : {GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K})
        QTest::newRow(ggmlTypeName(t).c_str()) << t;
}

void TestQuant::specialBlocks() {
    QFETCH(GgmlType, type);
    const int n = 512;
    std::vector<float> zeros(n, 0.0f), constant(n, -0.75f), spike(n, 0.0f);
    spike[37] = 9.0f;
    spike[300] = -4.0f;
    for (const auto* x : {&zeros, &constant, &spike}) {
        const auto y = roundTrip(type, *x);
        for (int i = 0; i < n; ++i) {
            QVERIFY(std::isfinite(y[i]));
            QVERIFY2(std::fabs(y[i] - (*x)[i]) <= 0.02f * 9.0f + 1e-6f,
                     qPrintable(QString("element %1: %2 -> %3").arg(i).arg((*x)[i]).arg(y[i])));
        }
    }
    QCOMPARE(roundTrip(type, zeros), zeros);
}

// d = 0.5, m = -1, byte j = j | (15 - j) << 4: element j is 0.5 j - 1, element j + 16 is 0.5 (15 - j) - 1.
void TestQuant::handBuiltQ4_1() {
    quant::BlockQ4_1 b{};
    b.d = 0x3800;  // 0.5
    b.m = 0xBC00;  // -1.0
    for (int j = 0; j < 16; ++j) b.qs[j] = static_cast<uint8_t>(j | ((15 - j) << 4));
    float y[32];
    dequantize(GgmlType::Q4_1, reinterpret_cast<const uint8_t*>(&b), y, 32);
    for (int j = 0; j < 16; ++j) {
        QCOMPARE(y[j], 0.5f * j - 1.0f);
        QCOMPARE(y[j + 16], 0.5f * (15 - j) - 1.0f);
    }
    // Through matmul too: a one-hot x = e5 becomes q = 127 with d = fp16(1/127), and Q8_1's sum
    // term s = fp16(d * 127) = 1, so the row gives 0.5 * d * (5 * 127) + m * s (not quite 1.5).
    const WeightMatrix w{GgmlType::Q4_1, 1, 32, reinterpret_cast<const uint8_t*>(&b), sizeof b};
    float x[32] = {};
    x[5] = 1.0f;
    float out = 0;
    ThreadPool pool(1);
    matmul(w, x, 1, &out, pool);
    const double expected = 0.5 * fp16ToFp32(fp32ToFp16(1.0f / 127)) * (5 * 127) - 1.0;
    QVERIFY2(std::fabs(out - expected) < 1e-6, qPrintable(QString::number(out, 'g', 9)));
}

void TestQuant::handBuiltQ8_0AndQ4_0() {
    quant::BlockQ8_0 q8{};
    q8.d = 0x3400;  // 0.25
    for (int j = 0; j < 32; ++j) q8.qs[j] = static_cast<int8_t>(j * 8 - 127);
    float y[32];
    dequantize(GgmlType::Q8_0, reinterpret_cast<const uint8_t*>(&q8), y, 32);
    for (int j = 0; j < 32; ++j) QCOMPARE(y[j], 0.25f * (j * 8 - 127));

    quant::BlockQ4_0 q4{};
    q4.d = 0xC000;  // -2
    for (int j = 0; j < 16; ++j) q4.qs[j] = static_cast<uint8_t>(j | (3 << 4));
    dequantize(GgmlType::Q4_0, reinterpret_cast<const uint8_t*>(&q4), y, 32);
    for (int j = 0; j < 16; ++j) {
        QCOMPARE(y[j], -2.0f * (j - 8));
        QCOMPARE(y[j + 16], 10.0f);
    }
}

// Sub-block 5 has scale 33 and min 17 (6 bits split across the packed bytes); d = 1, dmin = 0.5.
void TestQuant::handBuiltQ4_K() {
    quant::BlockQ4_K b{};
    b.d = 0x3C00;
    b.dmin = 0x3800;
    const int sc = 33, m = 17, j = 5;
    b.scales[j + 4] = static_cast<uint8_t>((sc & 0xF) | ((m & 0xF) << 4));
    b.scales[j - 4] |= static_cast<uint8_t>((sc >> 4) << 6);
    b.scales[j] |= static_cast<uint8_t>((m >> 4) << 6);
    for (int l = 0; l < 32; ++l) b.qs[32 * 2 + l] = static_cast<uint8_t>((l % 16) << 4);  // sub-block 5 = high nibbles of chunk 2
    std::vector<float> y(256);
    dequantize(GgmlType::Q4_K, reinterpret_cast<const uint8_t*>(&b), y.data(), 256);
    for (int l = 0; l < 32; ++l) QCOMPARE(y[160 + l], 33.0f * (l % 16) - 8.5f);
    for (int i = 0; i < 160; ++i) QCOMPARE(y[i], 0.0f);
}

// ggml's quantize_row_q4_0_ref: d = (signed value of largest magnitude) / -8.
void TestQuant::referenceQ4_0MatchesGgml() {
    std::vector<float> x(32);
    for (int j = 0; j < 32; ++j) x[j] = (j - 12) * 0.25f;  // -3 .. 4.75, largest magnitude +4.75
    std::vector<uint8_t> q(ggmlRowBytes(GgmlType::Q4_0, 32));
    quantize(GgmlType::Q4_0, x.data(), q.data(), 32);
    quant::BlockQ4_0 b;
    std::memcpy(&b, q.data(), sizeof b);
    QCOMPARE(fp16ToFp32(b.d), fp16ToFp32(fp32ToFp16(4.75f / -8)));
    QCOMPARE(b.qs[0] & 0xF, 8 + 5);  // x = -3, id = -8 / 4.75: -3 * id + 8.5 = 13.55
    QCOMPARE(b.qs[15] >> 4, 0);      // x = 4.75 -> 0
}

void TestQuant::dequantizeRowPicksRow() {
    const auto x = gaussian(3 * 64, 3);
    std::vector<uint8_t> q(3 * ggmlRowBytes(GgmlType::Q8_0, 64));
    quantize(GgmlType::Q8_0, x.data(), q.data(), 3 * 64);
    const WeightMatrix w{GgmlType::Q8_0, 3, 64, q.data(), ggmlRowBytes(GgmlType::Q8_0, 64)};
    std::vector<float> all(3 * 64), row(64);
    dequantize(GgmlType::Q8_0, q.data(), all.data(), 3 * 64);
    dequantizeRow(w, 2, row.data());
    QVERIFY(std::equal(row.begin(), row.end(), all.begin() + 128));
    QVERIFY_THROWS_EXCEPTION(Error, dequantizeRow(w, 3, row.data()));
}

void TestQuant::errors() {
    ThreadPool pool(1);
    std::vector<uint8_t> data(4096);
    std::vector<float> x(256), y(4);
    // Q5_0 is a real ggml type the kernels do not cover.
    WeightMatrix w{GgmlType::Q5_0, 2, 64, data.data(), ggmlRowBytes(GgmlType::Q5_0, 64)};
    QVERIFY_THROWS_EXCEPTION(Error, matmul(w, x.data(), 1, y.data(), pool));
    w = {GgmlType::Q4_K, 2, 96, data.data(), 96};  // 96 columns is not a whole super-block
    QVERIFY_THROWS_EXCEPTION(Error, matmul(w, x.data(), 1, y.data(), pool));
    w = {GgmlType::Q8_0, 2, 64, data.data(), 40};  // stride shorter than a row
    QVERIFY_THROWS_EXCEPTION(Error, matmul(w, x.data(), 1, y.data(), pool));
    QVERIFY_THROWS_EXCEPTION(Error, quantize(GgmlType::Q4_0, x.data(), data.data(), 33));
    QVERIFY_THROWS_EXCEPTION(Error, quantize(GgmlType::Q2_K, x.data(), data.data(), 256));
    QVERIFY_THROWS_EXCEPTION(Error, dequantize(GgmlType::IQ2_XS, data.data(), x.data(), 256));
    try {
        w = {GgmlType::Q5_0, 2, 64, data.data(), ggmlRowBytes(GgmlType::Q5_0, 64)};
        matmul(w, x.data(), 1, y.data(), pool);
    } catch (const Error& e) {
        QVERIFY(QString(e.what()).contains("Q5_0"));
        QVERIFY(QString(e.what()).contains("Q4_1"));  // lists what is supported
    }
}

QTEST_APPLESS_MAIN(TestQuant)
#include "test_quant.moc"
