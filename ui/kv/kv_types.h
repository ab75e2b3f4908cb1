#pragma once
// Value structs between the KV page and its controller on the engine thread (queued signals).
// Every number in them comes from the engine's run (kv/kv_run.h and friends); the page only draws.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "kv/kv_allocation.h"
#include "widgets/kv_block_table_types.h"

namespace dlab::ui {

struct KvRunRequest {
    QString prompt;
    int steps = 48;                 // tokens after the prompt
    int sequences = 1;              // continuations forked from the prompt (sampled when > 1)
    QString kvType = QStringLiteral("f16");
    int blockSize = 16;
    bool timeWithoutCache = true;   // also run the no-cache mode on the same tokens, for the timings
};

// One step of sequence 0, as the engine measured it.
struct KvStepPoint {
    int step = 0;                   // 0 = the prompt's prefill
    qint64 positions = 0;           // cached after the step
    qint64 computed = 0;            // K/V rows computed in the step (with the cache)
    qint64 reused = 0;              // rows read back from the cache
    qint64 bytesInUse = 0, blocksUsed = 0, blocksShared = 0;   // the pool after the step
    double forwardMs = 0.0;
    // The same step without the cache (teacher-forced on the same tokens); -1 until measured.
    qint64 withoutCacheComputed = -1;
    double withoutCacheMs = -1.0;
};

// The attention of sequence 0's newest token at one recorded step, averaged over each KV head's
// query heads: (nLayer, nHeadKv, slots).
struct KvAttentionAtStep {
    int step = 0;
    qint64 nSlots = 0;
    std::vector<float> perKvGroup;
};

struct KvRunView {
    KvRunRequest request;
    qint64 nLayer = 0, nHead = 0, nHeadKv = 0, headDim = 0;
    qint64 blockSize = 16;
    qint64 bytesPerSlotLayer = 0;   // K and V of one position in one layer
    qint64 contextLength = 0;
    QStringList slotTokens;         // sequence 0's cached tokens, printable, one per slot
    int promptTokens = 0;
    QList<KvStepPoint> steps;
    QList<KvAttentionAtStep> attention;     // recorded steps, ascending
    // Sequence 0's cached rows at the end, (nLayer, nHeadKv, slots); errors against an f32 run of
    // the same tokens, empty when the cache is f32.
    qint64 nSlots = 0;
    std::vector<float> kNorm, vNorm, kError, vError;
    // Sequence 0's blocks: pool index, refcount and filled slots, by logical block.
    std::vector<int32_t> seq0Blocks;
    std::vector<int> seq0BlockRefs;
    std::vector<qint64> seq0BlockFilled;
    widgets::BlockTableData blocks;         // every sequence of the run
    KvAllocationReport allocation;          // paged against contiguous, from the pool
    QString generatedText;                  // sequence 0's continuation
    double runMs = 0.0;
    bool cancelled = false;
};

// Runs travel shared: the attention of a long run is up to KvController::kAttentionBudget floats,
// and the page and its panels read the same copy.
using KvRunPtr = std::shared_ptr<const KvRunView>;

struct KvTypeRow {
    QString type;
    qint64 bytesPerPosition = 0;
    double meanKl = 0.0, maxKl = 0.0, top1Agreement = 1.0, msPerStep = 0.0;
    QList<double> kl;               // per step
};

struct KvTypesView {
    QList<KvTypeRow> rows;          // f32 first
    bool exact = false;             // f32 weights and activations
    int steps = 0;
};

struct KvEvictionRow {
    QString policy;
    qint64 sinks = 0, window = 0, maxSlots = 0, bytesPeak = 0, evicted = 0;
    double perplexity = 0.0, meanKl = 0.0;
    QList<double> nll;              // per predicted token
};

struct KvEvictionView {
    QList<KvEvictionRow> rows;      // the full cache first
    qint64 tokens = 0, scoreFrom = 0;
    bool cancelled = false;
};

// Another page's live pool (the playground's branches), as the block view draws it.
struct KvPoolView {
    QString source;                 // "playground"
    bool available = false;         // false: that page has no session now
    widgets::BlockTableData blocks;
    KvAllocationReport allocation;
};

// The loaded model's attention shape for the calculator.
struct KvModelShape {
    QString name;
    qint64 nLayer = 0, nHead = 0, nHeadKv = 0, headDim = 0, nCtxTrain = 0;
    double parameters = 0, weightBytes = 0;
};

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::KvRunRequest)
Q_DECLARE_METATYPE(dlab::ui::KvStepPoint)
Q_DECLARE_METATYPE(dlab::ui::KvRunPtr)
Q_DECLARE_METATYPE(dlab::ui::KvTypesView)
Q_DECLARE_METATYPE(dlab::ui::KvEvictionView)
Q_DECLARE_METATYPE(dlab::ui::KvModelShape)
Q_DECLARE_METATYPE(dlab::ui::KvPoolView)
