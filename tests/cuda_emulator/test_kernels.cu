// Kernels for the emulator's own tests (test_kernels.h). Written as CUDA and rewritten like the
// backend's kernels, so the launch rewrite is tested on the forms used here (2- and 4-argument
// configurations, template kernels, launches over several lines).
#include <cuda_runtime.h>

#include "cuda/ops/common.cuh"
#include "cuda/ops/pdl.cuh"
#include "cuda/quant_hd.h"
#include "test_kernels.h"

namespace dlab::emu::testing {

using namespace dlab::cuda;

namespace {
__global__ void indexKernel(int* out) {
    const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned perBlock = blockDim.x * blockDim.y * blockDim.z;
    out[block * perBlock + thread] = int(blockIdx.x | blockIdx.y << 5 | blockIdx.z << 10 | threadIdx.x << 15 | threadIdx.y << 20 | threadIdx.z << 25);
}

__global__ void blockSumsKernel(const float* x, float* out, int n) {
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[blockIdx.x * n + i];
    s = blockSum(s);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void shufflesKernel(int* out) {
    const int lane = threadIdx.x & 31;
    out[3 * threadIdx.x + 0] = __shfl_xor_sync(kFullMask, int(threadIdx.x), 1);
    out[3 * threadIdx.x + 1] = __shfl_down_sync(kFullMask, int(threadIdx.x), 3);
    out[3 * threadIdx.x + 2] = __shfl_sync(kFullMask, int(threadIdx.x), 7);
    (void)lane;
}

__global__ void votesKernel(unsigned* out) {
    const int t = threadIdx.x, lane = t & 31;
    out[3 * t + 0] = __ballot_sync(kFullMask, t % 3 == 0);
    out[3 * t + 1] = __any_sync(kFullMask, t == 37);
    out[3 * t + 2] = __all_sync(kFullMask, lane != 31 || t < 32);
}

template <int STRIDE>
__global__ void affineKernel(const float* in, float* out, float scale, float add, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x * STRIDE) out[i] = in[i] * scale + add;
}

__global__ void missingBarrierKernel(float* out, float v) {
    __shared__ float value;
    if (threadIdx.x == 0) value = v;
    out[threadIdx.x] = value;   // no __syncthreads() before this read: a race
}

__global__ void crossBlockChainKernel(float* out) {
    if (threadIdx.x != 0) return;
    out[blockIdx.x] = blockIdx.x == 0 ? 1.0f : out[blockIdx.x - 1] + 1.0f;   // no grid-wide ordering: a race
}

__global__ void runOrderKernel(int* out, int* counter) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = (*counter)++;   // the emulator runs one fiber at a time
}

// What x held before and after the wait for the previous grid; the thread's first read
// happens before the wait, as a dependent kernel may do with memory no kernel writes.
__global__ void readAroundWaitKernel(const float* x, float* before, float* after, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float b = i < n ? x[i] : 0.0f;
    waitForPreviousGrid();
    if (i < n) before[i] = b, after[i] = x[i];
}

__global__ void misalignedLoadKernel(const float* x, float* out) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(x);
    out[0] = static_cast<float>(dlab::cuda::loadAligned<uint32_t>(bytes + 2 + 4 * threadIdx.x));   // 4-byte load, 2 past a boundary
}

__global__ void readPastEndKernel(const float* x, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[0] = x[i];   // <= : thread n reads one past the end
}

__global__ void shuffleAfterExitKernel(float* out) {
    if (threadIdx.x == 5) return;
    const float s = warpSum(1.0f);
    if (threadIdx.x == 0) out[0] = s;
}

__global__ void divergentBarrierKernel(float* out) {
    if (threadIdx.x < 16) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1.0f;
}

__global__ void shuffleDeadlockKernel(float* out) {
    if (threadIdx.x == 3) __syncthreads();
    out[threadIdx.x] = warpSum(1.0f);
}
}  // namespace

void launchIndex(int* out, dim3 grid, dim3 block, cudaStream_t stream) { indexKernel<<<grid, block, 0, stream>>>(out); }
void launchBlockSums(const float* x, float* out, int n, int blocks, int threads, cudaStream_t stream) {
    blockSumsKernel<<<blocks, threads, 0, stream>>>(x, out, n);
}
void launchShuffles(int* out, int threads, cudaStream_t stream) { shufflesKernel<<<1, threads, 0, stream>>>(out); }
void launchVotes(unsigned* out, int threads, cudaStream_t stream) { votesKernel<<<1, threads, 0, stream>>>(out); }
void launchAffine(const float* in, float* out, float scale, float add, int n, cudaStream_t stream) {
    affineKernel<1><<<blocksFor(n, 64) > 4 ? 4 : blocksFor(n, 64), 64, 0,
                      stream>>>(in, out,
                                scale, add, n);
}
void launchMissingBarrier(float* out, float value, cudaStream_t stream) { missingBarrierKernel<<<1, 64, 0, stream>>>(out, value); }
void launchCrossBlockChain(float* out, int blocks, cudaStream_t stream) { crossBlockChainKernel<<<blocks, 32, 0, stream>>>(out); }
void launchRunOrder(int* out, int* counter, int blocks, int threads, cudaStream_t stream) {
    runOrderKernel<<<blocks, threads, 0, stream>>>(out, counter);
}
void launchReadAroundWait(const float* x, float* before, float* after, int n, int threads, bool dependent, cudaStream_t stream) {
    if (dependent) launchDependent("readAroundWaitKernel", readAroundWaitKernel, dim3(blocksFor(n, threads)), dim3(threads), 0, stream, x, before, after, n);
    else readAroundWaitKernel<<<blocksFor(n, threads), threads, 0, stream>>>(x, before, after, n);
}
void launchReadPastEnd(const float* x, float* out, int n, cudaStream_t stream) {
    readPastEndKernel<<<blocksFor(n + 1, 128), 128, 0, stream>>>(x, out, n);
}
void launchMisalignedLoad(const float* x, float* out, cudaStream_t stream) { misalignedLoadKernel<<<1, 4, 0, stream>>>(x, out); }
void launchShuffleAfterExit(float* out, cudaStream_t stream) { shuffleAfterExitKernel<<<1, 32, 0, stream>>>(out); }
void launchDivergentBarrier(float* out, cudaStream_t stream) { divergentBarrierKernel<<<1, 32, 0, stream>>>(out); }
void launchShuffleDeadlock(float* out, cudaStream_t stream) { shuffleDeadlockKernel<<<1, 32, 0, stream>>>(out); }
void launchTooManyThreads(float* out, cudaStream_t stream) { missingBarrierKernel<<<1, 2048>>>(out, 0.0f); (void)stream; }

}  // namespace dlab::emu::testing
