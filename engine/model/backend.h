#pragma once
// A compute backend runs the transformer over a batch of tokens (like ggml's backend interface).
// The model is immutable and shared; the caller owns the KV cache (candle's forward(x, pos, &cache)).
#include <atomic>
#include <memory>
#include <span>
#include <string_view>

#include "model/kv_cache.h"
#include "model/model.h"

namespace dlab {

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string_view name() const = 0;
    virtual int threads() const = 0;

    // Runs `tokens` at positions cache.size() .. cache.size() + n - 1, appends their keys and
    // values to the cache and returns the logits:
    //   allLogits: (n, nVocab) row-major, one row per token; otherwise (1, nVocab) for the last.
    // The span stays valid until the next call. Throws dlab::Error for tokens outside the
    // vocabulary or a batch that does not fit the cache, dlab::Cancelled if the cancel flag was
    // raised (checked between layers); the cache is then left as it was before the call.
    virtual std::span<const float> forward(std::span<const TokenId> tokens, KvCache& cache, bool allLogits) = 0;

    // A flag checked between layers and between prefill chunks; nullptr to disable.
    void setCancelFlag(const std::atomic<bool>* flag) { cancel_ = flag; }

protected:
    bool cancelled() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }
    const std::atomic<bool>* cancel_ = nullptr;
};

// exactMatmul: multiply f32 copies of the weights with unquantized activations (4 bytes per
// parameter of extra memory, several times slower). A reference mode for correctness checks: it
// removes the activation-quantization noise that the fast path shares with llama.cpp.
std::unique_ptr<Backend> makeCpuBackend(const Model& model, int threads, bool exactMatmul = false);

}  // namespace dlab
