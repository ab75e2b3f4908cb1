#pragma once
// Owning handles for a CUDA stream and a cuBLAS handle (RAII; neither copied nor moved), so that a
// backend whose construction fails half-way (out of memory while uploading weights) releases what
// it created.
// Creation failures throw dlab::Error (cuda_check.h's sentences).
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace dlab::cuda {

class Stream {
public:
    Stream();   // a non-blocking stream
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    operator cudaStream_t() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

class CublasHandle {
public:
    explicit CublasHandle(cudaStream_t stream);   // cuBLAS work goes to `stream`
    ~CublasHandle();
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    operator cublasHandle_t() const { return h_; }

private:
    cublasHandle_t h_ = nullptr;
};

}  // namespace dlab::cuda
