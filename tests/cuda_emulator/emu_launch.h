#pragma once
// The emulator's device-side interface: the coordinates of the running CUDA thread, barriers and
// warp exchanges, and kernel launches. emu_device.h maps CUDA's names (threadIdx, __syncthreads,
// __shfl_xor_sync, ...) onto it for the kernel sources; the emulator's own code includes this.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>

namespace dlab::emu {

// The coordinates of the CUDA thread a fiber runs.
struct DeviceThread {
    uint3 threadIdx{}, blockIdx{};
    dim3 blockDim, gridDim;
};

namespace detail {
extern thread_local const DeviceThread* tCurrentThread;
}
inline const DeviceThread& currentThread() { return *detail::tCurrentThread; }

// Barriers and warp exchanges (emu_scheduler.cpp). site: "file:line" of the call, for the
// divergence checks and their messages.
void syncThreads(const char* file, int line);
void syncWarp(unsigned mask, const char* file, int line);
// Every lane in mask publishes value and receives the value of lane src(lane) (src < 0: its own).
uint64_t warpExchange(unsigned mask, uint64_t value, int srcLane, const char* file, int line);
// Every lane in mask publishes predicate and receives the bits of the lanes in mask whose
// predicate holds (__ballot_sync; __any_sync and __all_sync are made of it).
uint32_t warpBallot(unsigned mask, bool predicate, const char* file, int line);
// A vector access (cuda/quant_hd.h's loadAligned) to an address that is not a multiple of its
// size: a fault with cudaErrorMisalignedAddress, as on a GPU (x86 would just do it).
[[noreturn]] void misalignedAccess(const void* p, size_t bytes, const char* file, int line);
inline void checkAligned(const void* p, size_t bytes, const char* file, int line) {
    if (reinterpret_cast<uintptr_t>(p) % bytes != 0) misalignedAccess(p, bytes, file, line);
}

template <class T>
T shuffle(unsigned mask, T v, int srcLane, const char* file, int line) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "the emulator shuffles values of up to 8 bytes");
    uint64_t raw = 0;
    std::memcpy(&raw, &v, sizeof(T));
    raw = warpExchange(mask, raw, srcLane, file, line);
    T out;
    std::memcpy(&out, &raw, sizeof(T));
    return out;
}
inline int laneId() {
    const DeviceThread& t = currentThread();
    return static_cast<int>((t.threadIdx.x + t.threadIdx.y * t.blockDim.x + t.threadIdx.z * t.blockDim.x * t.blockDim.y) & 31);
}
// The source lane of lane l within its segment of `width` lanes, or -1 when the value stays (shfl_up/down past the edge).
inline int segmentLane(int lane, int target, int width) {
    const int base = lane & ~(width - 1);
    return base + (target & (width - 1));
}

// A launch's configuration, as written between <<< and >>>. dependent: a programmatic dependent
// launch (cudaLaunchKernelEx with cudaLaunchAttributeProgrammaticStreamSerialization).
struct LaunchConfig {
    dim3 grid, block;
    size_t sharedBytes = 0;
    cudaStream_t stream = nullptr;
    bool dependent = false;
    LaunchConfig(dim3 g, dim3 b, size_t shared = 0, cudaStream_t s = nullptr, bool dependentLaunch = false)
        : grid(g), block(b), sharedBytes(shared), stream(s), dependent(dependentLaunch) {}
};

// cudaGridDependencySynchronize(): in the block of a dependent grid that runs before the grid it
// depends on (emu_runtime.cpp's flush), the thread waits here until that grid has run; anywhere
// else it returns at once, as on a GPU where the previous grid has finished.
void gridDependencyWait(const char* file, int line);

// Checks a pointer argument at launch: null, device memory or pinned host memory are fine; a
// pageable host pointer would fault on the GPU, so the launch then faults too. Returns the problem
// ("" when there is none).
std::string kernelPointerProblem(const void* p, int index);

// Queues (or, during stream capture, records) one grid of `body`, run once per CUDA thread;
// a non-empty `fault` makes the grid fault when it runs.
void submitKernel(const LaunchConfig& config, const char* name, const char* file, int line, std::function<void()> body,
                  std::string fault);

// kernel<<<config>>>(args...): the arguments are converted to the kernel's parameter types and
// copied now, as a real launch does (a graph replays the values it captured).
template <class... P, class... A>
void launch(const char* name, const char* file, int line, void (*kernel)(P...), const LaunchConfig& config, A&&... args) {
    static_assert(sizeof...(P) == sizeof...(A), "wrong number of kernel arguments");
    auto params = std::make_shared<std::tuple<std::decay_t<P>...>>(std::forward<A>(args)...);
    std::string fault;
    int index = 0;
    auto check = [&](const auto& p) {
        if constexpr (std::is_pointer_v<std::decay_t<decltype(p)>>)
            if (fault.empty()) fault = kernelPointerProblem(static_cast<const void*>(p), index);
        ++index;
    };
    std::apply([&](const auto&... p) { (check(p), ...); }, *params);
    submitKernel(config, name, file, line, [kernel, params] { std::apply(kernel, *params); }, std::move(fault));
}

}  // namespace dlab::emu

