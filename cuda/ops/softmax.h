#pragma once
// Softmax over each row of x in place (rows, n); -inf entries get weight 0.
#include <cuda_runtime_api.h>

namespace dlab::cuda {

void softmaxRowsLaunch(float* x, int rows, int n, cudaStream_t stream);

}  // namespace dlab::cuda
