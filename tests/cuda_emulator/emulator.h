#pragma once
// The CUDA emulator: the CUDA runtime and the few cuBLAS calls the backend makes, implemented on
// the CPU so that the CUDA backend's own code — every kernel in cuda/ops/, its launcher, the
// graphs, the device KV mirror, the fallbacks — runs and is tested on machines without a GPU.
//
// What it checks that a plain CPU port would not:
//   - kernels run as real CUDA threads (one fiber each) with blocks, warps, __syncthreads and
//     shuffles; a shuffle waiting for an exited lane, a divergent barrier or a deadlock is a fault;
//   - device memory has guard pages: an out-of-bounds access in a kernel is a fault naming the
//     kernel, block, thread and allocation; host code touching device memory faults too;
//   - new allocations hold 0xff bytes (NaN, -1): reading memory nobody wrote shows;
//   - work is queued and runs only at synchronisation points, as on a GPU: reading results
//     without synchronising reads stale data;
//   - stream capture records kernels with the arguments of the moment and memory copies that
//     read pinned memory at replay; unsafe calls during capture (cudaMalloc, synchronisation,
//     pageable copies) fail the capture;
//   - a dependent launch (programmatic dependent launch, cuda/ops/pdl.cuh) runs its first block
//     up to cudaGridDependencySynchronize before the kernel ahead of it, as a GPU may overlap
//     them: reading that kernel's results before the wait gives the old values;
//   - faults are sticky: every later call returns the error, as a GPU context does.
// What it cannot show: speed, memory-model races beyond the orders it tries (a GPU runs blocks
// at once and a block's warps in any order; DLAB_CUDA_EMU_ORDER=reverse or shuffle runs the
// blocks of a grid and the threads of a block in another order, so a result that depends on the
// order changes), and the device's own floating-point ulps.
//
// Configuration, from the environment on first use and changeable by tests:
//   DLAB_CUDA_EMU_DEVICES=N      devices visible (0: cudaErrorNoDevice)
//   DLAB_CUDA_EMU_DRIVER=V       the driver's CUDA version, e.g. 12040 (older than 13000:
//                                cudaErrorInsufficientDriver; 0: no driver installed)
//   DLAB_CUDA_EMU_CC=M.m         compute capability (default 9.0)
//   DLAB_CUDA_EMU_MEMORY=BYTES   device memory, with an optional K/M/G suffix (default 16G)
//   DLAB_CUDA_EMU_ORDER=forward|reverse|shuffle   the order of a grid's blocks and of a block's
//                                threads between barriers (shuffle: a new permutation each
//                                grid and each round, from DLAB_CUDA_EMU_SEED, default 1)
//   DLAB_CUDA_EMU_PROTECT=0      leave device memory readable by host code
//   DLAB_CUDA_EMU_IMAGES=LIST    the code the emulated build carries, as CMAKE_CUDA_ARCHITECTURES
//                                lists it (default: this build's list, e.g.
//                                75-virtual;90-real;90-virtual); see loadedCode()
//   CUDA_FORCE_PTX_JIT=1         as the driver: ignore SASS, compile the PTX at load time
#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda/code_images.h"

namespace dlab::emu {

enum class ThreadOrder { Forward, Reverse, Shuffle };

struct Config {
    int devices = 1;
    int major = 9, minor = 0;
    int driverVersion = 13000;
    size_t memoryBytes = size_t(16) << 30;
    ThreadOrder order = ThreadOrder::Forward;
    uint64_t shuffleSeed = 1;
    bool protectDeviceMemory = true;
    bool cublasCapturable = true;   // false: cublasGemmEx refuses while its stream captures (an old cuBLAS)
    std::string name = "CUDA emulator on the CPU";
    std::string images = defaultImages();   // CMAKE_CUDA_ARCHITECTURES' form, ';' or ',' between entries
    bool forcePtxJit = false;               // CUDA_FORCE_PTX_JIT=1
    static std::string defaultImages();
};
Config& config();

// A test's changes to config(), undone when the scope ends.
class ConfigScope {
public:
    ConfigScope() : saved_(config()) {}
    ~ConfigScope() { config() = saved_; }
    ConfigScope(const ConfigScope&) = delete;
    ConfigScope& operator=(const ConfigScope&) = delete;

private:
    Config saved_;
};

// "M.m" (e.g. "8.6") into c's compute capability, as DLAB_CUDA_EMU_CC is read.
void setCapability(Config& c, const std::string& majorDotMinor);

// The code the driver would load for the configured device from config().images, by the rule of
// cuda/code_images.h: SASS built for the same major version and a minor no higher (the newest
// such), else the newest PTX no newer than the device, compiled at load time (the only choice with
// forcePtxJit). Versions are major * 10 + minor, as cudaFuncAttributes has them; 0 when the build
// has no code the device can run: every launch then fails with cudaErrorNoKernelImageForDevice.
// Code compiled from PTX older than 9.0 has no cudaGridDependencySynchronize in it
// (cuda/ops/pdl.cuh leaves it out there), so a dependent launch's early block runs past it.
// A list without architecture numbers ("native") has code for whatever device this is.
cuda::CodeImage loadedCode();
cuda::CodeImage loadedCode(const std::string& images, int major, int minor, bool forcePtxJit);

struct Stats {
    uint64_t kernels = 0;          // grids run (direct and replayed)
    uint64_t kernelsInGraphs = 0;  // of which from graph launches
    uint64_t threads = 0;          // CUDA threads run
    uint64_t captures = 0, graphLaunches = 0;
    uint64_t flushes = 0;          // synchronisation points that ran work
    uint64_t bytesToDevice = 0, bytesToHost = 0, bytesOnDevice = 0;
    uint64_t gemms = 0;
    uint64_t dependentKernels = 0;   // grids launched dependent (programmatic dependent launch) that ran
    uint64_t earlyBlocks = 0;        // of their first blocks, those run up to their wait before the previous grid
};
Stats stats();
void resetStats();

// The sticky fault's message ("" when the device is healthy), and a reset that clears it
// (cudaDeviceReset does the same).
std::string lastFault();
void clearFault();

// What is alive now: bytes of device memory, streams, cuBLAS handles (a backend that fails half-way
// through its construction must leave none behind).
size_t deviceMemoryInUse();
int liveStreams();
int liveCublasHandles();

}  // namespace dlab::emu
