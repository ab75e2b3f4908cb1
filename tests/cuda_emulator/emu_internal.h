#pragma once
// What the emulator's parts share: device work as a queue of operations, kernels run by the
// fiber scheduler, and the registry of device and pinned allocations.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "emu_launch.h"

namespace dlab::emu {

// A fault on the emulated device (a kernel's out-of-bounds access, a divergent barrier, a bad
// GEMM argument): it becomes the sticky error every later call returns, as on a GPU.
struct DeviceFault {
    cudaError_t error;
    std::string message;
};

// One unit of device work in stream order: a grid, a copy, a memset, a GEMM. run() executes on
// the emulated device (device memory accessible) and throws DeviceFault.
struct Op {
    std::string what;
    std::function<void()> run;
    bool kernel = false;
    // Runs as grids on a GPU (a kernel, a cuBLAS GEMM): a dependent kernel after it may start
    // before it ends. A copy or memset is always waited for.
    bool grids = false;
    // A dependent kernel (programmatic dependent launch): runs its first block up to the threads'
    // cudaGridDependencySynchronize; flush calls it before the kernel queued ahead of this one, so
    // that what the block does before its wait shows whether it reads or writes what that kernel
    // writes or reads (on a GPU the two overlap). Empty for anything else.
    std::function<void()> startEarly;
};

// Every API entry holds this lock (the engine may call from its own thread).
std::recursive_mutex& apiLock();

// Queues op on stream, or records it when the stream is capturing a graph. Returns the error the
// calling API function reports (cudaSuccess, or a capture violation).
cudaError_t submit(cudaStream_t stream, Op op);
// Records err as the calling thread's last error (cudaGetLastError) and returns it.
cudaError_t setLastError(cudaError_t err);
// Whether the calling thread is capturing in a mode that forbids unsafe calls (cudaMalloc,
// synchronisation); such a call also invalidates the capture.
bool captureForbids(const char* call);

void countGemm();   // statistics: one emulated GEMM ran

// ---- kernels (emu_scheduler.cpp) ----
struct KernelLaunch {
    dim3 grid, block;
    std::string name;
    const char* file = "";
    int line = 0;
    std::function<void()> body;
};
// The first block (in the configured order) of a dependent grid, paused where its threads wait
// for the previous grid (or finished, if they never wait).
struct EarlyBlock;
struct EarlyBlockDeleter {
    void operator()(EarlyBlock* b) const;
};
using EarlyBlockPtr = std::unique_ptr<EarlyBlock, EarlyBlockDeleter>;
EarlyBlockPtr startEarly(const KernelLaunch& k);   // throws DeviceFault
// Runs the grid; an early block started for it resumes first (its threads' waits return).
void runKernel(const KernelLaunch& k, EarlyBlockPtr early = nullptr);   // throws DeviceFault

// ---- memory (emu_memory.cpp) ----
enum class Space { Device, Pinned, Pageable };
// The space of [p, p + bytes): Device or Pinned only when the whole range lies in one allocation.
// outside is set when p lies in an allocation but the range runs past its end.
Space spaceOf(const void* p, size_t bytes, bool* outside = nullptr);
// Allocations: guard pages on both sides, contents set to 0xff bytes (NaN as floats, -1 as ints)
// so that reading memory nobody wrote shows. Device memory counts against the configured size.
cudaError_t allocate(void** p, size_t bytes, bool device);
cudaError_t release(void* p, bool device);
size_t deviceBytesInUse();
// Device memory is readable only while the device runs (flush): host code that dereferences a
// device pointer faults with a message naming the allocation.
void setDeviceAccess(bool on);
// Installs the SIGSEGV/SIGBUS reporter (once per process) and an alternate signal stack for the
// calling thread.
void installFaultHandler();
// A printable description of the allocation holding p ("a 4096-byte device allocation"), for messages.
std::string describeAddress(const void* p);

// Called by the fault reporter: inside a kernel's thread, ends the grid with `what` as an
// illegal-address fault (it returns to the scheduler and does not come back); outside, false.
bool recoverFromFault(const char* what);
bool isFiberStackGuard(const void* p);

}  // namespace dlab::emu
