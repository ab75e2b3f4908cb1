#include "ui/strategies/comparison_table_model.h"

#include "ui/strategies/strategy_column.h"
#include "widgets/number_text.h"

namespace dlab::ui {

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setResult(const TableResult& result) {
    beginResetModel();
    result_ = result;
    endResetModel();
}

void ComparisonTableModel::clear() { setResult({}); }

void ComparisonTableModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(result_.rows.size()); }

int ComparisonTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Strategy: return tr("Strategy");
    case Deterministic: return tr("Deterministic?");
    case Diverse: return tr("Diverse?");
    case FindsBest: return tr("Finds the likeliest text?");
    case Speed: return tr("Speed");
    case TypicalUse: return tr("Typical use");
    }
    return {};
}

QString ComparisonTableModel::typicalUse(const TableRow& r) {
    const bool diverse = !r.seedsIdentical && r.seedsOverlap < kDiverseBelow;
    if (r.kind == QLatin1String("beam") && r.spec.contains(QLatin1String("g=")))
        return r.beamsOverlap >= 0.0 && r.beamsOverlap < kDiverseBelow
                   ? tr("Several different good candidates to choose from: captions, rewrites, reranking")
                   : tr("Several candidates, though these overlap a lot (raise the diversity penalty)");
    if (r.kind == QLatin1String("beam"))
        return r.gap <= kBestWithin ? tr("Tasks with one right answer: translation, summaries")
                                    : tr("Tasks with one right answer (wider beams find likelier text)");
    if (r.seedsIdentical)
        return r.looped ? tr("Short factual answers: on long text it loops (it did here)")
                        : tr("Short factual answers, tests that need the same output every time");
    if (diverse) return tr("Open-ended text: chat, stories, brainstorming");
    return tr("Chat with little variation (the runs overlap a lot)");
}

QString ComparisonTableModel::cell(const TableRow& r, int column) const {
    switch (column) {
    case Strategy: return StrategyColumn::title(r.spec);
    case Deterministic:
        return r.seedsIdentical ? tr("yes: %n runs identical", nullptr, r.seedRuns) : tr("no: the %n runs differ", nullptr, r.seedRuns);
    case Diverse: {
        // Across the seeds' runs; for a beam column also across its own final beams (the seeds
        // cannot differ there: beam search is deterministic).
        const bool diverse = !r.seedsIdentical && r.seedsOverlap < kDiverseBelow;
        QString s = (diverse ? tr("yes: runs overlap %1") : tr("no: runs overlap %1")).arg(widgets::decimalText(r.seedsOverlap, 2));
        if (r.beamsOverlap >= 0.0)
            s += QLatin1Char('\n') + (r.beamsOverlap < kDiverseBelow ? tr("final beams: yes, overlap %1") : tr("final beams: no, overlap %1"))
                                          .arg(widgets::decimalText(r.beamsOverlap, 2));
        return s;
    }
    case FindsBest:
        if (r.gap <= kBestWithin && r.gap >= -kBestWithin) return tr("yes: as likely as a width-%1 beam's best").arg(result_.wideBeam);
        if (r.gap < 0.0) return tr("yes: %1 nats likelier than a width-%2 beam's best").arg(widgets::decimalText(-r.gap, 2)).arg(result_.wideBeam);
        return tr("no: %1 nats below a width-%2 beam's best").arg(widgets::decimalText(r.gap, 2)).arg(result_.wideBeam);
    case Speed:
        if (r.stepTimeVsGreedy <= 0.0) return tr("%1 ms per step").arg(widgets::decimalText(r.msPerStep, 1));
        return tr("%1× greedy's time per step\n%2× its tokens evaluated per step")
            .arg(widgets::decimalText(r.stepTimeVsGreedy, 1))
            .arg(widgets::decimalText(r.tokensEvaluatedVsGreedy, 1));
    case TypicalUse: return typicalUse(r);
    }
    return {};
}

QString ComparisonTableModel::tip(const TableRow& r, int column) const {
    switch (column) {
    case Strategy: return r.spec;
    case Deterministic:
    case Diverse:
        return tr("Re-run with %n seed(s): mean bigram overlap %1 (shared word pairs between two runs: 0 = none, 1 = "
                  "the same), mean shared start %2 tokens, distinct-2 of all runs together %3 (different word pairs / "
                  "all word pairs)",
                  nullptr, r.seedRuns)
                   .arg(widgets::decimalText(r.seedsOverlap, 3))
                   .arg(widgets::decimalText(r.seedsSharedPrefix, 1))
                   .arg(widgets::decimalText(r.pooledDistinct2, 3)) +
               QLatin1Char('\n') + r.seedTexts.join(QStringLiteral("\n—\n"));
    case FindsBest:
        return tr("Its %n token(s) have log-prob %1; the best %n-token continuation a width-%2 beam found has %3 "
                  "(end tokens counted as ordinary tokens there)",
                  nullptr, r.length)
            .arg(widgets::decimalText(r.logProb, 3))
            .arg(result_.wideBeam)
            .arg(widgets::decimalText(r.bestLogProb, 3));
    case Speed: {
        // Measured in this run: a step's wall time and the tokens its forward pass evaluated.
        const QString why = tr("A step chooses the next token of every sequence a strategy keeps. Beam search keeps k "
                               "beams, so its steps evaluate k tokens, all in one batched forward pass that reads the "
                               "weights once: a step costs more than greedy's, but less than k of them. It ends early "
                               "when its beams finish.");
        if (r.stepTimeVsGreedy <= 0.0)
            return tr("%1 ms per step (%2 tokens/s), %3 tokens evaluated per step in %n forward pass(es).", nullptr, r.forwardCalls)
                       .arg(widgets::decimalText(r.msPerStep, 2))
                       .arg(widgets::decimalText(r.tokensPerSecond, 1))
                       .arg(widgets::decimalText(r.tokensPerStep, 2)) +
                   QLatin1Char('\n') + why;
        return tr("%1 ms per step against greedy's %2 ms (%3 tokens/s); %4 tokens evaluated per step against greedy's "
                  "%5, in %n forward pass(es).",
                  nullptr, r.forwardCalls)
                   .arg(widgets::decimalText(r.msPerStep, 2))
                   .arg(widgets::decimalText(r.greedyMsPerStep, 2))
                   .arg(widgets::decimalText(r.tokensPerSecond, 1))
                   .arg(widgets::decimalText(r.tokensPerStep, 2))
                   .arg(widgets::decimalText(r.greedyTokensPerStep, 2)) +
               QLatin1Char('\n') + why;
    }
    case TypicalUse: return tr("Chosen from this row's numbers: deterministic or not, overlap, log-prob gap, loops");
    }
    return {};
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const TableRow& r = result_.rows[index.row()];
    if (role == Qt::DisplayRole) return cell(r, index.column());
    if (role == Qt::ToolTipRole) {
        // Rich text, so Qt wraps it to a readable width instead of one line wider than the window.
        QString html = tip(r, index.column()).toHtmlEscaped();
        html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        return QStringLiteral("<p>%1</p>").arg(html);
    }
    return {};
}

}  // namespace dlab::ui
