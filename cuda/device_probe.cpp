// Whether a GPU is usable, in one sentence when it is not. Never throws and never aborts: a machine
// without a driver gets cudaErrorInsufficientDriver / cudaErrorNoDevice from the runtime.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "cuda/cuda_backend.h"
#include "cuda/ops/matvec.h"

namespace dlab {

bool cudaBuiltIn() { return true; }

std::string cudaUnavailableReason(int device, std::string* description) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        if (e == cudaErrorInsufficientDriver) {
            int driver = 0;
            cudaDriverGetVersion(&driver);
            if (driver == 0) return "no NVIDIA driver is installed (the CUDA runtime found no libcuda)";
            return "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10) +
                   ", older than this build's CUDA runtime needs; update the driver";
        }
        if (e == cudaErrorNoDevice) return "no NVIDIA GPU is visible (cudaGetDeviceCount found none)";
        return std::string("the CUDA runtime cannot start: ") + cudaGetErrorString(e);
    }
    if (count == 0) return "no NVIDIA GPU is visible (cudaGetDeviceCount found none)";
    if (device < 0 || device >= count)
        return "GPU " + std::to_string(device) + " does not exist (this machine has " + std::to_string(count) + ")";
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, device) != cudaSuccess) {
        cudaGetLastError();
        return "cannot read the properties of GPU " + std::to_string(device);
    }
    const std::string cc = std::to_string(p.major) + "." + std::to_string(p.minor);
    // CUDA 13 compiles for nothing older than Turing.
    if (p.major * 10 + p.minor < 75)
        return std::string(p.name) + " has compute capability " + cc + "; the CUDA 13 runtime this build uses needs 7.5 (Turing) or newer";
    // Whether the driver finds code for it among the build's architectures (by default SASS for
    // 9.0 and PTX for 7.5 and 9.0, which every newer GPU compiles at load time).
    int current = 0;
    cudaGetDevice(&current);
    cudaFuncAttributes code{};
    const cudaError_t loaded = cudaSetDevice(device) == cudaSuccess ? cuda::matvecLoadedCode(&code) : cudaErrorInvalidDevice;
    cudaGetLastError();
    cudaSetDevice(current);
    cudaGetLastError();
    if (loaded == cudaErrorNoKernelImageForDevice || loaded == cudaErrorInvalidDeviceFunction)
        return std::string(p.name) + " has compute capability " + cc + " and this build has no GPU code for it (built for " DLAB_CUDA_ARCHS
               "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(p.major) + std::to_string(p.minor);
    if (loaded != cudaSuccess) return std::string("cannot load this build's GPU code on GPU ") + std::to_string(device) + ": " + cudaGetErrorString(loaded);
    if (description) {
        int driver = 0;
        cudaDriverGetVersion(&driver);
        char buf[512];
        std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB, driver CUDA %d.%d)", p.name, p.major, p.minor,
                      double(p.totalGlobalMem) / (1024.0 * 1024 * 1024), driver / 1000, driver % 1000 / 10);
        *description = buf;
    }
    return "";
}

}  // namespace dlab
