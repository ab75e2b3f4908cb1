// Dequantize to half: kernel -> launcher -> type dispatch. A thread per chunk of eight elements.
#include <cuda_fp16.h>

#include "cuda/ops/common.cuh"
#include "cuda/ops/dequant_half.h"
#include "cuda/ops/type_dispatch.h"
#include "cuda/quant_hd.h"

namespace dlab::cuda {

namespace {
template <GgmlType TYPE>
__global__ void dequantHalfKernel(const uint8_t* w, size_t rowBytes, int64_t rows, int cols, __half* out) {
    const int chunksPerRow = cols / 8;
    const int64_t total = rows * chunksPerRow;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t r = i / chunksPerRow;
        const int c = static_cast<int>(i % chunksPerRow);
        float v[8];
        dequantChunk8<TYPE>(w + r * rowBytes, c, v);
        __half* o = out + r * cols + c * 8;
        for (int k = 0; k < 8; ++k) o[k] = __float2half_rn(v[k]);
    }
}
}  // namespace

void dequantToHalfLaunch(GgmlType type, const uint8_t* w, size_t rowBytes, int64_t rows, int cols, uint16_t* out,
                         cudaStream_t stream) {
    const int64_t chunks = rows * (cols / 8);
    const unsigned grid = static_cast<unsigned>(chunks / 256 + 1 < 65535 ? chunks / 256 + 1 : 65535);
    dispatchWeightType(type, "dequantize", [&](auto tag) {
        dequantHalfKernel<decltype(tag)::value><<<grid, 256, 0, stream>>>(w, rowBytes, rows, cols, reinterpret_cast<__half*>(out));
    });
}

}  // namespace dlab::cuda
