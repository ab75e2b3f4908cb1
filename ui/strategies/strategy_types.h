#pragma once
// Value structs between the strategies page and its controller (queued signals). Every number is
// the engine's, measured in the run just made (compareRuns, beamSearch), converted, not derived.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "ui/engine/engine_types.h"
#include "widgets/beam_tree_types.h"
#include "widgets/distribution_chart.h"
#include "widgets/token_strip.h"

namespace dlab::ui {

// What the page asks for: one prompt, the columns as run specs (generate/run_spec.h), how many
// tokens each may generate, and whether the comparison table is measured after the columns.
struct StrategiesRequest {
    QString prompt;
    QStringList specs;
    int maxTokens = 32;
    bool measureTable = true;
    int seeds = 3;          // re-runs per column for "deterministic? diverse?"
    int wideBeam = 16;      // the reference search for "finds the highest-probability sequence?"
};

// One final hypothesis of a beam column, best first.
struct BeamHypothesisView {
    QString text;
    QList<int> tokens;
    double logProb = 0.0;
    double score = 0.0;
    bool ended = false;
};

// A column's run (RunResult), ready to draw.
struct ColumnResult {
    int column = -1;
    QString spec;               // canonical spec text
    QString kind;               // "greedy", "sample", "beam"
    QList<widgets::StripToken> tokens;
    QString text;
    bool ended = false;         // stopped at an end-of-generation token
    bool stopped = false;       // Stop pressed during this run
    double logProb = 0.0;       // sum of log softmax(raw) over the tokens (and the end token), nats
    double perplexity = 0.0;    // exp(-logProb / scored tokens)
    int scoredTokens = 0;
    double ms = 0.0;
    double tokensPerSecond = 0.0;
    // RunResult's cost: passes after the prefill (a beam step is one batched pass), the tokens they
    // evaluated (a beam step: one per running beam), the steps run and the wall time of one.
    int forwardCalls = 0;
    qint64 tokensEvaluated = 0;
    int decodeSteps = 0;
    double msPerStep = 0.0;
    double distinct1 = 0.0, distinct2 = 0.0;
    RepetitionView repetition;  // the repetition detector's loop over `tokens`
    qint64 kvBlocks = 0, kvBlocksShared = 0, kvBytesSavedWithin = 0;
    QList<BeamHypothesisView> hypotheses;   // beam columns: the final beams
    // Beam columns: how alike the final beams are.
    double beamsOverlap = -1.0;             // mean bigram Jaccard over pairs; -1: not a beam column
    double beamsSharedPrefix = 0.0;         // mean shared prefix, tokens
};

// One row of the lesson's table, for one column; filled from the seeds re-run and the wide beam.
struct TableRow {
    int column = -1;
    QString spec;
    QString kind;
    // deterministic?
    int seedRuns = 0;
    bool seedsIdentical = false;
    QStringList seedTexts;
    // diverse?
    double seedsOverlap = 0.0;        // mean bigram Jaccard over pairs of the seeds' outputs
    double seedsSharedPrefix = 0.0;   // mean tokens in common at the start
    double pooledDistinct2 = 0.0;     // distinct-2 of the seeds' outputs pooled
    double beamsOverlap = -1.0;       // beam columns: over the final beams
    // finds the highest-probability sequence?
    int length = 0;                   // the column's generated tokens (end token excluded)
    double logProb = 0.0;             // its log-prob over those tokens
    double bestLogProb = 0.0;         // the wide beam's best log-prob over that many tokens
    double gap = 0.0;                 // bestLogProb - logProb (> 0: a likelier sequence exists)
    // speed
    double tokensPerSecond = 0.0;
    double speedVsGreedy = 0.0;       // greedy's tokens/s / this column's (how many times slower); 0: no greedy column
    // Per step (RunResult::decodeSteps) against the first greedy column's; 0: no greedy column.
    double msPerStep = 0.0;           // RunResult::msPerStep
    double greedyMsPerStep = 0.0;
    double stepTimeVsGreedy = 0.0;    // msPerStep / greedy's: what a step of this strategy costs
    double tokensPerStep = 0.0;       // tokens evaluated / steps (greedy: (steps - 1) / steps, the first reads the prefill)
    double greedyTokensPerStep = 0.0;
    double tokensEvaluatedVsGreedy = 0.0;  // tokensPerStep / greedy's (beam k: about k, in one batched pass per step)
    int forwardCalls = 0;
    bool looped = false;              // the repetition detector fired on the column's output
    // typical use: chosen from the numbers above (ComparisonTableModel::typicalUse)
};

struct TableResult {
    QList<TableRow> rows;
    int wideBeam = 0;
    double wideBeamMs = 0.0;
    bool stopped = false;
};

// One beam search for the tree panel: the engine's tree and, per evaluated node, the distribution
// it was expanded from (the chart's bars: its recorded top N).
struct TreeResult {
    widgets::BeamTreeData tree;
    QList<BeamHypothesisView> hypotheses;
    QHash<int, QList<widgets::DistributionBar>> nextBars;   // node id -> bars
    QHash<int, double> nextEntropy;                          // node id -> nats
    double beamsOverlap = 0.0, beamsSharedPrefix = 0.0, pooledDistinct2 = 0.0;
    qint64 kvBlocksShared = 0;      // blocks more than one final beam's node references at its depth, at the end
    double ms = 0.0;
    int forwardCalls = 0;
    QString label;                  // "beam k=4" / "diverse beam k=4, 2 groups, penalty 1.0"
    bool diverse = false;
    QString stop;                   // the engine's stop reason
};

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::StrategiesRequest)
Q_DECLARE_METATYPE(dlab::ui::ColumnResult)
Q_DECLARE_METATYPE(dlab::ui::TableResult)
Q_DECLARE_METATYPE(dlab::ui::TreeResult)
