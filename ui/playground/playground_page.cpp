#include "ui/playground/playground_page.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMenu>
#include <QMouseEvent>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QResizeEvent>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <cmath>
#include <functional>

#include "ui/playground/advanced_sampler_box.h"
#include "ui/playground/candidate_table_model.h"
#include "ui/playground/constraint_box.h"
#include "ui/engine/engine_context.h"
#include "ui/playground/playground_controller.h"
#include "ui/playground/session_replay.h"
#include "ui/playground/stage_order_model.h"
#include "ui_playground_page.h"
#include "widgets/distribution_chart.h"
#include "widgets/mask_strip.h"
#include "widgets/probability_legend.h"
#include "widgets/row_scroll_area.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/text_line.h"
#include "widgets/token_strip.h"
#include "widgets/number_text.h"

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

PlaygroundPage::PlaygroundPage(QWidget* parent) : Page(parent), ui_(std::make_unique<Ui::PlaygroundPage>()) {
    ui_->setupUi(this);
    chart_ = new widgets::DistributionChart(ui_->chartTab);
    ui_->chartLayout->addWidget(chart_);
    // The waterfall in one row that scrolls sideways where the page is narrow: wrapping it to a
    // second row of panels took the height the chart and the token strip need (at 1024×700 the
    // window could not be that small, and the strip kept 2-3 rows at 1280×820).
    waterfall_ = new widgets::SamplerWaterfall;
    waterfall_->setWrapping(false);
    auto* waterfallArea = new widgets::RowScrollArea(ui_->waterfallBox);
    waterfallArea->setObjectName(QStringLiteral("waterfallArea"));
    waterfallArea->setRowWidget(waterfall_);
    ui_->waterfallLayout->addWidget(waterfallArea);
    strip_ = new widgets::TokenStrip;
    ui_->stripArea->setWidget(strip_);
    ui_->controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    buildReplayBar();
    strip_->installEventFilter(this);   // a click on a chip shows its step while replaying
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
    fitStageList();
    connect(stageModel_, &StageOrderModel::orderChanged, this, &PlaygroundPage::onParamsEdited);
    connect(stageModel_, &StageOrderModel::orderChanged, this, &PlaygroundPage::updateKnobStates);
    connect(stageModel_, &StageOrderModel::orderChanged, this, &PlaygroundPage::updatePresetCombo);

    // The order presets above the list: the engine's named orders.
    presetCombo_ = new QComboBox(ui_->stageBox);
    presetCombo_->setObjectName(QStringLiteral("presetCombo"));
    for (const QString& p : StageOrderModel::presets()) presetCombo_->addItem(QString(), p);
    presetCombo_->addItem(QString(), QString());   // "custom": what the list shows is no preset
    ui_->stageLayout->insertWidget(0, presetCombo_);
    connect(presetCombo_, &QComboBox::activated, this, [this](int index) {
        const QString preset = presetCombo_->itemData(index).toString();
        if (!preset.isEmpty()) stageModel_->applyPreset(preset);
        else updatePresetCombo();
    });

    // Advanced samplers: hidden behind a toggle so the basic view stays simple.
    advancedToggle_ = new QToolButton(ui_->controlsPanel);
    advancedToggle_->setObjectName(QStringLiteral("advancedToggle"));
    advancedToggle_->setCheckable(true);
    advancedToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    advancedToggle_->setArrowType(Qt::RightArrow);
    advancedToggle_->setAutoRaise(true);
    advanced_ = new AdvancedSamplerBox(stageModel_, ui_->controlsPanel);
    advanced_->setVisible(false);
    const int stageRow = ui_->controlsLayout->indexOf(ui_->stageBox);
    ui_->controlsLayout->insertWidget(stageRow, advancedToggle_);
    ui_->controlsLayout->insertWidget(stageRow + 1, advanced_);
    connect(advancedToggle_, &QToolButton::toggled, this, [this](bool on) {
        advanced_->setVisible(on);
        advancedToggle_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        fitControlsWidth();
        emit settingsChanged();
    });
    connect(advanced_, &AdvancedSamplerBox::edited, this, &PlaygroundPage::onParamsEdited);

    randomSeedButton_ = new QToolButton(ui_->samplerBox);
    randomSeedButton_->setObjectName(QStringLiteral("randomSeedButton"));
    // The two buttons share a row under the whole grid: in the slider and spin box columns they set
    // those columns' widths (108 px for "Zufälliger Seed" where a slider needs 36).
    ui_->samplerGrid->removeWidget(ui_->defaultsButton);
    auto* seedButtons = new QHBoxLayout;
    seedButtons->addStretch(1);
    seedButtons->addWidget(randomSeedButton_);
    seedButtons->addWidget(ui_->defaultsButton);
    ui_->samplerGrid->addLayout(seedButtons, 8, 0, 1, 3);
    connect(randomSeedButton_, &QToolButton::clicked, this, &PlaygroundPage::randomizeSeed);

    // Under the caption: take a re-sampled choice, or put back what a demo changed.
    applyResampleButton_ = new QPushButton(ui_->textBox);
    applyResampleButton_->setObjectName(QStringLiteral("applyResampleButton"));
    applyResampleButton_->hide();
    // Showing or hiding it must not re-lay out the text box (and the strip) on every slider move.
    QSizePolicy keep = applyResampleButton_->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    applyResampleButton_->setSizePolicy(keep);
    restoreSetupButton_ = new QPushButton(ui_->textBox);
    restoreSetupButton_->setObjectName(QStringLiteral("restoreSetupButton"));
    restoreSetupButton_->hide();
    captionRow_ = new QHBoxLayout;
    captionRow_->addWidget(applyResampleButton_);
    captionRow_->addWidget(restoreSetupButton_);
    captionRow_->addStretch(1);
    ui_->textLayout->insertLayout(1, captionRow_);
    connect(applyResampleButton_, &QPushButton::clicked, this, &PlaygroundPage::applyResample);
    buildViewOptions();
    buildTextRow();
    buildConstraintViews();
    connect(restoreSetupButton_, &QPushButton::clicked, this, &PlaygroundPage::restoreSavedSetup);

    candidateModel_ = new CandidateTableModel(this);
    ui_->candidateTable->setModel(candidateModel_);
    ui_->candidateTable->verticalHeader()->hide();
    // Every column fits its contents and the token column takes what is left, so "Kept" stays
    // visible at 1024 px.
    // Fixed widths from the font for the number columns (ResizeToContents measured every row on
    // every re-sample: a slider move took up to 13 ms longer) and the rest to the token column.
    ui_->candidateTable->horizontalHeader()->setStretchLastSection(false);
    ui_->candidateTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    ui_->candidateTable->horizontalHeader()->setSectionResizeMode(CandidateTableModel::TokenColumn, QHeaderView::Stretch);
    fitCandidateColumns();
    ui_->candidateTable->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(ui_->candidateTable, &QWidget::customContextMenuRequested, this, &PlaygroundPage::showCandidateMenu);

    drawTimer_ = new QTimer(this);
    drawTimer_->setSingleShot(true);
    drawTimer_->setInterval(kDrawIntervalMs);
    connect(drawTimer_, &QTimer::timeout, this, [this] {
        if (!viewPending_) return;
        viewPending_ = false;
        drawView(pendingView_);
    });

    // Shortcuts act at once (a button's own shortcut animates a click and fires 100 ms later,
    // too slow for Stop). They are window-wide while the page is shown — the focus may be in the
    // lessons dock, whose "try this" says "press F5" — and off while it is hidden (the chat has
    // its own Esc): Page::frontShortcut.
    const auto shortcut = [this](Qt::Key key, void (PlaygroundPage::*slot)()) {
        connect(frontShortcut(QKeySequence(key)), &QShortcut::activated, this, slot);
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
        emit settingsChanged();
    });
    connect(ui_->runLengthSpin, &QSpinBox::valueChanged, this, &PlaygroundPage::settingsChanged);
    connect(ui_->viewTabs, &QTabWidget::currentChanged, this, &PlaygroundPage::settingsChanged);
    connect(ui_->pageSplitter, &QSplitter::splitterMoved, this, &PlaygroundPage::settingsChanged);
    connect(ui_->viewSplitter, &QSplitter::splitterMoved, this, &PlaygroundPage::settingsChanged);
    // The page can hold the focus while its buttons are disabled (see parkFocus()).
    setFocusPolicy(Qt::StrongFocus);

    const auto edited = [this] { onParamsEdited(); };
    linkSliderAndSpin(ui_->temperatureSlider, ui_->temperatureSpin, 100.0, edited);
    linkSliderAndSpin(ui_->topKSlider, ui_->topKSpin, 1.0, edited);
    linkSliderAndSpin(ui_->topPSlider, ui_->topPSpin, 100.0, edited);
    linkSliderAndSpin(ui_->minPSlider, ui_->minPSpin, 100.0, edited);
    linkSliderAndSpin(ui_->repeatPenaltySlider, ui_->repeatPenaltySpin, 100.0, edited);
    linkSliderAndSpin(ui_->frequencyPenaltySlider, ui_->frequencyPenaltySpin, 100.0, edited);
    linkSliderAndSpin(ui_->presencePenaltySlider, ui_->presencePenaltySpin, 100.0, edited);
    linkSliderAndSpin(ui_->seedSlider, ui_->seedSpin, 1.0, edited);
    widgets::markAsIdentifier(ui_->seedSpin);   // a seed names a random stream: no digit groups
    // The wheel over a knob that does not have the focus scrolls the controls panel: the
    // application's WheelGuard (widgets/wheel_guard.h), which the main window installs.
    retranslate();
    updateKnobStates();
    updatePresetCombo();
    updateEnabled();
}

PlaygroundPage::~PlaygroundPage() = default;

bool PlaygroundPage::eventFilter(QObject* watched, QEvent* e) {
    if (watched == strip_ && replay_ && e->type() == QEvent::MouseButtonPress) {
        const auto* me = static_cast<QMouseEvent*>(e);
        const int index = strip_->tokenAt(me->position().toPoint());
        if (me->button() == Qt::LeftButton && index >= 0) showRecordedStep(index);
    }
    if (watched == ui_->textBox && (e->type() == QEvent::Resize || e->type() == QEvent::FontChange ||
                                    e->type() == QEvent::LanguageChange || e->type() == QEvent::LayoutRequest))
        QMetaObject::invokeMethod(this, &PlaygroundPage::placeMaskRow, Qt::QueuedConnection);
    if (watched == ui_->viewTabs && (e->type() == QEvent::Resize || e->type() == QEvent::LayoutRequest ||
                                     e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange))
        QMetaObject::invokeMethod(this, &PlaygroundPage::placeViewOptions, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, e);
}

void PlaygroundPage::placeViewOptions() {
    if (!viewOptions_) return;
    QTabWidget* tabs = ui_->viewTabs;
    QTabBar* bar = tabs->tabBar();
    // The tab bar's own size hint: every tab whole, with the style's frames and overlaps.
    const int tabsWidth = bar->sizeHint().width();
    const bool inCorner = tabs->cornerWidget(Qt::TopRightCorner) == viewOptions_;
    const bool fits = tabsWidth + viewOptions_->sizeHint().width() + 16 <= tabs->width();
    if (fits == inCorner) return;
    if (fits) {
        ui_->chartLayout->removeWidget(viewOptions_);
        tabs->setCornerWidget(viewOptions_, Qt::TopRightCorner);
    } else {
        tabs->setCornerWidget(nullptr, Qt::TopRightCorner);
        viewOptions_->setParent(ui_->chartTab);
        ui_->chartLayout->insertWidget(0, viewOptions_, 0, Qt::AlignRight);
    }
    // Above the chart the row keeps its whole width: squeezed, the unit combo cut "Entropie in Bit".
    viewOptions_->setMinimumWidth(fits ? 0 : viewOptions_->sizeHint().width());
    viewOptions_->show();
}

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
QAbstractButton* PlaygroundPage::advancedToggle() const { return advancedToggle_; }
QAbstractButton* PlaygroundPage::randomSeedButton() const { return randomSeedButton_; }
QAbstractButton* PlaygroundPage::applyResampleButton() const { return applyResampleButton_; }
QAbstractButton* PlaygroundPage::restoreSetupButton() const { return restoreSetupButton_; }
void PlaygroundPage::setVocabularySize(int n) { advanced_->setVocabularySize(n); }

void PlaygroundPage::setLineScale(double scale) {
    chart_->setLineScale(scale);
    waterfall_->setLineScale(scale);
    strip_->setLineScale(scale);
    promptStrip_->setLineScale(scale);
    maskStrip_->setLineScale(scale);
    unconstrainedStrip_->setLineScale(scale);
}

void PlaygroundPage::buildViewOptions() {
    // Chart and waterfall options in the tab bar's corner: no extra row of height.
    auto* corner = new QWidget(ui_->viewTabs);
    auto* row = new QHBoxLayout(corner);
    row->setContentsMargins(4, 0, 4, 0);
    logScaleCheck_ = new QCheckBox(corner);
    logScaleCheck_->setObjectName(QStringLiteral("logScaleCheck"));
    barsLabel_ = new QLabel(corner);
    barsSpin_ = new QSpinBox(corner);
    barsSpin_->setObjectName(QStringLiteral("barsSpin"));
    barsSpin_->setRange(PlaygroundController::kMinChartBars, PlaygroundController::kMaxChartBars);
    barsSpin_->setSingleStep(5);
    barsSpin_->setValue(PlaygroundController::kChartBars);
    barsLabel_->setBuddy(barsSpin_);
    entropyCombo_ = new QComboBox(corner);
    entropyCombo_->setObjectName(QStringLiteral("entropyCombo"));
    entropyCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);   // follows the font (presentation mode)
    entropyCombo_->addItem(QString(), static_cast<int>(widgets::EntropyUnit::Bits));
    entropyCombo_->addItem(QString(), static_cast<int>(widgets::EntropyUnit::Nats));
    row->addWidget(logScaleCheck_);
    row->addWidget(barsLabel_);
    row->addWidget(barsSpin_);
    row->addWidget(entropyCombo_);
    viewOptions_ = corner;
    viewOptions_->setObjectName(QStringLiteral("viewOptions"));
    ui_->viewTabs->setCornerWidget(corner, Qt::TopRightCorner);
    ui_->viewTabs->installEventFilter(this);
    // Every tab whole: with scroll buttons a narrow column showed "Prompt-To" and two arrows.
    ui_->viewTabs->setUsesScrollButtons(false);
    connect(logScaleCheck_, &QCheckBox::toggled, this, [this](bool on) {
        chart_->setLogScale(on);
        emit settingsChanged();
    });
    connect(barsSpin_, &QSpinBox::valueChanged, this, [this](int n) {
        emit chartBarsChanged(n);
        emit settingsChanged();
        if (replay_) {
            showRecordedStep(currentStep_);   // drawn here: a replay has no engine to ask
            return;
        }
        if (currentStep_ >= 0 && !running_) {
            if (resampleInFlight_) resamplePending_ = true;
            else sendResample();   // the same step, drawn with the new number of bars
        }
    });
    connect(entropyCombo_, &QComboBox::currentIndexChanged, this, [this] {
        waterfall_->setEntropyUnit(static_cast<widgets::EntropyUnit>(entropyCombo_->currentData().toInt()));
        emit settingsChanged();
    });

    // The prompt as the model sees it: one chip per token, with its id; special tokens framed.
    promptTab_ = new QWidget(ui_->viewTabs);
    auto* layout = new QVBoxLayout(promptTab_);
    layout->setContentsMargins(0, 0, 0, 0);
    promptTokensLabel_ = new QLabel(promptTab_);
    promptTokensLabel_->setWordWrap(true);
    auto* area = new QScrollArea(promptTab_);
    area->setWidgetResizable(true);
    promptStrip_ = new widgets::TokenStrip;
    promptStrip_->setObjectName(QStringLiteral("promptStrip"));
    promptStrip_->setShowIds(true);
    promptStrip_->setBranchingEnabled(false);
    area->setWidget(promptStrip_);
    layout->addWidget(promptTokensLabel_);
    layout->addWidget(area, 1);
    ui_->viewTabs->addTab(promptTab_, QString());
}

void PlaygroundPage::buildTextRow() {
    // Under the strip, what the shading means; above it (beside "Use this choice"), the branches
    // and the plain-text switch, so at 1024 px neither the legend nor the branch list is cut.
    ui_->textLayout->setStretchFactor(ui_->stripArea, 1);
    plainText_ = new QPlainTextEdit(ui_->textBox);
    plainText_->setObjectName(QStringLiteral("plainText"));
    plainText_->setReadOnly(true);
    plainText_->hide();
    ui_->textLayout->insertWidget(ui_->textLayout->indexOf(ui_->stripArea) + 1, plainText_, 1);
    auto* row = new QHBoxLayout;
    legend_ = new widgets::ProbabilityLegend(ui_->textBox);
    plainTextCheck_ = new QCheckBox(ui_->textBox);
    plainTextCheck_->setObjectName(QStringLiteral("plainTextCheck"));
    branchLabel_ = new QLabel(ui_->textBox);
    branchCombo_ = new QComboBox(ui_->textBox);
    branchCombo_->setObjectName(QStringLiteral("branchCombo"));
    branchCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    branchLabel_->setBuddy(branchCombo_);
    row->addWidget(legend_, 1);
    ui_->textLayout->addLayout(row);
    captionRow_->addWidget(branchLabel_);
    captionRow_->addWidget(branchCombo_);
    captionRow_->addWidget(plainTextCheck_);
    connect(plainTextCheck_, &QCheckBox::toggled, this, [this](bool on) {
        textSplit_->setVisible(!on);
        plainText_->setVisible(on);
        legend_->setVisible(!on);
        emit settingsChanged();
    });
    connect(branchCombo_, &QComboBox::activated, this, [this](int index) {
        const int id = branchCombo_->itemData(index).toInt();
        if (replay_) {
            switchRecordedBranch(id);
            return;
        }
        if (!modelReady_ || stepInFlight_ || running_) return;
        for (const BranchEntry& b : branches_)
            if (b.id == id && b.current) return;
        stepInFlight_ = true;
        updateEnabled();
        emit switchBranchRequested(id, samplerParams());
    });
}

void PlaygroundPage::showPromptTokens(const QList<widgets::StripToken>& tokens) {
    if (replay_) return;   // a live session's, arriving after the replay began
    std::vector<TokenId> ids;
    for (const auto& t : tokens) ids.push_back(t.id);
    recording_.setPromptTokens(std::move(ids));
    setPromptChips(tokens);
}

void PlaygroundPage::setPromptChips(const QList<widgets::StripToken>& tokens) {
    promptStrip_->setTokens(tokens);
    int special = 0;
    for (const auto& t : tokens) special += t.special ? 1 : 0;
    promptTokensLabel_->setText(tr("The prompt is %n token(s) (%1 special); each shows its id. The model sees only these numbers.", nullptr,
                                   tokens.size())
                                    .arg(special));
}

void PlaygroundPage::showBranches(const QList<BranchEntry>& branches) {
    if (!replay_) setBranchEntries(branches);
}

void PlaygroundPage::setBranchEntries(const QList<BranchEntry>& branches) {
    branches_ = branches;
    retranslateBranches();
}

void PlaygroundPage::retranslateBranches() {
    QStringList labels;
    int current = -1;
    for (const BranchEntry& b : branches_) {
        labels << (b.parent < 0 ? tr("Original (%n token(s))", nullptr, b.steps)
                                : tr("Branch %1: \u201c%2\u201d at step %3 (%n token(s))", nullptr, b.steps)
                                      .arg(b.id)
                                      .arg(b.forkToken)
                                      .arg(b.forkStep + 1));
        if (b.current) current = int(labels.size()) - 1;
    }
    // Called once per frame during Run: the combo is rebuilt only when a label or the current
    // branch really changed (rebuilding it re-lays out the row beside the caption).
    if (labels != branchLabels() || current != branchCombo_->currentIndex()) {
        const QSignalBlocker block(branchCombo_);
        branchCombo_->clear();
        for (int i = 0; i < labels.size(); ++i) branchCombo_->addItem(labels[i], branches_[i].id);
        branchCombo_->setCurrentIndex(current);
    }
    // Only where there is something to switch to: one branch needs no list (and no room).
    branchCombo_->setVisible(branches_.size() > 1);
    branchLabel_->setVisible(branches_.size() > 1);
}

QStringList PlaygroundPage::branchLabels() const {
    QStringList out;
    for (int i = 0; i < branchCombo_->count(); ++i) out << branchCombo_->itemText(i);
    return out;
}
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
    advanced_->apply(p);
    // With every stage switched off the chain is the identity: a temperature of 1.
    const QString order = stageModel_->order();
    p.order = order.isEmpty() ? std::string("temperature") : order.toStdString();
    return p;
}

// A basic knob by its SamplerParams field name (also its settings key and a lesson's setup key),
// with the value it starts at. QSpinBox and QDoubleSpinBox both read and write as doubles here.
struct BasicKnob {
    const char* key;
    QAbstractSpinBox* spin;
    double start;
};

namespace {
double knobValue(const QAbstractSpinBox* spin) {
    if (auto* d = qobject_cast<const QDoubleSpinBox*>(spin)) return d->value();
    return static_cast<const QSpinBox*>(spin)->value();
}

void setKnobValue(QAbstractSpinBox* spin, double v) {
    if (auto* d = qobject_cast<QDoubleSpinBox*>(spin)) d->setValue(v);
    else static_cast<QSpinBox*>(spin)->setValue(static_cast<int>(std::lround(v)));
}
}  // namespace

std::vector<BasicKnob> PlaygroundPage::basicKnobs() const {
    const SamplerParams d;
    return {{"temperature", ui_->temperatureSpin, d.temperature},
            {"topK", ui_->topKSpin, double(d.topK)},
            {"topP", ui_->topPSpin, d.topP},
            {"minP", ui_->minPSpin, d.minP},
            {"repeatPenalty", ui_->repeatPenaltySpin, d.repeatPenalty},
            {"frequencyPenalty", ui_->frequencyPenaltySpin, d.frequencyPenalty},
            {"presencePenalty", ui_->presencePenaltySpin, d.presencePenalty},
            {"seed", ui_->seedSpin, 0.0}};
}

void PlaygroundPage::saveSettings(QSettings& s) const {
    s.beginGroup(QStringLiteral("sampler"));
    for (const BasicKnob& k : basicKnobs()) s.setValue(QString::fromLatin1(k.key), knobValue(k.spin));
    QStringList enabled;
    for (const QString& stage : stageModel_->stages())
        if (stageModel_->isEnabled(stage)) enabled << stage;
    s.setValue(QStringLiteral("stages"), stageModel_->stages());
    s.setValue(QStringLiteral("enabledStages"), enabled);
    s.endGroup();
    advanced_->saveSettings(s);
    s.setValue(QStringLiteral("playground/advancedShown"), advancedToggle_->isChecked());
    s.setValue(QStringLiteral("playground/logScale"), logScaleCheck_->isChecked());
    s.setValue(QStringLiteral("playground/bars"), barsSpin_->value());
    s.setValue(QStringLiteral("playground/entropyUnit"), entropyCombo_->currentIndex());
    s.setValue(QStringLiteral("playground/plainText"), plainTextCheck_->isChecked());
    s.setValue(QStringLiteral("playground/prompt"), ui_->promptEdit->toPlainText());
    s.setValue(QStringLiteral("playground/pageSplitter"), ui_->pageSplitter->saveState());
    s.setValue(QStringLiteral("playground/viewSplitter"), ui_->viewSplitter->saveState());
    s.setValue(QStringLiteral("playground/viewTab"), ui_->viewTabs->currentIndex());
    s.setValue(QStringLiteral("playground/runLength"), ui_->runLengthSpin->value());
    constraintBox_->saveSettings(s);
}

void PlaygroundPage::restoreSettings(QSettings& s) {
    s.beginGroup(QStringLiteral("sampler"));
    if (s.contains(QStringLiteral("temperature"))) {
        // A spin box clamps a hand-edited value into its range.
        for (const BasicKnob& k : basicKnobs()) setKnobValue(k.spin, s.value(QString::fromLatin1(k.key), k.start).toDouble());
        stageModel_->setOrder(s.value(QStringLiteral("stages")).toStringList(), s.value(QStringLiteral("enabledStages")).toStringList());
    }
    s.endGroup();
    advanced_->restoreSettings(s);
    advancedToggle_->setChecked(s.value(QStringLiteral("playground/advancedShown"), false).toBool());
    logScaleCheck_->setChecked(s.value(QStringLiteral("playground/logScale"), false).toBool());
    barsSpin_->setValue(s.value(QStringLiteral("playground/bars"), PlaygroundController::kChartBars).toInt());
    entropyCombo_->setCurrentIndex(std::clamp(s.value(QStringLiteral("playground/entropyUnit"), 0).toInt(), 0, 1));
    plainTextCheck_->setChecked(s.value(QStringLiteral("playground/plainText"), false).toBool());
    if (s.contains(QStringLiteral("playground/prompt"))) ui_->promptEdit->setPlainText(s.value(QStringLiteral("playground/prompt")).toString());
    if (s.contains(QStringLiteral("playground/runLength"))) ui_->runLengthSpin->setValue(s.value(QStringLiteral("playground/runLength")).toInt());
    ui_->pageSplitter->restoreState(s.value(QStringLiteral("playground/pageSplitter")).toByteArray());
    ui_->viewSplitter->restoreState(s.value(QStringLiteral("playground/viewSplitter")).toByteArray());
    ui_->viewTabs->setCurrentIndex(s.value(QStringLiteral("playground/viewTab"), 0).toInt());
    constraintBox_->restoreSettings(s);   // sends the choice once a model is ready
    emit compareRequested(constraintBox_->compareUnconstrained());
    updateConstraintViews();
    emit samplerParamsPublished(samplerParams());
}

void PlaygroundPage::resetSampler() {
    for (const BasicKnob& k : basicKnobs()) setKnobValue(k.spin, k.start);
    advanced_->reset();
    stageModel_->reset();
}

void PlaygroundPage::setModelReady(bool ready) {
    modelReady_ = ready;
    if (replay_) {
        // A model that finishes loading under a replay leaves it on screen: Reset leaves it.
        updateEnabled();
        return;
    }
    status_ = {};
    status_.contextToolTip = tr("Positions used by the playground's current branch, of the context the session allows");
    emit statusChanged();
    restart();
    // A new model has another vocabulary: the constraint is compiled again for it.
    constraintOn_ = false;
    updateConstraintViews();
    if (ready) {
        requestConstraint();
        emit compareRequested(constraintBox_->compareUnconstrained());
    }
}

QString PlaygroundPage::title() const { return tr("&Playground"); }

QString PlaygroundPage::toolTip() const { return tr("Step through generation one token at a time and see what the sampler does"); }

void PlaygroundPage::attachEngine(EngineContext* engine) {
    auto* c = new PlaygroundController(engine);
    controller_ = c;
    connect(this, &PlaygroundPage::startSessionRequested, c, &PlaygroundController::startSession);
    connect(this, &PlaygroundPage::stepRequested, c, &PlaygroundController::step);
    connect(this, &PlaygroundPage::runRequested, c, &PlaygroundController::run);
    // cancel() is thread-safe: Stop reaches the flag directly, not through the busy engine thread.
    connect(this, &PlaygroundPage::stopRequested, this, [engine] { engine->cancel(); });
    connect(this, &PlaygroundPage::resampleRequested, c, &PlaygroundController::resample);
    connect(this, &PlaygroundPage::branchRequested, c, &PlaygroundController::branch);
    connect(this, &PlaygroundPage::samplerParamsChanged, c, &PlaygroundController::setSamplerParams);
    // And at once, thread-safely, for a run in progress (the queued call waits for the run's end).
    connect(this, &PlaygroundPage::samplerParamsChanged, this, [c](const SamplerParams& p) { c->offerSamplerParams(p); });
    connect(this, &PlaygroundPage::samplerParamsChanged, this, &Page::samplerParamsPublished);
    connect(this, &PlaygroundPage::sessionDiscarded, c, &PlaygroundController::endSession);
    connect(this, &PlaygroundPage::switchBranchRequested, c, &PlaygroundController::switchBranch);
    connect(this, &PlaygroundPage::chartBarsChanged, c, &PlaygroundController::setChartBars);
    connect(c, &PlaygroundController::promptTokens, this, &PlaygroundPage::showPromptTokens);
    connect(c, &PlaygroundController::branchesChanged, this, &PlaygroundPage::showBranches);
    connect(this, &PlaygroundPage::constraintRequested, c, &PlaygroundController::setConstraint);
    connect(this, &PlaygroundPage::compareRequested, c, &PlaygroundController::setCompareUnconstrained);
    connect(c, &PlaygroundController::constraintChanged, this, &PlaygroundPage::showConstraintStatus);
    connect(c, &PlaygroundController::unconstrainedTokens, this, &PlaygroundPage::showUnconstrained);
    connect(c, &PlaygroundController::stepDone, this, &PlaygroundPage::noteStep);
    connect(c, &PlaygroundController::stepDone, this, &PlaygroundPage::showStep);
    connect(c, &PlaygroundController::runFinished, this, &PlaygroundPage::runFinished);
    connect(c, &PlaygroundController::resampled, this, &PlaygroundPage::showResample);
    connect(c, &PlaygroundController::branched, this, [this](const BranchView& b) {
        if (replay_) return;
        // The branch is shorter than the text it left: its own context and the blocks now in use.
        status_.contextUsed = b.view.contextUsed;
        status_.kvBytes = b.view.kvBytes;
        emit statusChanged();
    });
    connect(c, &PlaygroundController::branched, this, &PlaygroundPage::showBranch);
    connect(c, &PlaygroundController::sessionEnded, this, [this] {
        if (replay_) return;   // the live session a replay replaced: the replay's figures stay
        const QString tip = status_.contextToolTip;
        status_ = {};
        status_.contextToolTip = tip;
        emit statusChanged();
    });
    connect(c, &PlaygroundController::failed, this, &PlaygroundPage::requestFailed);
    connect(c, &PlaygroundController::failed, this, &Page::errorOccurred);
    connect(c, &PlaygroundController::cancelled, this, &PlaygroundPage::requestFailed);
}

void PlaygroundPage::noteStep(const StepTrace& trace, const StepView& view) {
    if (replay_) return;
    PageStatus& st = status_;
    st.contextUsed = view.contextUsed;
    st.kvBytes = view.kvBytes;
    st.forwardMs = trace.forwardMs;
    st.sampleMs = trace.sampleMs;
    st.stepMs = trace.forwardMs + trace.sampleMs;
    st.prefill = trace.phase == Phase::Prefill;
    st.tokensPerSecond = st.stepMs > 0.0 ? 1000.0 * trace.evaluated / st.stepMs : -1.0;
    st.timeToFirstTokenMs = -1.0;
    emit statusChanged();
}

void PlaygroundPage::applyLesson(const QVariantMap& setup) {
    saveSetupForRestore();
    applySetup(setup);
    showDistribution();   // what the lessons talk about
}

void PlaygroundPage::restart() {
    // What the worker still sends for the old session is not drawn: the rest of a run (until its
    // runFinished) or the one step in flight.
    if (running_) {
        discardRun_ = true;
        emit stopRequested();
    }
    if (stepInFlight_) discardStep_ = true;
    if (sessionStarted_) emit sessionDiscarded();
    sessionStarted_ = false;
    ++sessionEpoch_;
    recording_.clear();
    if (replay_) leaveReplay();
    resampledToken_ = -1;
    applyResampleButton_->hide();
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
    maskStrip_->clear();
    unconstrainedStrip_->clear();
    unconstrainedMisfit_ = -1;
    unconstrainedEnded_ = false;
    updateConstraintViews();
    plainText_->clear();
    promptStrip_->clear();
    promptTokensLabel_->setText(tr("Step once to see the prompt as the model's tokens."));
    branches_.clear();
    retranslateBranches();
    candidateModel_->setRows({});
    showRepetition({});
    ui_->chosenLabel->setText(modelReady_ ? tr("Press Step to generate the first token.") : tr("No model loaded."));
    updateEnabled();
}

void PlaygroundPage::startSessionIfNeeded() {
    if (sessionStarted_) return;
    sessionSeed_ = editedSeed_ = samplerParams().seed;
    recording_.start(ui_->promptEdit->toPlainText());
    emit startSessionRequested(ui_->promptEdit->toPlainText(), samplerParams());
    sessionStarted_ = true;
}

void PlaygroundPage::step() {
    if (!modelReady_ || stepInFlight_ || running_ || replay_) return;
    startSessionIfNeeded();
    stepInFlight_ = true;
    updateEnabled();
    emit stepRequested();
}

void PlaygroundPage::run() {
    if (!modelReady_ || stepInFlight_ || running_ || replay_) return;
    startSessionIfNeeded();
    running_ = true;
    updateEnabled();
    emit runRequested(ui_->runLengthSpin->value());
}

void PlaygroundPage::stop() {
    if (running_ || stepInFlight_) emit stopRequested();
}

void PlaygroundPage::startLoopDemo() {
    if (!modelReady_ || running_ || stepInFlight_ || replay_) return;
    saveSetupForRestore();
    // Greedy: temperature 0, no penalties, the default chain.
    applySetup({{QStringLiteral("prompt"), loopDemoPrompt()},
                {QStringLiteral("temperature"), 0.0},
                {QStringLiteral("runLength"), std::max(48, ui_->runLengthSpin->value())},
                {QStringLiteral("action"), QStringLiteral("run")}});
}

void PlaygroundPage::saveSetupForRestore() {
    if (savedSetup_.isEmpty()) savedSetup_ = currentSetup();   // a second demo keeps the user's first setup
    restoreSetupButton_->setVisible(!lessonsPanelShown_);
}

void PlaygroundPage::setLessonsPanelShown(bool shown) {
    lessonsPanelShown_ = shown;
    restoreSetupButton_->setVisible(!savedSetup_.isEmpty() && !shown);
}

void PlaygroundPage::restoreSavedSetup() {
    if (savedSetup_.isEmpty() || running_ || stepInFlight_) return;
    QVariantMap setup = savedSetup_;
    savedSetup_.clear();
    restoreSetupButton_->hide();
    setup.insert(QStringLiteral("action"), QStringLiteral("none"));
    applySetup(setup);
}

QVariantMap PlaygroundPage::currentSetup() const {
    QVariantMap m = advanced_->values();
    m.insert(QStringLiteral("prompt"), ui_->promptEdit->toPlainText());
    m.insert(QStringLiteral("runLength"), ui_->runLengthSpin->value());
    for (const BasicKnob& k : basicKnobs()) {
        const double v = knobValue(k.spin);
        m.insert(QString::fromLatin1(k.key), qobject_cast<QSpinBox*>(k.spin) ? QVariant(int(std::lround(v))) : QVariant(v));
    }
    m.insert(QStringLiteral("stages"), stageModel_->stages());
    QStringList enabled;
    for (const QString& st : stageModel_->stages())
        if (stageModel_->isEnabled(st)) enabled << st;
    m.insert(QStringLiteral("enabledStages"), enabled);
    return m;
}

void PlaygroundPage::applySetup(const QVariantMap& setup) {
    if (running_ || stepInFlight_) return;
    {
        // One re-sample for the whole setup, not one per knob.
        const QSignalBlocker blockStages(stageModel_);
        const QSignalBlocker blockAdvanced(advanced_);
        for (const BasicKnob& k : basicKnobs()) setKnobValue(k.spin, setup.value(QString::fromLatin1(k.key), k.start).toDouble());
        if (setup.contains(QStringLiteral("runLength"))) ui_->runLengthSpin->setValue(setup.value(QStringLiteral("runLength")).toInt());
        advanced_->reset();
        advanced_->setValues(setup);
    }
    // The chain: a saved list (restoring the user's), a named order or a comma list, or the default;
    // a stage whose setting the setup turns on is ticked, so the setting acts.
    if (setup.contains(QStringLiteral("stages"))) {
        stageModel_->setOrder(setup.value(QStringLiteral("stages")).toStringList(), setup.value(QStringLiteral("enabledStages")).toStringList());
    } else {
        const QString order = setup.value(QStringLiteral("order")).toString();
        // "hf" is the default list (hf without its two stages that do nothing until set).
        if (order.isEmpty() || order == QLatin1String("hf")) stageModel_->reset();
        else if (StageOrderModel::presets().contains(order)) {
            stageModel_->reset();   // from the default ticks, not from whatever the page had
            stageModel_->applyPreset(order);
        }
        else stageModel_->setOrder(order.split(QLatin1Char(',')), order.split(QLatin1Char(',')));
        for (const QString& stage : advanced_->stagesSwitchedOnBy(setup)) stageModel_->setEnabled(stage, true);
    }
    if (setup.contains(QStringLiteral("prompt"))) {
        const QSignalBlocker block(ui_->promptEdit);
        ui_->promptEdit->setPlainText(setup.value(QStringLiteral("prompt")).toString());
    }
    updateKnobStates();
    updatePresetCombo();
    emit samplerParamsChanged(samplerParams());
    emit settingsChanged();
    restart();
    const QString action = setup.value(QStringLiteral("action")).toString();
    if (action == QLatin1String("run")) run();
    else if (action == QLatin1String("step")) step();
}

bool PlaygroundPage::knobEnabled(const QString& stage) const {
    if (stage == QLatin1String("temperature")) return ui_->temperatureSlider->isEnabled();
    if (stage == QLatin1String("top-k")) return ui_->topKSlider->isEnabled();
    if (stage == QLatin1String("top-p")) return ui_->topPSlider->isEnabled();
    if (stage == QLatin1String("min-p")) return ui_->minPSlider->isEnabled();
    if (stage == QLatin1String("repetition")) return ui_->repeatPenaltySlider->isEnabled();
    if (stage == QLatin1String("freq-presence")) return ui_->frequencyPenaltySlider->isEnabled();
    const QGroupBox* box = advanced_->group(stage);
    return box && box->isChecked();
}

void PlaygroundPage::updateKnobStates() {
    const auto set = [this](const char* stage, std::initializer_list<QWidget*> widgets) {
        const bool on = stageModel_->isEnabled(QString::fromLatin1(stage));
        for (QWidget* w : widgets) w->setEnabled(on);
    };
    set("temperature", {ui_->temperatureLabel, ui_->temperatureSlider, ui_->temperatureSpin});
    set("top-k", {ui_->topKLabel, ui_->topKSlider, ui_->topKSpin});
    set("top-p", {ui_->topPLabel, ui_->topPSlider, ui_->topPSpin});
    set("min-p", {ui_->minPLabel, ui_->minPSlider, ui_->minPSpin});
    set("repetition", {ui_->repeatPenaltyLabel, ui_->repeatPenaltySlider, ui_->repeatPenaltySpin});
    set("freq-presence", {ui_->frequencyPenaltyLabel, ui_->frequencyPenaltySlider, ui_->frequencyPenaltySpin,
                          ui_->presencePenaltyLabel, ui_->presencePenaltySlider, ui_->presencePenaltySpin});
}

void PlaygroundPage::updatePresetCombo() {
    const int index = presetCombo_->findData(stageModel_->matchingPreset());
    const QSignalBlocker block(presetCombo_);
    presetCombo_->setCurrentIndex(index < 0 ? presetCombo_->count() - 1 : index);
}

void PlaygroundPage::showCandidateMenu(const QPoint& pos) {
    const QModelIndex index = ui_->candidateTable->indexAt(pos);
    if (!index.isValid() || index.row() >= candidateModel_->rows().size()) return;
    const CandidateRow row = candidateModel_->rows().at(index.row());
    QMenu menu(this);
    QAction* ban = menu.addAction(tr("Ban \u201c%1\u201d (id %2) with the logit bias").arg(row.text).arg(row.id));
    if (menu.exec(ui_->candidateTable->viewport()->mapToGlobal(pos)) == ban) {
        advanced_->banToken(row.id);
        advancedToggle_->setChecked(true);
    }
}

void PlaygroundPage::randomizeSeed() {
    ui_->seedSpin->setValue(static_cast<int>(QRandomGenerator::global()->bounded(ui_->seedSpin->maximum())));
}

void PlaygroundPage::applyResample() {
    if (resampledToken_ < 0 || currentStep_ < 0) return;
    const int token = resampledToken_;
    resampledToken_ = -1;
    applyResampleButton_->hide();
    onAlternativeChosen(currentStep_, token);
}

void PlaygroundPage::parkFocus() {
    QWidget* focus = QApplication::focusWidget();
    for (QWidget* b : {static_cast<QWidget*>(ui_->stepButton), static_cast<QWidget*>(ui_->runButton),
                       static_cast<QWidget*>(ui_->loopDemoButton), static_cast<QWidget*>(applyResampleButton_)})
        if (focus == b) {
            parkedFocus_ = b;
            setFocus(Qt::OtherFocusReason);
            return;
        }
}

void PlaygroundPage::restoreFocus() {
    if (!parkedFocus_) return;
    QWidget* w = parkedFocus_;
    parkedFocus_ = nullptr;
    // Only if the focus is still where it was parked (the user may have clicked elsewhere since).
    if (QApplication::focusWidget() == this && w->isEnabled() && w->isVisible()) w->setFocus(Qt::OtherFocusReason);
}

void PlaygroundPage::showStep(const StepTrace& trace, const StepView& view) {
    if (discardRun_) return;
    if (discardStep_) {
        discardStep_ = false;
        return;
    }
    if (replay_) return;
    if (view.record) recording_.addStep(*view.record);
    stepInFlight_ = false;
    currentStep_ = view.step;
    lastKept_ = trace.stages.empty() ? 0 : trace.stages.back().kept;
    strip_->appendToken(view.token);
    // The current branch grew: its entry in the branch list counts the new token.
    for (BranchEntry& b : branches_)
        if (b.current && b.steps != view.step + 1) {
            b.steps = view.step + 1;
            if (!running_) retranslateBranches();   // during a run: once at its end
        }
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
        rows << CandidateRow{b.id, b.label, i < view.logits.size() ? view.logits[i] : 0.0, b.before, b.after, b.removed, b.id == chosen, b.forbidden};
    }
    candidateModel_->setRows(rows);
}

void PlaygroundPage::drawView(const StepView& view, bool followEnd) {
    if (running_) retranslateBranches();   // the branch list's counts, once per frame during Run
    lastChosen_ = view.token.id;
    resampledToken_ = -1;
    applyResampleButton_->hide();
    updateViews(view, view.token.id);
    syncMaskStrip();
    plainText_->setPlainText(view.generatedText);
    showChosen(view, lastKept_, false);
    // Whether the loop came from greedy decoding is a fact of the run, not of the sliders later.
    repetitionGreedy_ = (replay_ && view.step >= 0 && view.step < replay_->steps() ? replay_->step(view.step).sampler.temperature
                                                                                   : samplerParams().temperature) == 0.0f;
    showRepetition(view.repetition);
    if (followEnd) {
        // Follow the end of the text while it grows.
        QScrollBar* bar = ui_->stripArea->verticalScrollBar();
        bar->setValue(bar->maximum());
    }
    emit viewsUpdated();
}

QString PlaygroundPage::probabilityText(double p) {
    // Three decimals, or three significant digits below 0.01: "p = 0.000" hid a real 0.00021.
    return p > 0.0 && p < 0.01 ? widgets::shortNumberText(p, 2) : widgets::decimalText(p, 3);
}

void PlaygroundPage::showChosen(const StepView& view, int kept, bool resampled) {
    // Steps are counted from 1 on screen (the first token is step 1), from 0 in the engine.
    if (resampled)
        ui_->chosenLabel->setText(tr("Step %1 with these settings would choose \u201c%2\u201d (p = %3); %n token(s) kept", nullptr, kept)
                                      .arg(view.step + 1)
                                      .arg(view.chosenText)
                                      .arg(probabilityText(view.chosenProbability)));
    else
        ui_->chosenLabel->setText(tr("Step %1 chose \u201c%2\u201d (p = %3); %n token(s) kept after the chain", nullptr, kept)
                                      .arg(view.step + 1)
                                      .arg(view.chosenText)
                                      .arg(probabilityText(view.chosenProbability)));
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
    // Whole repeats plus the start of one more: "59 tokens = a block of 17, 3 times, and 8 more".
    const int rest = r.count - r.period * r.repeats;
    const QString what = rest > 0 ? tr("Loop detected: the last %1 tokens are a block of %2 tokens repeated %3 times and %4 tokens "
                                       "of it again (highlighted).")
                                        .arg(r.count)
                                        .arg(r.period)
                                        .arg(r.repeats)
                                        .arg(rest)
                                  : tr("Loop detected: the last %1 tokens are a block of %2 tokens repeated %3 times (highlighted).")
                                        .arg(r.count)
                                        .arg(r.period)
                                        .arg(r.repeats);
    ui_->repetitionLabel->setText(what + QLatin1Char(' ') +
                                  (repetitionGreedy_ ? tr("Greedy decoding keeps choosing the same continuation; sampling or a repetition penalty breaks it.")
                                          : tr("Even sampled, the repeated tokens stay the likeliest; a repetition penalty, DRY or no-repeat-n-gram "
                                               "breaks the loop.")));
    ui_->repetitionLabel->show();
}

void PlaygroundPage::showResample(int step, const SampleResult& result, const StepView& view) {
    resampleInFlight_ = false;
    if (replay_) {
        resamplePending_ = false;
        return;
    }
    if (step == currentStep_ && !running_) {
        updateViews(view, result.token);
        showChosen(view, result.stages.empty() ? 0 : result.stages.back().kept, true);
        // "Would choose X" can be taken: a branch at this step with X.
        const bool differs = result.token != lastChosen_;
        resampledToken_ = differs ? result.token : -1;
        applyResampleButton_->setVisible(differs);
        emit viewsUpdated();
    }
    if (resamplePending_) sendResample();
}

void PlaygroundPage::showBranch(const BranchView& b) {
    if (discardStep_) {
        discardStep_ = false;
        return;
    }
    if (replay_) return;
    if (b.switched) recording_.switchTo(b.branch);
    else if (b.view.record) recording_.addBranch(b.branch, *b.view.record);
    stepInFlight_ = false;
    currentStep_ = b.step;
    strip_->setTokens(b.strip);
    syncMaskStrip();
    lastKept_ = b.view.stages.isEmpty() ? 0 : b.view.stages.back().kept;
    if (b.switched) {
        if (b.step >= 0) drawView(b.view);
        else {
            lastView_ = {};
            chart_->clear();
            waterfall_->clear();
            candidateModel_->setRows({});
            plainText_->clear();
            showRepetition({});
        }
        ui_->chosenLabel->setText(tr("Switched to another branch: %n token(s) generated on it. Step or Run continues it.", nullptr,
                                     static_cast<int>(b.strip.size())));
        updateEnabled();
        return;
    }
    drawView(b.view);
    ui_->chosenLabel->setText(tr("Branched at step %1: \u201c%2\u201d (p = %3 under these settings). Step or Run continues from it; "
                                 "the prompt and the tokens before it are not computed again.")
                                  .arg(b.step + 1)
                                  .arg(b.view.chosenText)
                                  .arg(probabilityText(b.view.chosenProbability)));
    updateEnabled();
}

void PlaygroundPage::onAlternativeChosen(int step, int token) {
    if (!modelReady_ || !sessionStarted_ || stepInFlight_ || running_ || replay_) return;
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
    if (replay_) return;
    retranslateBranches();
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
    emit settingsChanged();   // written once the knob rests (MainWindow waits 0.4 s after the last change)
    if (currentStep_ < 0 || running_ || replay_) return;
    const bool seedMoved = p.seed != editedSeed_;
    editedSeed_ = p.seed;
    if (seedMoved && sessionStarted_) {
        // The steps so far keep their draws: a re-sample cannot show another seed. Say so (only
        // for the seed's own move: any other knob re-samples as usual).
        ui_->chosenLabel->setText(tr("The seed takes effect at Reset: the steps so far keep the draws of seed %1.").arg(sessionSeed_));
        return;
    }
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
    const bool idle = modelReady_ && !stepInFlight_ && !running_ && !replay_;
    if (!idle) parkFocus();
    ui_->stepButton->setEnabled(idle);
    ui_->runButton->setEnabled(idle);
    ui_->loopDemoButton->setEnabled(idle);
    ui_->stopButton->setEnabled(running_ || stepInFlight_);
    ui_->restartButton->setEnabled((modelReady_ && sessionStarted_ && !stepInFlight_) || replay_);
    // A replay shows what was recorded: the settings are the recording's, not knobs to turn.
    for (QWidget* w : {static_cast<QWidget*>(ui_->samplerBox), static_cast<QWidget*>(ui_->stageBox),
                       static_cast<QWidget*>(advanced_), static_cast<QWidget*>(presetCombo_)})
        w->setEnabled(!replay_);
    ui_->promptEdit->setReadOnly(replay_ != nullptr);
    // A new constraint re-samples the current step or starts over: not in the middle of a step.
    constraintBox_->setEnabled(!replay_ && !running_ && !stepInFlight_);
    applyResampleButton_->setEnabled(idle);
    restoreSetupButton_->setEnabled(idle);
    strip_->setBranchingEnabled(idle);
    if (idle) restoreFocus();
}

void PlaygroundPage::retranslate() {
    // Texts set in code; the .ui's own are redone by retranslateUi().
    if (currentStep_ < 0)
        ui_->chosenLabel->setText(modelReady_ ? tr("Press Step to generate the first token.") : tr("No model loaded."));
    else if (!lastView_.bars.isEmpty())
        showChosen(lastView_, lastKept_, false);
    showRepetition(repetition_);
    for (int i = 0; i < presetCombo_->count(); ++i) {
        const QString p = presetCombo_->itemData(i).toString();
        presetCombo_->setItemText(i, p == QLatin1String("hf")            ? tr("Hugging Face order")
                                     : p == QLatin1String("llama.cpp")   ? tr("llama.cpp order")
                                     : p == QLatin1String("mirostat")    ? tr("Mirostat 2 order")
                                     : p == QLatin1String("mirostat-v1") ? tr("Mirostat 1 order")
                                                                         : tr("Custom order"));
    }
    presetCombo_->setToolTip(tr("The engine's named stage orders: Hugging Face (penalties, temperature, top-k, top-p, min-p), "
                                "llama.cpp (penalties, DRY, top-n-σ, top-k, typical, top-p, min-p, XTC, temperature last) "
                                "and Mirostat 1 and 2 (penalties, temperature, Mirostat)."));
    advancedToggle_->setText(tr("Advanced samplers"));
    advancedToggle_->setToolTip(tr("Typical-p, top-n-σ, XTC, DRY, Mirostat, no-repeat-n-gram, logit bias and the penalty window"));
    randomSeedButton_->setText(tr("Random seed"));
    randomSeedButton_->setToolTip(tr("Pick a new seed at random (takes effect at Reset)"));
    applyResampleButton_->setText(tr("Use this choice"));
    applyResampleButton_->setToolTip(tr("Continue from this step with the token these settings choose (a branch: the tokens before it are kept)"));
    restoreSetupButton_->setText(tr("Restore my settings"));
    logScaleCheck_->setText(tr("Log scale"));
    logScaleCheck_->setToolTip(tr("Probability on a logarithmic axis: the long tail of unlikely tokens becomes visible"));
    barsLabel_->setText(tr("Bars"));
    barsSpin_->setToolTip(tr("How many of the most likely tokens the chart and the table show"));
    // "H", as the waterfall writes it ("H 2.02 bits"): short enough for the row above a narrow chart.
    entropyCombo_->setItemText(0, tr("H in bits"));
    entropyCombo_->setItemText(1, tr("H in nats"));
    entropyCombo_->setToolTip(tr("The unit of H, the entropy. Entropy measures how spread out the distribution is: 0 when one "
                                 "token is certain, log2(n) bits for n equally likely tokens (1 nat = 1.44 bits)"));
    ui_->viewTabs->setTabText(ui_->viewTabs->indexOf(promptTab_), tr("Prompt tokens"));
    if (promptStrip_->tokens().isEmpty()) promptTokensLabel_->setText(tr("Step once to see the prompt as the model's tokens."));
    plainTextCheck_->setText(tr("Plain text"));
    plainTextCheck_->setToolTip(tr("Show the generated text as plain text instead of tokens"));
    branchLabel_->setText(tr("Branch"));
    branchCombo_->setToolTip(tr("Every continuation you branched off stays: switch between them here"));
    retranslateBranches();
    updateConstraintViews();
    restoreSetupButton_->setToolTip(tr("Put back the prompt and the sampler settings you had before the demo or lesson"));
    retranslateReplay();
}

void PlaygroundPage::fitCandidateColumns() {
    // Each number column as wide as its header or its widest possible value, whichever is wider.
    QHeaderView* header = ui_->candidateTable->horizontalHeader();
    const QFontMetrics fm(ui_->candidateTable->font());
    const QFontMetrics hm(header->font());
    const int pad = 3 * fm.averageCharWidth();
    const auto widest = [&](int column, const QString& sample) {
        const QString title = candidateModel_->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        return std::max(hm.horizontalAdvance(title) + pad, fm.horizontalAdvance(sample) + pad);
    };
    header->resizeSection(CandidateTableModel::RankColumn, widest(CandidateTableModel::RankColumn, QStringLiteral("50")));
    header->resizeSection(CandidateTableModel::IdColumn, widest(CandidateTableModel::IdColumn, QStringLiteral("151936")));
    header->resizeSection(CandidateTableModel::LogitColumn, widest(CandidateTableModel::LogitColumn, QStringLiteral("-100.000")));
    header->resizeSection(CandidateTableModel::RawPColumn, widest(CandidateTableModel::RawPColumn, QStringLiteral("100.00 %")));
    header->resizeSection(CandidateTableModel::FinalPColumn, widest(CandidateTableModel::FinalPColumn, QStringLiteral("100.00 %")));
    QString removed = CandidateTableModel::tr("removed");
    if (fm.horizontalAdvance(CandidateTableModel::tr("forbidden")) > fm.horizontalAdvance(removed)) removed = CandidateTableModel::tr("forbidden");
    const QString chosen = QStringLiteral("✓ ") + CandidateTableModel::tr("chosen");
    header->resizeSection(CandidateTableModel::KeptColumn,
                          widest(CandidateTableModel::KeptColumn, fm.horizontalAdvance(removed) > fm.horizontalAdvance(chosen) ? removed : chosen));
}

void PlaygroundPage::fitControlsWidth() {
    // The controls never scroll sideways: the panel is at least as wide as its widest row needs,
    // in the current language ("Greedy-Schleife vorführen" is wider than "Greedy loop demo").
    // The views keep room for the chart's caption, legend and bar labels (below that the chart
    // shrank to a strip).
    QWidget* views = findChild<QWidget*>(QStringLiteral("viewColumn"));
    const int viewsMin = fontMetrics().averageCharWidth() * 46;
    if (views) views->setMinimumWidth(viewsMin);
    // Sliders at their natural length wherever the page has room for that beside the views; in a
    // narrow window (1024 px beside the Lessons panel) they shrink to a few characters (the spin
    // box beside each takes exact values) rather than the page scrolling sideways.
    const int bar = ui_->controlsScroll->verticalScrollBar()->sizeHint().width();
    for (QSlider* slider : ui_->samplerBox->findChildren<QSlider*>()) slider->setMinimumWidth(fontMetrics().averageCharWidth() * 6);
    ui_->controlsPanel->adjustSize();
    const int comfortable = ui_->controlsPanel->sizeHint().width() + bar;
    const int tight = std::min(comfortable, ui_->controlsPanel->minimumSizeHint().width() + bar);
    const int room = width() - viewsMin - ui_->pageSplitter->handleWidth() - 2 * style()->pixelMetric(QStyle::PM_LayoutLeftMargin);
    const int wanted = room >= comfortable ? comfortable : tight;
    if (ui_->controlsScroll->minimumWidth() != wanted) ui_->controlsScroll->setMinimumWidth(wanted);
}

void PlaygroundPage::resizeEvent(QResizeEvent* e) {
    Page::resizeEvent(e);
    fitControlsWidth();   // the sliders' length follows the room the page has
}

// Every stage in view, no scrolling inside the list (at 1920 × 1080 it scrolled through 10 of 14
// rows above empty space); the controls panel scrolls as a whole where the window is short.
void PlaygroundPage::fitStageList() {
    QListView* list = ui_->stageList;
    const int rows = list->model() ? list->model()->rowCount() : 0;
    if (rows == 0) return;
    const int height = rows * list->sizeHintForRow(0) + 2 * list->frameWidth() + 2;
    list->setMinimumHeight(height);
    list->setMaximumHeight(height);
}

void PlaygroundPage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        ui_->retranslateUi(this);
        retranslate();
        fitControlsWidth();
        QTimer::singleShot(0, this, &PlaygroundPage::fitCandidateColumns);   // after the model's headers changed
    } else if (e->type() == QEvent::FontChange) {
        // Presentation mode and zoom: the controls grow with the font, so their panel does too
        // (it kept its width and cut every value box off).
        QTimer::singleShot(0, this, &PlaygroundPage::fitControlsWidth);
        QTimer::singleShot(0, this, &PlaygroundPage::fitStageList);
        QTimer::singleShot(0, this, &PlaygroundPage::fitCandidateColumns);
    }
    QWidget::changeEvent(e);
}

void PlaygroundPage::showEvent(QShowEvent* e) {
    for (QShortcut* s : replayShortcuts_) s->setEnabled(replay_ != nullptr);
    Page::showEvent(e);
}

void PlaygroundPage::hideEvent(QHideEvent* e) {
    for (QShortcut* s : replayShortcuts_) s->setEnabled(false);
    Page::hideEvent(e);
}

void PlaygroundPage::showDistribution() { ui_->viewTabs->setCurrentWidget(ui_->chartTab); }

void PlaygroundPage::setPresenting(bool on) {
    // On a projector the chart is what the room looks at: it gets half the height. Leaving
    // presentation mode puts the user's own split back (fixed shares taken at the projector's
    // height left a 1024×700 window a chart too short for its axis labels).
    if (on == presenting_) return;
    presenting_ = on;
    if (on) {
        splitBeforePresenting_ = ui_->viewSplitter->saveState();
        const int total = ui_->viewSplitter->height();
        if (total > 0) ui_->viewSplitter->setSizes({total / 2, total * 3 / 10, total / 5});
    } else if (!splitBeforePresenting_.isEmpty()) {
        ui_->viewSplitter->restoreState(splitBeforePresenting_);
    }
}

}  // namespace dlab::ui
