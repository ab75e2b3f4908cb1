// Embedding: kernel -> launcher -> type dispatch. One block per token, a thread per 8 elements.
#include "cuda/ops/embedding.h"
#include "cuda/ops/type_dispatch.h"
#include "cuda/quant_hd.h"

namespace dlab::cuda {

namespace {
template <GgmlType T>
__device__ void addRow(const uint8_t* row, int chunk, float* out, bool add) {
    float v[8];
    dequantChunk8<T>(row, chunk, v);
    for (int i = 0; i < 8; ++i) out[chunk * 8 + i] = add ? out[chunk * 8 + i] + v[i] : v[i];
}

template <GgmlType T, GgmlType P>
__global__ void embeddingKernel(const EmbeddingArgs a) {
    const int t = blockIdx.x;
    float* out = a.out + static_cast<size_t>(t) * a.n;
    const uint8_t* row = a.table + static_cast<size_t>(a.tokens[t]) * a.rowBytes;
    for (int c = threadIdx.x; c < a.n / 8; c += blockDim.x) {
        addRow<T>(row, c, out, false);
        if (a.posTable) addRow<P>(a.posTable + static_cast<size_t>(a.positions[t]) * a.posRowBytes, c, out, true);
    }
}

template <GgmlType T>
void launchWithPos(const EmbeddingArgs& a, int T_, cudaStream_t stream) {
    // gpt2 keeps position_embd in F32 (or F16); other types are refused by the model check.
    if (a.posTable && a.posType == GgmlType::F16) embeddingKernel<T, GgmlType::F16><<<T_, 128, 0, stream>>>(a);
    else embeddingKernel<T, GgmlType::F32><<<T_, 128, 0, stream>>>(a);
}
}  // namespace

void embeddingLaunch(const EmbeddingArgs& a, int T, cudaStream_t stream) {
    if (T <= 0) return;
    dispatchWeightType(a.type, "token embedding", [&](auto tag) { launchWithPos<decltype(tag)::value>(a, T, stream); });
}

}  // namespace dlab::cuda
