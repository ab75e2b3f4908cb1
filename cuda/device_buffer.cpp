#include "cuda/device_buffer.h"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "core/error.h"
#include "cuda/cuda_backend.h"

namespace dlab::cuda {

std::string byteText(double bytes) {
    // Three significant digits below 100: a request of 8.53 KiB with 8.21 KiB free no longer
    // reads "cannot allocate 8 KiB ... (8 KiB of 64 KiB free)".
    const double kib = 1024.0, mib = kib * 1024, gib = mib * 1024;
    const double v = bytes >= gib ? bytes / gib : bytes >= mib ? bytes / mib : bytes / kib;
    const char* unit = bytes >= gib ? "GiB" : bytes >= mib ? "MiB" : "KiB";
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f %s" : "%.3g %s", v, unit);
    return buf;
}

namespace {
// device: GPU memory (else pinned host memory, whose running out is not the GPU's: the app shows
// that sentence as it is).
[[noreturn]] void allocationFailed(cudaError_t e, size_t bytes, const std::string& what, bool device) {
    const char* kind = device ? "GPU memory" : "pinned host memory";
    cudaGetLastError();
    size_t freeB = 0, totalB = 0;
    std::string state;
    if (cudaMemGetInfo(&freeB, &totalB) == cudaSuccess) state = " (" + byteText(double(freeB)) + " of " + byteText(double(totalB)) + " free)";
    else freeB = 0;
    const std::string reason = std::string("cannot allocate ") + byteText(double(bytes)) + " of " + kind + " for " + what + state + ": " +
                               cudaGetErrorString(e) + "; use a smaller context (--ctx) or the CPU backend (--backend cpu)";
    throw GpuError({device ? GpuProblem::OutOfMemory : GpuProblem::Other, reason, {}, {}, device ? bytes : 0, device ? freeB : 0});
}
}  // namespace

DeviceBuffer::DeviceBuffer(size_t bytes, const std::string& what) : bytes_(bytes) {
    if (bytes == 0) return;
    const cudaError_t e = cudaMalloc(&p_, bytes);
    if (e != cudaSuccess) {
        p_ = nullptr;
        allocationFailed(e, bytes, what, true);
    }
}
DeviceBuffer::~DeviceBuffer() {
    if (p_) cudaFree(p_);
}

PinnedBuffer::PinnedBuffer(size_t bytes, const std::string& what) : bytes_(bytes) {
    if (bytes == 0) return;
    const cudaError_t e = cudaMallocHost(&p_, bytes);
    if (e != cudaSuccess) {
        p_ = nullptr;
        allocationFailed(e, bytes, what, false);
    }
}
PinnedBuffer::~PinnedBuffer() {
    if (p_) cudaFreeHost(p_);
}

}  // namespace dlab::cuda
