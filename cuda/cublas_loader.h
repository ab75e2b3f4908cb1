#pragma once
// cuBLAS, loaded when the CUDA backend first needs it (dlopen of libcublas.so.13) instead of at
// program start: linking it made every CLI command, GPU or not, map 600 MB of libraries and start
// five times slower. Throws dlab::Error naming the library and LD_LIBRARY_PATH when it is missing.
#include <cublas_v2.h>

namespace dlab::cuda {

struct CublasApi {
    decltype(&cublasCreate_v2) create;
    decltype(&cublasDestroy_v2) destroy;
    decltype(&cublasSetStream_v2) setStream;
    decltype(&cublasSetWorkspace_v2) setWorkspace;
    cublasStatus_t (*gemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*,
                             cudaDataType, int, const void*, cudaDataType, int, const void*, void*, cudaDataType, int,
                             cublasComputeType_t, cublasGemmAlgo_t);
    decltype(&cublasGetStatusName) statusName;
    decltype(&cublasGetStatusString) statusString;
};

const CublasApi& cublas();

}  // namespace dlab::cuda
