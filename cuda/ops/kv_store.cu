// KV store: kernel -> launcher. One block per token; f32/f16 a thread per value, q8_0 a thread
// per 32-value block (quantized exactly as the engine's storeKvRow: kv_row.cuh). With RoPE folded
// in, the block first rotates its token's q and k heads (one launch instead of two). Decode passes
// fold this store into attention instead (attention.h).
#include "cuda/ops/kv_store.h"
#include "cuda/ops/kv_row.cuh"
#include "cuda/ops/rope.cuh"

namespace dlab::cuda {

namespace {
__global__ void kvStoreKernel(const KvStoreArgs a) {
    const int t = blockIdx.x;
    if (a.rope.nRot > 0) {
        rotateToken(a.rope, t);
        __syncthreads();   // the rotated k, written by other threads of the block
    }
    const int seg = a.slots.segOf[t], slot = a.slots.slot[t];
    const int32_t block = a.slots.tables[a.slots.tableOf[seg] + slot / a.kv.blockSize];
    const int64_t cell = static_cast<int64_t>(block) * a.kv.blockSize + slot % a.kv.blockSize;
    for (int value = 0; value < 2; ++value) {
        const float* src = value ? a.v + static_cast<size_t>(t) * a.ldv : a.k + static_cast<size_t>(t) * a.ldk;
        uint8_t* dst = a.kv.row(a.layer, value, cell);
        uint8_t* stage = a.staging + ((static_cast<size_t>(t) * a.nLayer + a.layer) * 2 + value) * a.kv.rowBytes;
        storeKvValues(a.kv.kvType, src, dst, stage, a.kv.kvDim);
    }
}
}  // namespace

void kvStoreLaunch(const KvStoreArgs& a, int T, cudaStream_t stream) {
    if (T > 0) kvStoreKernel<<<T, 128, 0, stream>>>(a);
}

}  // namespace dlab::cuda
