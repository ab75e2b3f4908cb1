#include "cuda/device_handles.h"

#include "cuda/cublas_loader.h"
#include "cuda/cuda_check.h"

namespace dlab::cuda {

Stream::Stream() { DLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
Stream::~Stream() {
    if (s_) cudaStreamDestroy(s_);
}

CublasHandle::CublasHandle(cudaStream_t stream) {
    DLAB_CUBLAS_CHECK(cublas().create(&h_));
    const cublasStatus_t st = cublas().setStream(h_, stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
        cublas().destroy(h_);
        h_ = nullptr;
        DLAB_CUBLAS_CHECK(st);
    }
}
CublasHandle::~CublasHandle() {
    if (h_) cublas().destroy(h_);
}

}  // namespace dlab::cuda
