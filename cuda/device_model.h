#pragma once
// The model's weights in GPU memory, uploaded once. Matrices keep their stored type (the decode
// matvecs dequantize on the fly); when memory allows, each also gets an IEEE half copy for the
// cuBLAS GEMM path of prefill and larger batches. Norms and biases are f32. A tied output
// projection shares the token embedding's upload.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <vector>

#include "cuda/device_buffer.h"
#include "model/model.h"

namespace dlab::cuda {

struct DeviceMatrix {
    GgmlType type = GgmlType::F32;
    int64_t rows = 0, cols = 0;
    size_t rowBytes = 0;
    const uint8_t* w = nullptr;     // (rows, rowBytes) as stored
    const uint16_t* half = nullptr; // (rows, cols) half, or null (no room: GEMMs fall back to matvecs)
    bool present() const { return w != nullptr; }
};

struct DeviceLayer {
    const float *attnNorm = nullptr, *attnNormBias = nullptr;
    DeviceMatrix wq, wk, wv, wqkv, wo;
    const float *bq = nullptr, *bk = nullptr, *bv = nullptr, *bqkv = nullptr, *bo = nullptr;
    const float *ffnNorm = nullptr, *ffnNormBias = nullptr;
    DeviceMatrix wGate, wUp, wDown;
    const float *bUp = nullptr, *bDown = nullptr;
};

class DeviceModel {
public:
    // Uploads every weight; throws dlab::Error for a weight type or shape the device kernels cannot
    // use, or when GPU memory runs out (the message says how much was needed).
    DeviceModel(const Model& model, cudaStream_t stream);

    const DeviceMatrix& tokenEmbedding() const { return tokEmbd_; }
    const DeviceMatrix& positionEmbedding() const { return posEmbd_; }
    const DeviceMatrix& output() const { return output_; }
    const float* outputNorm() const { return outNorm_; }
    const float* outputNormBias() const { return outNormBias_; }
    const std::vector<DeviceLayer>& layers() const { return layers_; }
    bool hasHalfCopies() const { return halfCopies_; }
    size_t bytes() const { return bytes_; }

private:
    DeviceMatrix matrix(const WeightMatrix& w, const char* name, bool gemm);
    const float* vec(const std::vector<float>& v);

    cudaStream_t stream_;
    bool halfCopies_ = false;
    size_t bytes_ = 0;
    std::vector<DeviceBuffer> buffers_;
    std::map<const uint8_t*, DeviceMatrix> uploaded_;  // host data -> its upload (tied weights)
    DeviceMatrix tokEmbd_, posEmbd_, output_;
    const float *outNorm_ = nullptr, *outNormBias_ = nullptr;
    std::vector<DeviceLayer> layers_;
};

}  // namespace dlab::cuda
