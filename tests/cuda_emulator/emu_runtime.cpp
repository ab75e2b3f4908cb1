// The CUDA runtime API as the backend uses it, on the CPU. Work submitted to a stream (kernels,
// copies, memsets, GEMMs) is queued in order and runs only at a synchronisation point, as on a
// GPU; stream capture records the work into a graph instead; a fault is sticky.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "emu_internal.h"
#include "emulator.h"

// The opaque handles of the runtime API.
struct CUstream_st {
    struct Capture {
        cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
        std::thread::id thread;
        std::vector<dlab::emu::Op> ops;
        bool invalidated = false;
        std::string why;
    };
    std::unique_ptr<Capture> capture;
};
struct CUgraph_st {
    std::vector<dlab::emu::Op> ops;
};
struct CUgraphExec_st {
    std::vector<dlab::emu::Op> ops;
};

namespace dlab::emu {

namespace {

size_t parseBytes(const char* s) {
    char* end = nullptr;
    double v = std::strtod(s, &end);
    if (end && *end) {
        switch (*end) {
        case 'k': case 'K': v *= 1024.0; break;
        case 'm': case 'M': v *= 1024.0 * 1024; break;
        case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
        default: break;
        }
    }
    return static_cast<size_t>(v);
}

}  // namespace

void setCapability(Config& c, const std::string& majorDotMinor) {
    c.major = std::atoi(majorDotMinor.c_str());
    const size_t dot = majorDotMinor.find('.');
    c.minor = dot == std::string::npos ? 0 : std::atoi(majorDotMinor.c_str() + dot + 1);
}

namespace {

Config makeConfig() {
    Config c;
    if (const char* v = std::getenv("DLAB_CUDA_EMU_DEVICES")) c.devices = std::atoi(v);
    if (const char* v = std::getenv("DLAB_CUDA_EMU_DRIVER")) c.driverVersion = std::atoi(v);
    if (const char* v = std::getenv("DLAB_CUDA_EMU_CC")) setCapability(c, v);
    if (const char* v = std::getenv("DLAB_CUDA_EMU_MEMORY")) c.memoryBytes = parseBytes(v);
    if (const char* v = std::getenv("DLAB_CUDA_EMU_ORDER")) {
        if (std::strcmp(v, "reverse") == 0) c.order = ThreadOrder::Reverse;
        else if (std::strcmp(v, "shuffle") == 0) c.order = ThreadOrder::Shuffle;
        else if (std::strcmp(v, "forward") != 0 && *v)
            std::fprintf(stderr, "CUDA emulator: DLAB_CUDA_EMU_ORDER is forward, reverse or shuffle (got '%s'); running forward\n", v);
    }
    if (const char* v = std::getenv("DLAB_CUDA_EMU_SEED")) c.shuffleSeed = std::strtoull(v, nullptr, 10);
    if (const char* v = std::getenv("DLAB_CUDA_EMU_PROTECT")) c.protectDeviceMemory = std::strcmp(v, "0") != 0;
    if (const char* v = std::getenv("DLAB_CUDA_EMU_CUBLAS_CAPTURE")) c.cublasCapturable = std::strcmp(v, "0") != 0;
    if (const char* v = std::getenv("DLAB_CUDA_EMU_IMAGES")) c.images = v;
    if (const char* v = std::getenv("CUDA_FORCE_PTX_JIT")) c.forcePtxJit = std::strcmp(v, "1") == 0;
    return c;
}

constexpr int kRuntimeVersion = 13000;

struct State {
    std::deque<Op> pending;
    std::set<CUstream_st*> streams;
    cudaError_t sticky = cudaSuccess;
    std::string stickyMessage;
    Stats stats;
};
State& state() {
    static auto* s = new State();
    return *s;
}
thread_local cudaError_t tLastError = cudaSuccess;

void report(const std::string& message) { std::fprintf(stderr, "CUDA emulator: %s\n", message.c_str()); }

cudaError_t invalid(const std::string& message) {
    report(message);
    return setLastError(cudaErrorInvalidValue);
}

// Runs everything queued, in order. A fault makes the error sticky and drops the rest.
cudaError_t flush() {
    State& s = state();
    if (s.pending.empty()) return s.sticky;
    setDeviceAccess(true);
    while (!s.pending.empty()) {
        Op op = std::move(s.pending.front());
        s.pending.pop_front();
        if (s.sticky != cudaSuccess) continue;
        // A dependent kernel next: its first block runs up to its wait before this kernel runs.
        if (op.grids && !s.pending.empty() && s.pending.front().startEarly) {
            try {
                s.pending.front().startEarly();
            } catch (const DeviceFault& f) {
                s.sticky = f.error;
                s.stickyMessage = s.pending.front().what + ": " + f.message;
                report(s.stickyMessage);
                continue;
            }
        }
        try {
            op.run();
        } catch (const DeviceFault& f) {
            s.sticky = f.error;
            s.stickyMessage = op.what + ": " + f.message;
            report(s.stickyMessage);
        }
    }
    setDeviceAccess(false);
    ++s.stats.flushes;
    return s.sticky;
}

bool driverUsable() { return config().driverVersion >= kRuntimeVersion; }

cudaError_t deviceError() {
    if (!driverUsable()) return cudaErrorInsufficientDriver;
    if (config().devices <= 0) return cudaErrorNoDevice;
    return cudaSuccess;
}

std::string kindName(cudaMemcpyKind k) {
    switch (k) {
    case cudaMemcpyHostToHost: return "HostToHost";
    case cudaMemcpyHostToDevice: return "HostToDevice";
    case cudaMemcpyDeviceToHost: return "DeviceToHost";
    case cudaMemcpyDeviceToDevice: return "DeviceToDevice";
    default: return "Default";
    }
}

// Where a copy's ends are, checked against its kind. Empty when fine, else the problem.
std::string checkEnds(void* dst, size_t dstBytes, const void* src, size_t srcBytes, cudaMemcpyKind& kind, Space& ds, Space& ss) {
    bool dOut = false, sOut = false;
    ds = spaceOf(dst, dstBytes, &dOut);
    ss = spaceOf(src, srcBytes, &sOut);
    if (kind == cudaMemcpyDefault) {
        const bool dd = ds == Space::Device, sd = ss == Space::Device;
        kind = dd && sd ? cudaMemcpyDeviceToDevice : dd ? cudaMemcpyHostToDevice : sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost;
    }
    const bool wantDstDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool wantSrcDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (wantDstDevice != (ds == Space::Device))
        return "a " + kindName(kind) + " copy whose destination is " + (ds == Space::Device ? "device memory" : "host memory") + " (" +
               describeAddress(dst) + ")";
    if (wantSrcDevice != (ss == Space::Device))
        return "a " + kindName(kind) + " copy whose source is " + (ss == Space::Device ? "device memory" : "host memory") + " (" +
               describeAddress(src) + ")";
    if (dOut) return "a copy of " + std::to_string(dstBytes) + " bytes runs past the end of its destination (" + describeAddress(dst) + ")";
    if (sOut) return "a copy of " + std::to_string(srcBytes) + " bytes runs past the end of its source (" + describeAddress(src) + ")";
    return "";
}

CUstream_st::Capture* captureOf(cudaStream_t s) { return s ? s->capture.get() : nullptr; }

void invalidate(CUstream_st::Capture& c, const std::string& why) {
    if (!c.invalidated) report("stream capture invalidated: " + why);
    c.invalidated = true;
    if (c.why.empty()) c.why = why;
}

// A copy that must happen now (pageable memory) cannot be part of a capture.
cudaError_t refuseDuringCapture(cudaStream_t stream, const std::string& what) {
    if (CUstream_st::Capture* c = captureOf(stream)) {
        invalidate(*c, what + " while the stream is capturing");
        return setLastError(cudaErrorStreamCaptureUnsupported);
    }
    return cudaSuccess;
}

Op copyOp(const std::string& what, cudaMemcpyKind kind, size_t bytes, std::function<void()> copy) {
    Op op;
    op.what = what;
    op.run = [kind, bytes, copy = std::move(copy)] {
        copy();
        Stats& st = state().stats;
        if (kind == cudaMemcpyHostToDevice) st.bytesToDevice += bytes;
        else if (kind == cudaMemcpyDeviceToHost) st.bytesToHost += bytes;
        else st.bytesOnDevice += bytes;
    };
    return op;
}

// A (possibly 2-D) copy: height rows of width bytes at the given pitches.
cudaError_t memcpyRows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                       cudaStream_t stream, bool async, const char* call) {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    State& s = state();
    if (s.sticky != cudaSuccess) return setLastError(s.sticky);
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > dpitch || width > spitch) return invalid(std::string(call) + ": the width is larger than a pitch");
    if (!async && captureForbids(call)) return setLastError(cudaErrorStreamCaptureUnsupported);
    Space ds, ss;
    const std::string problem = checkEnds(dst, dpitch * (height - 1) + width, src, spitch * (height - 1) + width, kind, ds, ss);
    if (!problem.empty()) return invalid(std::string(call) + ": " + problem);
    auto* d = static_cast<uint8_t*>(dst);
    const auto* sp = static_cast<const uint8_t*>(src);
    const std::string what = std::string(call) + " " + kindName(kind) + " (" + std::to_string(width * height) + " bytes)";
    if (kind == cudaMemcpyHostToHost) {
        if (CUstream_st::Capture* c = captureOf(stream)) invalidate(*c, "a host-to-host copy while the stream is capturing");
        flush();
        for (size_t r = 0; r < height; ++r) std::memcpy(d + r * dpitch, sp + r * spitch, width);
        return s.sticky;
    }
    std::function<void()> copy = [d, dpitch, sp, spitch, width, height] {
        for (size_t r = 0; r < height; ++r) std::memcpy(d + r * dpitch, sp + r * spitch, width);
    };
    const bool pageableSrc = kind == cudaMemcpyHostToDevice && ss == Space::Pageable;
    const bool pageableDst = kind == cudaMemcpyDeviceToHost && ds == Space::Pageable;
    if (pageableSrc || pageableDst) {
        // Pageable memory is staged by the driver: the source is read before the call returns, a
        // destination is written before it returns. Neither can be captured.
        if (const cudaError_t e = refuseDuringCapture(stream, std::string(call) + " with pageable host memory"); e != cudaSuccess) return e;
        if (pageableSrc) {
            auto staged = std::make_shared<std::vector<uint8_t>>(width * height);
            for (size_t r = 0; r < height; ++r) std::memcpy(staged->data() + r * width, sp + r * spitch, width);
            copy = [d, dpitch, staged, width, height] {
                for (size_t r = 0; r < height; ++r) std::memcpy(d + r * dpitch, staged->data() + r * width, width);
            };
        }
    }
    const cudaError_t e = submit(stream, copyOp(what, kind, width * height, std::move(copy)));
    if (e != cudaSuccess) return e;
    if (!async || pageableDst) return setLastError(flush());
    return cudaSuccess;
}

}  // namespace

std::recursive_mutex& apiLock() {
    static auto* m = new std::recursive_mutex();
    return *m;
}

Config& config() {
    static Config c = makeConfig();
    return c;
}

Stats stats() {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    return state().stats;
}
void resetStats() {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    state().stats = Stats{};
}
std::string lastFault() {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    return state().sticky == cudaSuccess ? "" : state().stickyMessage;
}
void clearFault() {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    state().pending.clear();
    state().sticky = cudaSuccess;
    state().stickyMessage.clear();
    tLastError = cudaSuccess;
}

void countGemm() { ++state().stats.gemms; }

int liveStreams() {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    return static_cast<int>(state().streams.size());
}

cudaError_t setLastError(cudaError_t err) {
    if (err != cudaSuccess) tLastError = err;
    return err;
}

bool captureForbids(const char* call) {
    bool forbidden = false;
    for (CUstream_st* s : state().streams) {
        CUstream_st::Capture* c = s->capture.get();
        if (!c) continue;
        if (c->mode == cudaStreamCaptureModeGlobal || (c->mode == cudaStreamCaptureModeThreadLocal && c->thread == std::this_thread::get_id())) {
            invalidate(*c, std::string(call) + " is not permitted while a stream captures");
            forbidden = true;
        }
    }
    return forbidden;
}

cudaError_t submit(cudaStream_t stream, Op op) {
    State& s = state();
    if (s.sticky != cudaSuccess) return setLastError(s.sticky);
    if (stream && s.streams.count(stream) == 0) return invalid(op.what + ": the stream does not exist (destroyed?)");
    if (CUstream_st::Capture* c = captureOf(stream)) {
        c->ops.push_back(std::move(op));
        return cudaSuccess;
    }
    s.pending.push_back(std::move(op));
    return cudaSuccess;
}

std::string kernelPointerProblem(const void* p, int index) {
    if (!p) return "";
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    if (spaceOf(p, 0) != Space::Pageable) return "";
    return "argument " + std::to_string(index) + " is a pageable host pointer, which a GPU cannot read";
}

void submitKernel(const LaunchConfig& cfg, const char* name, const char* file, int line, std::function<void()> body, std::string fault) {
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    const char* rel = std::strstr(file, "cuda/");
    const std::string what = std::string("kernel ") + name + " (" + (rel ? rel : file) + ":" + std::to_string(line) + ")";
    const dim3 g = cfg.grid, b = cfg.block;
    std::string bad;
    if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0) bad = "a grid or block dimension is 0";
    else if (uint64_t(b.x) * b.y * b.z > 1024) bad = "more than 1024 threads in a block";
    else if (b.z > 64) bad = "block.z is larger than 64";
    else if (g.y > 65535 || g.z > 65535) bad = "grid.y or grid.z is larger than 65535";
    else if (cfg.sharedBytes > 48 * 1024) bad = "more than 48 KiB of dynamic shared memory";
    if (!bad.empty()) {
        report(what + ": invalid configuration: " + bad + " (grid (" + std::to_string(g.x) + "," + std::to_string(g.y) + "," +
               std::to_string(g.z) + "), block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + "))");
        if (CUstream_st::Capture* c = captureOf(cfg.stream)) invalidate(*c, what + " had an invalid configuration");
        setLastError(cudaErrorInvalidConfiguration);
        return;
    }
    if (loadedCode().ptxVersion == 0) {   // not sticky: a launch error, as on a GPU
        report(what + ": no kernel image for compute capability " + std::to_string(config().major) + "." + std::to_string(config().minor) +
               " in this build's code (" + config().images + ")");
        if (CUstream_st::Capture* c = captureOf(cfg.stream)) invalidate(*c, what + " has no kernel image for the device");
        setLastError(cudaErrorNoKernelImageForDevice);
        return;
    }
    auto launch = std::make_shared<KernelLaunch>();
    launch->grid = g;
    launch->block = b;
    launch->name = name;
    launch->file = file;
    launch->line = line;
    launch->body = std::move(body);
    Op op;
    op.what = what + (cfg.dependent ? " (dependent launch)" : "");
    op.kernel = op.grids = true;
    auto early = std::make_shared<EarlyBlockPtr>();   // the first block, when flush starts it early
    // Below compute capability 9.0 the attribute asks for an overlap the device cannot give: the
    // grid runs as an ordinary one (it still counts as launched dependent).
    if (cfg.dependent && config().major >= 9)
        op.startEarly = [launch, fault, early] {
            if (!fault.empty()) throw DeviceFault{cudaErrorIllegalAddress, fault};
            ++state().stats.earlyBlocks;
            early->reset();   // one left by a run that a fault stopped frees its stacks first
            *early = startEarly(*launch);
        };
    op.run = [launch, fault = std::move(fault), early, dependent = cfg.dependent] {
        if (!fault.empty()) throw DeviceFault{cudaErrorIllegalAddress, fault};
        Stats& st = state().stats;
        ++st.kernels;
        st.dependentKernels += dependent;
        st.threads += uint64_t(launch->grid.x) * launch->grid.y * launch->grid.z * launch->block.x * launch->block.y * launch->block.z;
        runKernel(*launch, std::move(*early));
    };
    submit(cfg.stream, std::move(op));
}

}  // namespace dlab::emu

using namespace dlab::emu;

#define DLAB_EMU_LOCK std::lock_guard<std::recursive_mutex> dlabEmuLock_(apiLock())

extern "C" {

cudaError_t cudaGetLastError(void) {
    DLAB_EMU_LOCK;
    if (state().sticky != cudaSuccess) return state().sticky;
    const cudaError_t e = tLastError;
    tLastError = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError(void) {
    DLAB_EMU_LOCK;
    return state().sticky != cudaSuccess ? state().sticky : tLastError;
}

const char* cudaGetErrorName(cudaError_t e) {
    switch (e) {
#define DLAB_EMU_NAME(x) case x: return #x;
        DLAB_EMU_NAME(cudaSuccess)
        DLAB_EMU_NAME(cudaErrorInvalidValue)
        DLAB_EMU_NAME(cudaErrorMemoryAllocation)
        DLAB_EMU_NAME(cudaErrorInitializationError)
        DLAB_EMU_NAME(cudaErrorInvalidConfiguration)
        DLAB_EMU_NAME(cudaErrorInsufficientDriver)
        DLAB_EMU_NAME(cudaErrorNoDevice)
        DLAB_EMU_NAME(cudaErrorInvalidDevice)
        DLAB_EMU_NAME(cudaErrorInvalidResourceHandle)
        DLAB_EMU_NAME(cudaErrorIllegalState)
        DLAB_EMU_NAME(cudaErrorIllegalAddress)
        DLAB_EMU_NAME(cudaErrorLaunchFailure)
        DLAB_EMU_NAME(cudaErrorStreamCaptureUnsupported)
        DLAB_EMU_NAME(cudaErrorStreamCaptureInvalidated)
        DLAB_EMU_NAME(cudaErrorStreamCaptureWrongThread)
#undef DLAB_EMU_NAME
    default: return "cudaErrorUnknown";
    }
}

const char* cudaGetErrorString(cudaError_t e) {
    const char* base = "unknown error";
    switch (e) {
    case cudaSuccess: base = "no error"; break;
    case cudaErrorInvalidValue: base = "invalid argument"; break;
    case cudaErrorMemoryAllocation: base = "out of memory"; break;
    case cudaErrorInitializationError: base = "initialization error"; break;
    case cudaErrorInvalidConfiguration: base = "invalid configuration argument"; break;
    case cudaErrorInsufficientDriver: base = "CUDA driver version is insufficient for CUDA runtime version"; break;
    case cudaErrorNoDevice: base = "no CUDA-capable device is detected"; break;
    case cudaErrorInvalidDevice: base = "invalid device ordinal"; break;
    case cudaErrorInvalidResourceHandle: base = "invalid resource handle"; break;
    case cudaErrorIllegalState: base = "the operation cannot be performed in the present state"; break;
    case cudaErrorIllegalAddress: base = "an illegal memory access was encountered"; break;
    case cudaErrorLaunchFailure: base = "unspecified launch failure"; break;
    case cudaErrorStreamCaptureUnsupported: base = "operation not permitted when stream is capturing"; break;
    case cudaErrorStreamCaptureInvalidated: base = "operation failed due to a previous error during capture"; break;
    case cudaErrorStreamCaptureWrongThread: base = "attempt to terminate a thread-local capture sequence from another thread"; break;
    default: break;
    }
    DLAB_EMU_LOCK;
    if (e != cudaSuccess && e == state().sticky && !state().stickyMessage.empty()) {
        // The sticky fault's own sentence rides along (a GPU says only "an illegal memory access").
        static thread_local std::string detailed;
        detailed = std::string(base) + " [CUDA emulator: " + state().stickyMessage + "]";
        return detailed.c_str();
    }
    return base;
}

cudaError_t cudaDriverGetVersion(int* v) {
    if (!v) return setLastError(cudaErrorInvalidValue);
    *v = config().driverVersion;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
    if (!v) return setLastError(cudaErrorInvalidValue);
    *v = kRuntimeVersion;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
    DLAB_EMU_LOCK;
    if (!count) return setLastError(cudaErrorInvalidValue);
    *count = 0;
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    *count = config().devices;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    DLAB_EMU_LOCK;
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    if (device < 0 || device >= config().devices) return setLastError(cudaErrorInvalidDevice);
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
    if (!device) return setLastError(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
    DLAB_EMU_LOCK;
    if (!attr || !func) return setLastError(cudaErrorInvalidValue);
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    *attr = cudaFuncAttributes{};
    const dlab::cuda::CodeImage code = loadedCode();
    if (code.ptxVersion == 0) return setLastError(cudaErrorNoKernelImageForDevice);
    attr->ptxVersion = code.ptxVersion;
    attr->binaryVersion = code.binaryVersion;
    attr->maxThreadsPerBlock = 1024;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
    DLAB_EMU_LOCK;
    if (!p) return setLastError(cudaErrorInvalidValue);
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    if (device < 0 || device >= config().devices) return setLastError(cudaErrorInvalidDevice);
    *p = cudaDeviceProp{};
    std::snprintf(p->name, sizeof p->name, "%s", config().name.c_str());
    p->totalGlobalMem = config().memoryBytes;
    p->sharedMemPerBlock = 48 * 1024;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->major = config().major;
    p->minor = config().minor;
    p->multiProcessorCount = 1;
    p->unifiedAddressing = 1;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* freeBytes, size_t* total) {
    DLAB_EMU_LOCK;
    if (!freeBytes || !total) return setLastError(cudaErrorInvalidValue);
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    *total = config().memoryBytes;
    *freeBytes = config().memoryBytes - std::min(config().memoryBytes, deviceBytesInUse());
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** p, size_t bytes) {
    DLAB_EMU_LOCK;
    if (state().sticky != cudaSuccess) return setLastError(state().sticky);
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    if (captureForbids("cudaMalloc")) return setLastError(cudaErrorStreamCaptureUnsupported);
    return setLastError(allocate(p, bytes, true));
}
cudaError_t cudaFree(void* p) {
    DLAB_EMU_LOCK;
    if (!p) return cudaSuccess;
    if (captureForbids("cudaFree")) return setLastError(cudaErrorStreamCaptureUnsupported);
    flush();   // cudaFree waits for the device
    const cudaError_t e = release(p, true);
    if (e != cudaSuccess) report("cudaFree: " + describeAddress(p) + " is not the start of a device allocation");
    return setLastError(e);
}
cudaError_t cudaMallocHost(void** p, size_t bytes) {
    DLAB_EMU_LOCK;
    if (state().sticky != cudaSuccess) return setLastError(state().sticky);
    if (captureForbids("cudaMallocHost")) return setLastError(cudaErrorStreamCaptureUnsupported);
    return setLastError(allocate(p, bytes, false));
}
cudaError_t cudaFreeHost(void* p) {
    DLAB_EMU_LOCK;
    if (!p) return cudaSuccess;
    if (captureForbids("cudaFreeHost")) return setLastError(cudaErrorStreamCaptureUnsupported);
    flush();
    const cudaError_t e = release(p, false);
    if (e != cudaSuccess) report("cudaFreeHost: " + describeAddress(p) + " is not the start of a pinned allocation");
    return setLastError(e);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
    return memcpyRows(dst, count, src, count, count, 1, kind, stream, true, "cudaMemcpyAsync");
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
    return memcpyRows(dst, count, src, count, count, 1, kind, nullptr, false, "cudaMemcpy");
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
    return memcpyRows(dst, dpitch, src, spitch, width, height, kind, stream, true, "cudaMemcpy2DAsync");
}

cudaError_t cudaMemsetAsync(void* p, int value, size_t count, cudaStream_t stream) {
    DLAB_EMU_LOCK;
    if (state().sticky != cudaSuccess) return setLastError(state().sticky);
    if (count == 0) return cudaSuccess;
    bool outside = false;
    if (spaceOf(p, count, &outside) != Space::Device || outside)
        return invalid("cudaMemsetAsync of " + std::to_string(count) + " bytes at " + describeAddress(p) + " is not inside device memory");
    Op op;
    op.what = "cudaMemsetAsync (" + std::to_string(count) + " bytes)";
    op.run = [p, value, count] { std::memset(p, value, count); };
    return submit(stream, std::move(op));
}
cudaError_t cudaMemset(void* p, int value, size_t count) {
    DLAB_EMU_LOCK;
    if (captureForbids("cudaMemset")) return setLastError(cudaErrorStreamCaptureUnsupported);
    if (const cudaError_t e = cudaMemsetAsync(p, value, count, nullptr); e != cudaSuccess) return e;
    return setLastError(flush());
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int) {
    DLAB_EMU_LOCK;
    if (!s) return setLastError(cudaErrorInvalidValue);
    if (const cudaError_t e = deviceError(); e != cudaSuccess) return setLastError(e);
    *s = new CUstream_st();
    state().streams.insert(*s);
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, 0); }
cudaError_t cudaStreamDestroy(cudaStream_t s) {
    DLAB_EMU_LOCK;
    if (!s || state().streams.erase(s) == 0) return setLastError(cudaErrorInvalidResourceHandle);
    // Work already queued still runs (the queue does not belong to the stream).
    delete s;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    DLAB_EMU_LOCK;
    if (CUstream_st::Capture* c = captureOf(s)) {
        invalidate(*c, "cudaStreamSynchronize on the capturing stream");
        return setLastError(cudaErrorStreamCaptureUnsupported);
    }
    return setLastError(flush());
}
cudaError_t cudaDeviceSynchronize(void) {
    DLAB_EMU_LOCK;
    if (captureForbids("cudaDeviceSynchronize")) return setLastError(cudaErrorStreamCaptureUnsupported);
    return setLastError(flush());
}
cudaError_t cudaDeviceReset(void) {
    clearFault();
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode) {
    DLAB_EMU_LOCK;
    if (!s) return setLastError(cudaErrorStreamCaptureUnsupported);   // the legacy stream cannot capture
    if (state().streams.count(s) == 0) return setLastError(cudaErrorInvalidResourceHandle);
    if (s->capture) return setLastError(cudaErrorIllegalState);
    s->capture = std::make_unique<CUstream_st::Capture>();
    s->capture->mode = mode;
    s->capture->thread = std::this_thread::get_id();
    ++state().stats.captures;
    return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph) {
    DLAB_EMU_LOCK;
    if (!graph) return setLastError(cudaErrorInvalidValue);
    *graph = nullptr;
    if (!s || !s->capture) return setLastError(cudaErrorIllegalState);
    if (s->capture->mode != cudaStreamCaptureModeRelaxed && s->capture->thread != std::this_thread::get_id())
        return setLastError(cudaErrorStreamCaptureWrongThread);
    std::unique_ptr<CUstream_st::Capture> c = std::move(s->capture);
    if (c->invalidated) return setLastError(cudaErrorStreamCaptureInvalidated);
    *graph = new CUgraph_st{std::move(c->ops)};
    return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
    DLAB_EMU_LOCK;
    if (!status) return setLastError(cudaErrorInvalidValue);
    const CUstream_st::Capture* c = captureOf(s);
    *status = !c ? cudaStreamCaptureStatusNone : c->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
    DLAB_EMU_LOCK;
    if (!exec || !graph) return setLastError(cudaErrorInvalidValue);
    *exec = new CUgraphExec_st{graph->ops};
    return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s) {
    DLAB_EMU_LOCK;
    if (!exec) return setLastError(cudaErrorInvalidValue);
    if (state().sticky != cudaSuccess) return setLastError(state().sticky);
    ++state().stats.graphLaunches;
    for (const Op& op : exec->ops) {
        Op copy = op;
        if (copy.kernel) {
            copy.run = [inner = op.run] {
                ++state().stats.kernelsInGraphs;
                inner();
            };
        }
        if (const cudaError_t e = submit(s, std::move(copy)); e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    DLAB_EMU_LOCK;
    delete exec;
    return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    DLAB_EMU_LOCK;
    delete graph;
    return cudaSuccess;
}

}  // extern "C"
