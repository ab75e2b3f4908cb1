#pragma once
// A whole weight matrix to IEEE half, once at upload, for the cuBLAS GEMM path (prefill and
// batches of more than kMatvecMaxT tokens).   w: (rows, rowBytes) stored -> out: (rows, cols) half
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

#include "gguf/ggml_type.h"

namespace dlab::cuda {

void dequantToHalfLaunch(GgmlType type, const uint8_t* w, size_t rowBytes, int64_t rows, int cols, uint16_t* out,
                         cudaStream_t stream);

}  // namespace dlab::cuda
