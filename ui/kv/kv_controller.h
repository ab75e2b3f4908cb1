#pragma once
// The KV page's engine side, on the engine thread (a child of the EngineContext):
//   run()           the KV explorer's run (kv/kv_run.h): the prompt prefilled into a fresh pool,
//                   continuations forked from it, every step measured; sequence 0's attention at
//                   the recorded steps; its rows' norms (and, for f16 / q8_0, the error against an
//                   f32 run of the same tokens); the block tables and the paged-vs-contiguous
//                   report. Then, if asked, the same tokens without the cache, step by step, for
//                   the growth chart's timings (stoppable: O(n²) in total, as the lesson says).
//   compareTypes()  the dtype lesson (kv/kv_compression.h), optionally with exact arithmetic;
//   evict()         the long-context lesson (kv/kv_eviction.h): full cache, sinks + window, window.
// Stop goes to EngineContext::cancel(), checked between steps and layers.
#include <QObject>
#include <QString>

#include <memory>

#include "ui/engine/engine_context.h"
#include "ui/kv/kv_types.h"

namespace dlab {
class Backend;
}

namespace dlab::ui {

class KvController : public QObject {
    Q_OBJECT
public:
    explicit KvController(EngineContext* engine);
    ~KvController() override;

    // Attention kept per run, in floats (nLayer · nHeadKv · slots per recorded step): 32 M = 128 MB.
    static constexpr qint64 kAttentionBudget = 32LL << 20;
    static constexpr int kMaxNoCacheSteps = 256;   // the no-cache timings cover at most these steps

public slots:
    void run(const dlab::ui::KvRunRequest& request);
    void compareTypes(const QString& prompt, int steps, bool exact);
    void evict(const QString& text, int tokens, int cacheSize, int sinks);
    void describeModel();
    // The block tables of another page's live pool (EngineContext::kvPoolSource), e.g. "playground".
    void showPool(const QString& source);

signals:
    void runStep(const dlab::ui::KvStepPoint& point);       // live, while the run goes
    void runReady(const dlab::ui::KvRunPtr& view);
    void noCacheStep(int step, qint64 computed, double ms);  // the no-cache timings, as measured
    void noCacheFinished(bool stopped);
    void typesProgress(int done, int total);
    void typesReady(const dlab::ui::KvTypesView& view);
    void evictionProgress(qint64 done, qint64 total);
    void evictionReady(const dlab::ui::KvEvictionView& view);
    void modelShape(const dlab::ui::KvModelShape& shape);
    void poolReady(const dlab::ui::KvPoolView& view);
    void failed(const QString& message);

private:
    std::vector<TokenId> encode(const QString& text, int extra) const;
    Backend& exactBackend();

    EngineContext& engine_;
    std::unique_ptr<Backend> exact_;   // made on first use, dropped with the model
};

}  // namespace dlab::ui
