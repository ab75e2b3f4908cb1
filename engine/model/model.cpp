#include "model/model.h"

#include <cstring>
#include <map>

#include "core/error.h"
#include "quant/fp16.h"

namespace dlab {

namespace {

// Resolves tensors by name and checks their shapes and types against what the architecture needs.
class WeightBinder {
public:
    explicit WeightBinder(const GgufFile& f) : f_(f) {}

    const GgufTensor* find(const std::string& name) const { return f_.findTensor(name); }

    const GgufTensor& require(const std::string& name) const {
        const GgufTensor* t = f_.findTensor(name);
        if (!t) throw Error(f_.where() + "tensor '" + name + "' is missing; the file is incomplete or not a " +
                            f_.getString("general.architecture") + " model");
        return *t;
    }

    // A (rows, cols) matrix: ggml shape [cols, rows].
    WeightMatrix matrix(const std::string& name, int64_t rows, int64_t cols) const {
        return toMatrix(require(name), rows, cols);
    }

    WeightMatrix toMatrix(const GgufTensor& t, int64_t rows, int64_t cols) const {
        const auto& tr = ggmlTypeTraits(t.type);
        if (!tr.computable)
            throw Error(f_.where() + "tensor '" + t.name + "': type " + tr.name + " is not supported (supported: " +
                        computableTypeList() + ")");
        if (t.shape.size() != 2 || t.shape[0] != cols || t.shape[1] != rows)
            throw Error(f_.where() + "tensor '" + t.name + "' has shape " + t.shapeString() + ", expected [" +
                        std::to_string(cols) + ", " + std::to_string(rows) + "]");
        return WeightMatrix{t.type, rows, cols, t.data, ggmlRowBytes(t.type, cols)};
    }

    // A 1-D vector of n values, converted to f32.
    std::vector<float> vector(const std::string& name, int64_t n) const {
        const GgufTensor& t = require(name);
        if (t.elements() != n || t.shape.size() != 1)
            throw Error(f_.where() + "tensor '" + name + "' has shape " + t.shapeString() + ", expected [" +
                        std::to_string(n) + "]");
        std::vector<float> out(n);
        switch (t.type) {
            case GgmlType::F32: std::memcpy(out.data(), t.data, n * sizeof(float)); break;
            case GgmlType::F16:
                for (int64_t i = 0; i < n; ++i) out[i] = fp16ToFp32(reinterpret_cast<const uint16_t*>(t.data)[i]);
                break;
            case GgmlType::BF16:
                for (int64_t i = 0; i < n; ++i) out[i] = bf16ToFp32(reinterpret_cast<const uint16_t*>(t.data)[i]);
                break;
            default:
                throw Error(f_.where() + "tensor '" + name + "': type " + ggmlTypeName(t.type) +
                            " is not supported for a norm or bias vector (supported: F32, F16, BF16)");
        }
        return out;
    }

    std::vector<float> optionalVector(const std::string& name, int64_t n) const {
        return find(name) ? vector(name, n) : std::vector<float>{};
    }

private:
    const GgufFile& f_;
};

}  // namespace

std::unique_ptr<Model> Model::load(const std::string& path, const LoadProgress& progress) {
    return fromFile(GgufFile::open(path), progress);
}

std::unique_ptr<Model> Model::fromFile(std::unique_ptr<GgufFile> file, const LoadProgress& progress) {
    std::unique_ptr<Model> m(new Model());
    m->file_ = std::move(file);
    const GgufFile& f = *m->file_;
    if (f.tensors().empty())
        throw Error(f.where() + "holds no tensors (a vocabulary-only file); it can be used with 'info' and 'tokenize' only");
    m->hp_ = readHParams(f);
    HParams& hp = m->hp_;
    m->tokenizer_ = Tokenizer::fromGguf(f);
    if (hp.nVocab == 0) hp.nVocab = m->tokenizer_->vocabSize();

    WeightBinder w(f);
    const GgufTensor& embd = w.require("token_embd.weight");
    if (embd.shape.size() == 2 && embd.shape[1] != hp.nVocab)
        hp.nVocab = embd.shape[1];  // the tensor is the truth; some files pad the vocabulary
    if (m->tokenizer_->vocabSize() > hp.nVocab)
        throw Error(f.where() + "the tokenizer has " + std::to_string(m->tokenizer_->vocabSize()) +
                    " tokens but the embedding only " + std::to_string(hp.nVocab) + " rows");
    m->tokEmbd_ = w.toMatrix(embd, hp.nVocab, hp.nEmbd);
    if (const GgufTensor* out = w.find("output.weight")) {
        m->output_ = w.toMatrix(*out, hp.nVocab, hp.nEmbd);
    } else {
        m->output_ = m->tokEmbd_;
        m->tiedOutput_ = true;
    }
    m->outNorm_ = w.vector("output_norm.weight", hp.nEmbd);
    if (hp.arch == Arch::Gpt2) {
        m->outNormBias_ = w.vector("output_norm.bias", hp.nEmbd);
        m->posEmbd_ = w.matrix("position_embd.weight", hp.nCtxTrain, hp.nEmbd);
    }
    if (w.find("rope_freqs.weight")) m->ropeFactors_ = w.vector("rope_freqs.weight", hp.nRot / 2);

    m->layers_.resize(hp.nLayer);
    for (int64_t il = 0; il < hp.nLayer; ++il) {
        if (progress && !progress(float(il) / float(hp.nLayer))) throw Cancelled();
        LayerWeights& L = m->layers_[il];
        const std::string p = "blk." + std::to_string(il) + ".";
        L.attnNorm = w.vector(p + "attn_norm.weight", hp.nEmbd);
        L.ffnNorm = w.vector(p + "ffn_norm.weight", hp.nEmbd);
        L.wo = w.matrix(p + "attn_output.weight", hp.nEmbd, hp.qDim());
        L.wUp = w.matrix(p + "ffn_up.weight", hp.nFf, hp.nEmbd);
        L.wDown = w.matrix(p + "ffn_down.weight", hp.nEmbd, hp.nFf);
        if (hp.arch == Arch::Gpt2) {
            L.attnNormBias = w.vector(p + "attn_norm.bias", hp.nEmbd);
            L.ffnNormBias = w.vector(p + "ffn_norm.bias", hp.nEmbd);
            L.wqkv = w.matrix(p + "attn_qkv.weight", 3 * hp.nEmbd, hp.nEmbd);
            L.bqkv = w.vector(p + "attn_qkv.bias", 3 * hp.nEmbd);
            L.bo = w.vector(p + "attn_output.bias", hp.nEmbd);
            L.bUp = w.vector(p + "ffn_up.bias", hp.nFf);
            L.bDown = w.vector(p + "ffn_down.bias", hp.nEmbd);
        } else {
            L.wq = w.matrix(p + "attn_q.weight", hp.qDim(), hp.nEmbd);
            L.wk = w.matrix(p + "attn_k.weight", hp.kvDim(), hp.nEmbd);
            L.wv = w.matrix(p + "attn_v.weight", hp.kvDim(), hp.nEmbd);
            L.wGate = w.matrix(p + "ffn_gate.weight", hp.nFf, hp.nEmbd);
            if (hp.arch == Arch::Qwen2) {
                L.bq = w.vector(p + "attn_q.bias", hp.qDim());
                L.bk = w.vector(p + "attn_k.bias", hp.kvDim());
                L.bv = w.vector(p + "attn_v.bias", hp.kvDim());
            }
        }
    }
    if (progress && !progress(1.0f)) throw Cancelled();
    return m;
}

int64_t Model::parameterCount() const {
    int64_t n = 0;
    for (const auto& t : file_->tensors()) n += t.elements();
    return n;
}

std::string Model::tensorTypeSummary() const {
    std::map<std::string, int> counts;
    for (const auto& t : file_->tensors()) counts[ggmlTypeName(t.type)]++;
    std::string s;
    for (const auto& [name, n] : counts) s += (s.empty() ? "" : ", ") + name + " (" + std::to_string(n) + ")";
    return s;
}

}  // namespace dlab
