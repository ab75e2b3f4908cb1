// RoPE: kernel -> launcher. One block per token, a thread per rotated pair.
#include "cuda/ops/common.cuh"
#include "cuda/ops/rope.cuh"

namespace dlab::cuda {

namespace {
__global__ void ropeKernel(const RopeArgs a) { rotateToken(a, blockIdx.x); }
}  // namespace

void ropeLaunch(const RopeArgs& a, int T, cudaStream_t stream) {
    if (T > 0 && a.nRot > 0) ropeKernel<<<T, 128, 0, stream>>>(a);
}

}  // namespace dlab::cuda
