#include "cuda/cublas_loader.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "core/error.h"

namespace dlab::cuda {

namespace {
template <class F>
void resolve(void* lib, const char* name, F& f) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) throw Error(std::string("libcublas.so.13 has no ") + name + "; the CUDA libraries do not match this build (CUDA 13)");
}
}  // namespace

const CublasApi& cublas() {
    static CublasApi api{};
    static std::string failure;
    static std::once_flag once;
    std::call_once(once, [] {
        void* lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
        if (!lib) lib = dlopen("/usr/local/cuda/lib64/libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            failure = std::string("cannot load cuBLAS (libcublas.so.13): ") + dlerror() +
                      "; install the CUDA 13 libraries or add their folder to LD_LIBRARY_PATH (e.g. /usr/local/cuda/lib64)";
            return;
        }
        try {
            resolve(lib, "cublasCreate_v2", api.create);
            resolve(lib, "cublasDestroy_v2", api.destroy);
            resolve(lib, "cublasSetStream_v2", api.setStream);
            resolve(lib, "cublasSetWorkspace_v2", api.setWorkspace);
            resolve(lib, "cublasGemmEx", api.gemmEx);
            resolve(lib, "cublasGetStatusName", api.statusName);
            resolve(lib, "cublasGetStatusString", api.statusString);
        } catch (const Error& e) {
            failure = e.what();
        }
    });
    if (!failure.empty()) throw Error(failure);
    return api;
}

}  // namespace dlab::cuda
