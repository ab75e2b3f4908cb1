#pragma once
// The Serve page's request log: one row per request the HTTP server answered, newest last, as
// OpenAiServer::onRequest reported it. Keeps the last kMaxRows.
#include <QAbstractTableModel>
#include <QList>

#include "ui/serve/serve_types.h"

namespace dlab::ui {

class RequestLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, MethodColumn, PathColumn, StatusColumn, StreamColumn, TokensColumn, MsColumn, FinishColumn, ColumnCount };
    static constexpr int kMaxRows = 1000;

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(rows_.size()); }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void append(const ServeLogEntry& entry);
    void clear();
    const QList<ServeLogEntry>& entries() const { return rows_; }
    void retranslate();   // the headers and the yes/no column in the current language

private:
    QList<ServeLogEntry> rows_;
};

}  // namespace dlab::ui
