#pragma once
// A validated, memory-mapped GGUF file (versions 2 and 3).
//
// Every header field, metadata value, tensor shape, offset and alignment is checked while
// opening, so code that reads tensors afterwards can trust the views it is given.
// Layout (GGUF spec):
//   "GGUF" u32 version, u64 n_tensors, u64 n_kv,
//   n_kv × { string key, u32 type, value },
//   n_tensors × { string name, u32 n_dims, u64 ne[n_dims], u32 ggml_type, u64 offset },
//   padding to general.alignment, tensor data (each offset aligned, relative to data start).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gguf/ggml_type.h"

namespace dlab {

enum class GgufValueType : uint32_t {
    UInt8 = 0, Int8 = 1, UInt16 = 2, Int16 = 3, UInt32 = 4, Int32 = 5, Float32 = 6, Bool = 7,
    String = 8, Array = 9, UInt64 = 10, Int64 = 11, Float64 = 12,
};
const char* ggufValueTypeName(GgufValueType t);

// One metadata value. Scalars keep their natural field; arrays keep their elements in the
// vector that matches the element type (integers and bools in `ints`, floats in `floats`,
// strings in `strings`). Arrays of arrays are kept as a count only.
struct GgufValue {
    GgufValueType type = GgufValueType::UInt8;
    GgufValueType arrayType = GgufValueType::UInt8;  // element type when type == Array
    int64_t i = 0;        // all integer types and bool (uint64 values above INT64_MAX are rejected)
    double f = 0.0;       // float32 / float64
    std::string s;        // string
    std::vector<int64_t> ints;
    std::vector<double> floats;
    std::vector<std::string> strings;
    uint64_t arrayCount = 0;

    bool isInteger() const;
    bool isNumber() const { return isInteger() || type == GgufValueType::Float32 || type == GgufValueType::Float64; }
};

struct GgufTensor {
    std::string name;
    GgmlType type = GgmlType::F32;
    std::vector<int64_t> shape;   // ggml order: shape[0] is the contiguous (row) dimension
    uint64_t offset = 0;          // relative to the start of the data section
    const uint8_t* data = nullptr;
    size_t nbytes = 0;

    int64_t elements() const;
    int64_t rows() const { return shape.empty() ? 1 : elements() / shape[0]; }
    std::string shapeString() const;  // e.g. "[576, 49152]"
};

class GgufFile {
public:
    // Maps and validates the file. Throws dlab::Error naming the file and the problem.
    static std::unique_ptr<GgufFile> open(const std::string& path);
    // Validates an in-memory copy (for tests and fuzzers); `name` is used in messages.
    static std::unique_ptr<GgufFile> fromBytes(std::vector<uint8_t> bytes, const std::string& name);

    ~GgufFile();
    GgufFile(const GgufFile&) = delete;
    GgufFile& operator=(const GgufFile&) = delete;

    const std::string& path() const { return path_; }
    uint32_t version() const { return version_; }
    size_t fileSize() const { return size_; }
    size_t dataOffset() const { return dataOffset_; }
    uint32_t alignment() const { return alignment_; }

    // Metadata, in file order.
    const std::vector<std::pair<std::string, GgufValue>>& metadata() const { return kv_; }
    const GgufValue* find(std::string_view key) const;
    bool has(std::string_view key) const { return find(key) != nullptr; }
    // Typed getters throw "<file>: metadata key '<key>' is missing" / "... has type X, expected Y".
    std::string getString(std::string_view key) const;
    int64_t getInt(std::string_view key) const;
    int64_t getInt(std::string_view key, int64_t fallback) const;
    double getFloat(std::string_view key) const;
    double getFloat(std::string_view key, double fallback) const;
    bool getBool(std::string_view key, bool fallback) const;
    const GgufValue& getArray(std::string_view key, GgufValueType elementType) const;

    const std::vector<GgufTensor>& tensors() const { return tensors_; }
    const GgufTensor* findTensor(std::string_view name) const;
    // Throws "<file>: tensor '<name>' is missing".
    const GgufTensor& tensor(std::string_view name) const;

    // "<file>: " prefix for messages about this file.
    std::string where() const;

private:
    GgufFile() = default;
    void parse();

    std::string path_;
    uint32_t version_ = 0;
    const uint8_t* base_ = nullptr;
    size_t size_ = 0;
    bool mapped_ = false;
    std::vector<uint8_t> owned_;
    size_t dataOffset_ = 0;
    uint32_t alignment_ = 32;
    std::vector<std::pair<std::string, GgufValue>> kv_;
    std::unordered_map<std::string, size_t> kvIndex_;
    std::vector<GgufTensor> tensors_;
    std::unordered_map<std::string, size_t> tensorIndex_;
};

}  // namespace dlab
