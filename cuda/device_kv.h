#pragma once
// A KvBlockPool's rows mirrored in GPU memory (cuda/ops/paged_kv.h's layout), with the host's
// block tables, reference counts and copy-on-write: the pool keeps the bookkeeping and the host
// rows stay the truth (the backend copies each row it computes back), and the mirror replays what
// else changed rows there (the pool's KvMirrorLog): copy-on-write block copies, eviction's row
// moves, or, after rows were written on the host, a full upload.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "cuda/device_buffer.h"
#include "cuda/ops/paged_kv.h"
#include "model/kv_block_pool.h"

namespace dlab::cuda {

class DeviceKv {
public:
    // Allocates the mirror of `pool` and uploads its rows; throws dlab::Error when GPU memory runs out.
    DeviceKv(KvBlockPool& pool, cudaStream_t stream);

    // Brings the mirror up to date with the pool (call before each pass, on the pass's stream).
    void sync(const KvBlockPool& pool);
    bool mirrors(const KvBlockPool& pool) const { return log_ == const_cast<KvBlockPool&>(pool).attachMirror(); }
    bool poolAlive() const { return log_->poolAlive; }
    const PagedKv& layout() const { return kv_; }
    uint64_t id() const { return id_; }
    size_t bytes() const { return buffer_.bytes(); }

private:
    void uploadAll(const KvBlockPool& pool);

    cudaStream_t stream_;
    std::shared_ptr<KvMirrorLog> log_;
    uint64_t seenHostWrites_ = 0;
    int64_t nLayer_ = 0;
    DeviceBuffer buffer_;
    PagedKv kv_;
    uint64_t id_;
};

}  // namespace dlab::cuda
