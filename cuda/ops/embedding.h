#pragma once
// Token embedding lookup (any weight type), plus gpt2's learned position embedding.
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

#include "gguf/ggml_type.h"

namespace dlab::cuda {

struct EmbeddingArgs {
    const uint8_t* table = nullptr;   // (nVocab, rowBytes) as stored
    GgmlType type = GgmlType::F32;
    size_t rowBytes = 0;
    const uint8_t* posTable = nullptr;  // gpt2: (nCtxTrain, posRowBytes), else null
    GgmlType posType = GgmlType::F32;
    size_t posRowBytes = 0;
    const int32_t* tokens = nullptr;    // (T)
    const int32_t* positions = nullptr; // (T), for posTable
    float* out = nullptr;               // (T, n)
    int n = 0;                          // nEmbd, a multiple of 8
};
// Throws dlab::Error for a type the device cannot read.
void embeddingLaunch(const EmbeddingArgs& a, int T, cudaStream_t stream);

}  // namespace dlab::cuda
