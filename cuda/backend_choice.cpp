#include "cuda/backend_choice.h"

#include <cstdlib>

#include "core/error.h"
#include "cuda/cuda_backend.h"

namespace dlab {

const char* backendKindName(BackendKind k) {
    switch (k) {
    case BackendKind::Auto: return "auto";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
    }
    return "auto";
}

BackendKind parseBackendKind(const std::string& text) {
    if (text == "auto") return BackendKind::Auto;
    if (text == "cpu") return BackendKind::Cpu;
    if (text == "cuda") return BackendKind::Cuda;
    throw Error("--backend takes auto, cpu or cuda (got '" + text + "')");
}

BackendKind backendKindFromEnvironment() {
    const char* v = std::getenv("DLAB_BACKEND");
    if (!v || !*v) return BackendKind::Auto;
    try {
        return parseBackendKind(v);
    } catch (const Error&) {
        throw Error(std::string("DLAB_BACKEND takes auto, cpu or cuda (got '") + v + "')");
    }
}

BackendChoice makeBackend(const Model& model, BackendKind kind, int threads) {
    BackendChoice c;
    if (kind == BackendKind::Cpu) {
        c.backend = makeCpuBackend(model, threads);
        return c;
    }
    if (kind == BackendKind::Cuda) {
        c.backend = makeCudaBackend(model);
        return c;
    }
    if (!cudaBuiltIn()) {   // a CPU-only build: auto is simply the CPU, nothing to report
        c.backend = makeCpuBackend(model, threads);
        return c;
    }
    c.fallback = checkGpu();
    if (c.fallback.problem == GpuProblem::None) {
        try {
            c.backend = makeCudaBackend(model);
            return c;
        } catch (const GpuError& e) {
            c.fallback = e.check;
        } catch (const Error& e) {
            c.fallback = {GpuProblem::Other, e.what(), {}, {}, 0, 0};
        }
    }
    c.notice = "using the CPU: " + c.fallback.reason;
    c.backend = makeCpuBackend(model, threads);
    return c;
}

}  // namespace dlab
