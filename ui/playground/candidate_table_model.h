#pragma once
// The playground's table under the chart: one row per candidate of the current step (rank,
// token, id, raw logit, p before and after the sampler chain, kept or removed). Plain values in,
// no engine calls. A slider move re-runs only the chain: setRows() with the same tokens then
// emits dataChanged() for the after-chain columns alone, so the view repaints little.
#include <QAbstractTableModel>
#include <QList>
#include <QMetaType>
#include <QString>

namespace dlab::ui {

struct CandidateRow {
    int id = -1;            // token id
    QString text;           // printable token text (printableToken())
    double logit = 0.0;     // raw logit (may be -inf when a bias banned the token)
    double rawP = 0.0;      // softmax of the raw logits
    double finalP = 0.0;    // after the whole chain; 0 when removed
    bool removed = false;   // the chain removed this token
    bool chosen = false;    // the token the step picked
    bool forbidden = false; // a constraint's grammar forbade it (removed too)
    bool operator==(const CandidateRow&) const = default;
};

class CandidateTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RankColumn, TokenColumn, IdColumn, LogitColumn, RawPColumn, FinalPColumn, KeptColumn, ColumnCount };

    explicit CandidateTableModel(QObject* parent = nullptr);

    // Rows in rank order (normally by raw logit, best first); rank = row + 1. A different row
    // count resets the model; the same count emits dataChanged() for the cells that changed
    // (a chain re-run: FinalPColumn..KeptColumn only), plus {FontRole, ForegroundRole} for whole
    // rows whose removed / chosen flag changed. Nothing changed: no signal.
    void setRows(const QList<CandidateRow>& rows);
    void clear() { setRows({}); }
    const QList<CandidateRow>& rows() const { return rows_; }

    // "45.3%", "0.42%", "<0.01%", "0%" (QLocale's digits). Also used by the page's labels.
    static QString formatPercent(double p);
    // "3.14", "-12.00", "-∞".
    static QString formatLogit(double logit);

    // DisplayRole: formatted text. Qt::UserRole: the raw value (rank int, text QString, id int,
    // logit / rawP / finalP double, kept bool) for sorting (QSortFilterProxyModel::setSortRole).
    // TextAlignmentRole: numbers right-aligned. FontRole: bold on the chosen row.
    // ForegroundRole: removed rows in the palette's disabled text colour.
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    // Horizontal sections: DisplayRole the column title, ToolTipRole one sentence explaining it.
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    // Watches the application for QEvent::LanguageChange: headers and "removed" are re-read.
    bool eventFilter(QObject* watched, QEvent* e) override;

    QList<CandidateRow> rows_;
};

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::CandidateRow)
