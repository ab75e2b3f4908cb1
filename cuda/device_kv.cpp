#include "cuda/device_kv.h"

#include <atomic>

#include "cuda/cuda_check.h"

namespace dlab::cuda {

namespace {
std::atomic<uint64_t> nextMirrorId{1};
}

DeviceKv::DeviceKv(KvBlockPool& pool, cudaStream_t stream)
    : stream_(stream), log_(pool.attachMirror()), nLayer_(pool.nLayer()),
      buffer_(static_cast<size_t>(pool.bytesReserved()), "the KV cache (" + std::to_string(pool.nBlocks()) + " blocks)"),
      id_(nextMirrorId++) {
    kv_.base = buffer_.as();
    kv_.cellsPerPlane = pool.nBlocks() * pool.blockSize();
    kv_.blockSize = static_cast<int>(pool.blockSize());
    kv_.rowBytes = pool.rowBytes();
    kv_.kvType = static_cast<int>(pool.type());
    kv_.kvDim = static_cast<int>(pool.kvDim());
    log_->events.clear();
    uploadAll(pool);
}

void DeviceKv::uploadAll(const KvBlockPool& pool) {
    const size_t plane = static_cast<size_t>(kv_.cellsPerPlane) * kv_.rowBytes;
    for (int64_t l = 0; l < nLayer_; ++l) {
        DLAB_CUDA_CHECK(cudaMemcpyAsync(kv_.row(static_cast<int>(l), 0, 0), pool.layerK(l), plane, cudaMemcpyHostToDevice, stream_));
        DLAB_CUDA_CHECK(cudaMemcpyAsync(kv_.row(static_cast<int>(l), 1, 0), pool.layerV(l), plane, cudaMemcpyHostToDevice, stream_));
    }
    seenHostWrites_ = log_->hostWrites;
    log_->events.clear();
}

void DeviceKv::sync(const KvBlockPool& pool) {
    if (log_->hostWrites != seenHostWrites_) {   // rows written on the host: take them all
        uploadAll(pool);
        return;
    }
    // Every (layer, K/V) plane gets the same copy: one 2-D copy over the 2 * nLayer planes.
    const size_t pitch = static_cast<size_t>(kv_.cellsPerPlane) * kv_.rowBytes;
    const size_t planes = static_cast<size_t>(2 * nLayer_);
    for (const KvRowEvent& e : log_->events) {
        const bool block = e.srcSlot < 0;
        const int64_t src = static_cast<int64_t>(e.srcBlock) * kv_.blockSize + (block ? 0 : e.srcSlot);
        const int64_t dst = static_cast<int64_t>(e.dstBlock) * kv_.blockSize + (block ? 0 : e.dstSlot);
        const size_t width = (block ? kv_.blockSize : 1) * kv_.rowBytes;
        DLAB_CUDA_CHECK(cudaMemcpy2DAsync(kv_.row(0, 0, dst), pitch, kv_.row(0, 0, src), pitch, width, planes,
                                          cudaMemcpyDeviceToDevice, stream_));
    }
    log_->events.clear();
}

}  // namespace dlab::cuda
