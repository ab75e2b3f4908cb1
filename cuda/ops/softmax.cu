// Row softmax: kernel -> launcher. One block per row: max, sum of exp, scale.
#include "cuda/ops/common.cuh"
#include "cuda/ops/softmax.h"

namespace dlab::cuda {

namespace {
__global__ void softmaxRowsKernel(float* x, int n) {
    float* r = x + static_cast<size_t>(blockIdx.x) * n;
    float mx = -INFINITY;
    for (int i = threadIdx.x; i < n; i += blockDim.x) mx = fmaxf(mx, r[i]);
    mx = blockMax(mx);
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += r[i] == -INFINITY ? 0.0f : expf(r[i] - mx);
    s = blockSum(s);
    for (int i = threadIdx.x; i < n; i += blockDim.x) r[i] = r[i] == -INFINITY ? 0.0f : expf(r[i] - mx) / s;
}
}  // namespace

void softmaxRowsLaunch(float* x, int rows, int n, cudaStream_t stream) {
    if (rows > 0 && n > 0) softmaxRowsKernel<<<rows, 256, 0, stream>>>(x, n);
}

}  // namespace dlab::cuda
