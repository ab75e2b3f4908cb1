#pragma once
// Writes a pass's K and V rows of one layer into the paged cache (converted to its type), and the
// same bytes into a staging buffer the host copies back into its KvBlockPool:
//   staging: (T, nLayer, 2, rowBytes)
#include <cuda_runtime_api.h>

#include "cuda/ops/paged_kv.h"
#include "cuda/ops/rope.h"

namespace dlab::cuda {

struct KvStoreArgs {
    const float* k;        // (T, ldk), kvDim values from column 0
    const float* v;        // (T, ldv)
    int ldk, ldv;
    int layer, nLayer;
    PagedKv kv;
    PassSlots slots;
    uint8_t* staging;
    // RoPE folded in (nRot > 0): each token's q and k are rotated in place first (rope.k is k).
    RopeArgs rope{};
};
void kvStoreLaunch(const KvStoreArgs& a, int T, cudaStream_t stream);

}  // namespace dlab::cuda
