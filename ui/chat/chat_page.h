#pragma once
// The chat page: a multi-turn conversation with the model's chat template, an editable system
// prompt, streamed answers with Stop, Regenerate and Clear, time-to-first-token and tokens/s per
// answer, and token alternatives on hover (each answer is a TokenStrip). The sampler settings
// are the playground's (it publishes them, the shell passes them on); a line above the input shows them, and each
// answer's caption the ones it was generated with. Like the playground, the page never calls
// the engine: it emits requests and shows what comes back.
#include <memory>

#include "ui/app/page.h"
#include "ui/engine/engine_types.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QCheckBox;
class QLabel;
class QModelIndex;
class QPlainTextEdit;
class QScrollArea;
class QShortcut;
QT_END_NAMESPACE

namespace Ui {
class ChatPage;
}

namespace dlab::widgets {
class TokenStrip;
}

namespace dlab::ui {

class ChatController;
class ChatModel;

class ChatPage : public Page {
    Q_OBJECT
public:
    explicit ChatPage(QWidget* parent = nullptr);
    ~ChatPage() override;

    QString pageId() const override { return QStringLiteral("chat"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    PageStatus status() const override { return status_; }
    void saveSettings(QSettings& settings) const override;     // JSON mode and max tokens
    void restoreSettings(QSettings& settings) override;
    void setSharedSamplerParams(const SamplerParams& params) override { setSamplerParams(params); }
    ChatController* controller() const { return controller_; }   // lives on the engine thread

    ChatModel* model() const { return model_; }
    bool generating() const { return generating_; }
    int maxTokens() const;
    // The chat session after the latest answer, for the status bar: positions of the
    // conversation and KV cache bytes; -1 before any answer, 0 after Clear.
    qint64 contextUsed() const { return contextUsed_; }
    qint64 kvBytes() const { return kvBytes_; }
    // "temperature 0.8 · top-k 40 · top-p 0.95 · seed 0", the stages that are on (translated).
    // answersSoFar > 0: the seed the next answer draws from, params.seed + answersSoFar, said as
    // such ("seed 12 (the Playground's 11 + 1 answer)"), since the Playground shows params.seed.
    static QString samplingSummary(const SamplerParams& params, int answersSoFar = 0);

    // Test and automation hooks onto the controls.
    QPlainTextEdit* systemPromptEdit() const;
    QPlainTextEdit* inputEdit() const;
    QAbstractButton* sendButton() const;
    QAbstractButton* stopButton() const;
    QAbstractButton* regenerateButton() const;
    QAbstractButton* clearButton() const;
    QScrollArea* transcriptArea() const;
    QLabel* samplingLabel() const;
    // JSON mode: every reply from the next one on is one JSON object (the engine's grammar stage
    // forbids every token that would break it); each such reply's caption says whether it parses.
    QCheckBox* jsonModeCheck() const { return jsonModeCheck_; }
    bool jsonMode() const;
    // Whether a finished reply's text is one JSON object (QJsonDocument), for its caption.
    static bool isJsonObject(const QString& text);

public slots:
    void setModelReady(bool ready) override;
    void setSamplerParams(const dlab::SamplerParams& params);
    void send();          // the input as a user message, then an answer
    void stop();          // emits stopRequested() while an answer streams
    void regenerate();    // drops the last answer and asks again
    void clearChat();
    void onChatStarted(int promptTokens);
    void onChatTokens(const QList<dlab::widgets::StripToken>& tokens);
    void onChatFinished(const dlab::ui::ChatStats& stats);
    void requestFailed(); // the worker reported an error: unblock the controls

signals:
    void chatRequested(const QList<dlab::ui::ChatTurn>& conversation, const dlab::SamplerParams& params, int maxTokens);
    void stopRequested();
    // Per answer, for the status bar.
    void answerFinished(const dlab::ui::ChatStats& stats);
    // contextUsed() or kvBytes() changed (an answer ended, or Clear).
    void chatStatusChanged();
    void jsonModeRequested(bool on);

protected:
    void changeEvent(QEvent* e) override;

private:
    // The widgets that show one row of the model, in the transcript's layout at the row's index.
    struct MessageView {
        QWidget* frame = nullptr;
        QLabel* header = nullptr;                 // "You", "Assistant"
        QLabel* text = nullptr;                   // user and system rows
        widgets::TokenStrip* strip = nullptr;     // assistant rows
        QLabel* caption = nullptr;                // assistant rows: TTFT, tokens/s, tokens, why it ended
    };

    void startAnswer();
    void onRowsInserted(const QModelIndex& parent, int first, int last);
    void onRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last);
    void onModelReset();
    void onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles);
    MessageView makeView(int row);
    void updateView(int row, bool tokensChanged);
    void updateTexts(int row);                    // header and caption (code-set, translated)
    QString captionFor(int row) const;
    void updateEnabled();
    void updateStatus();
    void updateSampling();
    void setChatStatus(qint64 contextUsed, qint64 kvBytes);
    void followTail();
    void retranslateJsonMode();

    std::unique_ptr<Ui::ChatPage> ui_;
    ChatController* controller_ = nullptr;
    PageStatus status_;
    ChatModel* model_ = nullptr;
    QShortcut* stopShortcut_ = nullptr;
    QCheckBox* jsonModeCheck_ = nullptr;
    SamplerParams params_;
    bool modelReady_ = false;
    bool generating_ = false;
    bool started_ = false;        // chatStarted() arrived for the answer in flight
    bool stopPending_ = false;    // Stop was asked before the worker started the answer
    bool discardAnswer_ = false;  // the chat was cleared while an answer streamed
    bool followTail_ = true;      // keep the transcript scrolled to the bottom
    int promptTokens_ = 0;
    qint64 contextUsed_ = -1;
    qint64 kvBytes_ = -1;
    int answersAsked_ = 0;        // since the last Clear: the seed offset of the next answer
    std::vector<MessageView> views_;
};

}  // namespace dlab::ui
