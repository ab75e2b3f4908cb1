#include "quant/kernel_path.h"

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "core/error.h"
#include "quant/kernels.h"

#include "core/cpu_features.h"

namespace dlab {

namespace {

#if defined(DLAB_X86)
bool cpuHasAvx2() {
    return cpuHasAvx2Set();
}
bool cpuHasAvx512() {
    __builtin_cpu_init();
    return cpuHasAvx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vnni");
}
#endif

KernelPath widestAvailable() {
    if (kernelPathAvailable(KernelPath::Avx512)) return KernelPath::Avx512;
    if (kernelPathAvailable(KernelPath::Avx2)) return KernelPath::Avx2;
    return KernelPath::Scalar;
}

// The default: DLAB_KERNEL_PATH if it names an available path, else the widest one.
KernelPath defaultPath() {
    static const KernelPath path = [] {
        if (const char* env = std::getenv("DLAB_KERNEL_PATH")) {
            const std::string_view v(env);
            for (KernelPath p : {KernelPath::Scalar, KernelPath::Avx2, KernelPath::Avx512})
                if (v == kernelPathName(p) && kernelPathAvailable(p)) return p;
        }
        return widestAvailable();
    }();
    return path;
}

std::atomic<KernelPath> g_forced{KernelPath::Auto};

}  // namespace

bool kernelPathAvailable(KernelPath path) {
    switch (path) {
    case KernelPath::Auto:
    case KernelPath::Scalar: return true;
#if defined(DLAB_X86)
    case KernelPath::Avx2: return cpuHasAvx2();
    case KernelPath::Avx512: return cpuHasAvx512();
#else
    default: return false;
#endif
    }
    return false;
}

void setKernelPathForTesting(KernelPath path) {
    if (!kernelPathAvailable(path))
        throw Error(std::string("kernel path ") + kernelPathName(path) + " is not available on this CPU");
    g_forced.store(path);
}

KernelPath activeKernelPath() {
    const KernelPath forced = g_forced.load(std::memory_order_relaxed);
    return forced == KernelPath::Auto ? defaultPath() : forced;
}

const char* kernelPathName(KernelPath path) {
    switch (path) {
    case KernelPath::Auto: return "auto";
    case KernelPath::Scalar: return "scalar";
    case KernelPath::Avx2: return "avx2";
    case KernelPath::Avx512: return "avx512";
    }
    return "?";
}

namespace quant {

const KernelSet& activeKernelSet() {
    switch (activeKernelPath()) {
#if defined(DLAB_X86)
    case KernelPath::Avx512: return avx512Kernels();
    case KernelPath::Avx2: return avx2Kernels();
#endif
    default: return scalarKernels();
    }
}

}  // namespace quant

}  // namespace dlab
