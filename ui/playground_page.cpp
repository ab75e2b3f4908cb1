#include "ui/playground_page.h"

#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTimer>

#include <cmath>
#include <functional>

#include "ui/candidate_table_model.h"
#include "ui/stage_order_model.h"
#include "ui_playground_page.h"
#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

namespace dlab::ui {

namespace {
// A slider (integer steps) and its spin box show one value; `scale` slider steps per unit.
template <typename Spin>
void linkSliderAndSpin(QSlider* slider, Spin* spin, double scale, const std::function<void()>& edited) {
    QObject::connect(slider, &QSlider::valueChanged, spin, [=](int v) {
        {
            const QSignalBlocker block(spin);
            spin->setValue(v / scale);
        }
        edited();
    });
    // Qt 6: valueChanged is not overloaded any more, so &Spin::valueChanged is unambiguous.
    QObject::connect(spin, &Spin::valueChanged, slider, [=](auto v) {
        {
            const QSignalBlocker block(slider);
            slider->setValue(static_cast<int>(std::lround(v * scale)));
        }
        edited();
    });
}

constexpr int kDrawIntervalMs = 16;   // one frame: a run draws the newest step at most this often
}  // namespace

PlaygroundPage::PlaygroundPage(QWidget* parent) : QWidget(parent), ui_(std::make_unique<Ui::PlaygroundPage>()) {
    ui_->setupUi(this);
    chart_ = new widgets::DistributionChart(ui_->chartTab);
    ui_->chartLayout->addWidget(chart_);
    waterfall_ = new widgets::SamplerWaterfall(ui_->waterfallBox);
    ui_->waterfallLayout->addWidget(waterfall_);
    strip_ = new widgets::TokenStrip;
    ui_->stripArea->setWidget(strip_);
    ui_->controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    fitControlsWidth();
    ui_->pageSplitter->setStretchFactor(0, 0);
    ui_->pageSplitter->setStretchFactor(1, 1);
    ui_->viewSplitter->setStretchFactor(0, 3);
    ui_->viewSplitter->setStretchFactor(1, 2);
    ui_->viewSplitter->setStretchFactor(2, 2);

    stageModel_ = new StageOrderModel(this);
    ui_->stageList->setModel(stageModel_);
    ui_->stageList->setDragDropMode(QAbstractItemView::InternalMove);
    ui_->stageList->setDefaultDropAction(Qt::MoveAction);
    ui_->stageList->setDragEnabled(true);
    ui_->stageList->setAcceptDrops(true);
    ui_->stageList->setDropIndicatorShown(true);
    connect(stageModel_, &StageOrderModel::orderChanged, this, &PlaygroundPage::onParamsEdited);

    candidateModel_ = new CandidateTableModel(this);
    ui_->candidateTable->setModel(candidateModel_);
    ui_->candidateTable->verticalHeader()->hide();
    ui_->candidateTable->horizontalHeader()->setStretchLastSection(true);

    drawTimer_ = new QTimer(this);
    drawTimer_->setSingleShot(true);
    drawTimer_->setInterval(kDrawIntervalMs);
    connect(drawTimer_, &QTimer::timeout, this, [this] {
        if (!viewPending_) return;
        viewPending_ = false;
        drawView(pendingView_);
    });

    // Shortcuts act at once (a button's own shortcut animates a click and fires 100 ms later,
    // too slow for Stop) and only while the focus is on this page (the chat has its own Esc).
    const auto shortcut = [this](Qt::Key key, void (PlaygroundPage::*slot)()) {
        auto* s = new QShortcut(QKeySequence(key), this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    shortcut(Qt::Key_F10, &PlaygroundPage::step);
    shortcut(Qt::Key_F5, &PlaygroundPage::run);
    shortcut(Qt::Key_Escape, &PlaygroundPage::stop);
    connect(ui_->stepButton, &QPushButton::clicked, this, &PlaygroundPage::step);
    connect(ui_->runButton, &QPushButton::clicked, this, &PlaygroundPage::run);
    connect(ui_->stopButton, &QPushButton::clicked, this, &PlaygroundPage::stop);
    connect(ui_->restartButton, &QPushButton::clicked, this, &PlaygroundPage::restart);
    connect(ui_->defaultsButton, &QPushButton::clicked, this, &PlaygroundPage::resetSampler);
    connect(ui_->loopDemoButton, &QPushButton::clicked, this, &PlaygroundPage::startLoopDemo);
    connect(strip_, &widgets::TokenStrip::alternativeChosen, this, &PlaygroundPage::onAlternativeChosen);
    // A new prompt is a new session: the generated text and chart would no longer belong to it.
    connect(ui_->promptEdit, &QPlainTextEdit::textChanged, this, [this] {
        if (sessionStarted_ && !stepInFlight_ && !running_) restart();
    });

    const auto edited = [this] { onParamsEdited(); };
    linkSliderAndSpin(ui_->temperatureSlider, ui_->temperatureSpin, 100.0, edited);
    linkSliderAndSpin(ui_->topKSlider, ui_->topKSpin, 1.0, edited);
    linkSliderAndSpin(ui_->topPSlider, ui_->topPSpin, 100.0, edited);
    linkSliderAndSpin(ui_->minPSlider, ui_->minPSpin, 100.0, edited);
    linkSliderAndSpin(ui_->repeatPenaltySlider, ui_->repeatPenaltySpin, 100.0, edited);
    linkSliderAndSpin(ui_->frequencyPenaltySlider, ui_->frequencyPenaltySpin, 100.0, edited);
    linkSliderAndSpin(ui_->presencePenaltySlider, ui_->presencePenaltySpin, 100.0, edited);
    linkSliderAndSpin(ui_->seedSlider, ui_->seedSpin, 1.0, edited);
    retranslate();
    updateEnabled();
}

PlaygroundPage::~PlaygroundPage() = default;

QPlainTextEdit* PlaygroundPage::promptEdit() const { return ui_->promptEdit; }
QAbstractButton* PlaygroundPage::stepButton() const { return ui_->stepButton; }
QAbstractButton* PlaygroundPage::runButton() const { return ui_->runButton; }
QAbstractButton* PlaygroundPage::stopButton() const { return ui_->stopButton; }
QAbstractButton* PlaygroundPage::resetButton() const { return ui_->restartButton; }
QAbstractButton* PlaygroundPage::loopDemoButton() const { return ui_->loopDemoButton; }
QSlider* PlaygroundPage::temperatureSlider() const { return ui_->temperatureSlider; }
QSlider* PlaygroundPage::topKSlider() const { return ui_->topKSlider; }
QSlider* PlaygroundPage::topPSlider() const { return ui_->topPSlider; }
QSlider* PlaygroundPage::minPSlider() const { return ui_->minPSlider; }
QSlider* PlaygroundPage::repeatPenaltySlider() const { return ui_->repeatPenaltySlider; }
QSlider* PlaygroundPage::frequencyPenaltySlider() const { return ui_->frequencyPenaltySlider; }
QSlider* PlaygroundPage::presencePenaltySlider() const { return ui_->presencePenaltySlider; }
QSlider* PlaygroundPage::seedSlider() const { return ui_->seedSlider; }
void PlaygroundPage::setRunLength(int tokens) { ui_->runLengthSpin->setValue(tokens); }
QString PlaygroundPage::generatedText() const { return strip_->text(); }

QString PlaygroundPage::loopDemoPrompt() { return QStringLiteral("I like cats. I like dogs. I like"); }

SamplerParams PlaygroundPage::samplerParams() const {
    SamplerParams p;
    const auto on = [this](const char* stage) { return stageModel_->isEnabled(QString::fromLatin1(stage)); };
    p.temperature = on("temperature") ? static_cast<float>(ui_->temperatureSpin->value()) : 1.0f;
    p.topK = on("top-k") ? ui_->topKSpin->value() : 0;
    p.topP = on("top-p") ? static_cast<float>(ui_->topPSpin->value()) : 1.0f;
    p.minP = on("min-p") ? static_cast<float>(ui_->minPSpin->value()) : 0.0f;
    p.repeatPenalty = on("repetition") ? static_cast<float>(ui_->repeatPenaltySpin->value()) : 1.0f;
    p.frequencyPenalty = on("freq-presence") ? static_cast<float>(ui_->frequencyPenaltySpin->value()) : 0.0f;
    p.presencePenalty = on("freq-presence") ? static_cast<float>(ui_->presencePenaltySpin->value()) : 0.0f;
    p.seed = static_cast<uint64_t>(ui_->seedSpin->value());
    // With every stage switched off the chain is the identity: a temperature of 1.
    const QString order = stageModel_->order();
    p.order = order.isEmpty() ? std::string("temperature") : order.toStdString();
    return p;
}

void PlaygroundPage::saveSettings(QSettings& s) const {
    s.beginGroup(QStringLiteral("sampler"));
    s.setValue(QStringLiteral("temperature"), ui_->temperatureSpin->value());
    s.setValue(QStringLiteral("topK"), ui_->topKSpin->value());
    s.setValue(QStringLiteral("topP"), ui_->topPSpin->value());
    s.setValue(QStringLiteral("minP"), ui_->minPSpin->value());
    s.setValue(QStringLiteral("repeatPenalty"), ui_->repeatPenaltySpin->value());
    s.setValue(QStringLiteral("frequencyPenalty"), ui_->frequencyPenaltySpin->value());
    s.setValue(QStringLiteral("presencePenalty"), ui_->presencePenaltySpin->value());
    s.setValue(QStringLiteral("seed"), ui_->seedSpin->value());
    QStringList enabled;
    for (const QString& stage : stageModel_->stages())
        if (stageModel_->isEnabled(stage)) enabled << stage;
    s.setValue(QStringLiteral("stages"), stageModel_->stages());
    s.setValue(QStringLiteral("enabledStages"), enabled);
    s.endGroup();
    s.setValue(QStringLiteral("playground/prompt"), ui_->promptEdit->toPlainText());
    s.setValue(QStringLiteral("playground/pageSplitter"), ui_->pageSplitter->saveState());
    s.setValue(QStringLiteral("playground/viewSplitter"), ui_->viewSplitter->saveState());
    s.setValue(QStringLiteral("playground/viewTab"), ui_->viewTabs->currentIndex());
    s.setValue(QStringLiteral("playground/runLength"), ui_->runLengthSpin->value());
}

void PlaygroundPage::restoreSettings(QSettings& s) {
    s.beginGroup(QStringLiteral("sampler"));
    if (s.contains(QStringLiteral("temperature"))) {
        ui_->temperatureSpin->setValue(s.value(QStringLiteral("temperature")).toDouble());
        ui_->topKSpin->setValue(s.value(QStringLiteral("topK")).toInt());
        ui_->topPSpin->setValue(s.value(QStringLiteral("topP")).toDouble());
        ui_->minPSpin->setValue(s.value(QStringLiteral("minP")).toDouble());
        ui_->repeatPenaltySpin->setValue(s.value(QStringLiteral("repeatPenalty")).toDouble());
        ui_->frequencyPenaltySpin->setValue(s.value(QStringLiteral("frequencyPenalty")).toDouble());
        ui_->presencePenaltySpin->setValue(s.value(QStringLiteral("presencePenalty")).toDouble());
        ui_->seedSpin->setValue(s.value(QStringLiteral("seed")).toInt());
        stageModel_->setOrder(s.value(QStringLiteral("stages")).toStringList(), s.value(QStringLiteral("enabledStages")).toStringList());
    }
    s.endGroup();
    if (s.contains(QStringLiteral("playground/prompt"))) ui_->promptEdit->setPlainText(s.value(QStringLiteral("playground/prompt")).toString());
    if (s.contains(QStringLiteral("playground/runLength"))) ui_->runLengthSpin->setValue(s.value(QStringLiteral("playground/runLength")).toInt());
    ui_->pageSplitter->restoreState(s.value(QStringLiteral("playground/pageSplitter")).toByteArray());
    ui_->viewSplitter->restoreState(s.value(QStringLiteral("playground/viewSplitter")).toByteArray());
    ui_->viewTabs->setCurrentIndex(s.value(QStringLiteral("playground/viewTab"), 0).toInt());
}

void PlaygroundPage::resetSampler() {
    const SamplerParams d;
    ui_->temperatureSpin->setValue(d.temperature);
    ui_->topKSpin->setValue(d.topK);
    ui_->topPSpin->setValue(d.topP);
    ui_->minPSpin->setValue(d.minP);
    ui_->repeatPenaltySpin->setValue(d.repeatPenalty);
    ui_->frequencyPenaltySpin->setValue(d.frequencyPenalty);
    ui_->presencePenaltySpin->setValue(d.presencePenalty);
    ui_->seedSpin->setValue(0);
    stageModel_->reset();
}

void PlaygroundPage::setModelReady(bool ready) {
    modelReady_ = ready;
    restart();
}

void PlaygroundPage::restart() {
    // What the worker still sends for the old session is not drawn: the rest of a run (until its
    // runFinished) or the one step in flight.
    if (running_) {
        discardRun_ = true;
        emit stopRequested();
    }
    if (stepInFlight_) discardStep_ = true;
    sessionStarted_ = false;
    stepInFlight_ = false;
    running_ = false;
    resampleInFlight_ = resamplePending_ = false;
    viewPending_ = false;
    drawTimer_->stop();
    currentStep_ = -1;
    lastKept_ = 0;
    lastView_ = {};
    chart_->clear();
    waterfall_->clear();
    strip_->clear();
    candidateModel_->setRows({});
    showRepetition({});
    ui_->chosenLabel->setText(modelReady_ ? tr("Press Step to generate the first token.") : tr("No model loaded."));
    updateEnabled();
}

void PlaygroundPage::startSessionIfNeeded() {
    if (sessionStarted_) return;
    emit startSessionRequested(ui_->promptEdit->toPlainText(), samplerParams());
    sessionStarted_ = true;
}

void PlaygroundPage::step() {
    if (!modelReady_ || stepInFlight_ || running_) return;
    startSessionIfNeeded();
    stepInFlight_ = true;
    updateEnabled();
    emit stepRequested();
}

void PlaygroundPage::run() {
    if (!modelReady_ || stepInFlight_ || running_) return;
    startSessionIfNeeded();
    running_ = true;
    updateEnabled();
    emit runRequested(ui_->runLengthSpin->value());
}

void PlaygroundPage::stop() {
    if (running_ || stepInFlight_) emit stopRequested();
}

void PlaygroundPage::startLoopDemo() {
    if (!modelReady_ || running_ || stepInFlight_) return;
    {
        const QSignalBlocker block(ui_->promptEdit);
        ui_->promptEdit->setPlainText(loopDemoPrompt());
    }
    // Greedy: temperature 0 and no penalties, whatever the order.
    ui_->temperatureSpin->setValue(0.0);
    ui_->repeatPenaltySpin->setValue(1.0);
    ui_->frequencyPenaltySpin->setValue(0.0);
    ui_->presencePenaltySpin->setValue(0.0);
    stageModel_->setEnabled(QStringLiteral("temperature"), true);
    restart();
    run();
}

void PlaygroundPage::showStep(const StepTrace& trace, const StepView& view) {
    if (discardRun_) return;
    if (discardStep_) {
        discardStep_ = false;
        return;
    }
    stepInFlight_ = false;
    currentStep_ = view.step;
    lastKept_ = trace.stages.empty() ? 0 : trace.stages.back().kept;
    strip_->appendToken(view.token);
    if (running_) {
        // Keep the strip current but draw the charts at most once per frame.
        pendingView_ = view;
        viewPending_ = true;
        if (!drawTimer_->isActive()) drawTimer_->start();
    } else {
        drawView(view);
    }
    updateEnabled();
}

void PlaygroundPage::updateViews(const StepView& view, int chosen) {
    lastView_ = view;
    chart_->setBars(view.bars, view.cutoffs);
    waterfall_->setPanels(view.stages);
    QList<CandidateRow> rows;
    for (int i = 0; i < view.bars.size(); ++i) {
        const auto& b = view.bars[i];
        rows << CandidateRow{b.id, b.label, i < view.logits.size() ? view.logits[i] : 0.0, b.before, b.after, b.removed, b.id == chosen};
    }
    candidateModel_->setRows(rows);
}

void PlaygroundPage::drawView(const StepView& view) {
    updateViews(view, view.token.id);
    showChosen(view, lastKept_, false);
    showRepetition(view.repetition);
    // Follow the end of the text while it grows.
    QScrollBar* bar = ui_->stripArea->verticalScrollBar();
    bar->setValue(bar->maximum());
    emit viewsUpdated();
}

void PlaygroundPage::showChosen(const StepView& view, int kept, bool resampled) {
    if (resampled)
        ui_->chosenLabel->setText(tr("Step %1 with these settings would choose \u201c%2\u201d (p = %3); %n token(s) kept", nullptr, kept)
                                      .arg(view.step)
                                      .arg(view.chosenText)
                                      .arg(view.chosenProbability, 0, 'f', 3));
    else
        ui_->chosenLabel->setText(tr("Step %1 chose \u201c%2\u201d (p = %3); %n token(s) kept after the chain", nullptr, kept)
                                      .arg(view.step)
                                      .arg(view.chosenText)
                                      .arg(view.chosenProbability, 0, 'f', 3));
}

QString PlaygroundPage::repetitionText() const { return ui_->repetitionLabel->text(); }
QString PlaygroundPage::captionText() const { return ui_->chosenLabel->text(); }

void PlaygroundPage::showRepetition(const RepetitionView& r) {
    repetition_ = r;
    strip_->setHighlight(r.found ? r.first : 0, r.found ? r.count : 0);
    if (!r.found) {
        ui_->repetitionLabel->clear();
        ui_->repetitionLabel->hide();
        return;
    }
    ui_->repetitionLabel->setText(tr("Loop detected: the last %1 tokens repeat a block of %2 tokens %3 times (highlighted). "
                                     "Greedy decoding keeps choosing the same continuation; sampling or a repetition penalty breaks it.")
                                      .arg(r.count)
                                      .arg(r.period)
                                      .arg(r.repeats));
    ui_->repetitionLabel->show();
}

void PlaygroundPage::showResample(int step, const SampleResult& result, const StepView& view) {
    resampleInFlight_ = false;
    if (step == currentStep_ && !running_) {
        updateViews(view, result.token);
        showChosen(view, result.stages.empty() ? 0 : result.stages.back().kept, true);
        emit viewsUpdated();
    }
    if (resamplePending_) sendResample();
}

void PlaygroundPage::showBranch(const BranchView& b) {
    if (discardStep_) {
        discardStep_ = false;
        return;
    }
    stepInFlight_ = false;
    currentStep_ = b.step;
    strip_->setTokens(b.strip);
    lastKept_ = b.view.stages.isEmpty() ? 0 : b.view.stages.back().kept;
    drawView(b.view);
    ui_->chosenLabel->setText(tr("Branched at step %1: \u201c%2\u201d (p = %3 under these settings). Step or Run continues from it; "
                                 "the prompt and the tokens before it are not computed again.")
                                  .arg(b.step)
                                  .arg(b.view.chosenText)
                                  .arg(b.view.chosenProbability, 0, 'f', 3));
    updateEnabled();
}

void PlaygroundPage::onAlternativeChosen(int step, int token) {
    if (!modelReady_ || !sessionStarted_ || stepInFlight_ || running_) return;
    stepInFlight_ = true;
    updateEnabled();
    emit branchRequested(step, token, samplerParams());
}

void PlaygroundPage::runFinished(const QString& reason) {
    if (discardRun_) {
        discardRun_ = false;
        return;
    }
    running_ = false;
    if (viewPending_) {
        viewPending_ = false;
        drawTimer_->stop();
        drawView(pendingView_);
    }
    if (reason == QLatin1String("eos")) ui_->chosenLabel->setText(ui_->chosenLabel->text() + QLatin1Char(' ') + tr("(end of text)"));
    else if (reason == QLatin1String("context")) ui_->chosenLabel->setText(tr("The context is full: Reset to start again."));
    else if (reason == QLatin1String("stopped")) ui_->chosenLabel->setText(ui_->chosenLabel->text() + QLatin1Char(' ') + tr("(stopped)"));
    updateEnabled();
}

void PlaygroundPage::requestFailed() {
    discardStep_ = false;   // the step in flight ended in an error: nothing more comes for it
    // A session that failed to start (an empty prompt, one too long) is started again next Step.
    if (currentStep_ < 0) sessionStarted_ = false;
    stepInFlight_ = false;
    running_ = false;
    resampleInFlight_ = resamplePending_ = false;
    updateEnabled();
}

void PlaygroundPage::onParamsEdited() {
    const SamplerParams p = samplerParams();
    emit samplerParamsChanged(p);
    if (currentStep_ < 0 || running_) return;
    if (resampleInFlight_) {
        resamplePending_ = true;
        return;
    }
    sendResample();
}

void PlaygroundPage::sendResample() {
    resamplePending_ = false;
    resampleInFlight_ = true;
    emit resampleRequested(currentStep_, samplerParams());
}

void PlaygroundPage::updateEnabled() {
    const bool idle = modelReady_ && !stepInFlight_ && !running_;
    ui_->stepButton->setEnabled(idle);
    ui_->runButton->setEnabled(idle);
    ui_->loopDemoButton->setEnabled(idle);
    ui_->stopButton->setEnabled(running_ || stepInFlight_);
    ui_->restartButton->setEnabled(modelReady_ && sessionStarted_ && !stepInFlight_);
    strip_->setBranchingEnabled(idle);
}

void PlaygroundPage::retranslate() {
    // Texts set in code; the .ui's own are redone by retranslateUi().
    if (currentStep_ < 0)
        ui_->chosenLabel->setText(modelReady_ ? tr("Press Step to generate the first token.") : tr("No model loaded."));
    else if (!lastView_.bars.isEmpty())
        showChosen(lastView_, lastKept_, false);
    showRepetition(repetition_);
}

void PlaygroundPage::fitControlsWidth() {
    // The controls never scroll sideways: the panel is as wide as its widest row needs, in the
    // current language ("Zurücksetzen" is wider than "Reset").
    ui_->controlsPanel->adjustSize();
    ui_->controlsScroll->setMinimumWidth(ui_->controlsPanel->sizeHint().width() +
                                         ui_->controlsScroll->verticalScrollBar()->sizeHint().width());
}

void PlaygroundPage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        ui_->retranslateUi(this);
        retranslate();
        fitControlsWidth();
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::ui
