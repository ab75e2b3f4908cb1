// GgufFile: valid files round-trip; every malformed file is refused with a dlab::Error whose
// message names the file and the problem (and nothing is allocated from a corrupt count).
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "test_paths.h"

using namespace dlab;

namespace {

// Hand-assembled GGUF bytes, for files the writer would refuse to produce.
class Raw {
public:
    Raw& u8(uint8_t v) { return put(&v, 1); }
    Raw& u32(uint32_t v) { return put(&v, 4); }
    Raw& u64(uint64_t v) { return put(&v, 8); }
    Raw& f32(float v) { return put(&v, 4); }
    Raw& str(const std::string& s) { u64(s.size()); return put(s.data(), s.size()); }
    Raw& zeros(size_t n) { bytes_.append(QByteArray(int(n), '\0')); return *this; }
    Raw& padTo(size_t alignment) { return zeros((alignment - size_t(bytes_.size()) % alignment) % alignment); }

    Raw& header(uint32_t version, uint64_t nTensors, uint64_t nKv) {
        bytes_.append("GGUF", 4);
        return u32(version).u64(nTensors).u64(nKv);
    }
    Raw& kvU32(const std::string& key, uint32_t v) { return str(key).u32(uint32_t(GgufValueType::UInt32)).u32(v); }
    Raw& kvString(const std::string& key, const std::string& v) { return str(key).u32(uint32_t(GgufValueType::String)).str(v); }
    Raw& tensorInfo(const std::string& name, const std::vector<uint64_t>& dims, uint32_t type, uint64_t offset) {
        str(name).u32(uint32_t(dims.size()));
        for (uint64_t d : dims) u64(d);
        return u32(type).u64(offset);
    }

    QByteArray bytes() const { return bytes_; }
    // The bytes as GgufFile::fromBytes takes them. Iterators of one object: bytes() returns a copy,
    // so bytes().begin() and bytes().end() would belong to two different buffers (undefined behaviour).
    std::vector<uint8_t> vector() const { return std::vector<uint8_t>(bytes_.cbegin(), bytes_.cend()); }

private:
    Raw& put(const void* p, size_t n) {
        bytes_.append(static_cast<const char*>(p), int(n));
        return *this;
    }
    QByteArray bytes_;
};

// One F32 tensor "w" of shape [4] at offset 0 with its 16 bytes of data, after the given metadata.
QByteArray oneTensorFile(const std::vector<uint64_t>& dims, uint32_t type, uint64_t offset, size_t dataBytes) {
    Raw r;
    r.header(3, 1, 1).kvString("general.architecture", "test").tensorInfo("w", dims, type, offset).padTo(32).zeros(dataBytes);
    return r.bytes();
}

// A valid file with metadata of several kinds and two tensors, as written by GgufWriter.
std::vector<uint8_t> validFile() {
    GgufWriter w;
    w.addString("general.architecture", "test");
    w.addString("general.name", "a model with a long enough name to cut in the middle");
    w.addStringArray("tokenizer.ggml.tokens", {"alpha", "beta", "gamma", "delta"});
    w.addFloatArray("tokenizer.ggml.scores", GgufValueType::Float32, {0, -1, -2, -3});
    w.addUInt32("test.block_count", 2);
    std::vector<float> v(64 * 4);
    for (size_t k = 0; k < v.size(); ++k) v[k] = float(k);
    w.addTensorF32("first.weight", {64, 4}, v);
    w.addTensorF32("second.weight", {64, 4}, v);
    return w.toBytes();
}

size_t indexOf(const std::vector<uint8_t>& hay, const std::string& needle) {
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end());
    return it == hay.end() ? 0 : size_t(it - hay.begin());
}

QByteArray cut(const std::vector<uint8_t>& bytes, size_t n) {
    return QByteArray(reinterpret_cast<const char*>(bytes.data()), int(std::min(n, bytes.size())));
}

void expectError(const std::function<void()>& load, const QString& name, const QStringList& keywords) {
    try {
        load();
        QFAIL("the file was accepted");
    } catch (const dlab::Error& e) {
        const QString msg = QString::fromStdString(e.what());
        QVERIFY2(msg.startsWith(name + ": "), qPrintable("message does not name the file: " + msg));
        for (const QString& k : keywords) QVERIFY2(msg.contains(k, Qt::CaseInsensitive), qPrintable("'" + k + "' missing in: " + msg));
    }
}

}  // namespace

class TestGgufReader : public QObject {
    Q_OBJECT

private slots:
    void roundTripFromDisk() {
        const std::vector<uint8_t> bytes = validFile();
        const std::string path = dlab::test::scratchDir() + "/valid.gguf";
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        auto f = GgufFile::open(path);
        QCOMPARE(f->version(), 3u);
        QCOMPARE(f->fileSize(), bytes.size());
        QCOMPARE(f->getString("general.architecture"), std::string("test"));
        QCOMPARE(f->getInt("test.block_count"), int64_t(2));
        QCOMPARE(f->getArray("tokenizer.ggml.tokens", GgufValueType::String).strings.size(), size_t(4));
        QCOMPARE(f->tensors().size(), size_t(2));
        const GgufTensor& t = f->tensor("second.weight");
        QCOMPARE(t.shapeString(), std::string("[64, 4]"));
        QCOMPARE(t.rows(), int64_t(4));
        QCOMPARE(reinterpret_cast<const float*>(t.data)[255], 255.0f);
        // Missing keys and tensors name the file too.
        expectError([&] { f->getString("no.such.key"); }, QString::fromStdString(path), {"no.such.key", "missing"});
        expectError([&] { f->tensor("no.such.tensor"); }, QString::fromStdString(path), {"no.such.tensor", "missing"});
        expectError([&] { f->getInt("general.architecture"); }, QString::fromStdString(path), {"type string", "integer"});
    }

    void version2IsAccepted() {
        Raw r;
        r.header(2, 0, 1).kvU32("x", 7);
        auto f = GgufFile::fromBytes(r.vector(), "v2.gguf");
        QCOMPARE(f->version(), 2u);
        QCOMPARE(f->getInt("x"), int64_t(7));
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("keywords");

        const std::vector<uint8_t> good = validFile();
        const size_t dataStart = GgufFile::fromBytes(good, "good.gguf")->dataOffset();
        const size_t nameKey = indexOf(good, "general.name");
        const size_t nameValue = indexOf(good, "a model with");
        const size_t token = indexOf(good, "gamma");
        const size_t lastKey = indexOf(good, "test.block_count");
        const size_t tensorName = indexOf(good, "second.weight");
        QVERIFY(nameKey && nameValue && token && lastKey && tensorName);

        QTest::newRow("empty") << QByteArray() << QStringList{"empty"};
        QTest::newRow("cut inside the magic") << cut(good, 3) << QStringList{"truncated"};
        QTest::newRow("cut inside the version") << cut(good, 6) << QStringList{"truncated", "version"};
        QTest::newRow("cut inside the tensor count") << cut(good, 12) << QStringList{"truncated", "tensor count"};
        QTest::newRow("cut inside the metadata count") << cut(good, 20) << QStringList{"truncated", "metadata count"};
        QTest::newRow("cut after the counts") << cut(good, 24) << QStringList{"truncated"};
        // Early cuts leave too few bytes for the metadata count the header promised.
        QTest::newRow("cut inside an early key") << cut(good, nameKey + 4) << QStringList{"truncated", "metadata entries"};
        QTest::newRow("cut inside the last key") << cut(good, lastKey + 4) << QStringList{"truncated", "metadata key needs"};
        QTest::newRow("cut inside a string value") << cut(good, nameValue + 5) << QStringList{"truncated", "string"};
        QTest::newRow("cut inside a string array") << cut(good, token + 2) << QStringList{"truncated", "array string"};
        QTest::newRow("cut inside tensor info") << cut(good, tensorName + 16) << QStringList{"truncated"};
        QTest::newRow("cut before the data") << cut(good, dataStart - 2) << QStringList{"truncated"};
        QTest::newRow("cut at the data start") << cut(good, dataStart) << QStringList{"first.weight", "truncated"};
        QTest::newRow("cut inside the first tensor") << cut(good, dataStart + 100) << QStringList{"first.weight", "past the end", "truncated"};
        QTest::newRow("cut inside the last tensor") << cut(good, good.size() - 1) << QStringList{"second.weight", "past the end"};

        QByteArray magic = cut(good, good.size());
        magic[0] = 'X';
        QTest::newRow("wrong magic") << magic << QStringList{"not a GGUF file", "does not begin with the letters \"GGUF\""};
        QTest::newRow("ggml magic") << QByteArray("ggjt\x03\0\0\0", 8) << QStringList{"not a GGUF file"};
        QTest::newRow("big endian") << Raw().u32(0x47475546u).u32(3).u64(0).u64(0).bytes() << QStringList{"big-endian"};
        QTest::newRow("short garbage") << QByteArray("ab") << QStringList{"not a GGUF file"};
        QTest::newRow("version 1") << Raw().header(1, 0, 0).bytes() << QStringList{"version 1", "not supported"};
        QTest::newRow("version 4") << Raw().header(4, 0, 0).bytes() << QStringList{"version 4", "not supported"};
        QTest::newRow("version 0") << Raw().header(0, 0, 0).bytes() << QStringList{"version 0", "not supported"};

        QTest::newRow("absurd metadata count") << Raw().header(3, 0, uint64_t(1) << 60).zeros(64).bytes()
                                               << QStringList{"metadata entries", "more than the file can hold"};
        QTest::newRow("absurd tensor count") << Raw().header(3, ~uint64_t(0), 0).zeros(64).bytes()
                                             << QStringList{"tensors", "more than the file can hold"};

        // Tensor data and offsets.
        QTest::newRow("tensor data past end") << oneTensorFile({4}, 0, 0, 12) << QStringList{"'w'", "past the end"};
        QTest::newRow("tensor offset far past end") << oneTensorFile({4}, 0, uint64_t(1) << 40, 16) << QStringList{"'w'", "past the end"};
        QTest::newRow("tensor offset near 2^64") << oneTensorFile({4}, 0, ~uint64_t(31), 16) << QStringList{"'w'", "past the end"};
        QTest::newRow("misaligned offset") << oneTensorFile({4}, 0, 4, 64) << QStringList{"'w'", "offset 4", "alignment 32"};
        {
            Raw r;
            r.header(3, 1, 1).kvU32("general.alignment", 64).tensorInfo("w", {4}, 0, 32).padTo(64).zeros(128);
            QTest::newRow("offset misaligned for general.alignment") << r.bytes() << QStringList{"'w'", "offset 32", "alignment 64"};
        }

        // Shapes and types.
        QTest::newRow("2^40+ elements") << oneTensorFile({(1u << 20) + 1, 1u << 20}, 0, 0, 16) << QStringList{"'w'", "2^40"};
        QTest::newRow("dims overflowing int64") << oneTensorFile({1ull << 32, 1ull << 32, 1ull << 32, 1ull << 32}, 0, 0, 16)
                                                << QStringList{"'w'", "2^40"};
        QTest::newRow("one huge dim") << oneTensorFile({~uint64_t(0)}, 0, 0, 16) << QStringList{"'w'", "dimension 0", "not a usable size"};
        QTest::newRow("zero dim") << oneTensorFile({4, 0}, 0, 0, 16) << QStringList{"'w'", "dimension 1 is 0"};
        QTest::newRow("n_dims 0") << oneTensorFile({}, 0, 0, 16) << QStringList{"'w'", "0 dimensions"};
        QTest::newRow("n_dims 5") << oneTensorFile({1, 1, 1, 1, 4}, 0, 0, 16) << QStringList{"'w'", "5 dimensions"};
        QTest::newRow("unknown ggml type 4") << oneTensorFile({32}, 4, 0, 64) << QStringList{"'w'", "unknown ggml type id 4"};
        QTest::newRow("unknown ggml type 1000") << oneTensorFile({32}, 1000, 0, 64) << QStringList{"'w'", "unknown ggml type id 1000"};
        QTest::newRow("row not a block multiple") << oneTensorFile({48}, 8, 0, 64) << QStringList{"'w'", "48", "Q8_0", "block size 32"};
        {
            Raw r;
            r.header(3, 2, 0).tensorInfo("w", {4}, 0, 0).tensorInfo("w", {4}, 0, 32).padTo(32).zeros(64);
            QTest::newRow("duplicate tensor name") << r.bytes() << QStringList{"'w'", "appears twice"};
        }

        // Metadata values.
        QTest::newRow("absurd string length") << Raw().header(3, 0, 1).u64(uint64_t(1) << 62).zeros(32).bytes()
                                              << QStringList{"metadata key", "absurd length"};
        QTest::newRow("string longer than the file") << Raw().header(3, 0, 1).u64(1000).zeros(32).bytes()
                                                     << QStringList{"truncated", "metadata key", "1000 bytes"};
        QTest::newRow("absurd array count")
            << Raw().header(3, 0, 1).str("arr").u32(uint32_t(GgufValueType::Array)).u32(uint32_t(GgufValueType::UInt32)).u64(uint64_t(1) << 62).zeros(32).bytes()
            << QStringList{"'arr'", "array elements", "more than the file holds"};
        QTest::newRow("absurd string array count")
            << Raw().header(3, 0, 1).str("arr").u32(uint32_t(GgufValueType::Array)).u32(uint32_t(GgufValueType::String)).u64(~uint64_t(0)).zeros(32).bytes()
            << QStringList{"'arr'", "more than the file holds"};
        {
            const uint64_t n = (uint64_t(1) << 24) + 1;  // present in full, but over the cap
            Raw r;
            r.header(3, 0, 1).str("big").u32(uint32_t(GgufValueType::Array)).u32(uint32_t(GgufValueType::UInt8)).u64(n).zeros(n);
            QTest::newRow("array count over the cap") << r.bytes() << QStringList{"'big'", "absurd array count"};
        }
        QTest::newRow("nested arrays too deep")
            << Raw().header(3, 0, 1).str("nest").u32(9).u32(9).u64(1).u32(9).u64(1).u32(9).u64(1).u32(4).u64(0).bytes()
            << QStringList{"'nest'", "nests arrays too deeply"};
        QTest::newRow("unknown value type") << Raw().header(3, 0, 1).str("k").u32(13).u32(0).bytes()
                                            << QStringList{"'k'", "unknown value type 13"};
        QTest::newRow("unknown array element type") << Raw().header(3, 0, 1).str("k").u32(9).u32(99).u64(0).bytes()
                                                    << QStringList{"'k'", "unknown value type 99"};
        QTest::newRow("bool that is 2") << Raw().header(3, 0, 1).str("b").u32(uint32_t(GgufValueType::Bool)).u8(2).zeros(16).bytes()
                                        << QStringList{"'b'", "neither 0 nor 1"};
        QTest::newRow("uint64 above int64")
            << Raw().header(3, 0, 1).str("u").u32(uint32_t(GgufValueType::UInt64)).u64(~uint64_t(0)).bytes()
            << QStringList{"'u'", "too large"};
        QTest::newRow("duplicate key") << Raw().header(3, 0, 2).kvU32("dup.key", 1).kvU32("dup.key", 2).bytes()
                                       << QStringList{"'dup.key'", "appears twice"};
        QTest::newRow("alignment 0") << Raw().header(3, 0, 1).kvU32("general.alignment", 0).bytes() << QStringList{"general.alignment", "power of two"};
        QTest::newRow("alignment 3") << Raw().header(3, 0, 1).kvU32("general.alignment", 3).bytes() << QStringList{"general.alignment", "power of two"};
        QTest::newRow("alignment 2^21") << Raw().header(3, 0, 1).kvU32("general.alignment", 1u << 21).bytes()
                                        << QStringList{"general.alignment", "2^20"};
        QTest::newRow("alignment as string") << Raw().header(3, 0, 1).kvString("general.alignment", "32").bytes()
                                             << QStringList{"general.alignment"};
        QTest::newRow("alignment as float")
            << Raw().header(3, 0, 1).str("general.alignment").u32(uint32_t(GgufValueType::Float32)).f32(32.0f).bytes()
            << QStringList{"general.alignment"};
    }
    void badInput() {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, keywords);
        std::vector<uint8_t> v(bytes.begin(), bytes.end());
        expectError([&] { GgufFile::fromBytes(std::move(v), "case.gguf"); }, "case.gguf", keywords);
    }

    // The same problems reach the caller through open() (mmap path) with the path in the message.
    void badFileOnDisk_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("keywords");
        QTest::newRow("nonexistent") << "missing" << QStringList{"cannot open", "No such file"};
        QTest::newRow("directory") << "dir" << QStringList{"is a directory, not a GGUF file"};
        QTest::newRow("empty file") << "empty" << QStringList{"empty"};
        QTest::newRow("truncated file") << "truncated" << QStringList{"second.weight", "past the end"};
        QTest::newRow("text file") << "text" << QStringList{"not a GGUF file"};
    }
    void badFileOnDisk() {
        QFETCH(QString, kind);
        QFETCH(QStringList, keywords);
        const std::string dir = dlab::test::scratchDir() + "/disk-" + kind.toStdString();
        std::filesystem::create_directories(dir);
        std::string path = dir + "/model.gguf";
        if (kind == "missing") path = dir + "/does-not-exist.gguf";
        if (kind == "dir") std::filesystem::create_directories(path);
        if (kind == "empty") std::ofstream(path, std::ios::binary);
        if (kind == "truncated") {
            const auto good = validFile();
            std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(good.data()), std::streamsize(good.size() - 8));
        }
        if (kind == "text") std::ofstream(path) << "{\"this\": \"is json\"}\n";
        expectError([&] { GgufFile::open(path); }, QString::fromStdString(path), keywords);
    }
};

QTEST_APPLESS_MAIN(TestGgufReader)
#include "test_gguf_reader.moc"
