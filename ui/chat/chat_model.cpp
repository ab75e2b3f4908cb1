#include "ui/chat/chat_model.h"

namespace dlab::ui {

ChatModel::ChatModel(QObject* parent) : QAbstractListModel(parent) {}

int ChatModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(messages_.size());
}

QVariant ChatModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Message& m = messages_.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return m.text;
    case RoleRole:
        return m.role;
    case TokensRole:
        return QVariant::fromValue(m.tokens);
    case StatsRole:
        return m.finished ? QVariant::fromValue(m.stats) : QVariant();
    case StreamingRole:
        return m.streaming;
    case SamplingRole:
        return m.role == QLatin1String("assistant") ? QVariant::fromValue(m.sampling) : QVariant();
    default:
        return {};
    }
}

QHash<int, QByteArray> ChatModel::roleNames() const {
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(RoleRole, "role");
    names.insert(TokensRole, "tokens");
    names.insert(StatsRole, "stats");
    names.insert(StreamingRole, "streaming");
    names.insert(SamplingRole, "sampling");
    return names;
}

int ChatModel::appendMessage(const QString& role, const QString& text, bool streaming) {
    const int row = static_cast<int>(messages_.size());
    beginInsertRows({}, row, row);
    Message m;
    m.role = role;
    m.text = text;
    m.streaming = streaming;
    messages_.append(std::move(m));
    endInsertRows();
    return row;
}

int ChatModel::appendAnswer(const SamplerParams& sampling) {
    const int row = static_cast<int>(messages_.size());
    beginInsertRows({}, row, row);
    Message m;
    m.role = QStringLiteral("assistant");
    m.sampling = sampling;
    m.streaming = true;
    messages_.append(std::move(m));
    endInsertRows();
    return row;
}

void ChatModel::appendTokensToLast(const QList<widgets::StripToken>& tokens) {
    if (tokens.isEmpty() || !isStreaming()) return;
    Message& m = messages_.last();
    m.tokens.append(tokens);
    for (const widgets::StripToken& t : tokens) m.text += t.text;
    const QModelIndex i = index(static_cast<int>(messages_.size()) - 1);
    emit dataChanged(i, i, {Qt::DisplayRole, Qt::EditRole, TokensRole});
}

void ChatModel::finishLast(const ChatStats& stats) {
    if (messages_.isEmpty()) return;
    Message& m = messages_.last();
    m.stats = stats;
    m.finished = true;
    m.streaming = false;
    const QModelIndex i = index(static_cast<int>(messages_.size()) - 1);
    emit dataChanged(i, i, {StatsRole, StreamingRole});
}

void ChatModel::removeLast() {
    if (messages_.isEmpty()) return;
    const int row = static_cast<int>(messages_.size()) - 1;
    beginRemoveRows({}, row, row);
    messages_.removeLast();
    endRemoveRows();
}

void ChatModel::clear() {
    if (messages_.isEmpty()) return;
    beginResetModel();
    messages_.clear();
    endResetModel();
}

bool ChatModel::hasUserMessage() const {
    for (const Message& m : messages_)
        if (m.role == QLatin1String("user")) return true;
    return false;
}

QList<ChatTurn> ChatModel::conversation() const {
    QList<ChatTurn> turns;
    for (const Message& m : messages_) {
        if (m.streaming) continue;
        if (m.role == QLatin1String("user") || m.role == QLatin1String("assistant")) turns.append({m.role, m.text});
    }
    return turns;
}

}  // namespace dlab::ui
