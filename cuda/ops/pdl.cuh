#pragma once
// Programmatic dependent launch (compute capability 9.0 and up). A kernel launched dependent
// (launchDependent) may start while the kernel before it in the stream still runs, so a decode
// step's small kernels need not each wait for the previous one to drain before they load their
// weights. Its contract:
//   - before waitForPreviousGrid() a thread reads only what no kernel of the pass writes (the
//     weights and its arguments), writes nothing, and leaves nothing in shared memory;
//   - after it, everything the previous kernels wrote is visible, as with an ordinary launch.
// allowNextGrid() lets the next dependent kernel start before this one ends (a hint). Both are
// no-ops for a kernel that was launched the ordinary way. The CUDA emulator runs a dependent
// grid's first block up to its wait before the previous grid, so a kernel that breaks the
// contract changes its results there (tests/cuda_emulator/emulator.h).
#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "core/error.h"

namespace dlab::cuda {

// Code compiled for compute capability below 9.0 (the compute_75 PTX that Turing to Ada GPUs
// compile at load time) has no such instructions, so there both are empty; the backend then never
// launches dependent (CudaBackend's constructor asks which code was loaded).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__device__ __forceinline__ void waitForPreviousGrid() { cudaGridDependencySynchronize(); }
__device__ __forceinline__ void allowNextGrid() { cudaTriggerProgrammaticLaunchCompletion(); }
#else
__device__ __forceinline__ void waitForPreviousGrid() {}
__device__ __forceinline__ void allowNextGrid() {}
#endif

// kernel<<<grid, block, shared, stream>>>(args...) as a dependent launch. Throws dlab::Error when
// the runtime refuses it.
template <class... P, class... A>
void launchDependent(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, size_t shared, cudaStream_t stream, A&&... args) {
#ifdef DLAB_EMU_LAUNCH_DEPENDENT
    DLAB_EMU_LAUNCH_DEPENDENT(name, kernel, grid, block, shared, stream, std::forward<A>(args)...);
#else
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    if (const cudaError_t e = cudaLaunchKernelEx(&config, kernel, std::forward<A>(args)...); e != cudaSuccess)
        throw Error(std::string("a dependent launch of ") + name + " failed: " + cudaGetErrorString(e) +
                    " (DLAB_CUDA_PDL=0 launches every kernel the ordinary way)");
#endif
}

}  // namespace dlab::cuda
