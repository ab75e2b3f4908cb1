#pragma once
// The lesson's comparison table (deterministic? diverse? finds the highest-probability sequence?
// speed, typical use) with one row per column of the strategies page, every cell written from the
// measurements of this run (TableResult): the seeds re-run, the overlap of their outputs and of
// the final beams, the log-prob gap to a wide beam, the time per step and the tokens evaluated per
// step against greedy.
// The verdict words ("yes", "no") follow from those numbers by the thresholds below, and each
// cell's tooltip gives the numbers.
#include <QAbstractTableModel>

#include "ui/strategies/strategy_types.h"

namespace dlab::ui {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Strategy, Deterministic, Diverse, FindsBest, Speed, TypicalUse, ColumnCount };
    static constexpr double kDiverseBelow = 0.5;     // mean bigram overlap under this: "diverse"
    static constexpr double kBestWithin = 0.05;      // nats: as likely as the wide beam's best

    explicit ComparisonTableModel(QObject* parent = nullptr);
    void setResult(const TableResult& result);
    void clear();
    const TableResult& result() const { return result_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString typicalUse(const TableRow& row);
    void retranslate();   // the header and the cells' words in the current language

private:
    QString cell(const TableRow& row, int column) const;
    QString tip(const TableRow& row, int column) const;
    TableResult result_;
};

}  // namespace dlab::ui
