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
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/error.h"
#include "ui/engine/engine_context.h"
#include "ui/serving/serving_batch_panel.h"
#include "ui/serving/serving_controller.h"
#include "ui/serving/serving_load_panel.h"
#include "ui/serving/serving_prefix_panel.h"
#include "ui/serving/serving_safety_panel.h"
#include "ui/serving/serving_streaming_panel.h"
#include "widgets/front_tab_sizing.h"

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
    qRegisterMetaType<dlab::SafetyRequest>();
    qRegisterMetaType<dlab::ui::ServingSafetyPtr>();
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
              "batch size against latency, streaming, the prefix cache; and the layers of a safety pipeline on one prompt");
}

void ServingLabPage::build() {
    auto* layout = new QVBoxLayout(this);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("servingTabs"));
    load_ = new ServingLoadPanel;
    batch_ = new ServingBatchPanel;
    streaming_ = new ServingStreamingPanel;
    prefix_ = new ServingPrefixPanel;
    safety_ = new ServingSafetyPanel;
    safety_->setObjectName(QStringLiteral("servingSafety"));
    load_->setObjectName(QStringLiteral("servingLoad"));
    batch_->setObjectName(QStringLiteral("servingBatch"));
    streaming_->setObjectName(QStringLiteral("servingStreaming"));
    prefix_->setObjectName(QStringLiteral("servingPrefix"));
    for (QWidget* w : std::initializer_list<QWidget*>{load_, batch_, streaming_, prefix_, safety_}) tabs_->addTab(w, QString());
    widgets::sizeToFrontTab(tabs_);   // the page is as wide as the tab in front needs
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
    connect(safety_, &ServingSafetyPanel::runRequested, this, &ServingLabPage::runSafety);
    connect(safety_, &ServingSafetyPanel::settingsChanged, this, &Page::settingsChanged);
    connect(stop_, &QPushButton::clicked, this, &ServingLabPage::stop);
    connect(load_, &ServingLoadPanel::settingsChanged, this, &Page::settingsChanged);
    connect(batch_, &ServingBatchPanel::settingsChanged, this, &Page::settingsChanged);
    connect(prefix_, &ServingPrefixPanel::settingsChanged, this, &Page::settingsChanged);
    connect(tabs_, &QTabWidget::currentChanged, this, &Page::settingsChanged);
    connect(frontShortcut(QKeySequence(Qt::Key_F5)), &QShortcut::activated, this, &ServingLabPage::runCurrentTab);
    connect(frontShortcut(QKeySequence(Qt::Key_Escape)), &QShortcut::activated, this, &ServingLabPage::stop);
}

void ServingLabPage::attachEngine(EngineContext* engine) {
    engine_ = engine;
    auto* c = new ServingController(engine);
    controller_ = c;
    connect(this, &ServingLabPage::loadRequested, c, &ServingController::runLoad);
    connect(this, &ServingLabPage::sweepRequested, c, &ServingController::sweep);
    connect(this, &ServingLabPage::prefixRequested, c, &ServingController::measurePrefix);
    connect(this, &ServingLabPage::safetyRequested, c, &ServingController::runSafety);
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
    connect(c, &ServingController::safetyStep, this, [this](int steps, int maxSteps) {
        if (work_ != Work::Safety) return;
        progress_->setValue(100 * steps / std::max(1, maxSteps));
        setStatus([=, this] { return tr("Decoding: step %1 of at most %2…").arg(steps).arg(maxSteps); });
    });
    connect(c, &ServingController::safetyReady, this, [this](const ServingSafetyPtr& run) {
        if (work_ != Work::Safety) return;
        lastSafety_ = run;
        safety_->showRun(run);
        const bool stopped = run->stop == StopReason::Cancelled;
        const bool blocked = run->blocked;
        setStatus([=, this] {
            return stopped ? tr("Stopped; the steps decoded before Stop are shown.")
                           : blocked ? tr("The input filter blocked the prompt; nothing was decoded.")
                                     : tr("The prompt went through the four layers.");
        });
        finish();
        emit safetyDone();
    });
    connect(c, &ServingController::failed, this, [this](const QString& m) {
        const Work was = work_;
        setStatus([=, this] { return tr("The run failed: %1").arg(m); });
        finish();
        emit errorOccurred(m);
        if (was == Work::Load) emit loadDone();
        if (was == Work::Sweep) emit sweepDone();
        if (was == Work::Prefix) emit prefixDone();
        if (was == Work::Safety) {
            safety_->clear();
            lastSafety_.reset();
            emit safetyDone();
        }
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

void ServingLabPage::runSafety() {
    if (!modelReady_ || busy()) return;
    SafetyRequest r;
    try {
        r = safety_->request();
    } catch (const Error& e) {
        // The last run's layers would stand beside the error as if this policy had passed them.
        safety_->clear();
        lastSafety_.reset();
        const QString m = QString::fromUtf8(e.what());
        setStatus([m] { return tr("The policy cannot be used: %1").arg(m); });
        return;
    }
    begin(Work::Safety);
    setStatus([this] { return tr("Checking the prompt, then decoding…"); });
    emit safetyRequested(r);
}

void ServingLabPage::applyLesson(const QVariantMap& setup) {
    if (!beforeLesson_) beforeLesson_ = SafetySetup{tabs_->currentIndex(), safety_->promptEdit()->toPlainText(), safety_->policy(),
                                                    safety_->maxTokensSpin()->value()};
    const auto list = [&](const char* key, std::vector<std::string>& out) {
        if (!setup.contains(QLatin1String(key))) return;
        out.clear();
        for (const QString& s : setup.value(QLatin1String(key)).toStringList()) out.push_back(s.toStdString());
    };
    SafetyPolicy p = defaultSafetyPolicy();
    list("inputFilter", p.inputPatterns);
    list("bannedPhrases", p.bannedPhrases);
    list("refusalPatterns", p.refusalPatterns);
    list("outputFilter", p.outputPatterns);
    if (setup.contains(QStringLiteral("ignoreCase"))) p.caseInsensitive = setup.value(QStringLiteral("ignoreCase")).toBool();
    safety_->setPolicy(p);
    safety_->promptEdit()->setPlainText(setup.value(QStringLiteral("prompt"), QString::fromStdString(defaultSafetyPrompt())).toString());
    if (setup.contains(QStringLiteral("runLength"))) safety_->maxTokensSpin()->setValue(setup.value(QStringLiteral("runLength")).toInt());
    tabs_->setCurrentWidget(safety_);
    if (setup.value(QStringLiteral("action")).toString() == QLatin1String("run")) runSafety();
}

void ServingLabPage::restoreBeforeLesson() {
    if (!beforeLesson_) return;
    const SafetySetup s = *beforeLesson_;
    beforeLesson_.reset();
    safety_->promptEdit()->setPlainText(s.prompt);
    safety_->setPolicy(s.policy);
    safety_->maxTokensSpin()->setValue(s.maxTokens);
    tabs_->setCurrentIndex(s.tab);
}

void ServingLabPage::runCurrentTab() {
    if (!isVisible()) return;
    QWidget* w = tabs_->currentWidget();
    if (w == load_ || w == streaming_) runLoad();
    else if (w == batch_) measureBatches();
    else if (w == prefix_) measurePrefix();
    else if (w == safety_) runSafety();
}

void ServingLabPage::stop() {
    if (busy() && engine_) engine_->cancel();
}

void ServingLabPage::updateEnabled() {
    stop_->setEnabled(busy());
    load_->setModelReady(modelReady_);
    batch_->setModelReady(modelReady_);
    prefix_->setModelReady(modelReady_);
    safety_->setModelReady(modelReady_);
    load_->setBusy(busy());
    batch_->setBusy(busy());
    prefix_->setBusy(busy());
    safety_->setBusy(busy());
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
    safety_->clear();
    lastSafety_.reset();
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
    // The Safety tab: the user's own lists, not a lesson's (that one is put back on restore).
    const QString prompt = beforeLesson_ ? beforeLesson_->prompt : safety_->promptEdit()->toPlainText();
    const SafetyPolicy policy = beforeLesson_ ? beforeLesson_->policy : safety_->policy();
    const auto list = [](const std::vector<std::string>& l) {
        QStringList out;
        for (const std::string& x : l) out << QString::fromStdString(x);
        return out;
    };
    s.setValue(QStringLiteral("safetyPrompt"), prompt);
    s.setValue(QStringLiteral("safetyInput"), list(policy.inputPatterns));
    s.setValue(QStringLiteral("safetyBanned"), list(policy.bannedPhrases));
    s.setValue(QStringLiteral("safetyRefusal"), list(policy.refusalPatterns));
    s.setValue(QStringLiteral("safetyOutput"), list(policy.outputPatterns));
    s.setValue(QStringLiteral("safetyIgnoreCase"), policy.caseInsensitive);
    s.setValue(QStringLiteral("safetyMaxTokens"), beforeLesson_ ? beforeLesson_->maxTokens : safety_->maxTokensSpin()->value());
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
    if (s.contains(QStringLiteral("safetyPrompt"))) {
        const auto list = [&](const char* key) {
            std::vector<std::string> out;
            for (const QString& x : s.value(QLatin1String(key)).toStringList()) out.push_back(x.toStdString());
            return out;
        };
        SafetyPolicy p;
        p.inputPatterns = list("safetyInput");
        p.bannedPhrases = list("safetyBanned");
        p.refusalPatterns = list("safetyRefusal");
        p.outputPatterns = list("safetyOutput");
        p.caseInsensitive = s.value(QStringLiteral("safetyIgnoreCase"), true).toBool();
        safety_->setPolicy(p);
        safety_->promptEdit()->setPlainText(s.value(QStringLiteral("safetyPrompt")).toString());
    }
    safety_->maxTokensSpin()->setValue(whole("safetyMaxTokens", 96));
    tabs_->setCurrentIndex(whole("tab", 0));
    s.endGroup();
}

void ServingLabPage::retranslate() {
    tabs_->setTabText(0, tr("Load"));
    tabs_->setTabText(1, tr("Batch size"));
    tabs_->setTabText(2, tr("Streaming"));
    tabs_->setTabText(3, tr("Prefix cache"));
    tabs_->setTabText(4, tr("Safety"));
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
