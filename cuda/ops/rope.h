#pragma once
// Rotary position embedding of q and k in place, from per-token cos/sin tables that the host
// computes with the CPU's own ropeCache (so both backends rotate by the same angles).
#include <cuda_runtime_api.h>

namespace dlab::cuda {

struct RopeArgs {
    float* q;            // (T, ldq) nHead heads of headDim from column 0
    float* k;            // (T, ldk) nHeadKv heads
    int ldq, ldk;
    int nHead, nHeadKv, headDim, nRot;
    bool neox;           // pairs (i, i + nRot/2) instead of (2i, 2i + 1)
    const float* cosv;   // (T, nRot / 2)
    const float* sinv;   // (T, nRot / 2)
};
void ropeLaunch(const RopeArgs& a, int T, cudaStream_t stream);

}  // namespace dlab::cuda
