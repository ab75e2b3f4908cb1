#include "ui/kv/kv_controller.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.h"
#include "core/stopwatch.h"
#include "generate/session.h"
#include "kv/kv_cell_stats.h"
#include "kv/kv_compression.h"
#include "kv/kv_eviction.h"
#include "kv/kv_run.h"
#include "model/backend.h"
#include "model/kv_memory.h"
#include "model/model.h"
#include "ui/engine/step_views.h"

namespace dlab::ui {

namespace {
KvStepPoint pointOf(const KvRunStep& s) {
    KvStepPoint p;
    p.step = s.step;
    p.positions = s.positions;
    p.computed = s.computed;
    p.reused = s.reused;
    p.bytesInUse = s.bytesInUse;
    p.blocksUsed = s.blocksUsed;
    p.blocksShared = s.blocksShared;
    p.forwardMs = s.forwardMs;
    return p;
}

// Every k-th step keeps its attention so that the run stays within the budget.
int attentionEvery(const HParams& hp, int64_t prompt, int steps) {
    const double total = double(hp.nLayer) * double(hp.nHeadKv) * steps * (double(prompt) + steps / 2.0);
    return std::max(1, static_cast<int>(std::ceil(total / double(KvController::kAttentionBudget))));
}
}  // namespace

KvController::KvController(EngineContext* engine) : QObject(engine), engine_(*engine) {
    connect(engine, &EngineContext::aboutToReplaceModel, this, [this] { exact_.reset(); }, Qt::DirectConnection);
}

KvController::~KvController() = default;

std::vector<TokenId> KvController::encode(const QString& text, int extra) const {
    const Tokenizer& tok = engine_.model().tokenizer();
    std::vector<TokenId> ids = tok.encode(text.toStdString(), tok.addsBosByDefault(), false);
    if (text.trimmed().isEmpty() || ids.empty()) throw Error(tr("The prompt is empty: write a few words for the model to continue.").toStdString());
    const int64_t context = defaultSessionContext(engine_.model().hparams());
    if (static_cast<int64_t>(ids.size()) + extra > context)
        throw Error(tr("The prompt (%1 tokens) and %2 steps need %3 positions, but the model's context holds %4: "
                       "lower the steps or shorten the prompt.")
                        .arg(ids.size())
                        .arg(extra)
                        .arg(static_cast<qint64>(ids.size()) + extra)
                        .arg(context)
                        .toStdString());
    return ids;
}

Backend& KvController::exactBackend() {
    if (!exact_) exact_ = makeCpuBackend(engine_.model(), engine_.backend().threads(), true);
    exact_->setThreads(engine_.backend().threads());
    return *exact_;
}

void KvController::describeModel() {
    if (!engine_.hasModel()) return;
    const HParams& hp = engine_.model().hparams();
    const KvShape s = kvShapeOf(hp, engine_.model().file(), "");
    KvModelShape m;
    m.nLayer = hp.nLayer;
    m.nHead = hp.nHead;
    m.nHeadKv = hp.nHeadKv;
    m.headDim = hp.headDim;
    m.nCtxTrain = hp.nCtxTrain;
    m.parameters = s.parameters;
    m.weightBytes = s.weightBytes;
    emit modelShape(m);
}

namespace {
widgets::BlockTableData blockTableOf(const KvBlockPool& pool, int64_t contextLength) {
    widgets::BlockTableData bt;
    bt.blockSize = pool.blockSize();
    bt.nBlocks = pool.nBlocks();
    bt.contextLength = contextLength;
    bt.bytesPerBlock = pool.bytesPerBlock();
    bt.refCount.resize(pool.nBlocks());
    for (int64_t b = 0; b < pool.nBlocks(); ++b) bt.refCount[b] = pool.refCount(static_cast<int32_t>(b));
    for (SeqId id : pool.sequences()) {
        widgets::BlockTableSequence s;
        s.id = id;
        s.positions = pool.length(id);
        const auto table = pool.blockTable(id);
        s.blocks.assign(table.begin(), table.end());
        bt.sequences.push_back(std::move(s));
    }
    return bt;
}
}  // namespace

void KvController::showPool(const QString& source) {
    KvPoolView v;
    v.source = source;
    const EngineContext::KvPoolSource* src = engine_.kvPoolSource(source);
    const KvBlockPool* pool = src && src->pool ? src->pool() : nullptr;
    if (pool) {
        try {
            int64_t longest = 0;
            for (SeqId id : pool->sequences()) longest = std::max(longest, pool->length(id));
            const int64_t context = std::max(pool->contextLimit(), longest);
            v.blocks = blockTableOf(*pool, context);
            for (widgets::BlockTableSequence& s : v.blocks.sequences)
                if (src->label) s.label = src->label(s.id);
            v.allocation = kvAllocationReport(*pool, context);
            v.available = true;
        } catch (const std::exception& e) {
            emit failed(QString::fromUtf8(e.what()));
            return;
        }
    }
    emit poolReady(v);
}

void KvController::run(const KvRunRequest& request) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        const Model& model = engine_.model();
        const HParams& hp = model.hparams();
        const Tokenizer& tok = model.tokenizer();
        const std::vector<TokenId> prompt = encode(request.prompt, request.steps);
        const auto t0 = std::chrono::steady_clock::now();

        KvRunOptions o;
        o.steps = request.steps;
        o.sequences = request.sequences;
        o.type = parseKvType(request.kvType.toStdString());
        o.blockSize = request.blockSize;
        o.contextLength = defaultSessionContext(hp);
        o.cancel = engine_.cancelFlag();
        o.sampler.temperature = request.sequences > 1 ? 0.8f : 0.0f;   // continuations differ only when sampled
        o.sampler.topK = 0;
        o.sampler.topP = 1.0f;
        o.sampler.seed = 1;
        o.attentionEvery = attentionEvery(hp, static_cast<int64_t>(prompt.size()), request.steps);

        auto shared = std::make_shared<KvRunView>();
        KvRunView& v = *shared;
        v.request = request;
        v.nLayer = hp.nLayer;
        v.nHead = hp.nHead;
        v.nHeadKv = hp.nHeadKv;
        v.headDim = hp.headDim;
        v.blockSize = request.blockSize;
        v.contextLength = o.contextLength;
        v.promptTokens = static_cast<int>(prompt.size());
        KvRunResult r = runKvExplorer(model, engine_.backend(), prompt, o, [&](KvRunStep& s) {
            const KvStepPoint p = pointOf(s);
            v.steps << p;
            emit runStep(p);
            if (!s.attention.perHead.empty()) {
                v.attention << KvAttentionAtStep{s.step, s.attention.nSlots, s.attention.perKvGroup()};
                s.attention = {};   // the grouped copy is all the page draws
            }
        });
        v.cancelled = r.cancelled;
        const KvBlockPool& pool = *r.pool;
        const SeqId seq0 = r.sequences.front();
        v.bytesPerSlotLayer = 2 * static_cast<qint64>(pool.rowBytes());
        v.nSlots = pool.length(seq0);
        const std::vector<TokenId>& cached = pool.tokens(seq0);
        v.slotTokens = tokenTexts(tok, {}, cached);
        // A run stopped inside its prompt holds fewer positions than the prompt has tokens.
        const std::vector<TokenId> generated(cached.begin() + static_cast<std::ptrdiff_t>(std::min(prompt.size(), cached.size())), cached.end());
        v.generatedText = QString::fromStdString(tok.decode(generated));

        KvCellStats cells = kvCellStats(pool, seq0, hp.headDim);
        if (o.type != KvType::F32 && !r.cancelled) {
            // The same tokens through an f32 cache: what each stored cell would hold at full precision.
            KvRunOptions ref = o;
            ref.type = KvType::F32;
            ref.sequences = 1;
            ref.attentionEvery = 0;
            ref.forcedTokens = r.generated[0];
            const KvRunResult f32 = runKvExplorer(model, engine_.backend(), prompt, ref);
            if (!f32.cancelled) addKvQuantError(cells, pool, seq0, *f32.pool, f32.sequences.front(), hp.headDim);
        }
        v.kNorm = std::move(cells.kNorm);
        v.vNorm = std::move(cells.vNorm);
        v.kError = std::move(cells.kError);
        v.vError = std::move(cells.vError);

        const KvStats st = pool.stats();
        for (int32_t b : pool.blockTable(seq0)) {
            v.seq0Blocks.push_back(b);
            v.seq0BlockRefs.push_back(pool.refCount(b));
            for (const KvBlockStats& bs : st.blocks)
                if (bs.block == b) v.seq0BlockFilled.push_back(bs.filled);
        }
        v.blocks = blockTableOf(pool, o.contextLength);   // sequence 0 first: pool.sequences() is by id
        v.allocation = kvAllocationReport(pool, o.contextLength);
        v.runMs = msSince(t0);
        emit runReady(shared);

        if (!request.timeWithoutCache || r.cancelled) return;
        KvRunOptions nc = o;
        nc.sequences = 1;
        nc.attentionEvery = 0;
        nc.withoutCache = true;
        nc.steps = std::min(request.steps, kMaxNoCacheSteps);
        nc.forcedTokens = r.generated[0];
        const KvRunResult without = runKvExplorer(model, engine_.backend(), prompt, nc, [&](KvRunStep& s) {
            emit noCacheStep(s.step, s.computed, s.forwardMs);
        });
        emit noCacheFinished(without.cancelled);
    } catch (const Cancelled&) {
        emit noCacheFinished(true);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void KvController::compareTypes(const QString& prompt, int steps, bool exact) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        const std::vector<TokenId> ids = encode(prompt, steps);
        Backend& backend = exact ? exactBackend() : engine_.backend();
        std::vector<KvType> types = {KvType::F16};
        if (engine_.model().hparams().headDim % 32 == 0) types.push_back(KvType::Q8_0);
        const auto rows = compareKvTypes(engine_.model(), backend, ids, steps, types, engine_.cancelFlag(),
                                         [this](int done, int total) { emit typesProgress(done, total); });
        KvTypesView v;
        v.exact = exact;
        v.steps = steps;
        for (const KvTypeComparison& c : rows) {
            KvTypeRow row;
            row.type = QString::fromLatin1(kvTypeName(c.type));
            row.bytesPerPosition = c.bytesPerPosition;
            row.meanKl = c.meanKl;
            row.maxKl = c.maxKl;
            row.top1Agreement = c.top1Agreement;
            row.msPerStep = c.msPerStep;
            for (double k : c.kl) row.kl << k;
            v.rows << row;
        }
        emit typesReady(v);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void KvController::evict(const QString& text, int tokens, int cacheSize, int sinks) {
    if (!engine_.hasModel()) return;
    engine_.beginWork();
    try {
        const Tokenizer& tok = engine_.model().tokenizer();
        std::vector<TokenId> ids = tok.encode(text.toStdString(), tok.addsBosByDefault(), false);
        if (static_cast<int>(ids.size()) < tokens)
            throw Error(tr("The text has %1 tokens; the experiment was asked to read %2. Choose a longer text or fewer tokens.")
                            .arg(ids.size())
                            .arg(tokens)
                            .toStdString());
        if (sinks >= cacheSize)
            throw Error(tr("The sinks (%1) must be fewer than the cache's %2 positions.").arg(sinks).arg(cacheSize).toStdString());
        ids.resize(tokens);
        const std::vector<EvictionPolicy> policies = {
            {tr("full cache").toStdString(), 0, 0},
            {tr("sinks %1 + window %2").arg(sinks).arg(cacheSize - sinks).toStdString(), sinks, cacheSize - sinks},
            {tr("window %1 (no sinks)").arg(cacheSize).toStdString(), 0, cacheSize},
        };
        EvictionOptions o;
        o.scoreFrom = cacheSize;
        o.cancel = engine_.cancelFlag();
        o.progress = [this](int64_t done, int64_t total) { emit evictionProgress(done, total); };
        const auto results = runEvictionExperiment(engine_.model(), engine_.backend(), ids, policies, o);
        KvEvictionView v;
        v.tokens = tokens;
        v.scoreFrom = cacheSize;
        v.cancelled = engine_.cancelRequested();
        for (const EvictionResult& r : results) {
            KvEvictionRow row;
            row.policy = QString::fromStdString(r.policy.name);
            row.sinks = r.policy.sinks;
            row.window = r.policy.window;
            row.maxSlots = r.maxSlots;
            row.bytesPeak = r.bytesPeak;
            row.evicted = r.evicted;
            row.perplexity = r.perplexity;
            row.meanKl = r.meanKl;
            for (float x : r.nll) row.nll << x;
            v.rows << row;
        }
        emit evictionReady(v);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

}  // namespace dlab::ui
