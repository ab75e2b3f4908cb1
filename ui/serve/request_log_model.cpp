#include "ui/serve/request_log_model.h"

#include <QLocale>

namespace dlab::ui {

QVariant RequestLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    const ServeLogEntry& e = rows_[index.row()];
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
            case StatusColumn:
            case TokensColumn:
            case MsColumn: return int(Qt::AlignRight | Qt::AlignVCenter);
            default: return int(Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == FinishColumn && !e.error.isEmpty()) return e.error;
    if (role != Qt::DisplayRole) return {};
    const QLocale loc;
    switch (index.column()) {
        case TimeColumn: return e.time.toString(QStringLiteral("HH:mm:ss"));
        case MethodColumn: return e.method;
        case PathColumn: return e.path;
        case StatusColumn: return e.status;
        case StreamColumn: return e.stream ? tr("yes") : tr("no");
        case TokensColumn:
            return e.promptTokens + e.completionTokens > 0 ? tr("%1 + %2").arg(e.promptTokens).arg(e.completionTokens) : QString();
        case MsColumn: return loc.toString(e.ms, 'f', 0);
        case FinishColumn: return e.error.isEmpty() ? e.finish : e.error;
        default: return {};
    }
}

QVariant RequestLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case TimeColumn: return tr("Time");
        case MethodColumn: return tr("Method");
        case PathColumn: return tr("Path");
        case StatusColumn: return tr("Status");
        case StreamColumn: return tr("Stream");
        case TokensColumn: return tr("Tokens (prompt + completion)");
        case MsColumn: return tr("ms");
        case FinishColumn: return tr("Finish or error");
        default: return {};
    }
}

void RequestLogModel::append(const ServeLogEntry& entry) {
    if (rows_.size() >= kMaxRows) {
        beginRemoveRows({}, 0, 0);
        rows_.removeFirst();
        endRemoveRows();
    }
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    rows_ << entry;
    endInsertRows();
}

void RequestLogModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void RequestLogModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.isEmpty()) emit dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
}

}  // namespace dlab::ui
