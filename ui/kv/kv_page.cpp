#include "ui/kv/kv_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <stdexcept>

#include "ui/engine/engine_context.h"
#include "ui/app/mnemonic_text.h"
#include "ui/kv/kv_blocks_panel.h"
#include "ui/kv/kv_calculator_panel.h"
#include "ui/kv/kv_compression_panel.h"
#include "ui/kv/kv_controller.h"
#include "ui/kv/kv_growth_panel.h"
#include "ui/kv/kv_heatmap_panel.h"
#include "widgets/front_tab_sizing.h"
#include "widgets/image_export.h"
#include "widgets/number_text.h"
#include "widgets/text_box_lines.h"

namespace dlab::ui {

namespace {
void registerTypes() {
    qRegisterMetaType<dlab::ui::KvRunRequest>();
    qRegisterMetaType<dlab::ui::KvStepPoint>();
    qRegisterMetaType<dlab::ui::KvRunPtr>();
    qRegisterMetaType<dlab::ui::KvTypesView>();
    qRegisterMetaType<dlab::ui::KvEvictionView>();
    qRegisterMetaType<dlab::ui::KvModelShape>();
    qRegisterMetaType<dlab::ui::KvPoolView>();
}
}  // namespace

KvPage::KvPage(QWidget* parent) : Page(parent) {
    registerTypes();
    build();
    retranslate();
    updateEnabled();
}

KvPage::~KvPage() = default;

QString KvPage::defaultPrompt() {
    // Longer than two blocks of 16, so continuations share whole blocks (a prompt inside one block
    // is copied on the first write by every continuation, and nothing stays shared).
    return QStringLiteral("A language model writes one token at a time. For every token it has read, each layer keeps a key "
                          "and a value vector in a cache, so that the next token only has to compute its own. Watch the "
                          "cache as the model continues:");
}

QString KvPage::title() const { return tr("&KV cache"); }

QString KvPage::toolTip() const {
    return tr("The KV cache of a run: growth and timings with and without it, the memory heatmap, paged blocks, "
              "compression and eviction, and the memory calculator");
}

void KvPage::build() {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QGridLayout;
    promptLabel_ = new QLabel(this);
    prompt_ = new QPlainTextEdit(this);
    prompt_->setObjectName(QStringLiteral("kvPrompt"));
    prompt_->setPlainText(defaultPrompt());
    widgets::keepTextBoxLines(prompt_, 3);   // whole lines in every language's font
    promptLabel_->setBuddy(prompt_);
    steps_ = new QSpinBox(this);
    steps_->setObjectName(QStringLiteral("kvSteps"));
    steps_->setRange(1, 2048);
    steps_->setValue(48);
    sequences_ = new QSpinBox(this);
    sequences_->setObjectName(QStringLiteral("kvSequences"));
    sequences_->setRange(1, 8);
    sequences_->setValue(3);
    dtype_ = new QComboBox(this);
    dtype_->setObjectName(QStringLiteral("kvDtype"));
    for (const char* t : {"f16", "f32", "q8_0"}) dtype_->addItem(QLatin1String(t), QLatin1String(t));
    blockSize_ = new QComboBox(this);
    blockSize_->setObjectName(QStringLiteral("kvBlockSize"));
    for (int b : {4, 8, 16, 32, 64}) blockSize_->addItem(QString::number(b), b);
    blockSize_->setCurrentIndex(2);
    noCache_ = new QCheckBox(this);
    noCache_->setChecked(true);
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("kvRun"));
    stop_ = new QPushButton(this);
    export_ = new QToolButton(this);
    auto label = [this](QLabel*& l, QWidget* buddy) {
        l = new QLabel(this);
        l->setBuddy(buddy);
        return l;
    };
    top->addWidget(promptLabel_, 0, 0);
    top->addWidget(prompt_, 0, 1, 2, 1);
    auto* row1 = new QHBoxLayout;
    row1->addWidget(label(stepsLabel_, steps_));
    row1->addWidget(steps_);
    row1->addWidget(label(sequencesLabel_, sequences_));
    row1->addWidget(sequences_);
    row1->addWidget(label(dtypeLabel_, dtype_));
    row1->addWidget(dtype_);
    row1->addWidget(label(blockSizeLabel_, blockSize_));
    row1->addWidget(blockSize_);
    auto* row2 = new QHBoxLayout;
    row2->addWidget(noCache_);
    row2->addStretch(1);
    row2->addWidget(run_);
    row2->addWidget(stop_);
    row2->addWidget(export_);
    top->addLayout(row1, 0, 2);
    top->addLayout(row2, 1, 2);
    top->setColumnStretch(1, 1);
    layout->addLayout(top);
    statusLabel_ = new QLabel(this);
    statusLabel_->setWordWrap(true);
    statusLabel_->setObjectName(QStringLiteral("kvStatus"));
    // Two lines kept for it from the start, and the run's quoted continuation cut to fit them
    // (fitQuote): appearing after a run, it pushed the tabs and the buttons under the pointer
    // down by a line or two.
    statusLabel_->setMinimumHeight(2 * statusLabel_->fontMetrics().lineSpacing());
    statusLabel_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    statusLabel_->installEventFilter(this);
    layout->addWidget(statusLabel_);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("kvTabs"));
    growth_ = new KvGrowthPanel;
    heatmap_ = new KvHeatmapPanel;
    blocks_ = new KvBlocksPanel;
    compression_ = new KvCompressionPanel;
    calculator_ = new KvCalculatorPanel;
    growth_->setObjectName(QStringLiteral("kvGrowth"));
    calculator_->setObjectName(QStringLiteral("kvCalculator"));
    compression_->setObjectName(QStringLiteral("kvCompression"));
    heatmap_->setObjectName(QStringLiteral("kvHeatmapPanel"));
    blocks_->setObjectName(QStringLiteral("kvBlocks"));
    for (QWidget* w : std::initializer_list<QWidget*>{growth_, heatmap_, blocks_, compression_, calculator_}) tabs_->addTab(w, QString());
    widgets::sizeToFrontTab(tabs_);   // the page is as wide as the tab in front needs
    layout->addWidget(tabs_, 1);

    connect(run_, &QPushButton::clicked, this, &KvPage::run);
    connect(stop_, &QPushButton::clicked, this, &KvPage::stop);
    connect(export_, &QToolButton::clicked, this, &KvPage::showExportDialog);
    connect(compression_, &KvCompressionPanel::typesRequested, this, [this](int steps, bool exact) {
        if (!modelReady_ || busy()) return;
        comparing_ = true;
        updateEnabled();
        emit typesRequested(prompt_->toPlainText(), steps, exact);
    });
    connect(compression_, &KvCompressionPanel::evictionRequested, this, [this](const QString& text, int tokens, int cache, int sinks) {
        if (!modelReady_ || busy()) return;
        evicting_ = true;
        updateEnabled();
        emit evictionRequested(text, tokens, cache, sinks);
    });
    connect(compression_, &KvCompressionPanel::errorOccurred, this, &Page::errorOccurred);
    connect(blocks_, &KvBlocksPanel::poolRequested, this, &KvPage::poolRequested);
    for (QSpinBox* s : {steps_, sequences_}) connect(s, &QSpinBox::valueChanged, this, &Page::settingsChanged);
    for (QComboBox* c : {dtype_, blockSize_}) connect(c, &QComboBox::currentIndexChanged, this, &Page::settingsChanged);
    connect(noCache_, &QCheckBox::toggled, this, &Page::settingsChanged);
    connect(prompt_, &QPlainTextEdit::textChanged, this, &Page::settingsChanged);
    connect(frontShortcut(QKeySequence(Qt::Key_F5)), &QShortcut::activated, this, &KvPage::run);
    connect(frontShortcut(QKeySequence(Qt::Key_Escape)), &QShortcut::activated, this, &KvPage::stop);
}

void KvPage::attachEngine(EngineContext* engine) {
    auto* c = new KvController(engine);
    controller_ = c;
    connect(this, &KvPage::runRequested, c, &KvController::run);
    connect(this, &KvPage::typesRequested, c, &KvController::compareTypes);
    connect(this, &KvPage::evictionRequested, c, &KvController::evict);
    connect(this, &KvPage::shapeRequested, c, &KvController::describeModel);
    connect(this, &KvPage::poolRequested, c, &KvController::showPool);
    connect(c, &KvController::poolReady, blocks_, &KvBlocksPanel::showPool);
    connect(this, &KvPage::stopRequested, this, [engine] { engine->cancel(); });
    connect(c, &KvController::runStep, this, [this](const KvStepPoint& p) {
        if (!running_) return;
        growth_->addStep(p);
        const int n = steps_->value();
        setStatus([=, this] { return tr("Step %1 of %2: %3 positions cached.").arg(p.step).arg(n).arg(p.positions); });
    });
    connect(c, &KvController::runReady, this, &KvPage::showRun);
    connect(c, &KvController::noCacheStep, growth_, &KvGrowthPanel::addNoCacheStep);
    connect(c, &KvController::noCacheFinished, this, [this](bool stopped) {
        growth_->setNoCacheFinished(stopped);
        timingNoCache_ = false;
        updateEnabled();
        emit noCacheDone();
    });
    connect(c, &KvController::typesProgress, compression_, &KvCompressionPanel::showTypesProgress);
    connect(c, &KvController::typesReady, this, [this](const KvTypesView& v) {
        compression_->showTypes(v);
        comparing_ = false;
        updateEnabled();
        emit typesDone();
    });
    connect(c, &KvController::evictionProgress, compression_, &KvCompressionPanel::showEvictionProgress);
    connect(c, &KvController::evictionReady, this, [this](const KvEvictionView& v) {
        compression_->showEviction(v);
        evicting_ = false;
        updateEnabled();
        emit evictionDone();
    });
    connect(c, &KvController::modelShape, calculator_, &KvCalculatorPanel::setLoadedModel);
    connect(c, &KvController::failed, this, [this](const QString& m) {
        const bool wasRunning = running_, wasTiming = timingNoCache_, wasComparing = comparing_, wasEvicting = evicting_;
        running_ = timingNoCache_ = comparing_ = evicting_ = false;
        setStatus([=, this] { return tr("The run failed: %1").arg(m); });
        updateEnabled();
        emit errorOccurred(m);
        if (wasRunning) emit runDone();
        if (wasTiming) emit noCacheDone();
        if (wasComparing) emit typesDone();
        if (wasEvicting) emit evictionDone();
    });
}

KvRunRequest KvPage::request() const {
    KvRunRequest r;
    r.prompt = prompt_->toPlainText();
    r.steps = steps_->value();
    r.sequences = sequences_->value();
    r.kvType = dtype_->currentData().toString();
    r.blockSize = blockSize_->currentData().toInt();
    r.timeWithoutCache = noCache_->isChecked();
    return r;
}

void KvPage::run() {
    if (!modelReady_ || busy() || !isVisible()) return;
    running_ = true;
    timingNoCache_ = noCache_->isChecked();
    growth_->clear();
    setStatus([this] { return tr("Running…"); });
    updateEnabled();
    emit runRequested(request());
}

void KvPage::stop() {
    if (busy()) emit stopRequested();
}

void KvPage::showRun(const KvRunPtr& run) {
    if (!running_ || !run) return;
    running_ = false;
    const KvRunView& v = *run;
    if (v.cancelled) timingNoCache_ = false;
    lastRun_ = run;
    growth_->setRun(run);
    heatmap_->setRun(run);
    blocks_->setRun(run);
    status_.contextUsed = v.nSlots;
    status_.kvBytes = v.steps.isEmpty() ? 0 : v.steps.last().bytesInUse;
    emit statusChanged();
    const qint64 cached = v.nSlots;
    const int seqs = v.request.sequences;
    const double ms = v.runMs;
    const bool stopped = v.cancelled;
    const QString text = v.generatedText;
    setStatus([=, this] {
        return fitQuote(
            [=, this](const QString& quote) {
                return (stopped ? tr("Stopped. ") : QString()) +
                       tr("%n sequence(s), %1 positions in sequence 1, measured in %2 ms. It continued: “%3”", nullptr, seqs)
                           .arg(cached)
                           .arg(widgets::decimalText(ms, 0))
                           .arg(quote);
            },
            text.simplified().left(160));
    });
    updateEnabled();
    emit runDone();
}

void KvPage::updateEnabled() {
    run_->setEnabled(modelReady_ && !busy());
    stop_->setEnabled(busy());
    prompt_->setReadOnly(busy());
    compression_->setModelReady(modelReady_);
    compression_->setBusy(busy());
    heatmap_->setBusy(busy());
}

void KvPage::setModelReady(bool ready) {
    if (busy()) emit stopRequested();
    modelReady_ = ready;
    running_ = timingNoCache_ = comparing_ = evicting_ = false;
    lastRun_ = std::make_shared<KvRunView>();
    growth_->clear();
    heatmap_->clear();
    blocks_->clear();
    status_ = {};
    status_.contextToolTip = tr("Positions cached in the first sequence of the KV page's run");
    emit statusChanged();
    setStatus({});
    updateEnabled();
    if (ready) emit shapeRequested();
}

QString KvPage::fitQuote(const std::function<QString(const QString&)>& make, const QString& quote) const {
    const int width = statusLabel_->contentsRect().width();
    const QFontMetrics fm = statusLabel_->fontMetrics();
    const auto fits = [&](const QString& s) {
        return fm.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, s).height() <= 2 * fm.lineSpacing();
    };
    if (width < 10 * fm.averageCharWidth() || fits(make(quote))) return make(quote);   // not laid out yet, or whole
    // Whole words from the start; Chinese has no spaces, so characters there.
    const bool words = quote.contains(u' ');
    QString part = quote;
    while (!part.isEmpty()) {
        const int cut = words ? part.lastIndexOf(u' ') : int(part.size()) - 1;
        part = part.left(std::max(0, cut)).trimmed();
        if (fits(make(part + QChar(0x2026)))) return make(part + QChar(0x2026));
    }
    return make(QString(QChar(0x2026)));
}

bool KvPage::eventFilter(QObject* watched, QEvent* e) {
    // A new width fits another length of the quote.
    if (watched == statusLabel_ && e->type() == QEvent::Resize && statusText_) {
        const QString text = statusText_();
        if (text != statusLabel_->text()) statusLabel_->setText(text);
    }
    return QWidget::eventFilter(watched, e);
}

void KvPage::setStatus(std::function<QString()> text) {
    statusText_ = std::move(text);
    statusLabel_->setText(statusText_ ? statusText_() : idleStatusText());
}

QString KvPage::idleStatusText() const {
    return tr("Run a prompt: the page measures the KV cache of that run — every chart and cell is the engine's number.");
}

void KvPage::exportCurrentTab(const QString& path) {
    QWidget* w = tabs_->currentWidget();
    const QString title = withoutMnemonic(tabs_->tabText(tabs_->currentIndex()));
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) widgets::exportWidgetSvg(w, path, title);
    else widgets::exportWidgetPng(w, path);
}

void KvPage::showExportDialog() {
    QString chosen;
    const QString path = widgets::withFilterSuffix(
        QFileDialog::getSaveFileName(this, tr("Export the tab in front"), QString(), tr("PNG image (*.png);;SVG image (*.svg)"), &chosen), chosen);
    if (path.isEmpty()) return;
    try {
        exportCurrentTab(path);
        setStatus([=, this] { return tr("Saved %1").arg(path); });
    } catch (const std::exception& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
    }
}

void KvPage::applyLesson(const QVariantMap& setup) {
    if (!beforeLesson_) beforeLesson_ = BeforeLesson{tabs_->currentIndex(), calculator_->setup()};
    calculator_->applySetup(setup);
    tabs_->setCurrentWidget(calculator_);
}

void KvPage::restoreBeforeLesson() {
    if (!beforeLesson_) return;
    const BeforeLesson b = *beforeLesson_;
    beforeLesson_.reset();
    calculator_->applySetup(b.calculator);
    tabs_->setCurrentIndex(b.tab);
}

void KvPage::saveSettings(QSettings& s) const {
    s.setValue(QStringLiteral("kv/prompt"), prompt_->toPlainText());
    s.setValue(QStringLiteral("kv/steps"), steps_->value());
    s.setValue(QStringLiteral("kv/sequences"), sequences_->value());
    s.setValue(QStringLiteral("kv/dtype"), dtype_->currentData().toString());
    s.setValue(QStringLiteral("kv/blockSize"), blockSize_->currentData().toInt());
    s.setValue(QStringLiteral("kv/noCache"), noCache_->isChecked());
    s.setValue(QStringLiteral("kv/tab"), tabs_->currentIndex());
}

void KvPage::restoreSettings(QSettings& s) {
    if (s.contains(QStringLiteral("kv/prompt"))) prompt_->setPlainText(s.value(QStringLiteral("kv/prompt")).toString());
    steps_->setValue(s.value(QStringLiteral("kv/steps"), 48).toInt());
    sequences_->setValue(s.value(QStringLiteral("kv/sequences"), 3).toInt());
    const int d = dtype_->findData(s.value(QStringLiteral("kv/dtype"), QStringLiteral("f16")).toString());
    if (d >= 0) dtype_->setCurrentIndex(d);
    const int b = blockSize_->findData(s.value(QStringLiteral("kv/blockSize"), 16).toInt());
    if (b >= 0) blockSize_->setCurrentIndex(b);
    noCache_->setChecked(s.value(QStringLiteral("kv/noCache"), true).toBool());
    tabs_->setCurrentIndex(s.value(QStringLiteral("kv/tab"), 0).toInt());
}

void KvPage::retranslate() {
    promptLabel_->setText(tr("&Prompt"));
    stepsLabel_->setText(tr("S&teps"));
    sequencesLabel_->setText(tr("Se&quences"));
    sequences_->setToolTip(tr("Continuations forked from the prompt; they share its KV blocks (sampled at temperature 0.8 when more than one)"));
    dtypeLabel_->setText(tr("KV &dtype"));
    blockSizeLabel_->setText(tr("&Block"));
    blockSize_->setToolTip(tr("Positions per KV block"));
    noCache_->setText(tr("Time witho&ut the cache"));
    noCache_->setToolTip(tr("After the run, the same tokens again recomputing every prefix (at most %1 steps): the growth chart's comparison")
                             .arg(KvController::kMaxNoCacheSteps));
    run_->setText(tr("&Run"));
    run_->setToolTip(tr("Run the prompt into a fresh KV cache (F5)"));
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Stop the run or the measurement (Esc)"));
    export_->setText(tr("E&xport…"));
    export_->setToolTip(tr("Save the tab in front as a PNG or SVG image"));
    tabs_->setTabText(0, tr("Growth"));
    tabs_->setTabText(1, tr("Heatmap"));
    tabs_->setTabText(2, tr("Blocks"));
    tabs_->setTabText(3, tr("Compression"));
    tabs_->setTabText(4, tr("Calculator"));
    statusLabel_->setText(statusText_ ? statusText_() : idleStatusText());
}

void KvPage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    Page::changeEvent(e);
}

}  // namespace dlab::ui
