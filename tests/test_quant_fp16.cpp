// Half and bfloat16 conversions (quant/fp16.h): edge cases by value, and where the CPU has F16C,
// every half and a few million floats against the hardware conversion the SIMD kernels use.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "quant/fp16.h"

#if defined(__x86_64__)
#include <immintrin.h>
__attribute__((target("f16c"))) static float hwHalfToFloat(uint16_t h) { return _cvtsh_ss(h); }
__attribute__((target("f16c"))) static uint16_t hwFloatToHalf(float f) {
    return _cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}
static bool hasF16c() { return __builtin_cpu_supports("f16c"); }
#else
static bool hasF16c() { return false; }
static float hwHalfToFloat(uint16_t) { return 0; }
static uint16_t hwFloatToHalf(float) { return 0; }
#endif

using namespace dlab;

class TestQuantFp16 : public QObject {
    Q_OBJECT
private slots:
    void toHalf_data();
    void toHalf();
    void fromHalf_data();
    void fromHalf();
    void toBf16_data();
    void toBf16();
    void nanStaysNan();
    void allHalvesMatchHardware();
    void floatsMatchHardware();
};

void TestQuantFp16::toHalf_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<uint16_t>("bits");
    QTest::newRow("one") << 1.0f << uint16_t(0x3C00);
    QTest::newRow("minus zero") << -0.0f << uint16_t(0x8000);
    QTest::newRow("max half") << 65504.0f << uint16_t(0x7BFF);
    // 65520 lies halfway between 65504 (odd mantissa) and 65536: ties go to even, i.e. infinity.
    QTest::newRow("tie to inf") << 65520.0f << uint16_t(0x7C00);
    QTest::newRow("just below tie") << std::nextafter(65520.0f, 0.0f) << uint16_t(0x7BFF);
    QTest::newRow("inf") << std::numeric_limits<float>::infinity() << uint16_t(0x7C00);
    QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << uint16_t(0xFC00);
    QTest::newRow("tie down to even") << 1.0f + std::ldexp(1.0f, -11) << uint16_t(0x3C00);
    QTest::newRow("tie up to even") << 1.0f + 3 * std::ldexp(1.0f, -11) << uint16_t(0x3C02);
    QTest::newRow("above tie") << std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f) << uint16_t(0x3C01);
    QTest::newRow("min normal") << std::ldexp(1.0f, -14) << uint16_t(0x0400);
    QTest::newRow("min subnormal") << std::ldexp(1.0f, -24) << uint16_t(0x0001);
    QTest::newRow("largest subnormal") << std::ldexp(1023.0f, -24) << uint16_t(0x03FF);
    QTest::newRow("subnormal tie to 0") << std::ldexp(1.0f, -25) << uint16_t(0x0000);
    QTest::newRow("above subnormal tie") << std::nextafter(std::ldexp(1.0f, -25), 1.0f) << uint16_t(0x0001);
    QTest::newRow("subnormal tie to 2") << std::ldexp(3.0f, -25) << uint16_t(0x0002);
    QTest::newRow("subnormal tie rounds into normal") << std::ldexp(2047.0f, -25) << uint16_t(0x0400);
    QTest::newRow("negative subnormal") << -std::ldexp(5.0f, -24) << uint16_t(0x8005);
    QTest::newRow("float subnormal") << std::numeric_limits<float>::denorm_min() << uint16_t(0x0000);
}

void TestQuantFp16::toHalf() {
    QFETCH(float, value);
    QFETCH(uint16_t, bits);
    QCOMPARE(fp32ToFp16(value), bits);
}

void TestQuantFp16::fromHalf_data() {
    QTest::addColumn<uint16_t>("bits");
    QTest::addColumn<float>("value");
    QTest::newRow("one") << uint16_t(0x3C00) << 1.0f;
    QTest::newRow("-2") << uint16_t(0xC000) << -2.0f;
    QTest::newRow("min subnormal") << uint16_t(0x0001) << std::ldexp(1.0f, -24);
    QTest::newRow("largest subnormal") << uint16_t(0x03FF) << std::ldexp(1023.0f, -24);
    QTest::newRow("negative subnormal") << uint16_t(0x8200) << -std::ldexp(1.0f, -15);
    QTest::newRow("max") << uint16_t(0x7BFF) << 65504.0f;
    QTest::newRow("inf") << uint16_t(0x7C00) << std::numeric_limits<float>::infinity();
    QTest::newRow("-0") << uint16_t(0x8000) << -0.0f;
}

void TestQuantFp16::fromHalf() {
    QFETCH(uint16_t, bits);
    QFETCH(float, value);
    QCOMPARE(fp32ToBits(fp16ToFp32(bits)), fp32ToBits(value));
}

void TestQuantFp16::toBf16_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<uint16_t>("bits");
    QTest::newRow("one") << 1.0f << uint16_t(0x3F80);
    QTest::newRow("tie down to even") << 1.0f + std::ldexp(1.0f, -8) << uint16_t(0x3F80);
    QTest::newRow("tie up to even") << 1.0f + 3 * std::ldexp(1.0f, -8) << uint16_t(0x3F82);
    QTest::newRow("above tie") << std::nextafter(1.0f + std::ldexp(1.0f, -8), 2.0f) << uint16_t(0x3F81);
    QTest::newRow("inf") << std::numeric_limits<float>::infinity() << uint16_t(0x7F80);
    QTest::newRow("float max rounds to inf") << std::numeric_limits<float>::max() << uint16_t(0x7F80);
    QTest::newRow("subnormal kept") << fp32FromBits(0x00018000) << uint16_t(0x0002);
    QTest::newRow("-0") << -0.0f << uint16_t(0x8000);
}

void TestQuantFp16::toBf16() {
    QFETCH(float, value);
    QFETCH(uint16_t, bits);
    QCOMPARE(fp32ToBf16(value), bits);
    QCOMPARE(fp32ToBits(bf16ToFp32(bits)), uint32_t(bits) << 16);
}

void TestQuantFp16::nanStaysNan() {
    for (uint32_t bits : {0x7FC00000u, 0x7F800001u, 0xFFC00001u, 0x7FFFFFFFu}) {
        const float nan = fp32FromBits(bits);
        const uint16_t h = fp32ToFp16(nan), b = fp32ToBf16(nan);
        QVERIFY(std::isnan(fp16ToFp32(h)));
        QVERIFY(std::isnan(bf16ToFp32(b)));
        QCOMPARE(h & 0x8000, int((bits >> 16) & 0x8000));  // sign kept
        QCOMPARE(b & 0x8000, int((bits >> 16) & 0x8000));
    }
}

void TestQuantFp16::allHalvesMatchHardware() {
    if (!hasF16c()) QSKIP("CPU has no F16C");
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const float sw = fp16ToFp32(uint16_t(h)), hw = hwHalfToFloat(uint16_t(h));
        if (std::isnan(hw)) QVERIFY(std::isnan(sw));
        else if (fp32ToBits(sw) != fp32ToBits(hw)) QFAIL(qPrintable(QString("half 0x%1").arg(h, 4, 16)));
    }
}

// Every rounding boundary of the half range, plus random bit patterns.
void TestQuantFp16::floatsMatchHardware() {
    if (!hasF16c()) QSKIP("CPU has no F16C");
    auto check = [](uint32_t bits) {
        const float f = fp32FromBits(bits);
        const uint16_t sw = fp32ToFp16(f), hw = hwFloatToHalf(f);
        if (std::isnan(f)) return (sw & 0x7C00) == 0x7C00 && (sw & 0x3FF) != 0;
        return sw == hw;
    };
    for (uint32_t h = 0; h < 0x7C00; ++h) {  // each half, the midpoint to the next and its neighbours
        const float lo = fp16ToFp32(uint16_t(h)), hi = fp16ToFp32(uint16_t(h + 1));
        const uint32_t mid = fp32ToBits(lo + (hi - lo) / 2);
        for (uint32_t b : {fp32ToBits(lo), mid - 1, mid, mid + 1})
            for (uint32_t s : {0u, 0x80000000u})
                if (!check(b | s)) QFAIL(qPrintable(QString("float bits 0x%1").arg(b | s, 8, 16)));
    }
    std::mt19937 rng(7);
    for (int i = 0; i < 2000000; ++i) {
        const uint32_t b = rng();
        if (!check(b)) QFAIL(qPrintable(QString("float bits 0x%1").arg(b, 8, 16)));
    }
}

QTEST_APPLESS_MAIN(TestQuantFp16)
#include "test_quant_fp16.moc"
