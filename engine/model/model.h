#pragma once
// An immutable loaded model: the mapped GGUF file, its hyper-parameters, tokenizer and views of
// every weight. Weights stay in the file's format and memory (mmap); only norms and biases, which
// are tiny, are copied to f32.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gguf/gguf_file.h"
#include "model/hparams.h"
#include "quant/matmul.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

// Called with a fraction in [0, 1]; return false to cancel (the loader then throws dlab::Cancelled).
using LoadProgress = std::function<bool(float)>;

struct LayerWeights {
    std::vector<float> attnNorm, attnNormBias;   // (nEmbd); bias: gpt2 only
    WeightMatrix wq, wk, wv;                     // (qDim, nEmbd), (kvDim, nEmbd), (kvDim, nEmbd)
    WeightMatrix wqkv;                           // gpt2: fused (3 * nEmbd, nEmbd)
    std::vector<float> bq, bk, bv, bqkv;         // qwen2: q/k/v biases; gpt2: fused bias
    WeightMatrix wo;                             // (nEmbd, qDim)
    std::vector<float> bo;                       // gpt2
    std::vector<float> ffnNorm, ffnNormBias;     // (nEmbd)
    WeightMatrix wGate, wUp, wDown;              // (nFf, nEmbd), (nFf, nEmbd), (nEmbd, nFf); gpt2 has no gate
    std::vector<float> bUp, bDown;               // gpt2
};

class Model {
public:
    // Maps the file, validates every tensor the architecture needs (names, shapes, types) and
    // builds the tokenizer. Throws dlab::Error with a message naming the file and the problem.
    static std::unique_ptr<Model> load(const std::string& path, const LoadProgress& progress = {});
    static std::unique_ptr<Model> fromFile(std::unique_ptr<GgufFile> file, const LoadProgress& progress = {});

    const GgufFile& file() const { return *file_; }
    const HParams& hparams() const { return hp_; }
    const Tokenizer& tokenizer() const { return *tokenizer_; }
    const std::string& path() const { return file_->path(); }

    const WeightMatrix& tokenEmbedding() const { return tokEmbd_; }    // (nVocab, nEmbd)
    const WeightMatrix& positionEmbedding() const { return posEmbd_; } // gpt2: (nCtxTrain, nEmbd)
    const WeightMatrix& output() const { return output_; }             // (nVocab, nEmbd), maybe tied
    bool tiedOutput() const { return tiedOutput_; }
    const std::vector<float>& outputNorm() const { return outNorm_; }
    const std::vector<float>& outputNormBias() const { return outNormBias_; }
    const std::vector<float>& ropeFreqFactors() const { return ropeFactors_; }  // empty or (nRot / 2)
    const std::vector<LayerWeights>& layers() const { return layers_; }

    int64_t parameterCount() const;
    // "Q4_1 (210), F32 (61), Q8_0 (1)"
    std::string tensorTypeSummary() const;

private:
    Model() = default;
    std::unique_ptr<GgufFile> file_;
    HParams hp_;
    std::unique_ptr<Tokenizer> tokenizer_;
    WeightMatrix tokEmbd_, posEmbd_, output_;
    bool tiedOutput_ = false;
    std::vector<float> outNorm_, outNormBias_, ropeFactors_;
    std::vector<LayerWeights> layers_;
};

}  // namespace dlab
