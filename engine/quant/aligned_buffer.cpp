#include "quant/aligned_buffer.h"

#include <cstdlib>
#include <new>

namespace dlab::quant {

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

uint8_t* AlignedBuffer::get(size_t bytes) {
    if (bytes > size_) {
        std::free(data_);
        size_ = (bytes + 4095) & ~size_t(4095);
        data_ = static_cast<uint8_t*>(std::aligned_alloc(64, size_));
        if (!data_) {
            size_ = 0;
            throw std::bad_alloc();
        }
    }
    return data_;
}

}  // namespace dlab::quant
