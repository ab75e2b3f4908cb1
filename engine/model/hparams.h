#pragma once
// Hyper-parameters of a transformer, read and validated from GGUF metadata ("<arch>.*" keys).
#include <cstdint>
#include <string>
#include <vector>

namespace dlab {

class GgufFile;

enum class Arch { Llama, Qwen2, Gpt2 };

// How rotary embeddings pair dimensions: ggml's "normal" mode rotates (x[2i], x[2i+1]) — used by
// llama-family GGUF files, whose converters permute Q/K rows for it — and NeoX mode rotates
// (x[i], x[i + n_rot/2]) — used by Qwen2.
enum class RopeStyle { None, Normal, NeoX };

struct HParams {
    Arch arch = Arch::Llama;
    std::string archName;      // as in general.architecture
    int64_t nVocab = 0;
    int64_t nCtxTrain = 0;     // context length the model was trained for
    int64_t nEmbd = 0;
    int64_t nLayer = 0;
    int64_t nHead = 0;
    int64_t nHeadKv = 0;
    int64_t nFf = 0;
    int64_t headDim = 0;       // nEmbd / nHead unless the file says otherwise
    int64_t nRot = 0;          // rotated dimensions per head
    RopeStyle rope = RopeStyle::None;
    float ropeFreqBase = 10000.0f;
    float ropeFreqScale = 1.0f;  // 1 / linear scaling factor
    float normEps = 1e-5f;

    int64_t qDim() const { return nHead * headDim; }
    int64_t kvDim() const { return nHeadKv * headDim; }
    // K and V bytes for one position across all layers at `bytesPerElement`.
    int64_t kvBytesPerToken(int bytesPerElement) const { return 2 * nLayer * kvDim() * bytesPerElement; }
};

const char* archName(Arch a);
std::string supportedArchList();
// Throws dlab::Error naming the file and the missing/invalid key or the unsupported architecture.
HParams readHParams(const GgufFile& file);

}  // namespace dlab
