#pragma once
// The chat page's conversation as a list model: one row per message. Assistant rows also carry
// their answer as strip chips (for hover alternatives) and, once finished, how the answer went.
// The row being streamed grows through appendTokensToLast(), which emits dataChanged for that row
// only, so a view can append the new chips instead of redrawing the transcript.
#include <QAbstractListModel>
#include <QList>
#include <QString>

#include "ui/engine/engine_types.h"

namespace dlab::ui {

class ChatModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles {
        RoleRole = Qt::UserRole + 1,  // QString: "system", "user", "assistant"
        TokensRole,                   // QList<widgets::StripToken>: the answer's chips (assistant rows)
        StatsRole,                    // ChatStats once the answer finished, else an invalid QVariant
        StreamingRole,                // bool: the answer is still arriving
        SamplingRole,                 // SamplerParams the answer was generated with (assistant rows)
    };

    struct Message {
        QString role;
        QString text;                           // for assistant rows: every chip's text concatenated
        QList<widgets::StripToken> tokens;
        ChatStats stats;
        SamplerParams sampling;                 // assistant rows: the settings of the answer
        bool finished = false;                  // stats are valid
        bool streaming = false;
    };

    explicit ChatModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Appends a message and returns its row. A streaming row is an answer still to come.
    int appendMessage(const QString& role, const QString& text = {}, bool streaming = false);
    // Appends an assistant row still to come, generated with `sampling`; returns its row.
    int appendAnswer(const SamplerParams& sampling);
    // Adds chips (and their text) to the last row; ignored when the last row is not streaming.
    void appendTokensToLast(const QList<widgets::StripToken>& tokens);
    // Ends the last row's stream with its statistics (no-op on an empty model).
    void finishLast(const ChatStats& stats);
    void removeLast();
    void clear();

    const Message& message(int row) const { return messages_.at(row); }
    const Message* last() const { return messages_.isEmpty() ? nullptr : &messages_.constLast(); }
    bool isStreaming() const { return last() && last()->streaming; }
    // Whether a user message exists (an answer can be asked for).
    bool hasUserMessage() const;

    // The user and assistant turns in order (system messages and an answer still streaming are
    // left out: the page puts its system prompt first).
    QList<ChatTurn> conversation() const;

private:
    QList<Message> messages_;
};

}  // namespace dlab::ui
