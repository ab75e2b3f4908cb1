#include "gguf/gguf_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/error.h"

namespace dlab {

namespace {

constexpr uint32_t kGgufVersion = 3;
constexpr int64_t kMaxAlignment = int64_t(1) << 20;
constexpr const char* kAlignmentRule = "GGUF writer: general.alignment must be a uint32 power of two between 1 and 2^20";

bool validAlignment(int64_t a) { return a > 0 && a <= kMaxAlignment && (a & (a - 1)) == 0; }

// Little-endian byte sink (the project only targets little-endian machines, as ggml does).
class ByteSink {
public:
    explicit ByteSink(std::vector<uint8_t>& out) : out_(out) {}

    template <typename T>
    void put(T v) {
        const auto* p = reinterpret_cast<const uint8_t*>(&v);
        out_.insert(out_.end(), p, p + sizeof(T));
    }
    void putString(const std::string& s) {
        put<uint64_t>(s.size());
        out_.insert(out_.end(), s.begin(), s.end());
    }
    void padTo(size_t alignment) {
        out_.resize((out_.size() + alignment - 1) / alignment * alignment, 0);
    }

private:
    std::vector<uint8_t>& out_;
};

bool isIntegerType(GgufValueType t) {
    switch (t) {
        case GgufValueType::UInt8: case GgufValueType::Int8: case GgufValueType::UInt16: case GgufValueType::Int16:
        case GgufValueType::UInt32: case GgufValueType::Int32: case GgufValueType::UInt64: case GgufValueType::Int64:
        case GgufValueType::Bool:
            return true;
        default: return false;
    }
}

// Range of values an integer element type can hold (UInt64 limited to int64's range, as the reader is).
bool fitsIntegerType(GgufValueType t, int64_t v) {
    switch (t) {
        case GgufValueType::UInt8: return v >= 0 && v <= std::numeric_limits<uint8_t>::max();
        case GgufValueType::Int8: return v >= std::numeric_limits<int8_t>::min() && v <= std::numeric_limits<int8_t>::max();
        case GgufValueType::UInt16: return v >= 0 && v <= std::numeric_limits<uint16_t>::max();
        case GgufValueType::Int16: return v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max();
        case GgufValueType::UInt32: return v >= 0 && v <= std::numeric_limits<uint32_t>::max();
        case GgufValueType::Int32: return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
        case GgufValueType::UInt64: return v >= 0;
        case GgufValueType::Int64: return true;
        case GgufValueType::Bool: return v == 0 || v == 1;
        default: return false;
    }
}

void putScalar(ByteSink& out, GgufValueType t, int64_t i, double f) {
    switch (t) {
        case GgufValueType::UInt8: out.put<uint8_t>(static_cast<uint8_t>(i)); break;
        case GgufValueType::Int8: out.put<int8_t>(static_cast<int8_t>(i)); break;
        case GgufValueType::UInt16: out.put<uint16_t>(static_cast<uint16_t>(i)); break;
        case GgufValueType::Int16: out.put<int16_t>(static_cast<int16_t>(i)); break;
        case GgufValueType::UInt32: out.put<uint32_t>(static_cast<uint32_t>(i)); break;
        case GgufValueType::Int32: out.put<int32_t>(static_cast<int32_t>(i)); break;
        case GgufValueType::UInt64: out.put<uint64_t>(static_cast<uint64_t>(i)); break;
        case GgufValueType::Int64: out.put<int64_t>(i); break;
        case GgufValueType::Bool: out.put<uint8_t>(i ? 1 : 0); break;
        case GgufValueType::Float32: out.put<float>(static_cast<float>(f)); break;
        case GgufValueType::Float64: out.put<double>(f); break;
        default: throw Error("GGUF writer: internal error, value type " + std::string(ggufValueTypeName(t)) + " is not a scalar");
    }
}

void putValue(ByteSink& out, const GgufValue& v) {
    out.put<uint32_t>(static_cast<uint32_t>(v.type));
    if (v.type == GgufValueType::String) {
        out.putString(v.s);
        return;
    }
    if (v.type != GgufValueType::Array) {
        putScalar(out, v.type, v.i, v.f);
        return;
    }
    out.put<uint32_t>(static_cast<uint32_t>(v.arrayType));
    out.put<uint64_t>(v.arrayCount);
    if (v.arrayType == GgufValueType::String) {
        for (const auto& s : v.strings) out.putString(s);
    } else if (v.arrayType == GgufValueType::Float32 || v.arrayType == GgufValueType::Float64) {
        for (double f : v.floats) putScalar(out, v.arrayType, 0, f);
    } else {
        for (int64_t i : v.ints) putScalar(out, v.arrayType, i, 0.0);
    }
}

GgufValue scalar(GgufValueType t, int64_t i, double f) {
    GgufValue v;
    v.type = t;
    v.i = i;
    v.f = f;
    return v;
}

}  // namespace

void GgufWriter::add(const std::string& key, GgufValue value) {
    for (const auto& e : kv_)
        if (e.key == key) throw Error("GGUF writer: metadata key '" + key + "' is added twice");
    if (key == "general.alignment") {
        if (value.type != GgufValueType::UInt32 || !validAlignment(value.i)) throw Error(kAlignmentRule);
        alignment_ = static_cast<uint32_t>(value.i);
    }
    kv_.push_back({key, std::move(value)});
}

void GgufWriter::addUInt8(const std::string& key, uint8_t v) { add(key, scalar(GgufValueType::UInt8, v, 0)); }
void GgufWriter::addInt8(const std::string& key, int8_t v) { add(key, scalar(GgufValueType::Int8, v, 0)); }
void GgufWriter::addUInt16(const std::string& key, uint16_t v) { add(key, scalar(GgufValueType::UInt16, v, 0)); }
void GgufWriter::addInt16(const std::string& key, int16_t v) { add(key, scalar(GgufValueType::Int16, v, 0)); }
void GgufWriter::addUInt32(const std::string& key, uint32_t v) { add(key, scalar(GgufValueType::UInt32, v, 0)); }
void GgufWriter::addInt32(const std::string& key, int32_t v) { add(key, scalar(GgufValueType::Int32, v, 0)); }
void GgufWriter::addInt64(const std::string& key, int64_t v) { add(key, scalar(GgufValueType::Int64, v, 0)); }
void GgufWriter::addFloat32(const std::string& key, float v) { add(key, scalar(GgufValueType::Float32, 0, v)); }
void GgufWriter::addFloat64(const std::string& key, double v) { add(key, scalar(GgufValueType::Float64, 0, v)); }
void GgufWriter::addBool(const std::string& key, bool v) { add(key, scalar(GgufValueType::Bool, v ? 1 : 0, 0)); }

void GgufWriter::addUInt64(const std::string& key, uint64_t v) {
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        throw Error("GGUF writer: metadata key '" + key + "': uint64 values above 2^63-1 are not supported");
    add(key, scalar(GgufValueType::UInt64, static_cast<int64_t>(v), 0));
}

void GgufWriter::addString(const std::string& key, const std::string& s) {
    GgufValue v;
    v.type = GgufValueType::String;
    v.s = s;
    add(key, std::move(v));
}

void GgufWriter::addStringArray(const std::string& key, const std::vector<std::string>& values) {
    GgufValue v;
    v.type = GgufValueType::Array;
    v.arrayType = GgufValueType::String;
    v.arrayCount = values.size();
    v.strings = values;
    add(key, std::move(v));
}

void GgufWriter::addIntArray(const std::string& key, GgufValueType elementType, const std::vector<int64_t>& values) {
    if (!isIntegerType(elementType))
        throw Error("GGUF writer: metadata key '" + key + "': " + ggufValueTypeName(elementType) +
                    " is not an integer element type");
    for (int64_t x : values)
        if (!fitsIntegerType(elementType, x))
            throw Error("GGUF writer: metadata key '" + key + "': value " + std::to_string(x) + " does not fit " +
                        ggufValueTypeName(elementType));
    GgufValue v;
    v.type = GgufValueType::Array;
    v.arrayType = elementType;
    v.arrayCount = values.size();
    v.ints = values;
    add(key, std::move(v));
}

void GgufWriter::addFloatArray(const std::string& key, GgufValueType elementType, const std::vector<double>& values) {
    if (elementType != GgufValueType::Float32 && elementType != GgufValueType::Float64)
        throw Error("GGUF writer: metadata key '" + key + "': " + ggufValueTypeName(elementType) +
                    " is not a float element type");
    GgufValue v;
    v.type = GgufValueType::Array;
    v.arrayType = elementType;
    v.arrayCount = values.size();
    v.floats = values;
    add(key, std::move(v));
}

void GgufWriter::setAlignment(uint32_t alignment) {
    if (!validAlignment(alignment)) throw Error(kAlignmentRule);
    for (auto it = kv_.begin(); it != kv_.end(); ++it) {
        if (it->key == "general.alignment") {
            kv_.erase(it);
            break;
        }
    }
    addUInt32("general.alignment", alignment);
}

void GgufWriter::addTensor(const std::string& name, GgmlType type, const std::vector<int64_t>& shape,
                           std::vector<uint8_t> bytes) {
    for (const auto& t : tensors_)
        if (t.name == name) throw Error("GGUF writer: tensor '" + name + "' is added twice");
    const auto traits = ggmlTypeTraits(static_cast<uint32_t>(type));
    if (!traits) throw Error("GGUF writer: tensor '" + name + "' has an unknown ggml type");
    if (shape.empty() || shape.size() > 4)
        throw Error("GGUF writer: tensor '" + name + "' needs 1 to 4 dimensions, not " + std::to_string(shape.size()));
    int64_t elements = 1;
    for (int64_t d : shape) {
        if (d <= 0) throw Error("GGUF writer: tensor '" + name + "' has a dimension of " + std::to_string(d));
        elements *= d;
    }
    if (shape[0] % traits->blockSize != 0)
        throw Error("GGUF writer: tensor '" + name + "': row length " + std::to_string(shape[0]) +
                    " is not a multiple of the " + traits->name + " block size " + std::to_string(traits->blockSize));
    const size_t expected = static_cast<size_t>(elements / traits->blockSize) * traits->blockBytes;
    if (bytes.size() != expected)
        throw Error("GGUF writer: tensor '" + name + "' " + traits->name + " needs " + std::to_string(expected) +
                    " bytes but was given " + std::to_string(bytes.size()));
    tensors_.push_back({name, type, shape, std::move(bytes)});
}

void GgufWriter::addTensorF32(const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(float));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    addTensor(name, GgmlType::F32, shape, std::move(bytes));
}

std::vector<uint8_t> GgufWriter::toBytes() const {
    std::vector<uint8_t> buf;
    ByteSink out(buf);
    out.put<uint32_t>(0x46554747u);  // "GGUF" read as a little-endian u32
    out.put<uint32_t>(kGgufVersion);
    out.put<uint64_t>(tensors_.size());
    out.put<uint64_t>(kv_.size());
    for (const auto& e : kv_) {
        out.putString(e.key);
        putValue(out, e.value);
    }
    // Offsets are relative to the data section; each tensor starts on an alignment boundary.
    uint64_t offset = 0;
    for (const auto& t : tensors_) {
        out.putString(t.name);
        out.put<uint32_t>(static_cast<uint32_t>(t.shape.size()));
        for (int64_t d : t.shape) out.put<uint64_t>(static_cast<uint64_t>(d));
        out.put<uint32_t>(static_cast<uint32_t>(t.type));
        out.put<uint64_t>(offset);
        offset += (t.bytes.size() + alignment_ - 1) / alignment_ * alignment_;
    }
    out.padTo(alignment_);
    for (const auto& t : tensors_) {
        buf.insert(buf.end(), t.bytes.begin(), t.bytes.end());
        out.padTo(alignment_);
    }
    return buf;
}

void GgufWriter::write(const std::string& path) const {
    const std::vector<uint8_t> bytes = toBytes();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw Error(path + ": cannot create the file (" + std::strerror(errno) + ")");
    const size_t written = std::fwrite(bytes.data(), 1, bytes.size(), f);
    const int writeErr = written == bytes.size() ? 0 : errno;
    if (std::fclose(f) != 0 || written != bytes.size())
        throw Error(path + ": cannot write the file (" + std::strerror(writeErr ? writeErr : errno) + ")");
}

}  // namespace dlab
