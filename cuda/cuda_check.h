#pragma once
// CUDA and cuBLAS status checks that throw dlab::Error naming the call, the file and line, and
// what to do (llm.c's cudaCheck, as an exception caught at the CLI / GUI boundary).
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace dlab::cuda {

[[noreturn]] void throwCudaError(cudaError_t e, const char* call, const char* file, int line);
[[noreturn]] void throwCublasError(cublasStatus_t s, const char* call, const char* file, int line);

}  // namespace dlab::cuda

#define DLAB_CUDA_CHECK(call)                                                                   \
    do {                                                                                        \
        const cudaError_t dlabErr_ = (call);                                                    \
        if (dlabErr_ != cudaSuccess) ::dlab::cuda::throwCudaError(dlabErr_, #call, __FILE__, __LINE__); \
    } while (0)
#define DLAB_CUBLAS_CHECK(call)                                                                      \
    do {                                                                                             \
        const cublasStatus_t dlabSt_ = (call);                                                       \
        if (dlabSt_ != CUBLAS_STATUS_SUCCESS) ::dlab::cuda::throwCublasError(dlabSt_, #call, __FILE__, __LINE__); \
    } while (0)
// After a kernel launch: a bad configuration shows here, a fault at the next synchronisation.
#define DLAB_CUDA_CHECK_LAUNCH() DLAB_CUDA_CHECK(cudaGetLastError())
