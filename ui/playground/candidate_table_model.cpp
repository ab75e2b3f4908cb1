#include "ui/playground/candidate_table_model.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace dlab::ui {

CandidateTableModel::CandidateTableModel(QObject* parent) : QAbstractTableModel(parent) {
    if (auto* app = QCoreApplication::instance()) app->installEventFilter(this);
}

QString CandidateTableModel::formatPercent(double p) {
    const QLocale loc;
    const QString pct = loc.percent();
    if (std::isnan(p)) return QStringLiteral("–");
    if (p <= 0.0) return loc.toString(0) + pct;
    const double x = p * 100.0;
    if (x < 0.005) return QStringLiteral("<") + loc.toString(0.01, 'f', 2) + pct;
    return loc.toString(x, 'f', x < 10.0 ? 2 : 1) + pct;
}

QString CandidateTableModel::formatLogit(double logit) {
    if (std::isnan(logit)) return QStringLiteral("–");
    if (std::isinf(logit)) return logit < 0 ? QStringLiteral("-∞") : QStringLiteral("∞");
    return QLocale().toString(logit, 'f', 2);
}

void CandidateTableModel::setRows(const QList<CandidateRow>& rows) {
    if (rows.size() != rows_.size()) {
        beginResetModel();
        rows_ = rows;
        endResetModel();
        return;
    }
    // Same count: the cells that differ (bounding rectangle), and the rows whose style differs.
    int top = -1, bottom = -1, left = ColumnCount, right = -1;
    QList<int> restyled;
    for (int r = 0; r < rows.size(); ++r) {
        const CandidateRow& a = rows_[r];
        const CandidateRow& b = rows[r];
        if (a == b) continue;
        const bool changed[ColumnCount] = {false,
                                           a.text != b.text,
                                           a.id != b.id,
                                           !(a.logit == b.logit),
                                           !(a.rawP == b.rawP),
                                           !(a.finalP == b.finalP),
                                           a.removed != b.removed || a.chosen != b.chosen || a.forbidden != b.forbidden};
        for (int c = 0; c < ColumnCount; ++c) {
            if (!changed[c]) continue;
            if (top < 0) top = r;
            bottom = r;
            left = std::min(left, c);
            right = std::max(right, c);
        }
        if (a.removed != b.removed || a.chosen != b.chosen) restyled << r;
    }
    rows_ = rows;
    if (top >= 0) emit dataChanged(index(top, left), index(bottom, right));
    // Bold / grey apply to every column of a row: one signal per run of adjacent rows.
    for (int i = 0; i < restyled.size();) {
        int j = i;
        while (j + 1 < restyled.size() && restyled[j + 1] == restyled[j] + 1) ++j;
        emit dataChanged(index(restyled[i], 0), index(restyled[j], ColumnCount - 1), {Qt::FontRole, Qt::ForegroundRole});
        i = j + 1;
    }
}

int CandidateTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int CandidateTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CandidateTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const CandidateRow& row = rows_[index.row()];
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case RankColumn: return QLocale().toString(index.row() + 1);
        case TokenColumn: return row.text;
        case IdColumn: return QString::number(row.id);
        case LogitColumn: return formatLogit(row.logit);
        case RawPColumn: return formatPercent(row.rawP);
        case FinalPColumn: return formatPercent(row.finalP);
        case KeptColumn:
            if (row.forbidden) return tr("forbidden");
            if (row.removed) return tr("removed");
            return row.chosen ? QStringLiteral("✓ ") + tr("chosen") : QStringLiteral("✓");
        }
        break;
    case Qt::UserRole:
        switch (col) {
        case RankColumn: return index.row() + 1;
        case TokenColumn: return row.text;
        case IdColumn: return row.id;
        case LogitColumn: return row.logit;
        case RawPColumn: return row.rawP;
        case FinalPColumn: return row.finalP;
        case KeptColumn: return !row.removed;
        }
        break;
    case Qt::TextAlignmentRole:
        if (col == TokenColumn) return int(Qt::AlignLeft | Qt::AlignVCenter);
        if (col == KeptColumn) return int(Qt::AlignCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.chosen) {
            QFont f = QGuiApplication::font();
            f.setBold(true);
            return f;
        }
        break;
    case Qt::ForegroundRole:
        if (row.removed) return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        break;
    case Qt::ToolTipRole:
        if (col == KeptColumn && row.chosen) return tr("The step picked this token.");
        if (col == KeptColumn && row.forbidden)
            return tr("The constraint's grammar forbade this token: the text would no longer fit it.");
        if (col == KeptColumn && row.removed)
            return tr("A stage of the sampler chain removed this token: it cannot be picked at this step.");
        break;
    default:
        break;
    }
    return {};
}

QVariant CandidateTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return QAbstractTableModel::headerData(section, orientation, role);
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RankColumn: return tr("Rank");
        case TokenColumn: return tr("Token");
        case IdColumn: return tr("Token id");
        case LogitColumn: return tr("Logit");
        case RawPColumn: return tr("p raw");
        case FinalPColumn: return tr("p after chain");
        case KeptColumn: return tr("Kept");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case RankColumn: return tr("Position of the token when all candidates are sorted by their raw logit.");
        case TokenColumn: return tr("The text the token adds (␣ is a space, ↵ a new line).");
        case IdColumn: return tr("The token's number in the model's vocabulary.");
        case LogitColumn: return tr("The model's raw score for the token, before any sampler stage.");
        case RawPColumn: return tr("The probability softmax gives the raw logits, before the sampler chain.");
        case FinalPColumn:
            return tr("The probability after every stage of the sampler chain; the step samples from this.");
        case KeptColumn: return tr("Whether the token survived the sampler chain or a stage removed it.");
        }
    }
    if (role == Qt::TextAlignmentRole)
        return int((section == TokenColumn ? Qt::AlignLeft : section == KeptColumn ? Qt::AlignHCenter : Qt::AlignRight) |
                   Qt::AlignVCenter);
    return {};
}

Qt::ItemFlags CandidateTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemNeverHasChildren;
}

bool CandidateTableModel::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::LanguageChange && watched == QCoreApplication::instance()) {
        emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        if (!rows_.isEmpty())
            emit dataChanged(index(0, KeptColumn), index(int(rows_.size()) - 1, KeptColumn),
                             {Qt::DisplayRole, Qt::ToolTipRole});
    }
    return QAbstractTableModel::eventFilter(watched, e);
}

}  // namespace dlab::ui
