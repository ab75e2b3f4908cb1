// The CUDA backend's entry points in a build without the CUDA toolkit (DLAB_CUDA=OFF, or AUTO where
// CMake found no nvcc): every request for it gets the same sentence, and --backend auto the CPU.
#include "core/error.h"
#include "cuda/cuda_backend.h"

namespace dlab {

namespace {
const char* kNotBuilt = "this build has no CUDA backend (it was configured without the CUDA toolkit or with -DDLAB_CUDA=OFF)";
}

std::unique_ptr<Backend> makeCudaBackend(const Model&, const CudaOptions&) { throw Error(kNotBuilt); }
GpuCheck checkGpu(int, std::string*) { return {GpuProblem::NotBuilt, kNotBuilt, {}, {}, 0, 0}; }
std::string cudaUnavailableReason(int, std::string*) { return kNotBuilt; }
bool cudaBuiltIn() { return false; }

}  // namespace dlab
