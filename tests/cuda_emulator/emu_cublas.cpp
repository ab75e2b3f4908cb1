// The cuBLAS calls the backend makes (handle, stream, workspace, GemmEx), on the CPU, and the
// backend's cublas() table pointing at them instead of at a dlopen'ed libcublas. GemmEx follows
// cuBLAS's column-major contract and checks its arguments as cuBLAS does; the product runs as a
// queued operation on the handle's stream (captured into graphs like any other work).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cublas_loader.h"
#include "emu_internal.h"
#include "emulator.h"

struct cublasContext {
    cudaStream_t stream = nullptr;
    void* workspace = nullptr;
    size_t workspaceBytes = 0;
};

namespace dlab::emu {
namespace {

int elementBytes(cudaDataType t) {
    switch (t) {
    case CUDA_R_32F: return 4;
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    default: return 0;
    }
}

float load(cudaDataType t, const void* base, size_t i) {
    switch (t) {
    case CUDA_R_32F: return static_cast<const float*>(base)[i];
    case CUDA_R_16F: return __half2float(static_cast<const __half*>(base)[i]);
    default: return __bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]);
    }
}
void store(cudaDataType t, void* base, size_t i, float v) {
    switch (t) {
    case CUDA_R_32F: static_cast<float*>(base)[i] = v; break;
    case CUDA_R_16F: static_cast<__half*>(base)[i] = __float2half_rn(v); break;
    default: static_cast<__nv_bfloat16*>(base)[i] = __float2bfloat16_rn(v); break;
    }
}

// A column-major operand of `rows` x `cols` with leading dimension ld lies in device memory.
bool inDevice(const void* p, cudaDataType t, int rows, int cols, int ld) {
    if (rows == 0 || cols == 0) return true;
    const size_t bytes = (size_t(cols - 1) * ld + rows) * elementBytes(t);
    bool outside = false;
    return spaceOf(p, bytes, &outside) == Space::Device && !outside;
}

cublasStatus_t refuse(cublasStatus_t s, const std::string& why) {
    std::fprintf(stderr, "CUDA emulator: cublasGemmEx: %s\n", why.c_str());
    return s;
}

std::atomic<int> gHandles{0};

}  // namespace

int liveCublasHandles() { return gHandles.load(); }

}  // namespace dlab::emu

using namespace dlab::emu;

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return CUBLAS_STATUS_NOT_INITIALIZED;
    *handle = new cublasContext();
    ++gHandles;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    delete handle;
    --gHandles;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t bytes) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    bool outside = false;
    if (bytes > 0 && (spaceOf(workspace, bytes, &outside) != Space::Device || outside))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "the workspace is not device memory of the size given");
    handle->workspace = workspace;
    handle->workspaceBytes = bytes;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                            const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B, cudaDataType Btype, int ldb,
                            const void* beta, void* C, cudaDataType Ctype, int ldc, cublasComputeType_t computeType, cublasGemmAlgo_t) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (m < 0 || n < 0 || k < 0) return refuse(CUBLAS_STATUS_INVALID_VALUE, "a negative dimension");
    const bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    if (lda < std::max(1, ta ? k : m)) return refuse(CUBLAS_STATUS_INVALID_VALUE, "lda " + std::to_string(lda) + " is too small");
    if (ldb < std::max(1, tb ? n : k)) return refuse(CUBLAS_STATUS_INVALID_VALUE, "ldb " + std::to_string(ldb) + " is too small");
    if (ldc < std::max(1, m)) return refuse(CUBLAS_STATUS_INVALID_VALUE, "ldc " + std::to_string(ldc) + " is too small");
    if (!elementBytes(Atype) || !elementBytes(Btype) || !elementBytes(Ctype) || Atype != Btype)
        return refuse(CUBLAS_STATUS_NOT_SUPPORTED, "a type combination the emulator does not implement");
    if (computeType != CUBLAS_COMPUTE_32F && computeType != CUBLAS_COMPUTE_32F_FAST_16F && computeType != CUBLAS_COMPUTE_32F_FAST_TF32)
        return refuse(CUBLAS_STATUS_NOT_SUPPORTED, "a compute type other than 32F");
    if (!alpha || !beta) return refuse(CUBLAS_STATUS_INVALID_VALUE, "alpha or beta is null");
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    if (!config().cublasCapturable && handle->stream && cudaStreamIsCapturing(handle->stream, &capturing) == cudaSuccess &&
        capturing != cudaStreamCaptureStatusNone)
        return refuse(CUBLAS_STATUS_NOT_SUPPORTED, "a GEMM while the stream captures (DLAB_CUDA_EMU_CUBLAS_CAPTURE=0)");
    std::lock_guard<std::recursive_mutex> lock(apiLock());
    // op(A) is m x k: A is stored (m, k) or, transposed, (k, m), column-major.
    if (!inDevice(A, Atype, ta ? k : m, ta ? m : k, lda)) return refuse(CUBLAS_STATUS_INVALID_VALUE, "A is not device memory of its shape");
    if (!inDevice(B, Btype, tb ? n : k, tb ? k : n, ldb)) return refuse(CUBLAS_STATUS_INVALID_VALUE, "B is not device memory of its shape");
    if (!inDevice(C, Ctype, m, n, ldc)) return refuse(CUBLAS_STATUS_INVALID_VALUE, "C is not device memory of its shape");
    // Host pointer mode: the scalars are read now (a captured GEMM keeps these values).
    const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
    Op op;
    op.what = "cublasGemmEx (" + std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k) + ")";
    op.grids = true;
    op.run = [=] {
        // Bt (n, k): column j of op(B) as a contiguous row; each row i of op(A) likewise.
        std::vector<float> bt(size_t(n) * k), arow(k);
        for (int j = 0; j < n; ++j)
            for (int l = 0; l < k; ++l) bt[size_t(j) * k + l] = load(Btype, B, tb ? size_t(j) + size_t(l) * ldb : size_t(l) + size_t(j) * ldb);
        for (int i = 0; i < m; ++i) {
            for (int l = 0; l < k; ++l) arow[l] = load(Atype, A, ta ? size_t(l) + size_t(i) * lda : size_t(i) + size_t(l) * lda);
            for (int j = 0; j < n; ++j) {
                const float* bj = bt.data() + size_t(j) * k;
                // Eight partial sums (tensor cores sum in their own order too); the host compiler
                // vectorizes this loop.
                float part[8] = {};
                int l = 0;
                for (; l + 8 <= k; l += 8)
                    for (int u = 0; u < 8; ++u) part[u] += arow[l + u] * bj[l + u];
                float acc = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
                for (; l < k; ++l) acc += arow[l] * bj[l];
                const size_t ci = size_t(i) + size_t(j) * ldc;
                // beta == 0: C is not read (it may hold anything, NaN included), as in cuBLAS.
                store(Ctype, C, ci, b == 0.0f ? a * acc : a * acc + b * load(Ctype, C, ci));
            }
        }
        countGemm();
    };
    return submit(handle->stream, std::move(op)) == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

const char* cublasGetStatusName(cublasStatus_t s) {
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}
const char* cublasGetStatusString(cublasStatus_t s) {
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    default: return "unknown error";
    }
}

}  // extern "C"

namespace dlab::cuda {

// The emulated build's cuBLAS: the functions above instead of libcublas.so.13.
const CublasApi& cublas() {
    static const CublasApi api{&cublasCreate_v2, &cublasDestroy_v2, &cublasSetStream_v2, &cublasSetWorkspace_v2, &cublasGemmEx,
                               &cublasGetStatusName, &cublasGetStatusString};
    return api;
}

}  // namespace dlab::cuda
