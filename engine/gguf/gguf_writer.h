#pragma once
// Builds a GGUF version 3 file in memory: metadata of every value type, tensors with their raw
// bytes, and the padding general.alignment asks for. Used for tiny test models and fuzz seeds;
// whatever it writes, GgufFile reads back unchanged.
//
// Layout written (same as GgufFile reads):
//   "GGUF" u32 3, u64 n_tensors, u64 n_kv, n_kv × {key, u32 type, value},
//   n_tensors × {name, u32 n_dims, u64 ne[n_dims], u32 ggml_type, u64 offset},
//   zero padding to the alignment, each tensor's bytes padded to the alignment.
#include <cstdint>
#include <string>
#include <vector>

#include "gguf/gguf_file.h"

namespace dlab {

class GgufWriter {
public:
    // Scalars. Keys must be unique (a second add of the same key throws dlab::Error).
    void addUInt8(const std::string& key, uint8_t v);
    void addInt8(const std::string& key, int8_t v);
    void addUInt16(const std::string& key, uint16_t v);
    void addInt16(const std::string& key, int16_t v);
    void addUInt32(const std::string& key, uint32_t v);
    void addInt32(const std::string& key, int32_t v);
    void addUInt64(const std::string& key, uint64_t v);
    void addInt64(const std::string& key, int64_t v);
    void addFloat32(const std::string& key, float v);
    void addFloat64(const std::string& key, double v);
    void addBool(const std::string& key, bool v);
    void addString(const std::string& key, const std::string& v);

    // Arrays. elementType must be an integer type or Bool for addIntArray, Float32/Float64 for
    // addFloatArray; each value must fit the element type.
    void addStringArray(const std::string& key, const std::vector<std::string>& values);
    void addIntArray(const std::string& key, GgufValueType elementType, const std::vector<int64_t>& values);
    void addFloatArray(const std::string& key, GgufValueType elementType, const std::vector<double>& values);

    // Sets general.alignment (a uint32, as ggml expects); a power of two from 1 to 2^20.
    // Without it tensors are aligned to 32 bytes, GGUF's default.
    void setAlignment(uint32_t alignment);
    uint32_t alignment() const { return alignment_; }

    // shape is in ggml order (shape[0] = row length); bytes must hold exactly the tensor's
    // ggmlRowBytes(type, shape[0]) × rows. Names must be unique.
    void addTensor(const std::string& name, GgmlType type, const std::vector<int64_t>& shape,
                   std::vector<uint8_t> bytes);
    void addTensorF32(const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& values);

    // The finished file. write() throws dlab::Error naming the path if it cannot be written.
    std::vector<uint8_t> toBytes() const;
    void write(const std::string& path) const;

private:
    struct Entry {
        std::string key;
        GgufValue value;
    };
    struct Tensor {
        std::string name;
        GgmlType type;
        std::vector<int64_t> shape;
        std::vector<uint8_t> bytes;
    };

    void add(const std::string& key, GgufValue value);

    std::vector<Entry> kv_;
    std::vector<Tensor> tensors_;
    uint32_t alignment_ = 32;
};

}  // namespace dlab
