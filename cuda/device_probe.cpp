// Whether a GPU is usable, in one sentence when it is not. Never throws and never aborts: a machine
// without a driver gets cudaErrorInsufficientDriver / cudaErrorNoDevice from the runtime.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "cuda/cuda_backend.h"

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
    // The build carries sm_90 code and compute_90 PTX: older devices cannot run either.
    if (p.major < 9)
        return std::string(p.name) + " has compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
               "; this build has code for 9.0 and newer (rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(p.major) +
               std::to_string(p.minor) + ")";
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
