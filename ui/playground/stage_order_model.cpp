#include "ui/playground/stage_order_model.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QEvent>
#include <QIODevice>
#include <QMimeData>

#include <algorithm>

#include "sampling/sampler_params.h"
#include "widgets/sampler_waterfall.h"

namespace dlab::ui {

namespace {

const QString kMimeType = QStringLiteral("application/x-dlab-stage");

}  // namespace

QStringList StageOrderModel::defaultStages() {
    // The engine's "hf" order without logit-bias and no-repeat-ngram, which do nothing until set.
    return {QStringLiteral("repetition"), QStringLiteral("freq-presence"), QStringLiteral("temperature"),
            QStringLiteral("top-k"), QStringLiteral("top-p"), QStringLiteral("min-p")};
}

QStringList StageOrderModel::allStages() {
    // Each advanced stage where it acts in the engine's orders: logit bias and the bans before
    // anything else (a ban must act before a greedy temperature picks the best token), the
    // truncation stages after min-p.
    return {QStringLiteral("logit-bias"), QStringLiteral("repetition"), QStringLiteral("freq-presence"),
            QStringLiteral("no-repeat-ngram"), QStringLiteral("dry"), QStringLiteral("temperature"),
            QStringLiteral("top-k"), QStringLiteral("top-p"), QStringLiteral("min-p"), QStringLiteral("typical"),
            QStringLiteral("xtc"), QStringLiteral("top-n-sigma"), QStringLiteral("mirostat"),
            QStringLiteral("mirostat-v1")};
}

QStringList StageOrderModel::presets() {
    return {QStringLiteral("hf"), QStringLiteral("llama.cpp"), QStringLiteral("mirostat"), QStringLiteral("mirostat-v1")};
}

namespace {
// The stage a preset exists for ("" if none): the Mirostat orders are for their Mirostat stage.
QString definingStage(const QString& preset) { return preset.startsWith(QLatin1String("mirostat")) ? preset : QString(); }

QStringList presetStages(const QString& preset) {
    QStringList out;
    for (const std::string& s : resolveStageOrder(preset.toStdString())) out << QString::fromStdString(s);
    return out;
}
}  // namespace

QList<bool> StageOrderModel::defaultEnabled() const {
    QList<bool> on;
    const QStringList def = defaultStages();
    for (const QString& s : known_) on << def.contains(s);
    return on;
}

StageOrderModel::StageOrderModel(QObject* parent) : StageOrderModel(allStages(), parent) {}

StageOrderModel::StageOrderModel(const QStringList& stages, QObject* parent) : QAbstractListModel(parent), known_(stages) {
    stages_ = known_;
    enabled_ = defaultEnabled();
    if (auto* app = QCoreApplication::instance()) app->installEventFilter(this);
}

void StageOrderModel::applyPreset(const QString& preset) {
    // A preset is an order, not a set of switches: each of its stages keeps its tick (llama.cpp's
    // chain has typical-p, XTC and top-n-σ in it, neutral until set), stages it does not have go
    // to the end unticked, and its defining stage is ticked (Mirostat's preset is for Mirostat).
    QStringList list;
    QList<bool> on;
    for (const QString& s : presetStages(preset)) {
        if (!known_.contains(s)) continue;
        list << s;
        on << (isEnabled(s) || s == definingStage(preset));
    }
    for (const QString& s : known_) {
        if (list.contains(s)) continue;
        list << s;
        on << false;
    }
    replaceAll(list, on);
}

QString StageOrderModel::matchingPreset() const {
    // The first preset whose order holds every ticked stage in the same relative order.
    QStringList ticked;
    for (int i = 0; i < stages_.size(); ++i)
        if (enabled_[i]) ticked << stages_[i];
    for (const QString& p : presets()) {
        const QStringList order = presetStages(p);
        qsizetype at = 0;
        bool fits = true;
        for (const QString& s : ticked) {
            at = order.indexOf(s, at);
            if (at < 0) {
                fits = false;
                break;
            }
            ++at;
        }
        if (fits && (definingStage(p).isEmpty() || ticked.contains(definingStage(p)))) return p;
    }
    return {};
}

bool StageOrderModel::isEnabled(const QString& stage) const {
    const int row = stages_.indexOf(stage);
    return row >= 0 && enabled_[row];
}

void StageOrderModel::setEnabled(const QString& stage, bool enabled) {
    const int row = stages_.indexOf(stage);
    if (row < 0 || enabled_[row] == enabled) return;
    enabled_[row] = enabled;
    emit dataChanged(index(row), index(row), {Qt::CheckStateRole});
    emit orderChanged();
}

QString StageOrderModel::order() const {
    QStringList on;
    for (int i = 0; i < stages_.size(); ++i)
        if (enabled_[i]) on << stages_[i];
    return on.join(QLatin1Char(','));
}

void StageOrderModel::setOrder(const QStringList& stages, const QStringList& enabled) {
    const QStringList& known = known_;
    QStringList list;
    for (const QString& s : stages)
        if (known.contains(s) && !list.contains(s)) list << s;
    QList<bool> on;
    for (const QString& s : list) on << enabled.contains(s);
    for (const QString& s : known) {
        if (list.contains(s)) continue;
        list << s;
        on << false;
    }
    replaceAll(list, on);
}

void StageOrderModel::reset() { replaceAll(known_, defaultEnabled()); }

void StageOrderModel::replaceAll(const QStringList& stages, const QList<bool>& enabled) {
    if (stages == stages_ && enabled == enabled_) return;
    beginResetModel();
    stages_ = stages;
    enabled_ = enabled;
    endResetModel();
    emit orderChanged();
}

bool StageOrderModel::moveStage(int from, int to) {
    const int n = int(stages_.size());
    if (from < 0 || from >= n || to < 0 || to >= n || from == to) return false;
    // moveRows() inserts before its destination row as counted before the move: one further
    // down when moving down.
    return moveRows({}, from, 1, {}, to > from ? to + 1 : to);
}

bool StageOrderModel::moveBlock(int sourceRow, int count, int destinationChild) {
    const int n = int(stages_.size());
    if (count < 1 || sourceRow < 0 || sourceRow + count > n || destinationChild < 0 || destinationChild > n)
        return false;
    // Before or right after itself: nothing moves (beginMoveRows() would refuse it too).
    if (destinationChild >= sourceRow && destinationChild <= sourceRow + count) return false;
    if (!beginMoveRows({}, sourceRow, sourceRow + count - 1, {}, destinationChild)) return false;
    const QStringList names = stages_.mid(sourceRow, count);
    const QList<bool> on = enabled_.mid(sourceRow, count);
    stages_.remove(sourceRow, count);
    enabled_.remove(sourceRow, count);
    const int at = destinationChild > sourceRow ? destinationChild - count : destinationChild;
    for (int i = 0; i < count; ++i) {
        stages_.insert(at + i, names[i]);
        enabled_.insert(at + i, on[i]);
    }
    endMoveRows();
    return true;
}

int StageOrderModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(stages_.size());
}

QVariant StageOrderModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const QString& stage = stages_[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return widgets::stageTitle(stage);
    case Qt::ToolTipRole:
        return widgets::stageExplanation(stage);
    case Qt::UserRole:
        return stage;
    case Qt::CheckStateRole:
        return int(enabled_[index.row()] ? Qt::Checked : Qt::Unchecked);
    default:
        return {};
    }
}

bool StageOrderModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::CheckStateRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    bool ok = false;
    const int state = value.toInt(&ok);
    if (!ok) return false;
    setEnabled(stages_[index.row()], state == Qt::Checked);
    return true;
}

Qt::ItemFlags StageOrderModel::flags(const QModelIndex& index) const {
    // Drops land between items (the invalid parent), never on one: a drop reorders.
    if (!index.isValid()) return Qt::ItemIsDropEnabled;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled |
           Qt::ItemNeverHasChildren;
}

bool StageOrderModel::moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                               const QModelIndex& destinationParent, int destinationChild) {
    if (sourceParent.isValid() || destinationParent.isValid()) return false;
    if (!moveBlock(sourceRow, count, destinationChild)) return false;
    emit orderChanged();
    return true;
}

Qt::DropActions StageOrderModel::supportedDropActions() const {
    return Qt::MoveAction;
}

QStringList StageOrderModel::mimeTypes() const {
    return {kMimeType};
}

QMimeData* StageOrderModel::mimeData(const QModelIndexList& indexes) const {
    // The dragged rows and their stage names; the drop finds the stages by name, so a drag that
    // started before the list changed still moves the stage that was picked up.
    QList<int> rows;
    for (const QModelIndex& i : indexes)
        if (checkIndex(i, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) && !rows.contains(i.row()))
            rows << i.row();
    if (rows.isEmpty()) return nullptr;
    std::sort(rows.begin(), rows.end());
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << qint32(rows.size());
    for (int r : rows) out << qint32(r) << stages_[r];
    auto* mime = new QMimeData;
    mime->setData(kMimeType, bytes);
    return mime;
}

bool StageOrderModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                                   const QModelIndex& parent) {
    if (!data || action != Qt::MoveAction || !data->hasFormat(kMimeType)) return false;
    QByteArray bytes = data->data(kMimeType);
    QDataStream in(&bytes, QIODevice::ReadOnly);
    qint32 n = 0;
    in >> n;
    QStringList names;
    for (qint32 i = 0; i < n && in.status() == QDataStream::Ok; ++i) {
        qint32 r = -1;
        QString name;
        in >> r >> name;
        if (in.status() != QDataStream::Ok) break;
        if (stages_.contains(name) && !names.contains(name)) names << name;
    }
    if (names.isEmpty()) return false;

    // Where the drop lands, as a moveRows() destination: between items (row, invalid parent),
    // on an item (parent = that item: before it; not offered by flags()), or on the empty
    // viewport below the last item (row -1: the end).
    int dest = row;
    if (parent.isValid()) dest = parent.row();
    if (dest < 0 || dest > stages_.size()) dest = int(stages_.size());

    // The dragged stages land together, in their current order (what QListView does itself).
    std::sort(names.begin(), names.end(),
              [this](const QString& a, const QString& b) { return stages_.indexOf(a) < stages_.indexOf(b); });
    bool moved = false;
    for (const QString& name : names) {
        const int from = int(stages_.indexOf(name));
        if (dest != from && dest != from + 1) moved = moveBlock(from, 1, dest) || moved;
        dest = int(stages_.indexOf(name)) + 1;
    }
    if (moved) emit orderChanged();
    return true;
}

bool StageOrderModel::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::LanguageChange && watched == QCoreApplication::instance() && !stages_.isEmpty())
        emit dataChanged(index(0), index(int(stages_.size()) - 1), {Qt::DisplayRole, Qt::ToolTipRole});
    return QAbstractListModel::eventFilter(watched, e);
}

}  // namespace dlab::ui
