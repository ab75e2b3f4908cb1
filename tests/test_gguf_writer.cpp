// GgufWriter: everything it writes must come back unchanged through GgufFile.
#include <QtTest>

#include <cstring>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "quant/fp16.h"
#include "test_paths.h"

using namespace dlab;

Q_DECLARE_METATYPE(dlab::GgufValueType)

namespace {

std::unique_ptr<GgufFile> roundTrip(const GgufWriter& w) { return GgufFile::fromBytes(w.toBytes(), "written.gguf"); }

std::vector<uint8_t> f32Bytes(const std::vector<float>& v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

}  // namespace

class TestGgufWriter : public QObject {
    Q_OBJECT

private slots:
    // One metadata entry per scalar type: the reader returns the same type and value.
    void scalarRoundTrip_data() {
        QTest::addColumn<GgufValueType>("type");
        QTest::addColumn<qint64>("intValue");
        QTest::addColumn<double>("floatValue");
        QTest::newRow("uint8 max") << GgufValueType::UInt8 << qint64(255) << 0.0;
        QTest::newRow("int8 min") << GgufValueType::Int8 << qint64(-128) << 0.0;
        QTest::newRow("uint16 max") << GgufValueType::UInt16 << qint64(65535) << 0.0;
        QTest::newRow("int16 min") << GgufValueType::Int16 << qint64(-32768) << 0.0;
        QTest::newRow("uint32 max") << GgufValueType::UInt32 << qint64(4294967295LL) << 0.0;
        QTest::newRow("int32 min") << GgufValueType::Int32 << qint64(INT32_MIN) << 0.0;
        QTest::newRow("uint64 big") << GgufValueType::UInt64 << qint64(INT64_MAX) << 0.0;
        QTest::newRow("int64 min") << GgufValueType::Int64 << qint64(INT64_MIN) << 0.0;
        QTest::newRow("bool true") << GgufValueType::Bool << qint64(1) << 0.0;
        QTest::newRow("bool false") << GgufValueType::Bool << qint64(0) << 0.0;
        QTest::newRow("float32") << GgufValueType::Float32 << qint64(0) << 1e-5;
        QTest::newRow("float64") << GgufValueType::Float64 << qint64(0) << 1.0 / 3.0;
    }
    void scalarRoundTrip() {
        QFETCH(GgufValueType, type);
        QFETCH(qint64, intValue);
        QFETCH(double, floatValue);
        GgufWriter w;
        const std::string key = "test.value";
        switch (type) {
            case GgufValueType::UInt8: w.addUInt8(key, uint8_t(intValue)); break;
            case GgufValueType::Int8: w.addInt8(key, int8_t(intValue)); break;
            case GgufValueType::UInt16: w.addUInt16(key, uint16_t(intValue)); break;
            case GgufValueType::Int16: w.addInt16(key, int16_t(intValue)); break;
            case GgufValueType::UInt32: w.addUInt32(key, uint32_t(intValue)); break;
            case GgufValueType::Int32: w.addInt32(key, int32_t(intValue)); break;
            case GgufValueType::UInt64: w.addUInt64(key, uint64_t(intValue)); break;
            case GgufValueType::Int64: w.addInt64(key, intValue); break;
            case GgufValueType::Bool: w.addBool(key, intValue != 0); break;
            case GgufValueType::Float32: w.addFloat32(key, float(floatValue)); break;
            case GgufValueType::Float64: w.addFloat64(key, floatValue); break;
            default: QFAIL("not a scalar");
        }
        auto f = roundTrip(w);
        QCOMPARE(f->version(), 3u);
        QCOMPARE(f->metadata().size(), size_t(1));
        const GgufValue* v = f->find(key);
        QVERIFY(v);
        QCOMPARE(v->type, type);
        if (type == GgufValueType::Float32) {
            QCOMPARE(v->f, double(float(floatValue)));
        } else if (type == GgufValueType::Float64) {
            QCOMPARE(v->f, floatValue);
        } else {
            QCOMPARE(v->i, intValue);
            if (type != GgufValueType::Bool) QCOMPARE(f->getInt(key), intValue);
        }
    }

    void stringsAndArrays() {
        GgufWriter w;
        const std::string unicode = "caf\xc3\xa9 \xe2\x96\x81 <|im_start|>";
        w.addString("general.name", unicode);
        w.addString("empty", "");
        w.addStringArray("tokens", {"a", "", unicode, std::string("nul\0byte", 8)});
        w.addStringArray("no.tokens", {});
        w.addIntArray("types.i32", GgufValueType::Int32, {1, -2, 3, INT32_MAX});
        w.addIntArray("types.u8", GgufValueType::UInt8, {0, 255});
        w.addIntArray("types.i64", GgufValueType::Int64, {INT64_MIN, INT64_MAX});
        w.addIntArray("flags", GgufValueType::Bool, {1, 0, 1});
        w.addFloatArray("scores.f32", GgufValueType::Float32, {0.5, -1.25, 3.0});
        w.addFloatArray("scores.f64", GgufValueType::Float64, {1.0 / 3.0});
        auto f = roundTrip(w);

        QCOMPARE(f->getString("general.name"), unicode);
        QCOMPARE(f->getString("empty"), std::string());
        const auto& tokens = f->getArray("tokens", GgufValueType::String);
        QCOMPARE(tokens.strings, (std::vector<std::string>{"a", "", unicode, std::string("nul\0byte", 8)}));
        QCOMPARE(f->getArray("no.tokens", GgufValueType::String).arrayCount, uint64_t(0));
        QCOMPARE(f->getArray("types.i32", GgufValueType::Int32).ints, (std::vector<int64_t>{1, -2, 3, INT32_MAX}));
        QCOMPARE(f->getArray("types.u8", GgufValueType::UInt8).ints, (std::vector<int64_t>{0, 255}));
        QCOMPARE(f->getArray("types.i64", GgufValueType::Int64).ints, (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
        QCOMPARE(f->getArray("flags", GgufValueType::Bool).arrayType, GgufValueType::Bool);
        QCOMPARE(f->getArray("flags", GgufValueType::Bool).ints, (std::vector<int64_t>{1, 0, 1}));
        QCOMPARE(f->getArray("scores.f32", GgufValueType::Float32).floats, (std::vector<double>{0.5, -1.25, 3.0}));
        QCOMPARE(f->getArray("scores.f64", GgufValueType::Float64).floats, (std::vector<double>{1.0 / 3.0}));
        // File order is kept.
        QCOMPARE(f->metadata().front().first, std::string("general.name"));
        QCOMPARE(f->metadata().back().first, std::string("scores.f64"));
    }

    // Tensors come back with their shape, type and exact bytes, each on an alignment boundary.
    void tensorsAndAlignment_data() {
        QTest::addColumn<int>("alignment");  // 0: leave the default (32, no general.alignment key)
        QTest::newRow("default 32") << 0;
        QTest::newRow("1") << 1;
        QTest::newRow("8") << 8;
        QTest::newRow("64") << 64;
        QTest::newRow("4096") << 4096;
    }
    void tensorsAndAlignment() {
        QFETCH(int, alignment);
        GgufWriter w;
        if (alignment) w.setAlignment(uint32_t(alignment));
        w.addString("general.architecture", "test");
        std::vector<float> a(3 * 5);
        for (size_t k = 0; k < a.size(); ++k) a[k] = float(k) - 7.5f;
        w.addTensorF32("a", {3, 5}, a);
        std::vector<uint8_t> h(7 * 2);
        for (int k = 0; k < 7; ++k) {
            const uint16_t x = fp32ToFp16(float(k) * 0.25f);
            std::memcpy(h.data() + 2 * k, &x, 2);
        }
        w.addTensor("b.half", GgmlType::F16, {7}, h);
        std::vector<uint8_t> q(2 * 34 * 3);
        for (size_t k = 0; k < q.size(); ++k) q[k] = uint8_t(k * 31 + 7);
        w.addTensor("c.q8", GgmlType::Q8_0, {64, 3}, q);
        w.addTensor("d.4d", GgmlType::F32, {1, 2, 1, 2}, f32Bytes({1, 2, 3, 4}));

        const auto bytes = w.toBytes();
        auto f = GgufFile::fromBytes(bytes, "aligned.gguf");
        const uint32_t expect = alignment ? uint32_t(alignment) : 32u;
        QCOMPARE(f->alignment(), expect);
        QCOMPARE(f->dataOffset() % expect, size_t(0));
        QCOMPARE(f->tensors().size(), size_t(4));
        for (const auto& t : f->tensors()) QCOMPARE(t.offset % expect, uint64_t(0));
        QCOMPARE(bytes.size() % expect, size_t(0));  // the last tensor is padded too

        const GgufTensor& ta = f->tensor("a");
        QCOMPARE(ta.type, GgmlType::F32);
        QCOMPARE(ta.shape, (std::vector<int64_t>{3, 5}));
        QCOMPARE(ta.nbytes, a.size() * 4);
        QVERIFY(std::memcmp(ta.data, a.data(), ta.nbytes) == 0);
        const GgufTensor& tb = f->tensor("b.half");
        QCOMPARE(tb.type, GgmlType::F16);
        QVERIFY(std::memcmp(tb.data, h.data(), h.size()) == 0);
        const GgufTensor& tc = f->tensor("c.q8");
        QCOMPARE(tc.type, GgmlType::Q8_0);
        QCOMPARE(tc.shape, (std::vector<int64_t>{64, 3}));
        QCOMPARE(tc.nbytes, q.size());
        QVERIFY(std::memcmp(tc.data, q.data(), q.size()) == 0);
        QCOMPARE(f->tensor("d.4d").shape.size(), size_t(4));
    }

    void setAlignmentTwiceKeepsOneKey() {
        GgufWriter w;
        w.setAlignment(16);
        w.setAlignment(128);
        auto f = roundTrip(w);
        QCOMPARE(f->metadata().size(), size_t(1));
        QCOMPARE(f->getInt("general.alignment"), int64_t(128));
        QCOMPARE(f->find("general.alignment")->type, GgufValueType::UInt32);  // ggml insists on uint32
    }

    void writeToPathAndOpen() {
        GgufWriter w;
        w.addString("general.architecture", "test");
        w.addTensorF32("x", {4}, {1, 2, 3, 4});
        const std::string path = dlab::test::scratchDir() + "/writer.gguf";
        w.write(path);
        auto f = GgufFile::open(path);
        QCOMPARE(f->path(), path);
        QCOMPARE(f->fileSize(), w.toBytes().size());
        QCOMPARE(reinterpret_cast<const float*>(f->tensor("x").data)[3], 4.0f);
    }

    void emptyWriterIsValid() {
        auto f = roundTrip(GgufWriter());
        QVERIFY(f->metadata().empty());
        QVERIFY(f->tensors().empty());
    }

    // Misuse is refused with a dlab::Error that names the key or tensor.
    void refusesBadInput_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("duplicate key") << 0 << "'k' is added twice";
        QTest::newRow("duplicate tensor") << 1 << "tensor 't' is added twice";
        QTest::newRow("wrong byte count") << 2 << "needs 16 bytes but was given 12";
        QTest::newRow("alignment 3") << 3 << "power of two";
        QTest::newRow("alignment 0") << 4 << "power of two";
        QTest::newRow("alignment as int32") << 5 << "uint32";
        QTest::newRow("value out of range") << 6 << "does not fit uint8";
        QTest::newRow("float element type for ints") << 7 << "not an integer element type";
        QTest::newRow("int element type for floats") << 8 << "not a float element type";
        QTest::newRow("no dimensions") << 9 << "1 to 4 dimensions";
        QTest::newRow("five dimensions") << 10 << "1 to 4 dimensions";
        QTest::newRow("zero dimension") << 11 << "dimension of 0";
        QTest::newRow("row not a block multiple") << 12 << "block size 32";
        QTest::newRow("uint64 above int64") << 13 << "above 2^63-1";
        QTest::newRow("unwritable path") << 14 << "/no/such/dir/x.gguf: cannot create";
    }
    void refusesBadInput() {
        QFETCH(int, which);
        QFETCH(QString, expected);
        GgufWriter w;
        w.addUInt32("k", 1);
        w.addTensorF32("t", {4}, {0, 0, 0, 0});
        try {
            switch (which) {
                case 0: w.addString("k", "again"); break;
                case 1: w.addTensorF32("t", {1}, {0}); break;
                case 2: w.addTensor("u", GgmlType::F32, {4}, std::vector<uint8_t>(12)); break;
                case 3: w.setAlignment(3); break;
                case 4: w.setAlignment(0); break;
                case 5: w.addInt32("general.alignment", 32); break;
                case 6: w.addIntArray("a", GgufValueType::UInt8, {256}); break;
                case 7: w.addIntArray("a", GgufValueType::Float32, {1}); break;
                case 8: w.addFloatArray("a", GgufValueType::Int32, {1.0}); break;
                case 9: w.addTensor("u", GgmlType::F32, {}, {}); break;
                case 10: w.addTensor("u", GgmlType::F32, {1, 1, 1, 1, 1}, std::vector<uint8_t>(4)); break;
                case 11: w.addTensor("u", GgmlType::F32, {4, 0}, {}); break;
                case 12: w.addTensor("u", GgmlType::Q8_0, {16}, std::vector<uint8_t>(34)); break;
                case 13: w.addUInt64("big", UINT64_MAX); break;
                case 14: w.write("/no/such/dir/x.gguf"); break;
            }
            QFAIL("no dlab::Error was thrown");
        } catch (const dlab::Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.contains(expected), qPrintable(msg));
        }
    }
};

QTEST_APPLESS_MAIN(TestGgufWriter)
#include "test_gguf_writer.moc"
