// libFuzzer target: GgufFile::fromBytes on arbitrary bytes.
// Anything malformed must end in a dlab::Error (no crash, no other exception, no huge allocation);
// anything accepted must keep the reader's promises and survive a GgufWriter round trip unchanged.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"

using namespace dlab;

namespace {

[[noreturn]] void failure(const char* what) {
    std::fprintf(stderr, "fuzz_gguf: %s\n", what);
    std::abort();
}

// Checks what GgufFile promises about an accepted file.
void checkInvariants(const GgufFile& f, const uint8_t* base, size_t size) {
    if (f.dataOffset() % f.alignment() != 0) failure("data section is not aligned");
    for (const auto& t : f.tensors()) {
        if (t.shape.empty() || t.shape.size() > 4) failure("accepted a tensor with a bad dimension count");
        if (t.offset % f.alignment() != 0) failure("accepted a misaligned tensor");
        if (t.nbytes != ggmlRowBytes(t.type, t.shape[0]) * static_cast<size_t>(t.rows())) failure("nbytes disagrees with the shape");
        if (t.data < base + f.dataOffset() || t.data + t.nbytes > base + size) failure("tensor view outside the file");
        if (f.findTensor(t.name) != &t) failure("tensor index is wrong");
    }
    for (const auto& [key, v] : f.metadata()) {
        if (f.find(key) != &v) failure("metadata index is wrong");
        if (v.type == GgufValueType::Array && v.arrayType != GgufValueType::Array) {
            const size_t n = v.arrayType == GgufValueType::String ? v.strings.size()
                             : (v.arrayType == GgufValueType::Float32 || v.arrayType == GgufValueType::Float64) ? v.floats.size()
                                                                                                                : v.ints.size();
            if (n != v.arrayCount) failure("array count disagrees with its elements");
        }
    }
}

// Rewrites the accepted file with GgufWriter; false when it holds something the writer does not
// produce (nested arrays, a non-uint32 general.alignment).
bool rewrite(const GgufFile& f, GgufWriter& w) {
    for (const auto& [key, v] : f.metadata()) {
        if (key == "general.alignment" && v.type != GgufValueType::UInt32) return false;
        switch (v.type) {
            case GgufValueType::UInt8: w.addUInt8(key, uint8_t(v.i)); break;
            case GgufValueType::Int8: w.addInt8(key, int8_t(v.i)); break;
            case GgufValueType::UInt16: w.addUInt16(key, uint16_t(v.i)); break;
            case GgufValueType::Int16: w.addInt16(key, int16_t(v.i)); break;
            case GgufValueType::UInt32: w.addUInt32(key, uint32_t(v.i)); break;
            case GgufValueType::Int32: w.addInt32(key, int32_t(v.i)); break;
            case GgufValueType::UInt64: w.addUInt64(key, uint64_t(v.i)); break;
            case GgufValueType::Int64: w.addInt64(key, v.i); break;
            case GgufValueType::Bool: w.addBool(key, v.i != 0); break;
            case GgufValueType::Float32: w.addFloat32(key, float(v.f)); break;
            case GgufValueType::Float64: w.addFloat64(key, v.f); break;
            case GgufValueType::String: w.addString(key, v.s); break;
            case GgufValueType::Array:
                if (v.arrayType == GgufValueType::Array) return false;
                if (v.arrayType == GgufValueType::String) w.addStringArray(key, v.strings);
                else if (v.arrayType == GgufValueType::Float32 || v.arrayType == GgufValueType::Float64) w.addFloatArray(key, v.arrayType, v.floats);
                else w.addIntArray(key, v.arrayType, v.ints);
                break;
        }
    }
    for (const auto& t : f.tensors()) w.addTensor(t.name, t.type, t.shape, std::vector<uint8_t>(t.data, t.data + t.nbytes));
    return true;
}

bool sameValue(const GgufValue& a, const GgufValue& b) {
    auto sameFloat = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    if (a.type != b.type || a.i != b.i || a.s != b.s || a.arrayType != b.arrayType || a.arrayCount != b.arrayCount) return false;
    if (!sameFloat(a.f, b.f) || a.ints != b.ints || a.strings != b.strings || a.floats.size() != b.floats.size()) return false;
    for (size_t k = 0; k < a.floats.size(); ++k)
        if (!sameFloat(a.floats[k], b.floats[k])) return false;
    return true;
}

void checkRoundTrip(const GgufFile& f) {
    GgufWriter w;
    try {
        if (!rewrite(f, w)) return;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        failure("the writer refused a file the reader accepted");
    }
    std::unique_ptr<GgufFile> g;
    try {
        g = GgufFile::fromBytes(w.toBytes(), "rewritten.gguf");
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        failure("the reader refused what the writer wrote");
    }
    if (g->metadata().size() != f.metadata().size() || g->tensors().size() != f.tensors().size()) failure("round trip lost entries");
    for (size_t k = 0; k < f.metadata().size(); ++k)
        if (g->metadata()[k].first != f.metadata()[k].first || !sameValue(g->metadata()[k].second, f.metadata()[k].second))
            failure("round trip changed a metadata value");
    for (size_t k = 0; k < f.tensors().size(); ++k) {
        const auto &a = f.tensors()[k], &b = g->tensors()[k];
        if (a.name != b.name || a.type != b.type || a.shape != b.shape || a.nbytes != b.nbytes ||
            std::memcmp(a.data, b.data, a.nbytes) != 0)
            failure("round trip changed a tensor");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::unique_ptr<GgufFile> f;
    try {
        f = GgufFile::fromBytes(std::vector<uint8_t>(data, data + size), "fuzz.gguf");
    } catch (const Error& e) {
        if (std::strncmp(e.what(), "fuzz.gguf: ", 11) != 0) failure("error message does not name the file");
        return 0;
    }
    // fromBytes keeps its own copy; check the views against that copy.
    const auto& ts = f->tensors();
    const uint8_t* base = ts.empty() ? nullptr : ts.front().data - f->dataOffset() - ts.front().offset;
    checkInvariants(*f, base, f->fileSize());
    checkRoundTrip(*f);
    return 0;
}
