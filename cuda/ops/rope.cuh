#pragma once
// RoPE of one token's q and k heads in place, by the threads of one block (device code): the rope
// kernel runs it alone, the KV store runs it before storing the token's rotated k.
#include "cuda/ops/rope.h"

namespace dlab::cuda {

__device__ __forceinline__ void rotateToken(const RopeArgs& a, int t) {
    const int half = a.nRot / 2;
    const float* c = a.cosv + static_cast<size_t>(t) * half;
    const float* s = a.sinv + static_cast<size_t>(t) * half;
    const int pairs = (a.nHead + a.nHeadKv) * half;
    for (int i = threadIdx.x; i < pairs; i += blockDim.x) {
        const int head = i / half, p = i % half;
        float* v = head < a.nHead ? a.q + static_cast<size_t>(t) * a.ldq + head * a.headDim
                                  : a.k + static_cast<size_t>(t) * a.ldk + (head - a.nHead) * a.headDim;
        const int ia = a.neox ? p : 2 * p, ib = a.neox ? p + half : 2 * p + 1;
        const float x0 = v[ia], x1 = v[ib];
        v[ia] = x0 * c[p] - x1 * s[p];
        v[ib] = x0 * s[p] + x1 * c[p];
    }
}

}  // namespace dlab::cuda
