// Whether a GPU is usable, in one sentence when it is not. Never throws and never aborts: a machine
// without a driver gets cudaErrorInsufficientDriver / cudaErrorNoDevice from the runtime.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "cuda/cuda_backend.h"
#include "cuda/code_images.h"

namespace dlab {

namespace cuda {
std::string noCodeFor(const std::string& gpu, int major, int minor) {
    return gpu + " has compute capability " + std::to_string(major) + "." + std::to_string(minor) +
           " and this build has no GPU code for it (built for " DLAB_CUDA_ARCHS "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" +
           std::to_string(major) + std::to_string(minor);
}
}  // namespace cuda

bool cudaBuiltIn() { return true; }

GpuCheck checkGpu(int device, std::string* description) {
    const auto fail = [](GpuProblem problem, std::string reason, std::string gpu = {}, std::string detail = {}) {
        return GpuCheck{problem, std::move(reason), std::move(gpu), std::move(detail), 0, 0};
    };
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        if (e == cudaErrorInsufficientDriver) {
            int driver = 0;
            cudaDriverGetVersion(&driver);
            if (driver == 0) return fail(GpuProblem::NoDriver, "no NVIDIA driver is installed (the CUDA runtime found no libcuda)");
            const std::string version = std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
            return fail(GpuProblem::OldDriver,
                        "the NVIDIA driver supports CUDA " + version + ", older than this build's CUDA runtime needs; update the driver", {}, version);
        }
        if (e == cudaErrorNoDevice) return fail(GpuProblem::NoGpu, "no NVIDIA GPU is visible (cudaGetDeviceCount found none)");
        return fail(GpuProblem::Other, std::string("the CUDA runtime cannot start: ") + cudaGetErrorString(e));
    }
    if (count == 0) return fail(GpuProblem::NoGpu, "no NVIDIA GPU is visible (cudaGetDeviceCount found none)");
    if (device < 0 || device >= count)
        return fail(GpuProblem::Other, "GPU " + std::to_string(device) + " does not exist (this machine has " + std::to_string(count) + ")");
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, device) != cudaSuccess) {
        cudaGetLastError();
        return fail(GpuProblem::Other, "cannot read the properties of GPU " + std::to_string(device));
    }
    const std::string capability = std::to_string(p.major) + "." + std::to_string(p.minor);
    // CUDA 13 compiles for nothing older than Turing.
    if (p.major * 10 + p.minor < 75)
        return fail(GpuProblem::GpuTooOld,
                    std::string(p.name) + " has compute capability " + capability + "; the CUDA 13 runtime this build uses needs 7.5 (Turing) or newer",
                    p.name, capability);
    // Whether the driver would find code for it among the build's architectures (by default SASS
    // for 9.0 and PTX for 7.5 and 9.0), decided from the list alone: asking the driver would load
    // GPU code, which on a GPU that compiles PTX takes seconds on first use (the app asks at start).
    // The backend asks the driver itself when it starts (cuda_backend.cpp).
    const char* force = std::getenv("CUDA_FORCE_PTX_JIT");
    const auto code = cuda::codeImageFor(DLAB_CUDA_ARCHS, p.major, p.minor, force && std::string(force) == "1");
    if (code && code->ptxVersion == 0) return fail(GpuProblem::NoCodeForGpu, cuda::noCodeFor(p.name, p.major, p.minor), p.name, capability);
    if (description) {
        int driver = 0;
        cudaDriverGetVersion(&driver);
        char buf[512];
        std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB, driver CUDA %d.%d)", p.name, p.major, p.minor,
                      double(p.totalGlobalMem) / (1024.0 * 1024 * 1024), driver / 1000, driver % 1000 / 10);
        *description = buf;
    }
    return {};
}

std::string cudaUnavailableReason(int device, std::string* description) { return checkGpu(device, description).reason; }

}  // namespace dlab
