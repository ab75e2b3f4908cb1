#pragma once
// Kernels that exercise the CUDA emulator itself (test_kernels.cu, compiled like cuda/ops/*.cu):
// each launcher queues one grid on `stream`; the faulty ones fault on purpose.
#include <cuda_runtime_api.h>

namespace dlab::emu::testing {

// out[global thread] = blockIdx (x, y, z) and threadIdx (x, y, z) packed 5 bits each.
void launchIndex(int* out, dim3 grid, dim3 block, cudaStream_t stream);
// out[block] = the sum of x over that block's slice of n values (the backend's blockSum).
void launchBlockSums(const float* x, float* out, int n, int blocks, int threads, cudaStream_t stream);
// out[3 * t + ...] = lane ^ 1 through __shfl_xor_sync, lane + 3 through __shfl_down_sync (its own
// value at the edge), lane 7's value through __shfl_sync, for one block of `threads`.
void launchShuffles(int* out, int threads, cudaStream_t stream);
// out[3 * t + ...] = __ballot_sync of (t % 3 == 0), __any_sync of (t == 37), __all_sync of
// (lane != 31 || t < 32), for one block of `threads`.
void launchVotes(unsigned* out, int threads, cudaStream_t stream);
// out[i] = in[i] * scale + add (a grid-stride loop): arguments by value, for graph capture.
void launchAffine(const float* in, float* out, float scale, float add, int n, cudaStream_t stream);
// Thread 0 writes `value` to shared memory and the others read it without a barrier: what they
// read depends on the order the threads run in (the race the reverse order exposes).
// out[t] = what thread t read.
void launchMissingBarrier(float* out, float value, cudaStream_t stream);
// Block b > 0 adds 1 to what block b - 1 wrote in the same grid, with nothing ordering them: a
// chain that only the forward order of blocks completes (on a GPU the blocks run at once).
// out[b] = 1 + out[b - 1] as block b read it; out[0] = 1. out must start at 0.
void launchCrossBlockChain(float* out, int blocks, cudaStream_t stream);
// out[(block, thread)] = the position at which that thread ran in the grid (a counter every thread
// bumps once): tells the order the emulator ran blocks and threads in.
void launchRunOrder(int* out, int* counter, int blocks, int threads, cudaStream_t stream);
// before[i] = x[i] read before cudaGridDependencySynchronize, after[i] = x[i] read after it;
// a dependent launch (programmatic dependent launch) when `dependent`.
void launchReadAroundWait(const float* x, float* before, float* after, int n, int threads, bool dependent, cudaStream_t stream);

// Faults: a read one element past the end of x; a warp sum that waits for an exited lane;
// __syncthreads at two different places; a shuffle that waits for a lane stuck at __syncthreads.
void launchReadPastEnd(const float* x, float* out, int n, cudaStream_t stream);
// A 4-byte cuda::loadAligned at an address 2 bytes past a 4-byte boundary (x: 16 floats).
void launchMisalignedLoad(const float* x, float* out, cudaStream_t stream);
void launchShuffleAfterExit(float* out, cudaStream_t stream);
void launchDivergentBarrier(float* out, cudaStream_t stream);
void launchShuffleDeadlock(float* out, cudaStream_t stream);
// A launch with more than 1024 threads in a block (an invalid configuration).
void launchTooManyThreads(float* out, cudaStream_t stream);

}  // namespace dlab::emu::testing
