#pragma once
// Which kernel set matmul() uses. Auto picks the widest one this CPU runs (AVX-512 with VNNI,
// then AVX2 + FMA + F16C, then scalar); DLAB_KERNEL_PATH=scalar|avx2|avx512 overrides it, and
// tests force each available path in turn.
namespace dlab {

enum class KernelPath { Auto, Scalar, Avx2, Avx512 };

// Compiled in and supported by this CPU (Auto and Scalar always are).
bool kernelPathAvailable(KernelPath path);

// Forces a path for later matmul() calls (Auto restores the default). Throws dlab::Error if the
// path is not available. Not meant to be called while matmuls run on other threads.
void setKernelPathForTesting(KernelPath path);

// The path matmul() uses now (never Auto).
KernelPath activeKernelPath();

const char* kernelPathName(KernelPath path);

}  // namespace dlab
