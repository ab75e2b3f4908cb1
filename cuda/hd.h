#pragma once
// Functions compiled for both sides: the CUDA kernels call them on the device, and the CPU tests
// (tests/test_cuda_host.cpp) call the very same code on the host against the engine's reference,
// so the arithmetic of the kernels is checked on machines without a GPU.
#ifdef __CUDACC__
#define DLAB_HD __host__ __device__ __forceinline__
#else
#define DLAB_HD inline
#endif
