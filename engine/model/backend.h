#pragma once
// A compute backend runs the transformer over a batch of tokens (like ggml's backend interface).
// The model is immutable and shared; the caller owns the KV cache (candle's forward(x, pos, &cache)):
// a paged KvBlockPool with the sequence to extend, or the single-sequence KvCache.
#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/attention_weights.h"
#include "model/kv_block_pool.h"
#include "model/kv_cache.h"
#include "model/logit_stats.h"
#include "model/model.h"

namespace dlab {

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string_view name() const = 0;
    // How this backend runs, for reports beside its figures: the CPU's kernel path, the CUDA
    // backend's loaded code, graphs and dependent launches. "" where there is nothing to say.
    virtual std::string settings() const { return {}; }
    virtual int threads() const = 0;
    // Changes the number of threads in place: the model, the KV cache and every session stay.
    // Throws dlab::Error naming the valid range, or for a backend whose thread count is fixed.
    virtual void setThreads(int threads);

    // Runs `tokens` at positions length(seq) .. length(seq) + n - 1, appends their keys and
    // values to the sequence and returns the logits:
    //   allLogits: (n, nVocab) row-major, one row per token; otherwise (1, nVocab) for the last.
    // The span stays valid until the next call. Throws dlab::Error for tokens outside the
    // vocabulary, a batch past the context limit or a pool out of blocks, dlab::Cancelled if the
    // cancel flag was raised (checked between layers); the sequence then keeps its old length.
    std::span<const float> forward(std::span<const TokenId> tokens, KvBlockPool& pool, SeqId seq, bool allLogits);
    std::span<const float> forward(std::span<const TokenId> tokens, KvCache& cache, bool allLogits) {
        return forward(tokens, cache.pool(), cache.sequence(), allLogits);
    }

    // Several sequences of one pool in one pass: each item's tokens continue its sequence (decode
    // steps and prefill chunks mixed), and the weights are read once for all of them. Returns one
    // span per item: (n, nVocab) with allLogits, else (1, nVocab) for its last token; valid until
    // the next call. With exact matmul the logits are forward()'s per item, bit for bit. On the fast
    // path, 2-16 rows of Q4_0 / Q4_1 / Q8_0 weights take the few-token kernel, which gives each row
    // the one-row result bit for bit; more rows (and other types) take the multi-row kernel, so a
    // decode step's logits move within the engine's noise floor (0.4-0.5 measured on the default
    // model; the no-cache mode moves them by up to 1.32 for the same reason) and a near tie can
    // pick another token, as in llama.cpp between batch sizes. Throws dlab::Error for an empty item, a sequence given twice or forward()'s
    // errors, and then no sequence has changed; dlab::Cancelled likewise. The attention request
    // does not apply to a batch (it lapses). In no-cache mode the items run one after another.
    struct BatchItem {
        SeqId seq = 0;
        std::span<const TokenId> tokens;
        bool allLogits = false;
    };
    std::vector<std::span<const float>> forwardBatch(std::span<const BatchItem> items, KvBlockPool& pool);

    // A flag checked between layers and between prefill chunks; nullptr to disable.
    void setCancelFlag(const std::atomic<bool>* flag) { cancel_ = flag; }
    const std::atomic<bool>* cancelFlag() const { return cancel_; }

    // The lesson "why the KV cache exists": when on, every forward() recomputes K and V for the
    // sequence's whole prefix (its cached tokens) together with the new tokens, instead of reading
    // them from the cache. Same logits up to summation order, same tokens; the cost of a step
    // grows with the position instead of staying flat.
    void setRecomputePrefix(bool on) { recomputePrefix_ = on; }
    bool recomputePrefix() const { return recomputePrefix_; }

    // On request, never on the hot path: the next forward() also fills `out` with the attention
    // weights of its last token (every layer and query head), then the request lapses. Costs one
    // copy of nLayer * nHead * slots floats; a failed forward() leaves `out` unspecified.
    void requestAttention(AttentionWeights* out) { attentionOut_ = out; }

    // Tokens the last forward() evaluated: the batch, or the whole prefix too in no-cache mode.
    int64_t lastEvaluated() const { return lastEvaluated_; }

    // --- the trace's numbers without the whole row ------------------------------------------------
    // With topN > 0 every forward() / forwardBatch() also leaves, for each logits row it returned
    // (in order), the row's largest logit, log-sum-exp, entropy and topN best tokens (at most 32).
    // The CPU computes them from the rows; the CUDA backend on the device, before any copy.
    void setLogitStats(int topN) { statsTopN_ = topN < 0 ? 0 : topN > 32 ? 32 : topN; }
    int logitStatsTopN() const { return statsTopN_; }
    const std::vector<LogitRowStats>& lastLogitStats() const { return rowStats_; }
    // Off: the logits stay where they were computed, the spans forward() returns are empty and
    // lastLogitStats() (which must then be on) is what there is: the GPU skips the copy of the full
    // rows. A session that re-samples from cached logits needs them on. Throws for a backend whose
    // logits are on the host anyway (the CPU).
    virtual void setHostLogits(bool on);
    bool hostLogits() const { return hostLogits_; }

protected:
    // forwardBatch's work: by default one evaluate() per item (a backend that can batch overrides
    // it). out receives the rows in item order; where, each item's (offset, count) in out. It may
    // throw half-way: forwardBatch then truncates every item's sequence back.
    virtual void evaluateBatch(std::span<const BatchItem> items, KvBlockPool& pool, std::vector<float>& out,
                               std::vector<std::pair<size_t, size_t>>& where);

    // Evaluates tokens at positions pos0 .. pos0 + n - 1 of seq (pos0 <= length(seq)), writing
    // their K/V there, with forward()'s logits and error contract.
    virtual std::span<const float> evaluate(std::span<const TokenId> tokens, KvBlockPool& pool, SeqId seq, int64_t pos0,
                                            bool allLogits) = 0;

    bool cancelled() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }
    const std::atomic<bool>* cancel_ = nullptr;
    bool recomputePrefix_ = false;
    AttentionWeights* attentionOut_ = nullptr;  // evaluate() fills it for its last token when set
    int64_t lastEvaluated_ = 0;
    int statsTopN_ = 0;
    bool hostLogits_ = true;
    bool statsFilled_ = false;                    // evaluate() filled rowStats_ itself (on the device)
    std::vector<LogitRowStats> rowStats_;
    std::vector<float> batchOut_;                 // forwardBatch's rows, (sum of rows, nVocab)
};

// exactMatmul: multiply f32 copies of the weights with unquantized activations (4 bytes per
// parameter of extra memory, several times slower). A reference mode for correctness checks: it
// removes the activation-quantization noise that the fast path shares with llama.cpp.
// Installs a cancel flag on a backend for a scope (a run, a search) and puts back the one it
// had before, so a long-lived owner's flag (the GUI worker's) survives the runs it starts.
class ScopedCancelFlag {
public:
    ScopedCancelFlag(Backend& backend, const std::atomic<bool>* flag) : backend_(backend), previous_(backend.cancelFlag()) {
        backend.setCancelFlag(flag);
    }
    ~ScopedCancelFlag() { backend_.setCancelFlag(previous_); }
    ScopedCancelFlag(const ScopedCancelFlag&) = delete;
    ScopedCancelFlag& operator=(const ScopedCancelFlag&) = delete;

private:
    Backend& backend_;
    const std::atomic<bool>* previous_;
};

std::unique_ptr<Backend> makeCpuBackend(const Model& model, int threads, bool exactMatmul = false);

}  // namespace dlab
