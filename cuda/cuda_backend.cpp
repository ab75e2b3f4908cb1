// The CUDA forward pass for llama / qwen2 / gpt2 over a pass of tokens from one or several
// sequences of a paged KV cache (the CPU backend's structure: segments, chunks of 512, the same
// error and rollback contract). Per layer: norm, q/k/v projections (one matvec launch), RoPE,
// the K/V store into the device cache, paged attention, the output projection added to the
// residual, norm, the gated feed-forward (one launch) and the down projection added back.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "cpu/ops.h"
#include "cuda/cuda_backend.h"
#include "cuda/code_images.h"
#include "cuda/cublas_loader.h"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/device_handles.h"
#include "cuda/device_kv.h"
#include "cuda/device_model.h"
#include "cuda/ops/activations.h"
#include "cuda/ops/attention.h"
#include "cuda/ops/embedding.h"
#include "cuda/ops/kv_store.h"
#include "cuda/ops/logit_stats.h"
#include "cuda/ops/matvec.h"
#include "cuda/ops/norm.h"
#include "cuda/ops/rope.h"
#include "model/forward_input.h"

namespace dlab {

namespace {

using namespace cuda;

constexpr int64_t kMaxChunk = 512;   // tokens per pass, as on the CPU
constexpr int kMaxGraphedBatch = 64; // batched decode steps (one token a sequence) up to this many are graphed
constexpr int kMaxMirrors = 4;       // KV pools kept on the device at once (least recently used goes)

// One pass's token metadata, laid out identically for equal shapes so a captured graph can be
// replayed with new contents (the host fills the pinned copy, the graph's first node uploads it):
//   ints:   tokens (T) | positions (T) | slots (T) | segOf (T) | logitRows (R) | tableOf (nSeg) | tables (nSeg * maxBlocks)
//   floats: ropeCos (T, half) | ropeSin (T, half)
struct PassShape {
    int T = 0, nSeg = 0, R = 0, maxBlocks = 0, half = 0;
    uint64_t kv = 0;       // which device mirror
    int topN = 0;
    bool hostLogits = true;
    int splitFrom = 0;     // attention splits contexts longer than this (0: never)
    int splits = 1;        // and launches this many blocks per (token, head)
    bool foldStore = false;   // the KV store folded into attention (every token ends its sequence)
    auto key() const { return std::tie(T, nSeg, R, maxBlocks, half, kv, topN, hostLogits, splitFrom, splits, foldStore); }
    bool operator<(const PassShape& o) const { return key() < o.key(); }
    size_t ints() const { return 4 * size_t(T) + R + nSeg + size_t(nSeg) * maxBlocks; }
    size_t bytes() const { return ints() * 4 + 2 * size_t(T) * half * 4; }
};

struct PassPointers {
    int32_t *tokens, *positions, *slots, *segOf, *logitRows, *tableOf, *tables;
    float *ropeCos, *ropeSin;
};

// The whole number an environment variable holds (capped at 2^30), or an Error naming the
// variable and what it should hold.
int envInt(const char* name, const char* text, long min, const std::string& what) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < min) throw Error(std::string(name) + " is \"" + text + "\"; give " + what);
    return static_cast<int>(std::min<long>(v, 1 << 30));
}

PassPointers carve(uint8_t* base, const PassShape& s) {
    auto* i = reinterpret_cast<int32_t*>(base);
    PassPointers p{};
    p.tokens = i;
    p.positions = p.tokens + s.T;
    p.slots = p.positions + s.T;
    p.segOf = p.slots + s.T;
    p.logitRows = p.segOf + s.T;
    p.tableOf = p.logitRows + s.R;
    p.tables = p.tableOf + s.nSeg;
    p.ropeCos = reinterpret_cast<float*>(p.tables + size_t(s.nSeg) * s.maxBlocks);
    p.ropeSin = p.ropeCos + size_t(s.T) * s.half;
    return p;
}

class Graph {
public:
    Graph() = default;
    ~Graph() {
        if (exec_) cudaGraphExecDestroy(exec_);
    }
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;
    cudaGraphExec_t exec_ = nullptr;
};

class CudaBackend final : public Backend {
public:
    CudaBackend(const Model& model, const CudaOptions& options)
        : model_(model), hp_(model.hparams()), device_(selectDevice(options.device)), graphsOn_(options.graphs),
          dependentLaunches_(options.dependentLaunches == 1), splitFrom_(options.attentionSplitFrom), cublas_(stream_) {
        if (const char* g = std::getenv("DLAB_CUDA_GRAPHS")) graphsOn_ = graphsOn_ && std::string(g) != "0";
        if (const char* d = std::getenv("DLAB_CUDA_PDL"); options.dependentLaunches < 0 && d && *d) dependentLaunches_ = std::string(d) != "0";
        foldStore_ = options.foldKvStore != 0;
        if (const char* f = std::getenv("DLAB_CUDA_FOLD_STORE"); options.foldKvStore < 0 && f && *f) foldStore_ = std::string(f) != "0";
        gemmFrom_ = options.gemmFrom > 0 ? options.gemmFrom : kMatvecMaxT + 1;
        if (const char* n = std::getenv("DLAB_CUDA_GEMM_FROM"); options.gemmFrom <= 0 && n)
            gemmFrom_ = envInt("DLAB_CUDA_GEMM_FROM", n, 1, "the tokens from which a pass projects through cuBLAS (1 or more)");
        // Dependent launches need code compiled for 9.0 or newer running on such a device: code from
        // the compute_75 PTX (Turing to Ada, or a Hopper made to compile it with CUDA_FORCE_PTX_JIT=1
        // in a build without newer PTX) has no wait in it (cuda/ops/pdl.cuh), so a dependent matvec
        // would read x before the kernel ahead of it wrote it. Elsewhere the request is dropped.
        code_ = loadedCode(device_);
        dependentLaunches_ = dependentLaunches_ && code_.ptxVersion >= 90 && code_.binaryVersion >= 90;
        if (splitFrom_ < 0) splitFrom_ = kAttentionSplitFrom;
        if (const char* n = std::getenv("DLAB_CUDA_ATTENTION_SPLIT_FROM"))
            splitFrom_ = envInt("DLAB_CUDA_ATTENTION_SPLIT_FROM", n, 0, "a context length in slots (0: never split)");
        if (hp_.headDim > 256) throw Error("the GPU attention kernel takes heads of up to 256 values (this model's are " + std::to_string(hp_.headDim) + "); use --backend cpu");
        if (hp_.nHead % hp_.nHeadKv != 0) throw Error("the model's query heads are not a multiple of its K/V heads");
        weights_ = std::make_unique<DeviceModel>(model, stream_);
        allocateScratch();
    }

    std::string_view name() const override { return "cuda"; }
    // "sm_90 code; graphs on; dependent launches off; attention split from 512 slots", or for
    // a GPU that compiled the PTX "compute_75 PTX compiled for sm_86; ...".
    std::string settings() const override {
        auto arch = [](int v) { return std::to_string(v); };
        std::string s = code_.ptxVersion == code_.binaryVersion ? "sm_" + arch(code_.binaryVersion) + " code"
                                                                 : "compute_" + arch(code_.ptxVersion) + " PTX compiled for sm_" + arch(code_.binaryVersion);
        s += std::string("; graphs ") + (graphsOn_ ? "on" : "off") + "; dependent launches " + (dependentLaunches_ ? "on" : "off");
        s += splitFrom_ > 0 ? "; attention split from " + std::to_string(splitFrom_) + " slots" : "; attention never split";
        s += foldStore_ ? "; KV store folded into decode attention" : "; KV store a kernel of its own";
        s += "; cuBLAS GEMM from " + std::to_string(gemmFrom_) + (gemmFrom_ == 1 ? " token" : " tokens");
        return s;
    }
    int threads() const override { return 1; }
    void setHostLogits(bool on) override { hostLogits_ = on; }

protected:
    std::span<const float> evaluate(std::span<const TokenId> tokens, KvBlockPool& cache, SeqId seq, int64_t pos0, bool allLogits) override {
        const int64_t n = static_cast<int64_t>(tokens.size());
        if (n == 0) throw Error("nothing to evaluate: the batch holds no tokens");
        checkInput(tokens, cache, seq, pos0);
        const int64_t len0 = cache.length(seq);
        cache.prepareWrite(seq, pos0, n);
        const int64_t V = hp_.nVocab;
        std::vector<LogitRowStats> stats;
        if (allLogits && n > kMaxChunk && hostLogits_) out_.resize(static_cast<size_t>(n) * V);
        for (int64_t begin = 0; begin < n; begin += kMaxChunk) {
            const int64_t len = std::min(kMaxChunk, n - begin);
            const bool last = begin + len == n;
            try {
                const LogitRows rows = allLogits ? LogitRows::All : last ? LogitRows::Last : LogitRows::None;
                const Segment one{seq, pos0 + begin, 0, len, rows, last && attentionOut_ != nullptr};
                runPass(tokens.data() + begin, len, std::span(&one, 1), cache);
            } catch (...) {
                cache.truncate(seq, std::min(len0, cache.length(seq)));
                throw;
            }
            cache.commit(seq, pos0 + begin, tokens.subspan(begin, len));
            stats.insert(stats.end(), passStats_.begin(), passStats_.end());
            if (allLogits && n > kMaxChunk && hostLogits_)
                std::memcpy(out_.data() + begin * V, logitsHost_.as<float>(), static_cast<size_t>(len) * V * sizeof(float));
        }
        rowStats_ = std::move(stats);
        statsFilled_ = statsTopN_ > 0;
        if (!hostLogits_) return {};
        if (allLogits && n > kMaxChunk) return {out_.data(), static_cast<size_t>(n * V)};
        return {logitsHost_.as<float>(), static_cast<size_t>((allLogits ? n : 1) * V)};
    }

    void evaluateBatch(std::span<const BatchItem> items, KvBlockPool& cache, std::vector<float>& out,
                       std::vector<std::pair<size_t, size_t>>& where) override {
        const int64_t V = hp_.nVocab;
        for (const BatchItem& it : items) checkInput(it.tokens, cache, it.seq, cache.length(it.seq));
        out.clear();
        where.assign(items.size(), {0, 0});
        std::vector<LogitRowStats> stats;
        std::vector<TokenId> tokens;
        std::vector<Segment> segs;
        std::vector<size_t> itemOf;
        auto flush = [&] {
            if (segs.empty()) return;
            runPass(tokens.data(), static_cast<int64_t>(tokens.size()), segs, cache);
            size_t row = 0;
            for (size_t i = 0; i < segs.size(); ++i) {
                const BatchItem& it = items[itemOf[i]];
                cache.commit(it.seq, segs[i].slot0, it.tokens);
                const size_t rows = segs[i].rows == LogitRows::All ? static_cast<size_t>(segs[i].len) : 1;
                if (hostLogits_) {
                    where[itemOf[i]] = {out.size(), rows * V};
                    out.insert(out.end(), logitsHost_.as<float>() + row * V, logitsHost_.as<float>() + (row + rows) * V);
                } else {
                    where[itemOf[i]] = {out.size(), 0};
                }
                row += rows;
            }
            stats.insert(stats.end(), passStats_.begin(), passStats_.end());
            tokens.clear();
            segs.clear();
            itemOf.clear();
        };
        for (size_t i = 0; i < items.size(); ++i) {
            const BatchItem& it = items[i];
            const int64_t n = static_cast<int64_t>(it.tokens.size());
            if (n > kMaxChunk) {
                flush();
                const auto l = evaluate(it.tokens, cache, it.seq, cache.length(it.seq), it.allLogits);
                where[i] = {out.size(), l.size()};
                out.insert(out.end(), l.begin(), l.end());
                stats.insert(stats.end(), rowStats_.begin(), rowStats_.end());
                continue;
            }
            if (static_cast<int64_t>(tokens.size()) + n > kMaxChunk) flush();
            cache.prepareWrite(it.seq, cache.length(it.seq), n);
            segs.push_back({it.seq, cache.length(it.seq), static_cast<int64_t>(tokens.size()), n,
                            it.allLogits ? LogitRows::All : LogitRows::Last, false});
            itemOf.push_back(i);
            tokens.insert(tokens.end(), it.tokens.begin(), it.tokens.end());
        }
        flush();
        rowStats_ = std::move(stats);
        statsFilled_ = statsTopN_ > 0;
    }

private:
    enum class LogitRows { None, Last, All };
    struct Segment {
        SeqId seq;
        int64_t slot0, begin, len;
        LogitRows rows;
        bool attention;   // fill attentionOut_ for its last token
    };
    struct Proj {
        const DeviceMatrix* m;
        const float* bias;
        float* y;
        int ldy;
    };

    static int selectDevice(int device) {
        DLAB_CUDA_CHECK(cudaSetDevice(device));
        return device;
    }

    // The code the driver loaded for this GPU (asked of a matvec kernel: the build's kernels all come
    // from the same architectures). None is one sentence, as the probe would say it.
    static cuda::CodeImage loadedCode(int device) {
        cudaFuncAttributes attr{};
        const cudaError_t e = cuda::matvecLoadedCode(&attr);
        if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction) {
            cudaGetLastError();
            cudaDeviceProp p{};
            DLAB_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
            throw GpuError({GpuProblem::NoCodeForGpu, cuda::noCodeFor(p.name, p.major, p.minor), p.name,
                            std::to_string(p.major) + "." + std::to_string(p.minor), 0, 0});
        }
        DLAB_CUDA_CHECK(e);
        return {attr.ptxVersion, attr.binaryVersion};
    }

    void checkInput(std::span<const TokenId> tokens, const KvBlockPool& cache, SeqId seq, int64_t slot0) const {
        checkForwardInput(hp_, tokens, cache, seq, slot0);
    }

    // Scratch for a pass of up to kMaxChunk tokens, allocated once.
    void allocateScratch() {
        const size_t T = kMaxChunk, E = hp_.nEmbd, Q = hp_.qDim(), KV = hp_.kvDim(), F = hp_.nFf, V = hp_.nVocab;
        auto f32 = [&](size_t n, const char* what) { return DeviceBuffer(n * sizeof(float), what); };
        x_ = f32(T * E, "the residual stream");                     // (T, nEmbd)
        xn_ = f32(T * E, "the normalised input");                   // (T, nEmbd)
        q_ = f32(T * std::max(Q, 3 * E), "the queries");            // (T, qDim), gpt2: (T, 3 * nEmbd) fused q|k|v
        k_ = f32(T * KV, "the keys");                               // (T, kvDim)
        v_ = f32(T * KV, "the values");                             // (T, kvDim)
        att_ = f32(T * Q, "the attention output");                  // (T, qDim)
        ffA_ = f32(T * F, "the feed-forward activations");          // (T, nFf)
        ffB_ = f32(T * F, "the feed-forward activations");          // (T, nFf)
        half_ = DeviceBuffer(T * std::max({E, Q, F}) * 2, "the GEMM input");   // (T, max(nEmbd, qDim, nFf)) half
        logits_ = f32(T * V, "the logits");                         // (T, nVocab)
        logitsHost_ = PinnedBuffer(T * V * sizeof(float), "the logits");
        const size_t stage = T * hp_.nLayer * 2 * kvRowBytes(KvType::F32, hp_.kvDim());   // (T, nLayer, 2, rowBytes), f32 the largest
        staging_ = DeviceBuffer(stage, "the KV copy-back");
        stagingHost_ = PinnedBuffer(stage, "the KV copy-back");
        stats_ = f32(T * 3, "the logit statistics");                // (T, 3)
        topIds_ = DeviceBuffer(T * kMaxTopN * 4, "the top tokens"); // (T, 32)
        topLogits_ = f32(T * kMaxTopN, "the top tokens");
        statsScratch_ = DeviceBuffer(logitStatsScratchBytes(static_cast<int>(T), static_cast<int>(V)), "the logit statistics");
        statsHost_ = PinnedBuffer(T * (3 + 2 * kMaxTopN) * 4, "the logit statistics");
        cublasWorkspace_ = DeviceBuffer(32u << 20, "the cuBLAS workspace");
        DLAB_CUBLAS_CHECK(cublas().setWorkspace(cublas_, cublasWorkspace_.as(), cublasWorkspace_.bytes()));
    }

    DeviceKv& mirrorOf(KvBlockPool& pool) {
        for (auto it = mirrors_.begin(); it != mirrors_.end();) {   // pools that are gone free their device memory
            if (!(*it)->poolAlive()) {
                dropGraphs((*it)->id());
                it = mirrors_.erase(it);
            } else {
                ++it;
            }
        }
        for (auto it = mirrors_.begin(); it != mirrors_.end(); ++it)
            if ((*it)->mirrors(pool)) {
                mirrors_.splice(mirrors_.begin(), mirrors_, it);
                return *mirrors_.front();
            }
        if (static_cast<int>(mirrors_.size()) >= kMaxMirrors) {
            dropGraphs(mirrors_.back()->id());
            mirrors_.pop_back();
        }
        mirrors_.push_front(std::make_unique<DeviceKv>(pool, stream_));
        return *mirrors_.front();
    }

    void dropGraphs(uint64_t kvId) {
        for (auto it = graphs_.begin(); it != graphs_.end();) it = it->first.kv == kvId ? graphs_.erase(it) : std::next(it);
    }

    // One pass over T tokens made of segments: fills the metadata, replays or records the kernels,
    // waits, and copies the new K/V rows back into the host pool.
    void runPass(const TokenId* tokens, int64_t T, std::span<const Segment> segs, KvBlockPool& pool) {
        if (cancelled()) throw Cancelled();
        DeviceKv& kv = mirrorOf(pool);
        kv.sync(pool);

        PassShape shape;
        shape.T = static_cast<int>(T);
        shape.nSeg = static_cast<int>(segs.size());
        shape.maxBlocks = static_cast<int>(std::min(pool.nBlocks(), KvBlockPool::blocksFor(pool.contextLimit(), pool.blockSize())));
        shape.half = static_cast<int>(std::max<int64_t>(1, hp_.nRot / 2));
        shape.kv = kv.id();
        shape.topN = statsTopN_;
        shape.hostLogits = hostLogits_;
        int maxSlots = 0;
        for (const Segment& sg : segs) {
            shape.R += sg.rows == LogitRows::All ? static_cast<int>(sg.len) : sg.rows == LogitRows::Last ? 1 : 0;
            maxSlots = std::max(maxSlots, static_cast<int>(sg.slot0 + sg.len));
        }
        // Passes of up to 64 tokens (decode steps, batched or not) split long contexts; a token's
        // result then depends on its context alone. A longer pass has blocks enough without.
        shape.splitFrom = T <= kMaxGraphedBatch ? splitFrom_ : 0;
        shape.splits = attentionGridSplits(maxSlots, shape.splitFrom);
        const bool attention = std::any_of(segs.begin(), segs.end(), [](const Segment& s) { return s.attention; });
        // Every token the last of its sequence (T == nSeg: a decode step, batched or not), and no
        // attention weights asked for (their kernel reads the rotated q and the stored row).
        shape.foldStore = foldStore_ && shape.T == shape.nSeg && !attention;
        ensurePartial(attentionPartialFloats(shape.T, static_cast<int>(hp_.nHead), shape.splits, static_cast<int>(hp_.headDim)));
        ensureMeta(shape.bytes());
        fillMeta(tokens, segs, pool, shape);
        const PassPointers dev = carve(meta_.as(), shape);

        // Graphed: decode passes of up to 8 tokens (by default the matvec path), and batched decode
        // steps of up to 64 sequences, one token each (by default the GEMM path, cuBLAS in the
        // graph; its shape repeats every step). A prefill's shape rarely repeats, so it runs as it is.
        const bool batchedDecode = T <= kMaxGraphedBatch && std::all_of(segs.begin(), segs.end(), [](const Segment& s) { return s.len == 1; });
        const bool graph = graphsOn_ && !attention && (T <= kMatvecMaxT || batchedDecode) && !ungraphable_.count(shape);
        bool done = false;
        if (graph) {
            auto it = graphs_.find(shape);
            if (it == graphs_.end()) it = capture(shape, dev, kv, segs, pool);
            if (it != graphs_.end()) {
                DLAB_CUDA_CHECK(cudaGraphLaunch(it->second->exec_, stream_));
                done = true;
            }
        }
        if (!done) enqueue(shape, dev, kv.layout(), segs, pool);
        DLAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
        copyBack(segs, pool, shape);
    }

    // Records the pass's kernels into a graph for this shape. A GEMM pass whose capture fails (a
    // cuBLAS that cannot be captured) is remembered and runs ungraphed: returns graphs_.end().
    std::map<PassShape, std::unique_ptr<Graph>>::iterator capture(const PassShape& shape, const PassPointers& dev, DeviceKv& kv,
                                                                   std::span<const Segment> segs, KvBlockPool& pool) {
        const bool optional = shape.T >= gemmFrom_;   // cuBLAS in the capture
        DLAB_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
        cudaGraph_t g = nullptr;
        try {
            enqueue(shape, dev, kv.layout(), segs, pool);
        } catch (...) {
            cudaStreamEndCapture(stream_, &g);
            if (g) cudaGraphDestroy(g);
            if (!optional) throw;
            cudaGetLastError();   // a capture error is not sticky; the pass runs ungraphed
            ungraphable_.insert(shape);
            return graphs_.end();
        }
        cudaError_t e = cudaStreamEndCapture(stream_, &g);
        auto entry = std::make_unique<Graph>();
        if (e == cudaSuccess) e = cudaGraphInstantiate(&entry->exec_, g, 0);
        if (g) cudaGraphDestroy(g);
        if (e != cudaSuccess) {
            if (!optional) DLAB_CUDA_CHECK(e);
            cudaGetLastError();
            ungraphable_.insert(shape);
            return graphs_.end();
        }
        return graphs_.emplace(shape, std::move(entry)).first;
    }

    void ensureMeta(size_t bytes) {
        if (meta_.bytes() >= bytes) return;
        graphs_.clear();   // their pointers go with the old buffers
        const size_t cap = std::max(bytes, 2 * meta_.bytes());
        meta_ = DeviceBuffer(cap, "the pass metadata");
        metaHost_ = PinnedBuffer(cap, "the pass metadata");
    }

    void ensurePartial(size_t floats) {
        if (partial_.bytes() >= floats * sizeof(float)) return;
        graphs_.clear();   // they point at the old buffer
        partial_ = DeviceBuffer(floats * sizeof(float), "attention's partial sums");
    }

    void fillMeta(const TokenId* tokens, std::span<const Segment> segs, const KvBlockPool& pool, const PassShape& s) {
        const PassPointers h = carve(metaHost_.as(), s);
        const ops::RopeParams rope{hp_.nRot, hp_.ropeFreqBase, hp_.ropeFreqScale,
                                   model_.ropeFreqFactors().empty() ? nullptr : model_.ropeFreqFactors().data(), hp_.rope == RopeStyle::NeoX};
        int r = 0;
        for (int si = 0; si < s.nSeg; ++si) {
            const Segment& sg = segs[si];
            const auto table = pool.blockTable(sg.seq);
            h.tableOf[si] = si * s.maxBlocks;
            std::fill(h.tables + size_t(si) * s.maxBlocks, h.tables + size_t(si + 1) * s.maxBlocks, 0);
            std::copy(table.begin(), table.end(), h.tables + size_t(si) * s.maxBlocks);
            for (int64_t t = sg.begin; t < sg.begin + sg.len; ++t) {
                const int64_t slot = sg.slot0 + (t - sg.begin);
                const int64_t position = pool.positionOf(sg.seq, slot);
                h.tokens[t] = tokens[t];
                h.positions[t] = static_cast<int32_t>(position);
                h.slots[t] = static_cast<int32_t>(slot);
                h.segOf[t] = si;
                if (hp_.rope != RopeStyle::None) ops::ropeCache(h.ropeCos + t * s.half, h.ropeSin + t * s.half, position, rope);
                const bool wanted = sg.rows == LogitRows::All || (sg.rows == LogitRows::Last && t == sg.begin + sg.len - 1);
                if (wanted) h.logitRows[r++] = static_cast<int32_t>(t);
            }
        }
    }

    // Every kernel of a pass, in order, on stream_ (also what a graph records).
    void enqueue(const PassShape& s, const PassPointers& p, const PagedKv& kv, std::span<const Segment> segs, KvBlockPool& pool) {
        const int T = s.T, E = static_cast<int>(hp_.nEmbd), Q = static_cast<int>(hp_.qDim()), KV = static_cast<int>(hp_.kvDim());
        const int F = static_cast<int>(hp_.nFf), D = static_cast<int>(hp_.headDim);
        const bool gpt2 = hp_.arch == Arch::Gpt2;
        DLAB_CUDA_CHECK(cudaMemcpyAsync(meta_.as(), metaHost_.as(), s.bytes(), cudaMemcpyHostToDevice, stream_));

        EmbeddingArgs emb;
        emb.table = weights_->tokenEmbedding().w;
        emb.type = weights_->tokenEmbedding().type;
        emb.rowBytes = weights_->tokenEmbedding().rowBytes;
        if (gpt2) {
            emb.posTable = weights_->positionEmbedding().w;
            emb.posType = weights_->positionEmbedding().type;
            emb.posRowBytes = weights_->positionEmbedding().rowBytes;
        }
        emb.tokens = p.tokens;
        emb.positions = p.positions;
        emb.out = x_.as<float>();
        emb.n = E;
        embeddingLaunch(emb, T, stream_);
        DLAB_CUDA_CHECK_LAUNCH();

        const PassSlots slots{p.segOf, p.slots, p.tableOf, p.tables};
        float* x = x_.as<float>();
        float* xn = xn_.as<float>();
        float* att = att_.as<float>();
        float* ffA = ffA_.as<float>();
        float* ffB = ffB_.as<float>();
        int attnT = -1, attnSlots = 0;   // the token whose attention weights were asked for
        for (const Segment& sg : segs)
            if (sg.attention) attnT = static_cast<int>(sg.begin + sg.len - 1), attnSlots = static_cast<int>(sg.slot0 + sg.len);
        if (attnT >= 0) prepareAttentionWeights(attnSlots);

        // On the matvec path (up to kMatvecMaxT tokens, fewer than gemmFrom_), llama's and qwen2's
        // RMSNorms are folded into the matvec that follows them (it normalises x itself); else a
        // norm kernel writes xn first.
        const bool foldNorm = !gpt2 && T <= kMatvecMaxT && T < gemmFrom_;
        auto normed = [&](const float* w, const float* b) -> const float* {
            if (foldNorm) return x;
            norm(x, nullptr, w, b, xn, T);
            return xn;
        };
        for (int il = 0; il < hp_.nLayer; ++il) {
            if (cancelled() && !capturing()) throw Cancelled();
            const DeviceLayer& L = weights_->layers()[il];
            const float* xa = normed(L.attnNorm, L.attnNormBias);
            const float* attnFold = foldNorm ? L.attnNorm : nullptr;
            float *q, *k, *v;
            int ldq, ldkv;
            RopeArgs rope{};   // gpt2: none
            if (gpt2) {
                q = q_.as<float>();
                project({{&L.wqkv, L.bqkv, q, 3 * E}}, xa, E, T, false);
                k = q + E;
                v = q + 2 * E;
                ldq = ldkv = 3 * E;
            } else {
                q = q_.as<float>();
                k = k_.as<float>();
                v = v_.as<float>();
                ldq = Q;
                ldkv = KV;
                project({{&L.wq, L.bq, q, Q}, {&L.wk, L.bk, k, KV}, {&L.wv, L.bv, v, KV}}, xa, E, T, false, attnFold);
                rope = RopeArgs{q, k, Q, KV, static_cast<int>(hp_.nHead), static_cast<int>(hp_.nHeadKv), D, static_cast<int>(hp_.nRot),
                                hp_.rope == RopeStyle::NeoX, p.ropeCos, p.ropeSin};
            }
            AttentionArgs a{q, ldq, att, static_cast<int>(hp_.nHead), static_cast<int>(hp_.nHeadKv), D, 1.0f / std::sqrt(float(D)), il, kv, slots,
                            s.splits, s.splitFrom, partial_.as<float>()};
            a.dependent = dependentLaunches_;
            if (s.foldStore) {   // attention rotates, stores and reads the new rows itself
                a.foldStore = true;
                a.store = {k, v, ldkv, ldkv, static_cast<int>(hp_.nLayer), staging_.as(), rope.nRot, rope.neox, rope.cosv, rope.sinv};
            } else {   // rotates q and k (RoPE folded in), then stores the token's K and V rows
                KvStoreArgs store{k, v, ldkv, ldkv, il, static_cast<int>(hp_.nLayer), kv, slots, staging_.as()};
                store.rope = rope;
                kvStoreLaunch(store, T, stream_);
                DLAB_CUDA_CHECK_LAUNCH();
            }
            attentionLaunch(a, T, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
            if (attnT >= 0) {
                attentionWeightsLaunch(a, attnT, attnSlots, attnWeights_.as<float>() + size_t(il) * hp_.nHead * attnSlots, stream_);
                DLAB_CUDA_CHECK_LAUNCH();
            }
            project({{&L.wo, L.bo, x, E}}, att, Q, T, true);

            const float* xf = normed(L.ffnNorm, L.ffnNormBias);
            if (gpt2) {
                project({{&L.wUp, L.bUp, ffA, F}}, xf, E, T, false);
                geluLaunch(ffA, int64_t(T) * F, stream_);
                DLAB_CUDA_CHECK_LAUNCH();
            } else {
                projectGated(L.wGate, L.wUp, xf, E, T, ffA, ffB, foldNorm ? L.ffnNorm : nullptr);
            }
            project({{&L.wDown, L.bDown, x, E}}, ffA, F, T, true);
        }

        if (s.R > 0) {
            norm(x, p.logitRows, weights_->outputNorm(), weights_->outputNormBias(), xn, s.R);
            const int V = static_cast<int>(hp_.nVocab);
            project({{&weights_->output(), nullptr, logits_.as<float>(), V}}, xn, E, s.R, false);
            if (s.topN > 0) {
                logitStatsLaunch(logits_.as<float>(), s.R, V, s.topN, {stats_.as<float>(), topIds_.as<int32_t>(), topLogits_.as<float>()},
                                 statsScratch_.as(), stream_);
                DLAB_CUDA_CHECK_LAUNCH();
                float* sh = statsHost_.as<float>();
                DLAB_CUDA_CHECK(cudaMemcpyAsync(sh, stats_.as(), size_t(s.R) * 3 * 4, cudaMemcpyDeviceToHost, stream_));
                DLAB_CUDA_CHECK(cudaMemcpyAsync(sh + kMaxChunk * 3, topIds_.as(), size_t(s.R) * s.topN * 4, cudaMemcpyDeviceToHost, stream_));
                DLAB_CUDA_CHECK(cudaMemcpyAsync(sh + kMaxChunk * (3 + kMaxTopN), topLogits_.as(), size_t(s.R) * s.topN * 4,
                                                cudaMemcpyDeviceToHost, stream_));
            }
            if (s.hostLogits)
                DLAB_CUDA_CHECK(cudaMemcpyAsync(logitsHost_.as(), logits_.as(), size_t(s.R) * V * 4, cudaMemcpyDeviceToHost, stream_));
        }
        const size_t rowBytes = kv.rowBytes;
        DLAB_CUDA_CHECK(cudaMemcpyAsync(stagingHost_.as(), staging_.as(), size_t(T) * hp_.nLayer * 2 * rowBytes, cudaMemcpyDeviceToHost, stream_));
        if (attnT >= 0) {
            AttentionWeights& w = *attentionOut_;
            DLAB_CUDA_CHECK(cudaMemcpyAsync(w.perHead.data(), attnWeights_.as(), w.perHead.size() * 4, cudaMemcpyDeviceToHost, stream_));
        }
        (void)pool;
    }

    bool capturing() const {
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        cudaStreamIsCapturing(stream_, &st);
        return st != cudaStreamCaptureStatusNone;
    }

    void prepareAttentionWeights(int nSlots) {
        AttentionWeights& w = *attentionOut_;
        w.nLayer = hp_.nLayer;
        w.nHead = hp_.nHead;
        w.nHeadKv = hp_.nHeadKv;
        w.nSlots = nSlots;
        w.querySlot = nSlots - 1;
        w.perHead.assign(static_cast<size_t>(hp_.nLayer * hp_.nHead * nSlots), 0.0f);
        const size_t bytes = w.perHead.size() * sizeof(float);
        if (attnWeights_.bytes() < bytes) attnWeights_ = DeviceBuffer(bytes, "the attention weights");
    }

    void copyBack(std::span<const Segment> segs, KvBlockPool& pool, const PassShape& s) {
        const size_t rowBytes = pool.rowBytes();
        const uint8_t* stage = stagingHost_.as();
        for (const Segment& sg : segs)
            for (int64_t t = sg.begin; t < sg.begin + sg.len; ++t) {
                const int64_t slot = sg.slot0 + (t - sg.begin);
                for (int64_t l = 0; l < hp_.nLayer; ++l)
                    for (int value = 0; value < 2; ++value)
                        std::memcpy(pool.rowForCopyBack(sg.seq, l, slot, value != 0), stage + ((t * hp_.nLayer + l) * 2 + value) * rowBytes, rowBytes);
            }
        passStats_.clear();
        if (s.topN > 0) {
            const float* sh = statsHost_.as<float>();
            const auto* ids = reinterpret_cast<const int32_t*>(sh + kMaxChunk * 3);
            const float* top = sh + kMaxChunk * (3 + kMaxTopN);
            for (int r = 0; r < s.R; ++r) {
                LogitRowStats st;
                st.maxLogit = sh[r * 3];
                st.logSumExp = sh[r * 3 + 1];
                st.entropy = sh[r * 3 + 2];
                for (int i = 0; i < s.topN && i < hp_.nVocab; ++i) {
                    st.topIds.push_back(ids[r * s.topN + i]);
                    st.topLogits.push_back(top[r * s.topN + i]);
                }
                passStats_.push_back(std::move(st));
            }
        }
    }

    void norm(const float* x, const int32_t* rows, const float* w, const float* b, float* out, int R) {
        if (hp_.arch == Arch::Gpt2) layernormLaunch(x, rows, w, b, out, nullptr, R, static_cast<int>(hp_.nEmbd), hp_.normEps, stream_);
        else rmsnormLaunch(x, rows, w, out, nullptr, R, static_cast<int>(hp_.nEmbd), hp_.normEps, stream_);
        DLAB_CUDA_CHECK_LAUNCH();
    }

    // y = x · Wᵀ (+ bias) for each output (y += with accumulate). Passes shorter than gemmFrom_
    // tokens (by default up to kMatvecMaxT), or without half copies, through the dequantizing
    // matvec, eight tokens a launch; longer ones through cuBLAS on the half copies, the residual
    // add as beta = 1.
    // rmsWeight: x is the raw residual stream and the matvec folds the RMSNorm in (so such a
    // projection always takes the matvec path).
    void project(std::initializer_list<Proj> outs, const float* x, int cols, int T, bool accumulate, const float* rmsWeight = nullptr) {
        const bool sameType = std::all_of(outs.begin(), outs.end(), [&](const Proj& p) { return p.m->type == outs.begin()->m->type; });
        const bool gemm = !rmsWeight && T >= gemmFrom_ && std::all_of(outs.begin(), outs.end(), [](const Proj& p) { return p.m->half != nullptr; });
        if (gemm) {
            toHalfLaunch(x, half_.as<uint16_t>(), int64_t(T) * cols, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
            for (const Proj& p : outs) gemmHalf(*p.m, T, p.y, p.ldy, accumulate, p.bias);
            return;
        }
        for (int t0 = 0; t0 < T; t0 += kMatvecMaxT) {
            const int n = std::min(kMatvecMaxT, T - t0);
            auto launch = [&](const Proj* first, int count) {
                MatvecArgs a;
                a.type = first->m->type;
                a.nOut = count;
                for (int i = 0; i < count; ++i) {
                    const Proj& p = first[i];
                    a.out[i] = {p.m->w, p.m->rowBytes, static_cast<int>(p.m->rows), p.bias, p.y + size_t(t0) * p.ldy, p.ldy};
                }
                a.x = x + size_t(t0) * cols;
                a.ldx = cols;
                a.cols = cols;
                a.T = n;
                a.accumulate = accumulate;
                a.rmsWeight = rmsWeight;
                a.rmsEps = hp_.normEps;
                a.dependent = dependentLaunches_;
                matvecLaunch(a, stream_);
                DLAB_CUDA_CHECK_LAUNCH();
            };
            if (sameType) launch(outs.begin(), static_cast<int>(outs.size()));
            else for (const Proj& p : outs) launch(&p, 1);
        }
    }

    void projectGated(const DeviceMatrix& gate, const DeviceMatrix& up, const float* x, int cols, int T, float* ffA, float* ffB,
                      const float* rmsWeight = nullptr) {
        const int F = static_cast<int>(hp_.nFf);
        const bool gemm = !rmsWeight && T >= gemmFrom_ && gate.half && up.half;
        if (gemm) {
            toHalfLaunch(x, half_.as<uint16_t>(), int64_t(T) * cols, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
            gemmHalf(gate, T, ffA, F, false, nullptr);
            gemmHalf(up, T, ffB, F, false, nullptr);
            siluMulLaunch(ffA, ffB, int64_t(T) * F, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
            return;
        }
        if (gate.type != up.type) {   // no shared launch: two matvecs and the SwiGLU apart
            project({{&gate, nullptr, ffA, F}}, x, cols, T, false, rmsWeight);
            project({{&up, nullptr, ffB, F}}, x, cols, T, false, rmsWeight);
            siluMulLaunch(ffA, ffB, int64_t(T) * F, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
            return;
        }
        for (int t0 = 0; t0 < T; t0 += kMatvecMaxT) {
            MatvecArgs a;
            a.type = gate.type;
            a.out[0] = {gate.w, gate.rowBytes, static_cast<int>(gate.rows), nullptr, ffA + size_t(t0) * F, F};
            a.up = up.w;
            a.x = x + size_t(t0) * cols;
            a.ldx = cols;
            a.cols = cols;
            a.T = std::min(kMatvecMaxT, T - t0);
            a.rmsWeight = rmsWeight;
            a.rmsEps = hp_.normEps;
            a.dependent = dependentLaunches_;
            matvecLaunch(a, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
        }
    }

    // y (T, ldy) [+]= half_ (T, cols) · Wᵀ in f32 (tensor cores, f32 accumulation), then the bias.
    void gemmHalf(const DeviceMatrix& w, int T, float* y, int ldy, bool accumulate, const float* bias) {
        const float alpha = 1.0f, beta = accumulate ? 1.0f : 0.0f;
        const int m = static_cast<int>(w.rows), k = static_cast<int>(w.cols);
        // Column-major view: C (m, T) = W' (k, m)ᵀ · X (k, T), with W' the row-major (m, k) weights.
        DLAB_CUBLAS_CHECK(cublas().gemmEx(cublas_, CUBLAS_OP_T, CUBLAS_OP_N, m, T, k, &alpha, w.half, CUDA_R_16F, k, half_.as(), CUDA_R_16F,
                                       k, &beta, y, CUDA_R_32F, ldy, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        if (bias) {
            addBiasLaunch(y, bias, T, m, ldy, stream_);
            DLAB_CUDA_CHECK_LAUNCH();
        }
    }

    const Model& model_;
    const HParams& hp_;
    int device_;
    bool graphsOn_;
    bool dependentLaunches_;   // matvecs as programmatic dependent launches (cuda/ops/pdl.cuh)
    bool foldStore_ = true;    // decode passes store K/V in the attention kernel (attention.h)
    int gemmFrom_ = kMatvecMaxT + 1;   // passes of this many tokens or more project through cuBLAS
    cuda::CodeImage code_;     // what the driver loaded for this GPU
    int splitFrom_;      // attention splits contexts longer than this (0: never)
    // Declared before everything that uses them, so they go last (after the graphs, the KV
    // mirrors and the buffers), also when the constructor throws half-way.
    Stream stream_;
    CublasHandle cublas_;
    std::unique_ptr<DeviceModel> weights_;
    std::list<std::unique_ptr<DeviceKv>> mirrors_;   // most recently used first
    std::map<PassShape, std::unique_ptr<Graph>> graphs_;
    std::set<PassShape> ungraphable_;                 // GEMM passes whose capture failed
    DeviceBuffer x_, xn_, q_, k_, v_, att_, ffA_, ffB_, half_, logits_, staging_, stats_, topIds_, topLogits_, statsScratch_, cublasWorkspace_;
    DeviceBuffer meta_, attnWeights_, partial_;
    PinnedBuffer logitsHost_, stagingHost_, statsHost_, metaHost_;
    std::vector<float> out_;                  // (n, nVocab) for a multi-chunk call with all logits
    std::vector<LogitRowStats> passStats_;    // the last pass's rows
};

}  // namespace

std::unique_ptr<Backend> makeCudaBackend(const Model& model, const CudaOptions& options) {
    std::string description;
    GpuCheck check = checkGpu(options.device, &description);
    if (check.problem != GpuProblem::None) {
        const std::string message = "the CUDA backend cannot run: " + check.reason;
        throw GpuError(std::move(check), message);
    }
    return std::make_unique<CudaBackend>(model, options);
}

}  // namespace dlab
