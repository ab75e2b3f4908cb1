#include "ui/chat/chat_page.h"

#include <QCheckBox>
#include <QEvent>
#include <QJsonDocument>
#include <QKeySequence>
#include <QLocale>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/chat/chat_model.h"
#include "ui/chat/chat_controller.h"
#include "ui/engine/engine_context.h"
#include "ui_chat_page.h"
#include "widgets/token_strip.h"
#include "widgets/number_text.h"

namespace dlab::ui {

namespace {

const QString kUser = QStringLiteral("user");
const QString kAssistant = QStringLiteral("assistant");
const QString kSystem = QStringLiteral("system");

// Within this many pixels of the bottom counts as "at the bottom" (the transcript follows new text).
constexpr int kTailSlack = 8;

}  // namespace

ChatPage::ChatPage(QWidget* parent) : Page(parent), ui_(std::make_unique<Ui::ChatPage>()) {
    ui_->setupUi(this);
    model_ = new ChatModel(this);
    // Set in code, not in the .ui: retranslateUi() would otherwise reset what the user wrote.
    ui_->systemPromptEdit->setPlainText(QStringLiteral("You are a helpful assistant."));

    connect(ui_->sendButton, &QPushButton::clicked, this, &ChatPage::send);
    connect(ui_->stopButton, &QPushButton::clicked, this, &ChatPage::stop);
    connect(ui_->regenerateButton, &QPushButton::clicked, this, &ChatPage::regenerate);
    connect(ui_->clearButton, &QPushButton::clicked, this, &ChatPage::clearChat);
    connect(ui_->inputEdit, &QPlainTextEdit::textChanged, this, &ChatPage::updateEnabled);
    jsonModeCheck_ = new QCheckBox(this);
    jsonModeCheck_->setObjectName(QStringLiteral("jsonModeCheck"));
    ui_->buttonRow->insertWidget(ui_->buttonRow->indexOf(ui_->maxTokensSpin) + 1, jsonModeCheck_);
    connect(jsonModeCheck_, &QCheckBox::toggled, this, [this](bool on) {
        emit jsonModeRequested(on);
        updateSampling();
        emit settingsChanged();
    });
    connect(ui_->maxTokensSpin, &QSpinBox::valueChanged, this, &Page::settingsChanged);

    // Page-wide shortcuts: active while the focus is anywhere on this page (not on other pages).
    for (const QKeySequence& keys : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* sendShortcut = new QShortcut(keys, this);
        sendShortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(sendShortcut, &QShortcut::activated, this, &ChatPage::send);
    }
    // Esc is taken only while an answer streams; otherwise it stays with the focused widget.
    stopShortcut_ = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    stopShortcut_->setContext(Qt::WidgetWithChildrenShortcut);
    connect(stopShortcut_, &QShortcut::activated, this, &ChatPage::stop);

    connect(model_, &ChatModel::rowsInserted, this, &ChatPage::onRowsInserted);
    connect(model_, &ChatModel::rowsAboutToBeRemoved, this, &ChatPage::onRowsAboutToBeRemoved);
    connect(model_, &ChatModel::modelReset, this, &ChatPage::onModelReset);
    connect(model_, &ChatModel::dataChanged, this, &ChatPage::onDataChanged);

    // Follow the tail while the user is at the bottom; scrolling up stops that until they return.
    QScrollBar* bar = ui_->transcriptArea->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) { followTail_ = value >= bar->maximum() - kTailSlack; });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (followTail_) bar->setValue(max);
    });

    retranslateJsonMode();
    updateEnabled();
    updateStatus();
    updateSampling();
}

ChatPage::~ChatPage() = default;

void ChatPage::retranslateJsonMode() {
    jsonModeCheck_->setText(tr("JSON mode"));
    jsonModeCheck_->setToolTip(tr("Constrain every reply to one JSON object: at each step the sampler forbids every token "
                                  "that would break it (the prompt is not constrained). Applies from the next reply."));
}

int ChatPage::maxTokens() const { return ui_->maxTokensSpin->value(); }

void ChatPage::saveSettings(QSettings& s) const {
    s.setValue(QStringLiteral("chat/jsonMode"), jsonModeCheck_->isChecked());
    s.setValue(QStringLiteral("chat/maxTokens"), ui_->maxTokensSpin->value());
}

void ChatPage::restoreSettings(QSettings& s) {
    ui_->maxTokensSpin->setValue(s.value(QStringLiteral("chat/maxTokens"), ui_->maxTokensSpin->value()).toInt());
    // Toggling tells the controller, which compiles JSON mode for each model it gets.
    jsonModeCheck_->setChecked(s.value(QStringLiteral("chat/jsonMode"), false).toBool());
}
QPlainTextEdit* ChatPage::systemPromptEdit() const { return ui_->systemPromptEdit; }
QPlainTextEdit* ChatPage::inputEdit() const { return ui_->inputEdit; }
QAbstractButton* ChatPage::sendButton() const { return ui_->sendButton; }
QAbstractButton* ChatPage::stopButton() const { return ui_->stopButton; }
QAbstractButton* ChatPage::regenerateButton() const { return ui_->regenerateButton; }
QAbstractButton* ChatPage::clearButton() const { return ui_->clearButton; }
QScrollArea* ChatPage::transcriptArea() const { return ui_->transcriptArea; }
QLabel* ChatPage::samplingLabel() const { return ui_->samplingLabel; }

QString ChatPage::title() const { return tr("C&hat"); }

QString ChatPage::toolTip() const { return tr("Talk to the model with its chat template, with the playground's sampler settings"); }

void ChatPage::attachEngine(EngineContext* engine) {
    auto* c = new ChatController(engine);
    controller_ = c;
    connect(this, &ChatPage::chatRequested, c, &ChatController::chat);
    connect(this, &ChatPage::jsonModeRequested, c, &ChatController::setJsonMode);
    connect(this, &ChatPage::stopRequested, this, [engine] { engine->cancel(); });
    connect(c, &ChatController::chatStarted, this, &ChatPage::onChatStarted);
    connect(c, &ChatController::chatTokens, this, &ChatPage::onChatTokens);
    connect(c, &ChatController::chatFinished, this, &ChatPage::onChatFinished);
    connect(c, &ChatController::failed, this, &ChatPage::requestFailed);
    connect(c, &ChatController::failed, this, &Page::errorOccurred);
    // The status bar: the answer's speed, the conversation's context and KV memory.
    connect(this, &ChatPage::answerFinished, this, [this](const ChatStats& stats) {
        status_.tokensPerSecond = stats.tokensPerSecond;
        status_.timeToFirstTokenMs = stats.timeToFirstTokenMs;
        status_.promptTokens = stats.promptTokens;
        status_.reusedTokens = stats.reusedTokens;
        status_.prefill = false;
        emit statusChanged();
    });
    connect(this, &ChatPage::chatStatusChanged, this, [this] {
        status_.contextUsed = contextUsed();
        status_.kvBytes = std::max<qint64>(0, kvBytes());
        if (status_.contextUsed <= 0) status_ = {};   // cleared: nothing in the chat's cache
        status_.contextToolTip = tr("Positions the conversation uses, of the context the chat allows");
        emit statusChanged();
    });
}

void ChatPage::setModelReady(bool ready) {
    status_ = {};
    status_.contextToolTip = tr("Positions the conversation uses, of the context the chat allows");
    emit statusChanged();
    modelReady_ = ready;
    updateEnabled();
    updateStatus();
}

void ChatPage::setSamplerParams(const SamplerParams& params) {
    params_ = params;
    updateSampling();
}

void ChatPage::send() {
    if (!modelReady_ || generating_) return;
    const QString text = ui_->inputEdit->toPlainText().trimmed();
    if (text.isEmpty()) return;
    followTail();
    model_->appendMessage(kUser, text);
    ui_->inputEdit->clear();
    startAnswer();
}

void ChatPage::startAnswer() {
    QList<ChatTurn> conversation;
    const QString system = ui_->systemPromptEdit->toPlainText();
    if (!system.trimmed().isEmpty()) conversation.append({kSystem, system});
    conversation.append(model_->conversation());

    // Each answer of a conversation draws from the next seed: Regenerate gets a different answer
    // (unless the sampler is greedy), and a cleared chat replays the same answers.
    SamplerParams params = params_;
    params.seed = params_.seed + static_cast<uint64_t>(answersAsked_++);
    followTail();
    model_->appendAnswer(params);
    generating_ = true;
    started_ = stopPending_ = discardAnswer_ = false;
    promptTokens_ = 0;
    updateEnabled();
    updateStatus();
    updateSampling();
    emit chatRequested(conversation, params, maxTokens());
}

void ChatPage::stop() {
    if (!generating_) return;
    // A Stop before the worker took the request up would be forgotten (chat() starts by lowering
    // the flag): ask again once the answer has started.
    if (!started_) stopPending_ = true;
    emit stopRequested();
}

void ChatPage::regenerate() {
    if (!modelReady_ || generating_) return;
    const ChatModel::Message* last = model_->last();
    if (last && last->role == kAssistant) model_->removeLast();
    last = model_->last();
    if (!last || last->role != kUser) {
        updateEnabled();
        return;
    }
    startAnswer();
}

void ChatPage::clearChat() {
    if (generating_) {
        // The answer in flight has no row left to go to: stop it and drop what still arrives.
        discardAnswer_ = true;
        stop();
    }
    model_->clear();
    answersAsked_ = 0;
    updateEnabled();
    updateStatus();
    updateSampling();
    setChatStatus(0, 0);  // nothing of the conversation is left to show
}

void ChatPage::setChatStatus(qint64 contextUsed, qint64 kvBytes) {
    if (contextUsed == contextUsed_ && kvBytes == kvBytes_) return;
    contextUsed_ = contextUsed;
    kvBytes_ = kvBytes;
    emit chatStatusChanged();
}

void ChatPage::onChatStarted(int promptTokens) {
    if (!generating_) return;
    started_ = true;
    promptTokens_ = promptTokens;
    if (stopPending_) {
        stopPending_ = false;
        emit stopRequested();
    }
    updateStatus();
}

void ChatPage::onChatTokens(const QList<widgets::StripToken>& tokens) {
    if (!generating_ || discardAnswer_) return;
    model_->appendTokensToLast(tokens);
}

void ChatPage::onChatFinished(const ChatStats& stats) {
    if (!generating_) return;
    if (!discardAnswer_) {
        model_->finishLast(stats);
        if (stats.contextUsed >= 0) setChatStatus(stats.contextUsed, stats.kvBytes);
    }
    generating_ = started_ = stopPending_ = discardAnswer_ = false;
    updateEnabled();
    updateStatus();
    emit answerFinished(stats);
}

void ChatPage::requestFailed() {
    if (!generating_) return;
    if (!discardAnswer_ && model_->isStreaming()) {
        // Keep what arrived (marked as failed); an answer with nothing in it goes.
        if (model_->last()->tokens.isEmpty()) {
            model_->removeLast();
        } else {
            ChatStats stats;
            stats.promptTokens = promptTokens_;
            stats.tokens = static_cast<int>(model_->last()->tokens.size());
            stats.stopReason = QStringLiteral("error");
            model_->finishLast(stats);
        }
    }
    generating_ = started_ = stopPending_ = discardAnswer_ = false;
    updateEnabled();
    updateStatus();
}

// --- the transcript: one view per model row -----------------------------------------------------

ChatPage::MessageView ChatPage::makeView(int row) {
    const ChatModel::Message& m = model_->message(row);
    MessageView v;
    v.frame = new QWidget(ui_->transcriptWidget);
    v.frame->setObjectName(QStringLiteral("message"));
    auto* layout = new QVBoxLayout(v.frame);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->setSpacing(2);

    v.header = new QLabel(v.frame);
    v.header->setObjectName(QStringLiteral("headerLabel"));
    QFont bold = v.header->font();
    bold.setBold(true);
    v.header->setFont(bold);
    layout->addWidget(v.header);

    if (m.role == kAssistant) {
        v.strip = new widgets::TokenStrip(v.frame);
        v.strip->setObjectName(QStringLiteral("answerStrip"));
        v.strip->setBranchingEnabled(false);
        v.strip->setTokens(m.tokens);
        layout->addWidget(v.strip);
        v.caption = new QLabel(v.frame);
        v.caption->setObjectName(QStringLiteral("captionLabel"));
        QFont small = v.caption->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        v.caption->setFont(small);
        v.caption->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(v.caption);
    } else {
        v.text = new QLabel(m.text, v.frame);
        v.text->setObjectName(QStringLiteral("messageLabel"));
        v.text->setTextFormat(Qt::PlainText);
        v.text->setWordWrap(true);
        v.text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        layout->addWidget(v.text);
    }
    return v;
}

void ChatPage::onRowsInserted(const QModelIndex& parent, int first, int last) {
    if (parent.isValid()) return;
    for (int row = first; row <= last; ++row) {
        MessageView v = makeView(row);
        // Rows come before the spacer that keeps a short transcript at the top.
        ui_->transcriptLayout->insertWidget(row, v.frame);
        views_.insert(views_.begin() + row, v);
        updateTexts(row);
    }
    updateEnabled();
}

void ChatPage::onRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last) {
    if (parent.isValid()) return;
    for (int row = last; row >= first; --row) {
        delete views_[static_cast<size_t>(row)].frame;  // leaves the layout by itself
        views_.erase(views_.begin() + row);
    }
}

void ChatPage::onModelReset() {
    for (MessageView& v : views_) delete v.frame;
    views_.clear();
    if (model_->rowCount() > 0) onRowsInserted({}, 0, model_->rowCount() - 1);
    updateEnabled();
}

void ChatPage::onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles) {
    const bool tokens = roles.isEmpty() || roles.contains(ChatModel::TokensRole);
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) updateView(row, tokens);
}

void ChatPage::updateView(int row, bool tokensChanged) {
    if (row < 0 || row >= static_cast<int>(views_.size())) return;
    const MessageView& v = views_[static_cast<size_t>(row)];
    const ChatModel::Message& m = model_->message(row);
    if (v.strip && tokensChanged) {
        // A streamed row only grows: append the new chips instead of re-laying out the whole answer.
        const qsizetype have = v.strip->tokens().size();
        if (have <= m.tokens.size())
            v.strip->appendTokens(m.tokens.mid(have));
        else
            v.strip->setTokens(m.tokens);
    }
    if (v.text) v.text->setText(m.text);
    updateTexts(row);
}

void ChatPage::updateTexts(int row) {
    const MessageView& v = views_[static_cast<size_t>(row)];
    const ChatModel::Message& m = model_->message(row);
    v.header->setText(m.role == kUser ? tr("You") : m.role == kAssistant ? tr("Assistant") : tr("System"));
    if (v.caption) v.caption->setText(captionFor(row));
}

QString ChatPage::captionFor(int row) const {
    const ChatModel::Message& m = model_->message(row);
    // The second line: the settings this answer was generated with (they may differ from today's).
    const QString sampled = QLatin1Char('\n') + tr("Sampled with %1").arg(samplingSummary(m.sampling));
    if (m.streaming) {
        return (m.tokens.isEmpty() ? tr("Reading the prompt…") : tr("Generating… %n token(s)", nullptr, int(m.tokens.size()))) +
               sampled;
    }
    if (!m.finished) return {};
    const ChatStats& s = m.stats;
    QString why;
    if (s.stopReason == QLatin1String("stopped"))
        why = tr("stopped");
    else if (s.stopReason == QLatin1String("eos"))
        why = tr("end of answer");
    else if (s.stopReason == QLatin1String("length"))
        why = tr("max tokens reached");
    else if (s.stopReason == QLatin1String("context"))
        why = tr("context full");
    else if (s.stopReason == QLatin1String("error"))
        why = tr("failed");
    else
        why = s.stopReason;
    QString json;
    if (s.jsonMode)
        json = QStringLiteral(" · ") + (isJsonObject(m.text) ? tr("JSON mode: one valid JSON object")
                                        : s.stopReason == QLatin1String("eos") ? tr("JSON mode: not a JSON object")
                                                                              : tr("JSON mode: the object is not finished"));
    return tr("TTFT %1 ms · %2 tokens/s · %n token(s) · %3", nullptr, s.tokens)
               .arg(qRound(s.timeToFirstTokenMs))
               .arg(widgets::decimalText(s.tokensPerSecond, 1))
               .arg(why) +
           json + sampled;
}

QString ChatPage::samplingSummary(const SamplerParams& p, int answersSoFar) {
    const auto num = [](double v) { return widgets::shortNumberText(v); };
    QStringList parts;
    const bool greedy = p.temperature <= 0.0f;
    if (greedy) {
        parts << tr("greedy (temperature 0)");
    } else {
        parts << tr("temperature %1").arg(num(p.temperature));
        if (p.topK > 0) parts << tr("top-k %1").arg(p.topK);
        if (p.topP < 1.0f) parts << tr("top-p %1").arg(num(p.topP));
        if (p.minP > 0.0f) parts << tr("min-p %1").arg(num(p.minP));
        if (p.typicalP < 1.0f) parts << tr("typical-p %1").arg(num(p.typicalP));
        if (p.topNSigma > 0.0f) parts << tr("top-n-σ %1").arg(num(p.topNSigma));
        if (p.xtcProbability > 0.0f) parts << tr("XTC %1 / %2").arg(num(p.xtcProbability), num(p.xtcThreshold));
        if (p.mirostatTau > 0.0f) parts << tr("Mirostat τ %1").arg(num(p.mirostatTau));
    }
    // Penalties and biases change the logits, so they matter for greedy answers too.
    if (p.repeatPenalty != 1.0f) parts << tr("repetition penalty %1").arg(num(p.repeatPenalty));
    if (p.frequencyPenalty != 0.0f) parts << tr("frequency penalty %1").arg(num(p.frequencyPenalty));
    if (p.presencePenalty != 0.0f) parts << tr("presence penalty %1").arg(num(p.presencePenalty));
    if (p.dryMultiplier > 0.0f) parts << tr("DRY %1").arg(num(p.dryMultiplier));
    if (p.noRepeatNgram > 0) parts << tr("no repeated %1-grams").arg(p.noRepeatNgram);
    if (!p.logitBias.empty()) parts << tr("%n logit bias(es)", nullptr, int(p.logitBias.size()));
    if (!greedy && answersSoFar > 0)
        parts << tr("seed %1 (the Playground's seed %2 + %3, one per answer so far)")
                     .arg(p.seed + static_cast<uint64_t>(answersSoFar))
                     .arg(p.seed)
                     .arg(answersSoFar);
    else if (!greedy)
        parts << tr("seed %1").arg(p.seed);
    return parts.join(QStringLiteral(" · "));
}

void ChatPage::updateSampling() {
    // The settings the next answer uses: the seed is the one it will draw from (each answer moves
    // the Playground's seed on by one, so asking again gives another answer).
    QString text = tr("Sampling: %1 — set on the Playground").arg(samplingSummary(params_, answersAsked_));
    if (jsonMode()) text += QStringLiteral(" · ") + tr("JSON mode: each reply is one JSON object");
    ui_->samplingLabel->setText(text);
}

bool ChatPage::jsonMode() const { return jsonModeCheck_ && jsonModeCheck_->isChecked(); }

bool ChatPage::isJsonObject(const QString& text) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    return error.error == QJsonParseError::NoError && doc.isObject();
}

// --- state ----------------------------------------------------------------------------------------

void ChatPage::updateEnabled() {
    const bool idle = !generating_;
    ui_->sendButton->setEnabled(modelReady_ && idle && !ui_->inputEdit->toPlainText().trimmed().isEmpty());
    ui_->stopButton->setEnabled(generating_);
    stopShortcut_->setEnabled(generating_);
    ui_->regenerateButton->setEnabled(modelReady_ && idle && model_->hasUserMessage());
    ui_->clearButton->setEnabled(idle && model_->rowCount() > 0);
    jsonModeCheck_->setEnabled(idle);   // it applies from the next reply: not to one half-way
}

void ChatPage::updateStatus() {
    QString s;
    if (generating_)
        s = started_ ? tr("Answering a prompt of %1 tokens… (Esc stops)").arg(promptTokens_) : tr("Waiting for the model…");
    else if (!modelReady_)
        s = tr("No model loaded.");
    ui_->statusLabel->setText(s);
}

void ChatPage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        ui_->retranslateUi(this);
        retranslateJsonMode();
        for (int row = 0; row < static_cast<int>(views_.size()); ++row) updateTexts(row);
        updateStatus();
        updateSampling();
    }
    QWidget::changeEvent(e);
}

void ChatPage::followTail() {
    QScrollBar* bar = ui_->transcriptArea->verticalScrollBar();
    followTail_ = true;
    bar->setValue(bar->maximum());
}

}  // namespace dlab::ui
