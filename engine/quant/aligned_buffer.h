#pragma once
// A growable, 64-byte aligned scratch buffer (activation rows, weight panels). Contents are not
// kept when it grows. The members are out of line on purpose: the SIMD translation units use
// it too, and an inline copy compiled there with AVX-512 flags could be the one the linker keeps.
#include <cstddef>
#include <cstdint>

namespace dlab::quant {

class AlignedBuffer {
public:
    AlignedBuffer() = default;
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
    ~AlignedBuffer();

    // At least `bytes` bytes, 64-byte aligned; throws std::bad_alloc.
    uint8_t* get(size_t bytes);

private:
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace dlab::quant
