#pragma once
// RoPE on the device: one pair, and one token's q and k heads in place by the threads of one block
// (the rope kernel runs it alone, the KV store before storing the token's rotated k). The folded
// store in attention.cu rotates a head in shared memory with rotatePair, the same arithmetic.
#include "cuda/ops/rope.h"

namespace dlab::cuda {

// Pair p of a head v (nRot / 2 = half pairs): (p, p + half) for NeoX, else (2p, 2p + 1).
__device__ __forceinline__ void rotatePair(float* v, int p, int half, bool neox, float c, float s) {
    const int ia = neox ? p : 2 * p, ib = neox ? p + half : 2 * p + 1;
    const float x0 = v[ia], x1 = v[ib];
    v[ia] = x0 * c - x1 * s;
    v[ib] = x0 * s + x1 * c;
}

__device__ __forceinline__ void rotateToken(const RopeArgs& a, int t) {
    const int half = a.nRot / 2;
    const float* c = a.cosv + static_cast<size_t>(t) * half;
    const float* s = a.sinv + static_cast<size_t>(t) * half;
    const int pairs = (a.nHead + a.nHeadKv) * half;
    for (int i = threadIdx.x; i < pairs; i += blockDim.x) {
        const int head = i / half, p = i % half;
        float* v = head < a.nHead ? a.q + static_cast<size_t>(t) * a.ldq + head * a.headDim
                                  : a.k + static_cast<size_t>(t) * a.ldk + (head - a.nHead) * a.headDim;
        rotatePair(v, p, half, a.neox, c[p], s[p]);
    }
}

}  // namespace dlab::cuda
