#include "gguf/gguf_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "core/error.h"

namespace dlab {

namespace {

constexpr uint64_t kMaxDims = 4;
constexpr uint64_t kMaxStringBytes = uint64_t(1) << 30;
// No ggml tensor needs more elements than this; it keeps every size computation far from overflow.
constexpr int64_t kMaxTensorElements = int64_t(1) << 40;
constexpr int kMaxArrayNesting = 2;
// The largest real arrays (vocabularies, merges) hold well under a million entries. Capping the
// count keeps a corrupt one from making us allocate several times the file size
// (an int64 per uint8 element) before the bytes run out.
constexpr uint64_t kMaxArrayElements = uint64_t(1) << 24;
// Counts from the header are only hints for reserve(); never trust them with a large allocation.
constexpr uint64_t kMaxReserve = 4096;

// Bounds-checked little-endian reader over the mapped bytes.
class Cursor {
public:
    Cursor(const uint8_t* base, size_t size, std::string where) : base_(base), size_(size), where_(std::move(where)) {}

    size_t pos() const { return pos_; }
    size_t remaining() const { return size_ - pos_; }

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(where_ + what + " (at byte " + std::to_string(pos_) + ")");
    }

    void need(uint64_t n, const char* what) const {
        if (n > remaining())
            fail(std::string("file is truncated: ") + what + " needs " + std::to_string(n) + " bytes but only " +
                 std::to_string(remaining()) + " remain");
    }

    template <typename T>
    T read(const char* what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, base_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return v;
    }

    std::string readString(const char* what) {
        const uint64_t len = read<uint64_t>(what);
        if (len > kMaxStringBytes) fail(std::string(what) + " has an absurd length of " + std::to_string(len) + " bytes");
        need(len, what);
        std::string s(reinterpret_cast<const char*>(base_ + pos_), len);
        pos_ += len;
        return s;
    }

    void skip(uint64_t n, const char* what) {
        need(n, what);
        pos_ += n;
    }

private:
    const uint8_t* base_;
    size_t size_;
    size_t pos_ = 0;
    std::string where_;
};

size_t scalarSize(GgufValueType t) {
    switch (t) {
        case GgufValueType::UInt8: case GgufValueType::Int8: case GgufValueType::Bool: return 1;
        case GgufValueType::UInt16: case GgufValueType::Int16: return 2;
        case GgufValueType::UInt32: case GgufValueType::Int32: case GgufValueType::Float32: return 4;
        case GgufValueType::UInt64: case GgufValueType::Int64: case GgufValueType::Float64: return 8;
        default: return 0;
    }
}

bool validValueType(uint32_t t) { return t <= static_cast<uint32_t>(GgufValueType::Float64); }

// Reads one scalar of type t into v (integers into v.i, floats into v.f).
void readScalar(Cursor& c, GgufValueType t, int64_t& i, double& f, const std::string& key) {
    switch (t) {
        case GgufValueType::UInt8: i = c.read<uint8_t>("a uint8 value"); break;
        case GgufValueType::Int8: i = c.read<int8_t>("an int8 value"); break;
        case GgufValueType::UInt16: i = c.read<uint16_t>("a uint16 value"); break;
        case GgufValueType::Int16: i = c.read<int16_t>("an int16 value"); break;
        case GgufValueType::UInt32: i = c.read<uint32_t>("a uint32 value"); break;
        case GgufValueType::Int32: i = c.read<int32_t>("an int32 value"); break;
        case GgufValueType::Int64: i = c.read<int64_t>("an int64 value"); break;
        case GgufValueType::UInt64: {
            const uint64_t u = c.read<uint64_t>("a uint64 value");
            if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                c.fail("metadata key '" + key + "' holds a uint64 value too large to use");
            i = static_cast<int64_t>(u);
            break;
        }
        case GgufValueType::Bool: {
            const uint8_t b = c.read<uint8_t>("a bool value");
            if (b > 1) c.fail("metadata key '" + key + "' holds a bool that is neither 0 nor 1");
            i = b;
            break;
        }
        case GgufValueType::Float32: f = c.read<float>("a float32 value"); break;
        case GgufValueType::Float64: f = c.read<double>("a float64 value"); break;
        default: c.fail("metadata key '" + key + "': internal error reading a non-scalar type");
    }
}

void readValue(Cursor& c, GgufValueType type, GgufValue& v, const std::string& key, int depth) {
    v.type = type;
    if (type == GgufValueType::String) {
        v.s = c.readString("a metadata string");
        return;
    }
    if (type != GgufValueType::Array) {
        readScalar(c, type, v.i, v.f, key);
        return;
    }
    const uint32_t rawElem = c.read<uint32_t>("an array element type");
    if (!validValueType(rawElem))
        c.fail("metadata key '" + key + "' is an array of unknown value type " + std::to_string(rawElem));
    const auto elem = static_cast<GgufValueType>(rawElem);
    const uint64_t count = c.read<uint64_t>("an array length");
    v.arrayType = elem;
    v.arrayCount = count;
    // Every element takes at least one byte (strings at least 8), so a count larger than the
    // bytes left is a lie; refusing it here keeps a corrupt count from reserving gigabytes.
    const uint64_t minElem = elem == GgufValueType::String || elem == GgufValueType::Array ? 8 : scalarSize(elem);
    if (count > c.remaining() / minElem)
        c.fail("metadata key '" + key + "' claims " + std::to_string(count) + " array elements, more than the file holds");
    if (count > kMaxArrayElements)
        c.fail("metadata key '" + key + "' claims an absurd array count of " + std::to_string(count) +
               " elements (at most " + std::to_string(kMaxArrayElements) + " are accepted)");
    if (elem == GgufValueType::String) {
        v.strings.reserve(std::min(count, kMaxReserve));
        for (uint64_t k = 0; k < count; ++k) v.strings.push_back(c.readString("an array string"));
    } else if (elem == GgufValueType::Array) {
        if (depth >= kMaxArrayNesting) c.fail("metadata key '" + key + "' nests arrays too deeply");
        for (uint64_t k = 0; k < count; ++k) {
            GgufValue inner;  // nested arrays are validated and skipped; no model key uses them
            readValue(c, GgufValueType::Array, inner, key, depth + 1);
        }
    } else if (elem == GgufValueType::Float32 || elem == GgufValueType::Float64) {
        v.floats.resize(count);
        int64_t dummy = 0;
        for (uint64_t k = 0; k < count; ++k) readScalar(c, elem, dummy, v.floats[k], key);
    } else {
        v.ints.resize(count);
        double dummy = 0;
        for (uint64_t k = 0; k < count; ++k) readScalar(c, elem, v.ints[k], dummy, key);
    }
}

std::string typeDescription(const GgufValue& v) {
    if (v.type != GgufValueType::Array) return ggufValueTypeName(v.type);
    return std::string("array of ") + ggufValueTypeName(v.arrayType);
}

}  // namespace

const char* ggufValueTypeName(GgufValueType t) {
    switch (t) {
        case GgufValueType::UInt8: return "uint8";
        case GgufValueType::Int8: return "int8";
        case GgufValueType::UInt16: return "uint16";
        case GgufValueType::Int16: return "int16";
        case GgufValueType::UInt32: return "uint32";
        case GgufValueType::Int32: return "int32";
        case GgufValueType::Float32: return "float32";
        case GgufValueType::Bool: return "bool";
        case GgufValueType::String: return "string";
        case GgufValueType::Array: return "array";
        case GgufValueType::UInt64: return "uint64";
        case GgufValueType::Int64: return "int64";
        case GgufValueType::Float64: return "float64";
    }
    return "unknown";
}

bool GgufValue::isInteger() const {
    switch (type) {
        case GgufValueType::UInt8: case GgufValueType::Int8: case GgufValueType::UInt16: case GgufValueType::Int16:
        case GgufValueType::UInt32: case GgufValueType::Int32: case GgufValueType::UInt64: case GgufValueType::Int64:
            return true;
        default: return false;
    }
}

int64_t GgufTensor::elements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string GgufTensor::shapeString() const {
    std::string s = "[";
    for (size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
    return s + "]";
}

std::unique_ptr<GgufFile> GgufFile::open(const std::string& path) {
    std::unique_ptr<GgufFile> f(new GgufFile());
    f->path_ = path;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(path + ": cannot open the file (" + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw Error(path + (S_ISDIR(st.st_mode) ? ": is a directory, not a GGUF file" : ": is not a regular file"));
    }
    f->size_ = static_cast<size_t>(st.st_size);
    if (f->size_ == 0) {
        ::close(fd);
        throw Error(path + ": the file is empty, not a GGUF model");
    }
    void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) throw Error(path + ": cannot memory-map the file (" + std::strerror(errno) + ")");
    // Ask the kernel to read the weights ahead, so the first forward pass does not stall on page faults.
    ::madvise(p, f->size_, MADV_WILLNEED);
    f->base_ = static_cast<const uint8_t*>(p);
    f->mapped_ = true;
    f->parse();
    return f;
}

std::unique_ptr<GgufFile> GgufFile::fromBytes(std::vector<uint8_t> bytes, const std::string& name) {
    std::unique_ptr<GgufFile> f(new GgufFile());
    f->path_ = name;
    f->owned_ = std::move(bytes);
    f->base_ = f->owned_.data();
    f->size_ = f->owned_.size();
    f->parse();
    return f;
}

GgufFile::~GgufFile() {
    if (mapped_ && base_) ::munmap(const_cast<uint8_t*>(base_), size_);
}

std::string GgufFile::where() const { return path_ + ": "; }

void GgufFile::parse() {
    Cursor c(base_, size_, where());
    if (size_ == 0) throw Error(where() + "the file is empty, not a GGUF model");
    if (size_ < 4 && std::memcmp(base_, "GGUF", size_) == 0)
        throw Error(where() + "file is truncated: it ends inside the magic bytes");
    if (size_ < 4 || std::memcmp(base_, "GGUF", 4) != 0) {
        if (size_ >= 4 && std::memcmp(base_, "FUGG", 4) == 0)
            throw Error(where() + "a big-endian GGUF file, which is not supported");
        throw Error(where() + "not a GGUF file: it does not begin with the letters \"GGUF\" that every GGUF model begins with");
    }
    c.skip(4, "the magic");
    version_ = c.read<uint32_t>("the version");
    if (version_ != 2 && version_ != 3)
        throw Error(where() + "GGUF version " + std::to_string(version_) + " is not supported (supported: 2, 3)");
    const uint64_t nTensors = c.read<uint64_t>("the tensor count");
    const uint64_t nKv = c.read<uint64_t>("the metadata count");
    // A metadata entry takes at least 8+4+1 bytes and a tensor entry at least 8+4+4+8 bytes.
    if (nKv > c.remaining() / 13)
        throw Error(where() + "the header claims " + std::to_string(nKv) +
                    " metadata entries, more than the file can hold (the file is truncated or corrupt)");
    if (nTensors > c.remaining() / 24)
        throw Error(where() + "the header claims " + std::to_string(nTensors) +
                    " tensors, more than the file can hold (the file is truncated or corrupt)");

    kv_.reserve(std::min(nKv, kMaxReserve));
    for (uint64_t k = 0; k < nKv; ++k) {
        std::string key = c.readString("a metadata key");
        const uint32_t rawType = c.read<uint32_t>("a metadata value type");
        if (!validValueType(rawType))
            c.fail("metadata key '" + key + "' has unknown value type " + std::to_string(rawType));
        GgufValue v;
        readValue(c, static_cast<GgufValueType>(rawType), v, key, 0);
        if (kvIndex_.count(key)) c.fail("metadata key '" + key + "' appears twice");
        kvIndex_.emplace(key, kv_.size());
        kv_.emplace_back(std::move(key), std::move(v));
    }

    if (const GgufValue* a = find("general.alignment")) {
        if (!a->isInteger() || a->i <= 0 || a->i > (1 << 20) || (a->i & (a->i - 1)) != 0)
            throw Error(where() + "general.alignment must be a power of two between 1 and 2^20");
        alignment_ = static_cast<uint32_t>(a->i);
    }

    tensors_.reserve(std::min(nTensors, kMaxReserve));
    for (uint64_t k = 0; k < nTensors; ++k) {
        GgufTensor t;
        t.name = c.readString("a tensor name");
        const std::string tw = "tensor '" + t.name + "': ";
        const uint32_t nDims = c.read<uint32_t>("a tensor dimension count");
        if (nDims == 0 || nDims > kMaxDims)
            c.fail(tw + "has " + std::to_string(nDims) + " dimensions (expected 1 to 4)");
        int64_t elements = 1;
        for (uint32_t d = 0; d < nDims; ++d) {
            const uint64_t ne = c.read<uint64_t>("a tensor dimension");
            if (ne == 0 || ne > static_cast<uint64_t>(kMaxTensorElements))
                c.fail(tw + "dimension " + std::to_string(d) + " is " + std::to_string(ne) + ", which is not a usable size");
            if (static_cast<int64_t>(ne) > kMaxTensorElements / elements)
                c.fail(tw + "has more than 2^40 elements, which no model needs; the file is corrupt");
            elements *= static_cast<int64_t>(ne);
            t.shape.push_back(static_cast<int64_t>(ne));
        }
        const uint32_t rawType = c.read<uint32_t>("a tensor type");
        const auto traits = ggmlTypeTraits(rawType);
        if (!traits) c.fail(tw + "has unknown ggml type id " + std::to_string(rawType));
        t.type = static_cast<GgmlType>(rawType);
        if (t.shape[0] % traits->blockSize != 0)
            c.fail(tw + "row length " + std::to_string(t.shape[0]) + " is not a multiple of the " + traits->name +
                   " block size " + std::to_string(traits->blockSize));
        t.nbytes = static_cast<size_t>(elements / traits->blockSize) * traits->blockBytes;
        t.offset = c.read<uint64_t>("a tensor offset");
        if (t.offset % alignment_ != 0)
            c.fail(tw + "data offset " + std::to_string(t.offset) + " is not a multiple of the alignment " +
                   std::to_string(alignment_));
        if (tensorIndex_.count(t.name)) c.fail(tw + "appears twice");
        tensorIndex_.emplace(t.name, tensors_.size());
        tensors_.push_back(std::move(t));
    }

    const size_t headerEnd = c.pos();
    dataOffset_ = (headerEnd + alignment_ - 1) / alignment_ * alignment_;
    if (!tensors_.empty() && dataOffset_ > size_)
        throw Error(where() + "file is truncated: the tensor data section starts past the end of the file");
    const size_t dataSize = dataOffset_ <= size_ ? size_ - dataOffset_ : 0;
    for (auto& t : tensors_) {
        if (t.offset > dataSize || t.nbytes > dataSize - t.offset)
            throw Error(where() + "tensor '" + t.name + "' " + t.shapeString() + " " + ggmlTypeName(t.type) +
                        ": its data (" + std::to_string(t.nbytes) + " bytes at offset " + std::to_string(t.offset) +
                        ") runs past the end of the file; the file is truncated or corrupt");
        t.data = base_ + dataOffset_ + t.offset;
    }
}

const GgufValue* GgufFile::find(std::string_view key) const {
    auto it = kvIndex_.find(std::string(key));
    return it == kvIndex_.end() ? nullptr : &kv_[it->second].second;
}

namespace {
[[noreturn]] void wrongType(const GgufFile& f, std::string_view key, const GgufValue& v, const char* expected) {
    throw Error(f.where() + "metadata key '" + std::string(key) + "' has type " + typeDescription(v) + ", expected " + expected);
}
}  // namespace

std::string GgufFile::getString(std::string_view key) const {
    const GgufValue* v = find(key);
    if (!v) throw Error(where() + "metadata key '" + std::string(key) + "' is missing");
    if (v->type != GgufValueType::String) wrongType(*this, key, *v, "string");
    return v->s;
}

int64_t GgufFile::getInt(std::string_view key) const {
    const GgufValue* v = find(key);
    if (!v) throw Error(where() + "metadata key '" + std::string(key) + "' is missing");
    if (!v->isInteger()) wrongType(*this, key, *v, "an integer");
    return v->i;
}

int64_t GgufFile::getInt(std::string_view key, int64_t fallback) const {
    return has(key) ? getInt(key) : fallback;
}

double GgufFile::getFloat(std::string_view key) const {
    const GgufValue* v = find(key);
    if (!v) throw Error(where() + "metadata key '" + std::string(key) + "' is missing");
    if (v->type == GgufValueType::Float32 || v->type == GgufValueType::Float64) return v->f;
    if (v->isInteger()) return static_cast<double>(v->i);
    wrongType(*this, key, *v, "a number");
}

double GgufFile::getFloat(std::string_view key, double fallback) const {
    return has(key) ? getFloat(key) : fallback;
}

bool GgufFile::getBool(std::string_view key, bool fallback) const {
    const GgufValue* v = find(key);
    if (!v) return fallback;
    if (v->type != GgufValueType::Bool && !v->isInteger()) wrongType(*this, key, *v, "bool");
    return v->i != 0;
}

const GgufValue& GgufFile::getArray(std::string_view key, GgufValueType elementType) const {
    const GgufValue* v = find(key);
    if (!v) throw Error(where() + "metadata key '" + std::string(key) + "' is missing");
    if (v->type != GgufValueType::Array) wrongType(*this, key, *v, "an array");
    auto isFloat = [](GgufValueType t) { return t == GgufValueType::Float32 || t == GgufValueType::Float64; };
    auto isIntLike = [&](GgufValueType t) { return t != GgufValueType::String && t != GgufValueType::Array && !isFloat(t); };
    const bool ok = v->arrayType == elementType || (isIntLike(elementType) && isIntLike(v->arrayType)) ||
                    (isFloat(elementType) && isFloat(v->arrayType));
    if (!ok) wrongType(*this, key, *v, (std::string("array of ") + ggufValueTypeName(elementType)).c_str());
    return *v;
}

const GgufTensor* GgufFile::findTensor(std::string_view name) const {
    auto it = tensorIndex_.find(std::string(name));
    return it == tensorIndex_.end() ? nullptr : &tensors_[it->second];
}

const GgufTensor& GgufFile::tensor(std::string_view name) const {
    const GgufTensor* t = findTensor(name);
    if (!t) throw Error(where() + "tensor '" + std::string(name) + "' is missing");
    return *t;
}

}  // namespace dlab
