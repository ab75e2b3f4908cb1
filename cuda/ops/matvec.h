#pragma once
// Dequantizing matrix-vector products for decode: y (T, rows) = x (T, cols) · Wᵀ with W kept in its
// stored type, for T <= kMatvecMaxT tokens (the weights are read once for all of them). Up to
// three matrices of one type that share x go in one launch (q, k and v). Optional per matrix: a
// bias added to each output, and accumulate (y += ...: the residual connection). The gated form
// computes y = silu(x · Gateᵀ) * (x · Upᵀ) in one pass (SwiGLU's two projections). A preceding
// RMSNorm can be folded in: every block normalises the tokens' rows itself, which saves a launch.
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

#include "gguf/ggml_type.h"

namespace dlab::cuda {

constexpr int kMatvecMaxT = 8;

struct MatvecOut {
    const uint8_t* w = nullptr;   // (rows, rowBytes)
    size_t rowBytes = 0;
    int rows = 0;
    const float* bias = nullptr;  // (rows) or null
    float* y = nullptr;           // (T, ldy)
    int ldy = 0;
};

struct MatvecArgs {
    GgmlType type = GgmlType::F32;
    MatvecOut out[3];
    int nOut = 1;
    const uint8_t* up = nullptr;  // gated: the up matrix (same shape and type as out[0].w)
    const float* x = nullptr;     // (T, ldx)
    int ldx = 0;
    int cols = 0;                 // a multiple of 8
    int T = 1;
    bool accumulate = false;
    // RMSNorm folded in (llama, qwen2 decode): x is the raw residual stream, and each token's row
    // is taken as x / sqrt(mean(x²) + eps) * rmsWeight (cols values); null: x as it is.
    const float* rmsWeight = nullptr;
    float rmsEps = 0.0f;
    // A programmatic dependent launch (cuda/ops/pdl.cuh): the blocks may start while the kernel
    // before them runs; they load their first weights and then wait for it.
    bool dependent = false;
};

// Throws dlab::Error for a type the device cannot read or T outside 1..kMatvecMaxT.
void matvecLaunch(const MatvecArgs& a, cudaStream_t stream);

// The code the driver loaded for the current device, read from one matvec kernel (every kernel of
// the build comes from the same architectures): attr->ptxVersion is the virtual architecture it
// was compiled from (75 for the compute_75 PTX), binaryVersion the SASS that runs.
// cudaErrorNoKernelImageForDevice (or cudaErrorInvalidDeviceFunction) when the build has none.
cudaError_t matvecLoadedCode(cudaFuncAttributes* attr);

}  // namespace dlab::cuda
