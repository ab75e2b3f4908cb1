#include "cuda/device_model.h"

#include <string>

#include "core/error.h"
#include "cuda/cuda_check.h"
#include "cuda/ops/dequant_half.h"
#include "cuda/ops/type_dispatch.h"

namespace dlab::cuda {

namespace {
// Parameters in the matrices the GEMM path multiplies (everything but the embeddings' lookups).
int64_t gemmParameters(const Model& m) {
    int64_t n = m.output().rows * m.output().cols;
    for (const LayerWeights& L : m.layers())
        for (const WeightMatrix* w : {&L.wq, &L.wk, &L.wv, &L.wqkv, &L.wo, &L.wGate, &L.wUp, &L.wDown})
            if (w->data) n += w->rows * w->cols;
    return n;
}
}  // namespace

DeviceModel::DeviceModel(const Model& model, cudaStream_t stream) : stream_(stream) {
    // Half copies when they fit with a quarter of the free memory to spare (the KV cache and
    // scratch need the rest); otherwise prefill runs through the matvecs, eight tokens at a time.
    size_t freeB = 0, totalB = 0;
    DLAB_CUDA_CHECK(cudaMemGetInfo(&freeB, &totalB));
    const double halfBytes = 2.0 * double(gemmParameters(model));
    halfCopies_ = halfBytes + double(model.file().fileSize()) < 0.75 * double(freeB);

    tokEmbd_ = matrix(model.tokenEmbedding(), "token_embd.weight", false);
    if (model.positionEmbedding().data) posEmbd_ = matrix(model.positionEmbedding(), "position_embd.weight", false);
    output_ = matrix(model.output(), "output.weight", true);
    outNorm_ = vec(model.outputNorm());
    outNormBias_ = vec(model.outputNormBias());
    for (const LayerWeights& L : model.layers()) {
        DeviceLayer d;
        d.attnNorm = vec(L.attnNorm);
        d.attnNormBias = vec(L.attnNormBias);
        d.wq = matrix(L.wq, "attn_q.weight", true);
        d.wk = matrix(L.wk, "attn_k.weight", true);
        d.wv = matrix(L.wv, "attn_v.weight", true);
        d.wqkv = matrix(L.wqkv, "attn_qkv.weight", true);
        d.wo = matrix(L.wo, "attn_output.weight", true);
        d.bq = vec(L.bq);
        d.bk = vec(L.bk);
        d.bv = vec(L.bv);
        d.bqkv = vec(L.bqkv);
        d.bo = vec(L.bo);
        d.ffnNorm = vec(L.ffnNorm);
        d.ffnNormBias = vec(L.ffnNormBias);
        d.wGate = matrix(L.wGate, "ffn_gate.weight", true);
        d.wUp = matrix(L.wUp, "ffn_up.weight", true);
        d.wDown = matrix(L.wDown, "ffn_down.weight", true);
        d.bUp = vec(L.bUp);
        d.bDown = vec(L.bDown);
        layers_.push_back(d);
    }
    DLAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

DeviceMatrix DeviceModel::matrix(const WeightMatrix& w, const char* name, bool gemm) {
    if (!w.data) return {};
    auto it = uploaded_.find(w.data);
    DeviceMatrix d;
    if (it != uploaded_.end()) {
        d = it->second;
    } else {
        if (!deviceReadsType(w.type))
            throw Error(std::string(name) + ": weight type " + ggmlTypeName(w.type) + " is not supported on the GPU (supported: " +
                        deviceTypeList() + "); use --backend cpu");
        if (w.cols % 8 != 0)
            throw Error(std::string(name) + ": rows of " + std::to_string(w.cols) + " elements are not a multiple of 8, which the GPU kernels need; use --backend cpu");
        const size_t bytes = static_cast<size_t>(w.rows) * w.rowBytes;
        buffers_.emplace_back(bytes, std::string("the weight ") + name);
        DLAB_CUDA_CHECK(cudaMemcpyAsync(buffers_.back().as(), w.data, bytes, cudaMemcpyHostToDevice, stream_));
        bytes_ += bytes;
        d = {w.type, w.rows, w.cols, w.rowBytes, buffers_.back().as(), nullptr};
    }
    if (gemm && halfCopies_ && !d.half) {
        const size_t bytes = static_cast<size_t>(w.rows) * w.cols * 2;
        buffers_.emplace_back(bytes, std::string("the half copy of ") + name);
        dequantToHalfLaunch(w.type, d.w, d.rowBytes, d.rows, static_cast<int>(d.cols), buffers_.back().as<uint16_t>(), stream_);
        DLAB_CUDA_CHECK_LAUNCH();
        bytes_ += bytes;
        d.half = buffers_.back().as<uint16_t>();
    }
    uploaded_[w.data] = d;
    return d;
}

const float* DeviceModel::vec(const std::vector<float>& v) {
    if (v.empty()) return nullptr;
    buffers_.emplace_back(v.size() * sizeof(float), "a norm or bias vector");
    DLAB_CUDA_CHECK(cudaMemcpyAsync(buffers_.back().as(), v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, stream_));
    bytes_ += v.size() * sizeof(float);
    return buffers_.back().as<float>();
}

}  // namespace dlab::cuda
