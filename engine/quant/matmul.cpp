// matmul(): checks, activation preparation and the split of rows across the thread pool.
// The arithmetic lives in the kernel sets (kernels_scalar.cpp, simd_avx2.cpp, simd_avx512.cpp).
#include "quant/matmul.h"

#include <string>

#include "core/error.h"
#include "quant/aligned_buffer.h"
#include "quant/kernels.h"

namespace dlab {

namespace {

// Below this many multiply-adds a matmul runs on the calling thread: waking the pool would cost
// more than the work (a 64x64 matvec takes about a microsecond).
constexpr int64_t kMinParallelMacs = 32 * 1024;
// Activation rows are prepared in parallel from this many elements on (prefill batches).
constexpr int64_t kMinParallelPrep = 16 * 1024;

void checkShape(const WeightMatrix& w) {
    const auto& traits = ggmlTypeTraits(w.type);
    if (w.rows < 0 || w.cols <= 0 || w.cols % traits.blockSize != 0)
        throw Error("matmul: a " + ggmlTypeName(w.type) + " matrix needs a positive column count that is a multiple of " +
                    std::to_string(traits.blockSize) + ", got " + std::to_string(w.cols));
    if (w.rowBytes < ggmlRowBytes(w.type, w.cols))
        throw Error("matmul: row stride " + std::to_string(w.rowBytes) + " bytes is shorter than a " +
                    ggmlTypeName(w.type) + " row of " + std::to_string(w.cols) + " columns");
    if (w.rows > 0 && !w.data) throw Error("matmul: weight matrix has no data");
}

}  // namespace

void matmul(const WeightMatrix& w, const float* x, int64_t nTok, float* y, ThreadPool& pool) {
    checkShape(w);
    const quant::TypeKernels* k = quant::activeKernelSet().forType(w.type);
    if (!k)
        throw Error("matmul: weight type " + ggmlTypeName(w.type) + " is not supported (supported: " +
                    computableTypeList() + ")");
    if (nTok <= 0 || w.rows == 0) return;

    // act: (nTok, stride bytes), reused across calls on this thread.
    static thread_local quant::AlignedBuffer actBuffer;
    const size_t stride = k->actRowBytes(w.cols);
    uint8_t* act = actBuffer.get(stride * static_cast<size_t>(nTok));

    const bool parallel = pool.size() > 1 && w.rows * w.cols * nTok >= kMinParallelMacs;
    if (parallel && nTok * w.cols >= kMinParallelPrep && nTok > 1) {
        pool.run([&](int ith, int nth) {
            const auto [t0, t1] = ThreadPool::splitRange(nTok, ith, nth);
            for (int64_t t = t0; t < t1; ++t) k->prepareAct(x + t * w.cols, w.cols, act + t * stride);
        });
    } else {
        for (int64_t t = 0; t < nTok; ++t) k->prepareAct(x + t * w.cols, w.cols, act + t * stride);
    }

    if (!parallel) {
        k->gemm(w, 0, w.rows, act, stride, nTok, y, w.rows);
        return;
    }
    pool.run([&](int ith, int nth) {
        const auto [r0, r1] = ThreadPool::splitRange(w.rows, ith, nth, k->rowAlign > 1 ? k->rowAlign : 1);
        if (r0 < r1) k->gemm(w, r0, r1, act, stride, nTok, y, w.rows);
    });
}

}  // namespace dlab
