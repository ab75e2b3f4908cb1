#include "ui/serving/serving_page.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QDoubleSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/error.h"
#include "ui/engine/engine_context.h"
#include "ui/serving/serving_batch_panel.h"
#include "ui/serving/serving_controller.h"
#include "ui/serving/serving_load_panel.h"
#include "ui/serving/serving_prefix_panel.h"
#include "ui/serving/serving_streaming_panel.h"

namespace dlab::ui {

namespace {
void registerTypes() {
    qRegisterMetaType<dlab::ui::ServingLoadRequest>();
    qRegisterMetaType<dlab::ui::ServingLoadPtr>();
    qRegisterMetaType<dlab::ui::ServingLiveRun>();
    qRegisterMetaType<dlab::ui::ServingSweepRequest>();
    qRegisterMetaType<dlab::ui::ServingSweepView>();
    qRegisterMetaType<dlab::BatchSweepPoint>();
    qRegisterMetaType<dlab::ui::ServingPrefixRequest>();
    qRegisterMetaType<dlab::ui::ServingPrefixView>();
}
}  // namespace

ServingLabPage::ServingLabPage(QWidget* parent) : Page(parent) {
    registerTypes();
    build();
    retranslate();
    updateEnabled();
}

ServingLabPage::~ServingLabPage() = default;

QString ServingLabPage::title() const { return tr("Serving la&b"); }

QString ServingLabPage::toolTip() const {
    return tr("How a server batches requests, measured on the loaded model: static against continuous batching under load, "
              "batch size against latency, streaming, the prefix cache");
}

void ServingLabPage::build() {
    auto* layout = new QVBoxLayout(this);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("servingTabs"));
    load_ = new ServingLoadPanel;
    batch_ = new ServingBatchPanel;
    streaming_ = new ServingStreamingPanel;
    prefix_ = new ServingPrefixPanel;
    for (QWidget* w : std::initializer_list<QWidget*>{load_, batch_, streaming_, prefix_}) tabs_->addTab(w, QString());
    layout->addWidget(tabs_, 1);
    auto* bottom = new QHBoxLayout;
    statusLabel_ = new QLabel(this);
    statusLabel_->setObjectName(QStringLiteral("servingStatus"));
    statusLabel_->setWordWrap(true);
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("servingProgress"));
    progress_->setRange(0, 100);
    progress_->setTextVisible(false);
    progress_->setMaximumWidth(fontMetrics().averageCharWidth() * 24);
    progress_->hide();
    stop_ = new QPushButton(this);
    stop_->setObjectName(QStringLiteral("servingStop"));
    bottom->addWidget(statusLabel_, 1);
    bottom->addWidget(progress_);
    bottom->addWidget(stop_);
    layout->addLayout(bottom);

    connect(load_, &ServingLoadPanel::runRequested, this, &ServingLabPage::runLoad);
    connect(batch_, &ServingBatchPanel::measureRequested, this, &ServingLabPage::measureBatches);
    connect(prefix_, &ServingPrefixPanel::runRequested, this, &ServingLabPage::measurePrefix);
    connect(stop_, &QPushButton::clicked, this, &ServingLabPage::stop);
    connect(load_, &ServingLoadPanel::settingsChanged, this, &Page::settingsChanged);
    connect(batch_, &ServingBatchPanel::settingsChanged, this, &Page::settingsChanged);
    connect(prefix_, &ServingPrefixPanel::settingsChanged, this, &Page::settingsChanged);
    connect(tabs_, &QTabWidget::currentChanged, this, &Page::settingsChanged);
    auto* runKey = new QShortcut(QKeySequence(Qt::Key_F5), this, this, &ServingLabPage::runCurrentTab);
    runKey->setContext(Qt::WidgetWithChildrenShortcut);
    auto* stopKey = new QShortcut(QKeySequence(Qt::Key_Escape), this, this, &ServingLabPage::stop);
    stopKey->setContext(Qt::WidgetWithChildrenShortcut);
}

void ServingLabPage::attachEngine(EngineContext* engine) {
    engine_ = engine;
    auto* c = new ServingController(engine);
    controller_ = c;
    connect(this, &ServingLabPage::loadRequested, c, &ServingController::runLoad);
    connect(this, &ServingLabPage::sweepRequested, c, &ServingController::sweep);
    connect(this, &ServingLabPage::prefixRequested, c, &ServingController::measurePrefix);
    connect(c, &ServingController::loadLive, this, [this](const ServingLiveRun& live) {
        if (work_ != Work::Load || !live.run) return;
        load_->showLive(live);
        const int finished = int(live.run->requests.size());
        const int total = std::max(1, live.requests);
        const int part = live.mode == BatchingMode::Static ? 0 : 1;
        progress_->setValue(100 * (part * total + finished) / (2 * total));
        const bool isStatic = live.mode == BatchingMode::Static;
        const int steps = int(live.run->steps.size());
        setStatus([=, this] {
            return tr("%1: %2 of %3 requests finished, %4 steps so far…")
                .arg(isStatic ? tr("Static batching") : tr("Continuous batching"))
                .arg(finished)
                .arg(total)
                .arg(steps);
        });
    });
    connect(c, &ServingController::loadReady, this, [this](const ServingLoadPtr& v) {
        if (work_ != Work::Load) return;
        lastLoad_ = v;
        load_->showRun(v);
        streaming_->setRun(v);
        const bool stopped = v->cancelled;
        const double wall = v->staticRun.run.wallMs + v->continuousRun.run.wallMs;
        setStatus([=, this] {
            return stopped ? tr("Stopped; what ran before Stop is shown.")
                           : tr("Both runs done in %1 s of real time (the trace runs at its arrival times).").arg(QLocale().toString(wall / 1000.0, 'f', 1));
        });
        finish();
        emit loadDone();
    });
    connect(c, &ServingController::sweepPoint, this, [this](const BatchSweepPoint& p, int done, int total) {
        if (work_ != Work::Sweep) return;
        batch_->addPoint(p);
        progress_->setValue(100 * done / std::max(1, total));
        setStatus([=, this] { return tr("Batch %1 measured (%2 of %3)…").arg(p.batch).arg(done).arg(total); });
    });
    connect(c, &ServingController::sweepReady, this, [this](const ServingSweepView& v) {
        if (work_ != Work::Sweep) return;
        batch_->showSweep(v);
        const bool stopped = v.cancelled;
        const int n = int(v.points.size());
        setStatus([=, this] { return stopped ? tr("Stopped after %n batch size(s).", nullptr, n) : tr("%n batch size(s) measured.", nullptr, n); });
        finish();
        emit sweepDone();
    });
    connect(c, &ServingController::prefixReady, this, [this](const ServingPrefixView& v) {
        if (work_ != Work::Prefix) return;
        prefix_->showResult(v);
        const bool stopped = v.cancelled;
        setStatus([=, this] { return stopped ? tr("Stopped.") : tr("Measured with and without the prefix cache."); });
        finish();
        emit prefixDone();
    });
    connect(c, &ServingController::failed, this, [this](const QString& m) {
        const Work was = work_;
        setStatus([=, this] { return tr("The run failed: %1").arg(m); });
        finish();
        emit errorOccurred(m);
        if (was == Work::Load) emit loadDone();
        if (was == Work::Sweep) emit sweepDone();
        if (was == Work::Prefix) emit prefixDone();
    });
}

void ServingLabPage::begin(Work w) {
    work_ = w;
    progress_->setRange(0, w == Work::Prefix ? 0 : 100);   // the prefix experiment reports no steps: busy
    progress_->setValue(0);
    progress_->show();
    updateEnabled();
}

void ServingLabPage::finish() {
    work_ = Work::None;
    progress_->hide();
    updateEnabled();
}

void ServingLabPage::runLoad() {
    if (!modelReady_ || busy()) return;
    begin(Work::Load);
    setStatus([this] { return tr("Static batching first: waiting for the first steps…"); });
    emit loadRequested(load_->request());
}

void ServingLabPage::measureBatches() {
    if (!modelReady_ || busy()) return;
    ServingSweepRequest r;
    try {
        r = batch_->request();
    } catch (const Error& e) {
        const QString m = QString::fromUtf8(e.what());
        setStatus([m] { return m; });
        return;
    }
    begin(Work::Sweep);
    batch_->clear();
    setStatus([this] { return tr("Measuring batch sizes…"); });
    emit sweepRequested(r);
}

void ServingLabPage::measurePrefix() {
    if (!modelReady_ || busy()) return;
    begin(Work::Prefix);
    setStatus([this] { return tr("Running the requests with the prefix cache, then without…"); });
    emit prefixRequested(prefix_->request());
}

void ServingLabPage::runCurrentTab() {
    if (!isVisible()) return;
    QWidget* w = tabs_->currentWidget();
    if (w == load_ || w == streaming_) runLoad();
    else if (w == batch_) measureBatches();
    else if (w == prefix_) measurePrefix();
}

void ServingLabPage::stop() {
    if (busy() && engine_) engine_->cancel();
}

void ServingLabPage::updateEnabled() {
    stop_->setEnabled(busy());
    load_->setModelReady(modelReady_);
    batch_->setModelReady(modelReady_);
    prefix_->setModelReady(modelReady_);
    load_->setBusy(busy());
    batch_->setBusy(busy());
    prefix_->setBusy(busy());
}

void ServingLabPage::setModelReady(bool ready) {
    if (busy() && engine_) engine_->cancel();
    modelReady_ = ready;
    work_ = Work::None;
    progress_->hide();
    lastLoad_.reset();
    load_->clear();
    batch_->clear();
    streaming_->clear();
    prefix_->clear();
    setStatus({});
    updateEnabled();
}

void ServingLabPage::setStatus(std::function<QString()> text) {
    statusText_ = std::move(text);
    statusLabel_->setText(statusText_ ? statusText_() : QString());
}

void ServingLabPage::saveSettings(QSettings& s) const {
    s.beginGroup(QStringLiteral("serving"));
    s.setValue(QStringLiteral("tab"), tabs_->currentIndex());
    s.setValue(QStringLiteral("rate"), load_->rateSpin()->value());
    s.setValue(QStringLiteral("requests"), load_->requestsSpin()->value());
    s.setValue(QStringLiteral("promptMin"), load_->promptMinSpin()->value());
    s.setValue(QStringLiteral("promptMax"), load_->promptMaxSpin()->value());
    s.setValue(QStringLiteral("outputMin"), load_->outputMinSpin()->value());
    s.setValue(QStringLiteral("outputMax"), load_->outputMaxSpin()->value());
    s.setValue(QStringLiteral("systemPrompt"), load_->systemPromptCheck()->isChecked());
    s.setValue(QStringLiteral("systemTokens"), load_->systemTokensSpin()->value());
    s.setValue(QStringLiteral("maxBatch"), load_->maxBatchSpin()->value());
    s.setValue(QStringLiteral("tokenBudget"), load_->tokenBudgetSpin()->value());
    s.setValue(QStringLiteral("axis"), int(load_->axis()));
    s.setValue(QStringLiteral("batches"), batch_->batchesEdit()->text());
    s.setValue(QStringLiteral("sweepPrompt"), batch_->promptSpin()->value());
    s.setValue(QStringLiteral("sweepOutput"), batch_->outputSpin()->value());
    s.setValue(QStringLiteral("itlBound"), batch_->itlBoundSpin()->value());
    s.setValue(QStringLiteral("ttftBound"), batch_->ttftBoundSpin()->value());
    s.setValue(QStringLiteral("prefixSystem"), prefix_->systemSpin()->value());
    s.setValue(QStringLiteral("prefixUser"), prefix_->userSpin()->value());
    s.setValue(QStringLiteral("prefixOutput"), prefix_->outputSpin()->value());
    s.setValue(QStringLiteral("prefixRequests"), prefix_->requestsSpin()->value());
    s.endGroup();
}

void ServingLabPage::restoreSettings(QSettings& s) {
    s.beginGroup(QStringLiteral("serving"));
    const auto num = [&](const char* key, double def) { return s.value(QLatin1String(key), def).toDouble(); };
    const auto whole = [&](const char* key, int def) { return s.value(QLatin1String(key), def).toInt(); };
    load_->rateSpin()->setValue(num("rate", 2.0));
    load_->requestsSpin()->setValue(whole("requests", 16));
    load_->promptMaxSpin()->setValue(whole("promptMax", 64));
    load_->promptMinSpin()->setValue(whole("promptMin", 16));
    load_->outputMaxSpin()->setValue(whole("outputMax", 24));
    load_->outputMinSpin()->setValue(whole("outputMin", 8));
    load_->systemPromptCheck()->setChecked(s.value(QStringLiteral("systemPrompt"), false).toBool());
    load_->systemTokensSpin()->setValue(whole("systemTokens", 64));
    load_->maxBatchSpin()->setValue(whole("maxBatch", 4));
    load_->tokenBudgetSpin()->setValue(whole("tokenBudget", 256));
    load_->setAxis(GanttAxis(whole("axis", int(GanttAxis::Milliseconds))));
    batch_->batchesEdit()->setText(s.value(QStringLiteral("batches"), QStringLiteral("1, 2, 4, 8")).toString());
    batch_->promptSpin()->setValue(whole("sweepPrompt", 32));
    batch_->outputSpin()->setValue(whole("sweepOutput", 16));
    batch_->itlBoundSpin()->setValue(num("itlBound", 100.0));
    batch_->ttftBoundSpin()->setValue(num("ttftBound", 1000.0));
    prefix_->systemSpin()->setValue(whole("prefixSystem", 500));
    prefix_->userSpin()->setValue(whole("prefixUser", 32));
    prefix_->outputSpin()->setValue(whole("prefixOutput", 8));
    prefix_->requestsSpin()->setValue(whole("prefixRequests", 6));
    tabs_->setCurrentIndex(whole("tab", 0));
    s.endGroup();
}

void ServingLabPage::retranslate() {
    tabs_->setTabText(0, tr("Load"));
    tabs_->setTabText(1, tr("Batch size"));
    tabs_->setTabText(2, tr("Streaming"));
    tabs_->setTabText(3, tr("Prefix cache"));
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Stop the run between two steps; what was measured stays (Esc)"));
    if (statusText_) statusLabel_->setText(statusText_());
    else statusLabel_->setText(tr("Every bar, point and number on this page is measured by the engine on the loaded model, in real time."));
}

void ServingLabPage::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    Page::changeEvent(e);
}

}  // namespace dlab::ui
