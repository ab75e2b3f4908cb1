#pragma once
// The device side of the CUDA emulator, force-included (-include) into every kernel source that
// the emulator compiles as host C++ (the .cu files under cuda/ops/, after rewrite_launches.py has
// turned `kernel<<<grid, block, shared, stream>>>(args)` into ::dlab::emu::launch(...)).
//
// A kernel runs as one fiber per CUDA thread (emu_scheduler.cpp): threadIdx and friends read the
// running fiber's coordinates, __syncthreads() and the warp shuffles switch fibers until every
// thread they wait for has arrived, and __shared__ variables are one instance per host thread,
// which is what a block's threads share because the blocks of a grid run one after another.
#define __shared__ static thread_local
#define __launch_bounds__(...)

// The headers whose host declarations use these names (cudaLaunchKernel's gridDim, ...) come
// first, before the names become macros; nvcc's implicit math declarations come along.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

#include <cmath>

#include "emu_launch.h"

#define threadIdx (::dlab::emu::currentThread().threadIdx)
#define blockIdx (::dlab::emu::currentThread().blockIdx)
#define blockDim (::dlab::emu::currentThread().blockDim)
#define gridDim (::dlab::emu::currentThread().gridDim)
#define warpSize 32
#define __syncthreads() ::dlab::emu::syncThreads(__FILE__, __LINE__)
#define __syncwarp(...) ::dlab::emu::syncWarp(::dlab::emu::detail::maskOr(__VA_ARGS__), __FILE__, __LINE__)
#define __shfl_sync(mask, v, src, ...) \
    ::dlab::emu::shuffle((mask), (v), ::dlab::emu::segmentLane(::dlab::emu::laneId(), (src), ::dlab::emu::detail::widthOr(__VA_ARGS__)), __FILE__, __LINE__)
#define __shfl_xor_sync(mask, v, laneMask, ...) \
    ::dlab::emu::shuffle((mask), (v), ::dlab::emu::segmentLane(::dlab::emu::laneId(), ::dlab::emu::laneId() ^ (laneMask), ::dlab::emu::detail::widthOr(__VA_ARGS__)), __FILE__, __LINE__)
// Programmatic dependent launch (cuda/ops/pdl.cuh): the wait may pause the thread (see
// gridDependencyWait); the trigger only lets a GPU start the next grid early, nothing to emulate.
#define cudaGridDependencySynchronize() ::dlab::emu::gridDependencyWait(__FILE__, __LINE__)
#define cudaTriggerProgrammaticLaunchCompletion() ((void)0)
#define DLAB_EMU_LAUNCH_DEPENDENT(name, kernel, grid, block, shared, stream, ...) \
    ::dlab::emu::launch((name), __FILE__, __LINE__, (kernel), ::dlab::emu::LaunchConfig((grid), (block), (shared), (stream), true), __VA_ARGS__)
#define DLAB_EMU_CHECK_ALIGNED(p, bytes) ::dlab::emu::checkAligned((p), (bytes), __FILE__, __LINE__)
#define __ballot_sync(mask, predicate) ::dlab::emu::warpBallot((mask), (predicate) != 0, __FILE__, __LINE__)
#define __any_sync(mask, predicate) (::dlab::emu::warpBallot((mask), (predicate) != 0, __FILE__, __LINE__) != 0u)
#define __all_sync(mask, predicate) (::dlab::emu::warpBallot((mask), (predicate) != 0, __FILE__, __LINE__) == (mask))
#define __shfl_down_sync(mask, v, delta, ...) \
    ::dlab::emu::shuffle((mask), (v), ::dlab::emu::detail::downLane((delta), ::dlab::emu::detail::widthOr(__VA_ARGS__)), __FILE__, __LINE__)
#define __shfl_up_sync(mask, v, delta, ...) \
    ::dlab::emu::shuffle((mask), (v), ::dlab::emu::detail::upLane((delta), ::dlab::emu::detail::widthOr(__VA_ARGS__)), __FILE__, __LINE__)

namespace dlab::emu::detail {
inline unsigned maskOr(unsigned m = 0xffffffffu) { return m; }
inline int widthOr(int w = 32) { return w; }
inline int downLane(unsigned delta, int width) {
    const int lane = laneId(), within = lane & (width - 1);
    return within + static_cast<int>(delta) < width ? lane + static_cast<int>(delta) : -1;
}
inline int upLane(unsigned delta, int width) {
    const int lane = laneId(), within = lane & (width - 1);
    return within - static_cast<int>(delta) >= 0 ? lane - static_cast<int>(delta) : -1;
}
}  // namespace dlab::emu::detail

// Bit casts the kernels may use (device intrinsics).
inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
