// The CPU forward pass for llama / qwen2 / gpt2 over a batch of tokens of one sequence of a paged KV cache.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "cpu/attention.h"
#include "cpu/ops.h"
#include "model/backend.h"
#include "model/forward_input.h"
#include "quant/kernel_path.h"

namespace dlab {

namespace {
void checkThreads(int threads) {
    if (threads < 1 || threads > 256) throw Error("--threads must be between 1 and 256 (got " + std::to_string(threads) + ")");
}

// Prompts longer than this are processed in chunks so scratch memory stays bounded.
constexpr int64_t kMaxChunk = 512;

// Scratch buffers for one chunk of T tokens (T <= kMaxChunk), sized once per backend.
struct RunState {
    std::vector<float> x;       // (T, nEmbd)   residual stream
    std::vector<float> xn;      // (T, nEmbd)   normalised input of a sub-layer
    std::vector<float> q;       // (T, qDim)
    std::vector<float> k;       // (T, kvDim)
    std::vector<float> v;       // (T, kvDim)
    std::vector<float> qkv;     // (T, 3 * nEmbd)  gpt2 fused projection
    std::vector<float> att;     // (T, qDim)    attention output before the output projection
    std::vector<float> proj;    // (T, nEmbd)   sub-layer output added to the residual
    std::vector<float> ffA;     // (T, nFf)     gate (or up for gpt2)
    std::vector<float> ffB;     // (T, nFf)     up
    AttentionScratch attention;
    std::vector<float> ropeCos, ropeSin;  // (T, nRot / 2)
    std::vector<float> logits;  // (T or 1, nVocab) for the current chunk
    std::vector<float> out;     // (n, nVocab) when all logits of a multi-chunk call are requested
};

class CpuBackend final : public Backend {
public:
    CpuBackend(const Model& model, int threads, bool exact)
        : model_(model), hp_(model.hparams()), pool_(threads), exact_(exact) {}

    std::string_view name() const override { return exact_ ? "cpu-exact" : "cpu"; }
    // "avx512 kernels, 16 threads" (the exact path: f32 weights and activations).
    std::string settings() const override {
        return exact_ ? "exact f32 matmul, " + std::to_string(pool_.size()) + " threads"
                      : std::string(kernelPathName(activeKernelPath())) + " kernels, " + std::to_string(pool_.size()) + " threads";
    }
    int threads() const override { return pool_.size(); }
    void setThreads(int threads) override {
        checkThreads(threads);
        pool_.resize(threads);
    }

protected:
    std::span<const float> evaluate(std::span<const TokenId> tokens, KvBlockPool& cache, SeqId seq, int64_t pos0,
                                    bool allLogits) override {
        const int64_t n = static_cast<int64_t>(tokens.size());
        if (n == 0) throw Error("nothing to evaluate: the batch holds no tokens");
        checkInput(tokens, cache, seq, pos0);
        const int64_t len0 = cache.length(seq);
        cache.prepareWrite(seq, pos0, n);  // throws (changing nothing) past the context or out of blocks

        const int64_t V = hp_.nVocab;
        if (allLogits && n > kMaxChunk) st_.out.resize(static_cast<size_t>(n) * V);
        for (int64_t begin = 0; begin < n; begin += kMaxChunk) {
            const int64_t len = std::min(kMaxChunk, n - begin);
            const bool last = begin + len == n;
            try {
                const LogitRows rows = allLogits ? LogitRows::All : last ? LogitRows::Last : LogitRows::None;
                float* weights = last && attentionOut_ ? prepareAttentionOut(pos0 + n) : nullptr;
                const Segment one{seq, pos0 + begin, 0, len, rows, weights};
                runSegments(tokens.data() + begin, len, std::span(&one, 1), cache);
            } catch (...) {
                cache.truncate(seq, std::min(len0, cache.length(seq)));  // frees the blocks prepared for this call
                throw;
            }
            cache.commit(seq, pos0 + begin, tokens.subspan(begin, len));
            if (allLogits && n > kMaxChunk)
                std::memcpy(st_.out.data() + begin * V, st_.logits.data(), static_cast<size_t>(len) * V * sizeof(float));
        }
        if (allLogits && n > kMaxChunk) return {st_.out.data(), static_cast<size_t>(n * V)};
        if (allLogits) return {st_.logits.data(), static_cast<size_t>(n * V)};
        return {st_.logits.data(), static_cast<size_t>(V)};
    }

    // The batch as segments of one pass, at most kMaxChunk tokens a pass (items are grouped in
    // order; an item longer than that goes through evaluate() on its own, chunked as usual).
    void evaluateBatch(std::span<const BatchItem> items, KvBlockPool& cache, std::vector<float>& out,
                       std::vector<std::pair<size_t, size_t>>& where) override {
        const int64_t V = hp_.nVocab;
        for (const BatchItem& it : items) checkInput(it.tokens, cache, it.seq, cache.length(it.seq));   // before any work
        out.clear();
        where.assign(items.size(), {0, 0});
        {   // forwardBatch truncates every sequence back if this throws
            std::vector<TokenId> tokens;   // (T) the group's tokens, item after item
            std::vector<Segment> segs;
            std::vector<size_t> itemOf;    // segs[i] is items[itemOf[i]]
            auto flush = [&] {
                if (segs.empty()) return;
                runSegments(tokens.data(), static_cast<int64_t>(tokens.size()), segs, cache);
                size_t row = 0;        // rows of st_.logits, segment after segment
                for (size_t i = 0; i < segs.size(); ++i) {
                    const BatchItem& it = items[itemOf[i]];
                    cache.commit(it.seq, segs[i].slot0, it.tokens);
                    const size_t rows = segs[i].rows == LogitRows::All ? static_cast<size_t>(segs[i].len) : 1;
                    where[itemOf[i]] = {out.size(), rows * V};
                    out.insert(out.end(), st_.logits.begin() + row * V, st_.logits.begin() + (row + rows) * V);
                    row += rows;
                }
                tokens.clear();
                segs.clear();
                itemOf.clear();
            };
            for (size_t i = 0; i < items.size(); ++i) {
                const BatchItem& it = items[i];
                const int64_t n = static_cast<int64_t>(it.tokens.size());
                if (n > kMaxChunk) {   // a long prefill: on its own, in chunks
                    flush();
                    const auto l = evaluate(it.tokens, cache, it.seq, cache.length(it.seq), it.allLogits);
                    where[i] = {out.size(), l.size()};
                    out.insert(out.end(), l.begin(), l.end());
                    continue;
                }
                if (static_cast<int64_t>(tokens.size()) + n > kMaxChunk) flush();
                cache.prepareWrite(it.seq, cache.length(it.seq), n);
                segs.push_back({it.seq, cache.length(it.seq), static_cast<int64_t>(tokens.size()), n,
                                it.allLogits ? LogitRows::All : LogitRows::Last, nullptr});
                itemOf.push_back(i);
                tokens.insert(tokens.end(), it.tokens.begin(), it.tokens.end());
            }
            flush();
        }
    }

private:
    void checkInput(std::span<const TokenId> tokens, const KvBlockPool& cache, SeqId seq, int64_t slot0) const {
        checkForwardInput(hp_, tokens, cache, seq, slot0);
    }

    // A run of consecutive tokens of one batch that continue one sequence: tokens [begin, begin +
    // len) of the pass go to slots slot0 .. slot0 + len - 1 of seq.
    enum class LogitRows { None, Last, All };
    struct Segment {
        SeqId seq;
        int64_t slot0, begin, len;
        LogitRows rows;
        float* attention;   // (nLayer, nHead, slot0 + len) weights of its last token, or null
    };

    // Shapes the requested AttentionWeights for a last token at slot nSlots - 1; returns its buffer.
    float* prepareAttentionOut(int64_t nSlots) {
        AttentionWeights& w = *attentionOut_;
        w.nLayer = hp_.nLayer;
        w.nHead = hp_.nHead;
        w.nHeadKv = hp_.nHeadKv;
        w.nSlots = nSlots;
        w.querySlot = nSlots - 1;
        w.perHead.assign(static_cast<size_t>(hp_.nLayer * hp_.nHead * nSlots), 0.0f);
        return w.perHead.data();
    }

    void ensureScratch(int64_t T) {
        auto fit = [](std::vector<float>& b, size_t n) { if (b.size() < n) b.resize(n); };
        fit(st_.x, T * hp_.nEmbd);
        fit(st_.xn, T * hp_.nEmbd);
        fit(st_.q, T * hp_.qDim());
        fit(st_.k, T * hp_.kvDim());
        fit(st_.v, T * hp_.kvDim());
        if (hp_.arch == Arch::Gpt2) fit(st_.qkv, T * 3 * hp_.nEmbd);
        fit(st_.att, T * hp_.qDim());
        fit(st_.proj, T * hp_.nEmbd);
        fit(st_.ffA, T * hp_.nFf);
        fit(st_.ffB, T * hp_.nFf);
        fit(st_.ropeCos, T * std::max<int64_t>(1, hp_.nRot / 2));
        fit(st_.ropeSin, T * std::max<int64_t>(1, hp_.nRot / 2));
    }

    // One pass over T tokens made of segments (one for a single sequence's chunk, several for a
    // batch): the embeddings, norms, projections and feed-forward see all T rows at once, so the
    // weights are read once; attention and the K/V writes go segment by segment to its sequence.
    // st_.logits receives, segment after segment, its last row (Last) or all its rows (All).
    void runSegments(const TokenId* tokens, int64_t T, std::span<const Segment> segs, KvBlockPool& cache) {
        ensureScratch(T);
        const int64_t E = hp_.nEmbd;
        float* x = st_.x.data();
        const ops::RopeParams rope{hp_.nRot, hp_.ropeFreqBase, hp_.ropeFreqScale,
                                   model_.ropeFreqFactors().empty() ? nullptr : model_.ropeFreqFactors().data(),
                                   hp_.rope == RopeStyle::NeoX};

        // Embeddings (gpt2 adds learned positions), and each token's rotation at its position.
        for (const Segment& sg : segs)
            for (int64_t t = sg.begin; t < sg.begin + sg.len; ++t) {
                const int64_t position = cache.positionOf(sg.seq, sg.slot0 + (t - sg.begin));
                dequantizeRow(model_.tokenEmbedding(), tokens[t], x + t * E);
                if (hp_.arch == Arch::Gpt2) {
                    float* pe = st_.proj.data();  // (nEmbd) scratch: the learned position embedding
                    dequantizeRow(model_.positionEmbedding(), position, pe);
                    ops::addInPlace(x + t * E, pe, E);
                }
                if (hp_.rope != RopeStyle::None)
                    ops::ropeCache(st_.ropeCos.data() + t * (hp_.nRot / 2), st_.ropeSin.data() + t * (hp_.nRot / 2), position, rope);
            }

        for (int64_t il = 0; il < hp_.nLayer; ++il) {
            if (cancelled()) throw Cancelled();
            const LayerWeights& L = model_.layers()[il];
            attentionBlock(L, il, T, segs, cache, rope);
            feedForwardBlock(L, T);
        }

        // Final norm and the output projection, for the rows asked for only.
        int64_t rows = 0;
        for (const Segment& sg : segs) {
            const int64_t first = sg.rows == LogitRows::All ? sg.begin : sg.rows == LogitRows::Last ? sg.begin + sg.len - 1 : sg.begin + sg.len;
            for (int64_t t = first; t < sg.begin + sg.len; ++t, ++rows)
                norm(x + t * E, model_.outputNorm(), model_.outputNormBias(), st_.xn.data() + rows * E);
        }
        if (rows == 0) return;
        st_.logits.resize(static_cast<size_t>(rows) * hp_.nVocab);
        mm(model_.output(), st_.xn.data(), rows, st_.logits.data());
    }

    // y (T, rows) = x (T, cols) · Wᵀ. The fast path keeps weights quantized and quantizes x per
    // call as llama.cpp does; the exact path multiplies f32 copies of the weights with f32 x.
    void mm(const WeightMatrix& w, const float* x, int64_t T, float* y) {
        if (!exact_) {
            matmul(w, x, T, y, pool_);
            return;
        }
        std::vector<float>& f32 = exactWeights_[w.data];
        if (f32.empty()) {
            f32.resize(static_cast<size_t>(w.rows) * w.cols);
            for (int64_t r = 0; r < w.rows; ++r) dequantizeRow(w, r, f32.data() + r * w.cols);
        }
        pool_.run([&](int ith, int nth) {
            const auto [b, e] = ThreadPool::splitRange(w.rows, ith, nth);
            for (int64_t t = 0; t < T; ++t)
                for (int64_t r = b; r < e; ++r) y[t * w.rows + r] = ops::dotF32(f32.data() + r * w.cols, x + t * w.cols, w.cols);
        });
    }

    void norm(const float* in, const std::vector<float>& w, const std::vector<float>& b, float* out) const {
        if (hp_.arch == Arch::Gpt2) ops::layernorm(out, in, w.data(), b.data(), hp_.nEmbd, hp_.normEps);
        else ops::rmsnorm(out, in, w.data(), hp_.nEmbd, hp_.normEps);
    }

    static void addBias(float* rows, const std::vector<float>& bias, int64_t T) {
        if (bias.empty()) return;
        const int64_t n = static_cast<int64_t>(bias.size());
        for (int64_t t = 0; t < T; ++t) ops::addInPlace(rows + t * n, bias.data(), n);
    }

    void attentionBlock(const LayerWeights& L, int64_t il, int64_t T, std::span<const Segment> segs, KvBlockPool& cache,
                        const ops::RopeParams& rope) {
        const int64_t E = hp_.nEmbd, qDim = hp_.qDim(), kvDim = hp_.kvDim(), D = hp_.headDim;
        float* x = st_.x.data();
        float* xn = st_.xn.data();
        for (int64_t t = 0; t < T; ++t) norm(x + t * E, L.attnNorm, L.attnNormBias, xn + t * E);

        float* q = st_.q.data();
        float* k = st_.k.data();
        float* v = st_.v.data();
        if (hp_.arch == Arch::Gpt2) {
            mm(L.wqkv, xn, T, st_.qkv.data());
            addBias(st_.qkv.data(), L.bqkv, T);
            for (int64_t t = 0; t < T; ++t) {
                const float* row = st_.qkv.data() + t * 3 * E;
                std::memcpy(q + t * qDim, row, E * sizeof(float));
                std::memcpy(k + t * kvDim, row + E, E * sizeof(float));
                std::memcpy(v + t * kvDim, row + 2 * E, E * sizeof(float));
            }
        } else {
            mm(L.wq, xn, T, q);
            mm(L.wk, xn, T, k);
            mm(L.wv, xn, T, v);
            addBias(q, L.bq, T);
            addBias(k, L.bk, T);
            addBias(v, L.bv, T);
            const int64_t half = hp_.nRot / 2;
            for (int64_t t = 0; t < T; ++t) {
                const float* c = st_.ropeCos.data() + t * half;
                const float* s = st_.ropeSin.data() + t * half;
                ops::ropeApply(q + t * qDim, hp_.nHead, D, c, s, rope);
                ops::ropeApply(k + t * kvDim, hp_.nHeadKv, D, c, s, rope);
            }
        }
        const AttentionShape shape{hp_.nHead, hp_.nHeadKv, D, 1.0f / std::sqrt(float(D))};
        for (const Segment& sg : segs) {
            for (int64_t t = 0; t < sg.len; ++t) {
                cache.storeK(sg.seq, il, sg.slot0 + t, k + (sg.begin + t) * kvDim);
                cache.storeV(sg.seq, il, sg.slot0 + t, v + (sg.begin + t) * kvDim);
            }
            causalAttention(q + sg.begin * qDim, st_.att.data() + sg.begin * qDim, sg.len, sg.slot0, cache, sg.seq, il, shape, pool_,
                            st_.attention, sg.attention ? sg.attention + il * hp_.nHead * (sg.slot0 + sg.len) : nullptr);
        }

        mm(L.wo, st_.att.data(), T, st_.proj.data());
        addBias(st_.proj.data(), L.bo, T);
        ops::addInPlace(x, st_.proj.data(), T * E);
    }

    void feedForwardBlock(const LayerWeights& L, int64_t T) {
        const int64_t E = hp_.nEmbd, F = hp_.nFf;
        float* x = st_.x.data();
        float* xn = st_.xn.data();
        for (int64_t t = 0; t < T; ++t) norm(x + t * E, L.ffnNorm, L.ffnNormBias, xn + t * E);
        if (hp_.arch == Arch::Gpt2) {
            mm(L.wUp, xn, T, st_.ffA.data());
            addBias(st_.ffA.data(), L.bUp, T);
            ops::gelu(st_.ffA.data(), T * F);
        } else {
            mm(L.wGate, xn, T, st_.ffA.data());
            mm(L.wUp, xn, T, st_.ffB.data());
            ops::siluMul(st_.ffA.data(), st_.ffB.data(), T * F);
        }
        mm(L.wDown, st_.ffA.data(), T, st_.proj.data());
        addBias(st_.proj.data(), L.bDown, T);
        ops::addInPlace(x, st_.proj.data(), T * E);
    }

    const Model& model_;
    const HParams& hp_;
    ThreadPool pool_;
    bool exact_;
    std::unordered_map<const uint8_t*, std::vector<float>> exactWeights_;  // weight data -> (rows, cols) f32
    RunState st_;
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend(const Model& model, int threads, bool exactMatmul) {
    checkThreads(threads);
    return std::make_unique<CpuBackend>(model, threads, exactMatmul);
}

}  // namespace dlab
