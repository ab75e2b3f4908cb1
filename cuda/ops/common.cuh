#pragma once
// Warp and block reductions shared by the kernels (device code only).
#include <cuda_runtime.h>

namespace dlab::cuda {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float warpSum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(kFullMask, v, o);
    return v;
}
__device__ __forceinline__ float warpMax(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kFullMask, v, o));
    return v;
}

// Sum (or max) over the whole block; every thread gets the result. blockDim.x is a multiple of
// 32 and at most 1024. Safe to call several times in a row (it synchronises before reusing part[]).
__device__ __forceinline__ float blockSum(float v) {
    __shared__ float part[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nWarps = blockDim.x >> 5;
    v = warpSum(v);
    __syncthreads();
    if (lane == 0) part[warp] = v;
    __syncthreads();
    return warpSum(lane < nWarps ? part[lane] : 0.0f);
}
__device__ __forceinline__ float blockMax(float v) {
    __shared__ float part[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nWarps = blockDim.x >> 5;
    v = warpMax(v);
    __syncthreads();
    if (lane == 0) part[warp] = v;
    __syncthreads();
    return warpMax(lane < nWarps ? part[lane] : -INFINITY);
}

inline unsigned blocksFor(long long n, int per) { return static_cast<unsigned>((n + per - 1) / per); }

}  // namespace dlab::cuda
