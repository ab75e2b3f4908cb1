#include "cuda/cuda_check.h"

#include <cstring>
#include <string>

#include "core/error.h"
#include "cuda/cublas_loader.h"

namespace dlab::cuda {

namespace {
std::string where(const char* call, const char* file, int line) {
    const char* slash = std::strstr(file, "cuda/");
    return std::string(slash ? slash : file) + ":" + std::to_string(line) + " (" + call + ")";
}
}  // namespace

void throwCudaError(cudaError_t e, const char* call, const char* file, int line) {
    cudaGetLastError();  // clear a sticky launch error so the next call starts clean
    std::string hint;
    if (e == cudaErrorMemoryAllocation) hint = "; the GPU is out of memory: use a smaller context (--ctx) or the CPU backend (--backend cpu)";
    else if (e == cudaErrorInsufficientDriver) hint = "; the NVIDIA driver is older than this build's CUDA runtime needs: update the driver or use --backend cpu";
    else if (e == cudaErrorNoDevice) hint = "; no NVIDIA GPU is visible: use --backend cpu";
    throw Error(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") at " + where(call, file, line) + hint);
}

void throwCublasError(cublasStatus_t s, const char* call, const char* file, int line) {
    throw Error(std::string("cuBLAS error ") + cublas().statusName(s) + " (" + cublas().statusString(s) + ") at " + where(call, file, line));
}

}  // namespace dlab::cuda
