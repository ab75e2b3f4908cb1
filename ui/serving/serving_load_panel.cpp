#include "ui/serving/serving_load_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/adaptive_row.h"
#include "widgets/flow_layout.h"
#include "widgets/gantt_view.h"

namespace dlab::ui {

namespace {
int modeIndex(BatchingMode m) { return m == BatchingMode::Static ? 0 : 1; }

QSpinBox* spin(QWidget* parent, const char* name, int lo, int hi, int value) {
    auto* s = new QSpinBox(parent);
    s->setObjectName(QLatin1String(name));
    s->setRange(lo, hi);
    s->setValue(value);
    return s;
}
}  // namespace

const std::vector<ServingLoadPanel::Metric>& ServingLoadPanel::metrics() {
    static const std::vector<Metric> all{Metric::Throughput, Metric::DecodeThroughput, Metric::Ttft, Metric::Itl, Metric::E2e,
                                         Metric::Occupancy,  Metric::PrefixHitRate,    Metric::Padding, Metric::Wall};
    return all;
}

QString ServingLoadPanel::metricName(Metric m) {
    switch (m) {
        case Metric::Throughput: return tr("Throughput (tokens/s)");
        case Metric::DecodeThroughput: return tr("Decode steps (tokens/s)");
        case Metric::Ttft: return tr("TTFT p50 / p99 (ms)");
        case Metric::Itl: return tr("ITL p50 / p99 (ms)");
        case Metric::E2e: return tr("End to end p50 / p99 (ms)");
        case Metric::Occupancy: return tr("Batch occupancy");
        case Metric::PrefixHitRate: return tr("Prefix-cache hit rate");
        case Metric::Padding: return tr("Padding tokens");
        case Metric::Wall: return tr("Wall time (ms)");
    }
    return {};
}

QString ServingLoadPanel::metricText(Metric m, const ServeSummary& s) {
    const QLocale loc;
    const auto pair = [&](double a, double b, int decimals) {
        return tr("%1 / %2").arg(loc.toString(a, 'f', decimals), loc.toString(b, 'f', decimals));
    };
    switch (m) {
        case Metric::Throughput: return loc.toString(s.throughput, 'f', 1);
        case Metric::DecodeThroughput: return loc.toString(s.decodeThroughput, 'f', 1);
        case Metric::Ttft: return pair(s.ttftP50, s.ttftP99, 0);
        case Metric::Itl: return pair(s.itlP50, s.itlP99, 1);
        case Metric::E2e: return pair(s.e2eP50, s.e2eP99, 0);
        case Metric::Occupancy: return tr("%1 %").arg(loc.toString(100.0 * s.occupancy, 'f', 0));
        case Metric::PrefixHitRate: return tr("%1 %").arg(loc.toString(100.0 * s.prefixHitRate, 'f', 0));
        case Metric::Padding: return loc.toString(qint64(s.paddingTokens));
        case Metric::Wall: return loc.toString(s.wallMs, 'f', 0);
    }
    return {};
}

ServingLoadPanel::ServingLoadPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    const auto label = [this](QLabel*& l, QWidget* buddy) {
        l = new QLabel(this);
        l->setBuddy(buddy);
        return l;
    };
    const auto dash = [this] {
        auto* d = new QLabel(QStringLiteral("–"), this);
        dashes_ << d;
        return d;
    };
    rate_ = new QDoubleSpinBox(this);
    rate_->setObjectName(QStringLiteral("servingRate"));
    rate_->setRange(0.1, 200.0);
    rate_->setDecimals(1);
    rate_->setSingleStep(0.5);
    rate_->setValue(2.0);   // below what 2 cores serve with the 135M model: batching, not a queue, shapes the picture
    requests_ = spin(this, "servingRequests", 1, 1000, 16);
    promptMin_ = spin(this, "servingPromptMin", 1, 2048, 16);
    promptMax_ = spin(this, "servingPromptMax", 1, 2048, 64);
    outputMin_ = spin(this, "servingOutputMin", 1, 1024, 8);
    outputMax_ = spin(this, "servingOutputMax", 1, 1024, 24);
    system_ = new QCheckBox(this);
    system_->setObjectName(QStringLiteral("servingSystemPrompt"));
    systemTokens_ = spin(this, "servingSystemTokens", 1, 4096, 64);
    systemTokens_->setEnabled(false);
    maxBatch_ = spin(this, "servingMaxBatch", 1, 64, 4);
    budget_ = spin(this, "servingTokenBudget", 1, 8192, 256);
    axis_ = new QComboBox(this);
    axis_->setObjectName(QStringLiteral("servingAxis"));
    axis_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    axis_->addItem(QString(), int(GanttAxis::Milliseconds));
    axis_->addItem(QString(), int(GanttAxis::Steps));
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("servingRunLoad"));

    // The settings wrap onto more lines in a narrow window; a label stays with its box.
    auto* rowA = new widgets::FlowLayout;
    rowA->addGroup({label(rateLabel_, rate_), rate_});
    rowA->addGroup({label(requestsLabel_, requests_), requests_});
    rowA->addGroup({label(promptLabel_, promptMin_), promptMin_, dash(), promptMax_});
    rowA->addGroup({label(outputLabel_, outputMin_), outputMin_, dash(), outputMax_});
    rowA->addGroup({system_, systemTokens_});
    rowA->addGroup({label(maxBatchLabel_, maxBatch_), maxBatch_});
    rowA->addGroup({label(budgetLabel_, budget_), budget_});
    rowA->addGroup({label(axisLabel_, axis_), axis_});
    auto* settings = new QHBoxLayout;
    settings->addLayout(rowA, 1);
    settings->addWidget(run_, 0, Qt::AlignBottom);
    layout->addLayout(settings);

    // The measured figures beside the two timelines, or above them in a narrow window.
    auto* body = new widgets::AdaptiveRow(this);
    metricsBox_ = new QGroupBox(this);
    auto* grid = new QGridLayout(metricsBox_);
    // Two columns of right-aligned figures: with the default spacing "15.4 / 105.7 17.9 / 240.1"
    // read as one row of numbers.
    grid->setHorizontalSpacing(metricsBox_->fontMetrics().horizontalAdvance(QStringLiteral("MMM")));
    staticHead_ = new QLabel(metricsBox_);
    continuousHead_ = new QLabel(metricsBox_);
    grid->addWidget(staticHead_, 0, 1, Qt::AlignRight);
    grid->addWidget(continuousHead_, 0, 2, Qt::AlignRight);
    int row = 1;
    for (Metric m : metrics()) {
        auto* name = new QLabel(metricsBox_);
        metricNames_[m] = name;
        grid->addWidget(name, row, 0);
        for (int mode = 0; mode < 2; ++mode) {
            auto* v = new QLabel(QStringLiteral("–"), metricsBox_);
            v->setObjectName(QStringLiteral("servingMetric%1_%2").arg(int(m)).arg(mode == 0 ? QStringLiteral("static") : QStringLiteral("continuous")));
            v->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            v->setTextInteractionFlags(Qt::TextSelectableByMouse);
            metricValues_[{m, mode}] = v;
            grid->addWidget(v, row, 1 + mode);
        }
        ++row;
    }
    grid->setRowStretch(row, 1);
    body->addWidget(metricsBox_);
    auto* ganttColumn = new QWidget(this);
    auto* gantts = new QVBoxLayout(ganttColumn);
    gantts->setContentsMargins(0, 0, 0, 0);
    staticTitle_ = new QLabel(this);
    continuousTitle_ = new QLabel(this);
    staticGantt_ = new widgets::GanttView(this);
    staticGantt_->setObjectName(QStringLiteral("servingGanttStatic"));
    continuousGantt_ = new widgets::GanttView(this);
    continuousGantt_->setObjectName(QStringLiteral("servingGanttContinuous"));
    gantts->addWidget(staticTitle_);
    gantts->addWidget(staticGantt_, 1);
    gantts->addWidget(continuousTitle_);
    gantts->addWidget(continuousGantt_, 1);
    body->addWidget(ganttColumn, 1);
    layout->addWidget(body, 1);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("servingLoadSummary"));
    summary_->setWordWrap(true);
    layout->addWidget(summary_);

    connect(run_, &QPushButton::clicked, this, &ServingLoadPanel::runRequested);
    connect(system_, &QCheckBox::toggled, this, [this](bool on) {
        systemTokens_->setEnabled(on && !busy_);
        emit settingsChanged();
    });
    connect(axis_, &QComboBox::currentIndexChanged, this, [this] {
        redraw();
        emit settingsChanged();
    });
    // min <= max: each end pushes the other.
    connect(promptMin_, &QSpinBox::valueChanged, this, [this](int v) { if (promptMax_->value() < v) promptMax_->setValue(v); });
    connect(promptMax_, &QSpinBox::valueChanged, this, [this](int v) { if (promptMin_->value() > v) promptMin_->setValue(v); });
    connect(outputMin_, &QSpinBox::valueChanged, this, [this](int v) { if (outputMax_->value() < v) outputMax_->setValue(v); });
    connect(outputMax_, &QSpinBox::valueChanged, this, [this](int v) { if (outputMin_->value() > v) outputMin_->setValue(v); });
    for (QSpinBox* s : {requests_, promptMin_, promptMax_, outputMin_, outputMax_, systemTokens_, maxBatch_, budget_})
        connect(s, &QSpinBox::valueChanged, this, &ServingLoadPanel::settingsChanged);
    connect(rate_, &QDoubleSpinBox::valueChanged, this, &ServingLoadPanel::settingsChanged);
    retranslate();
}

ServingLoadRequest ServingLoadPanel::request() const {
    ServingLoadRequest r;
    r.spec.requests = requests_->value();
    r.spec.ratePerSecond = rate_->value();
    r.spec.promptMin = promptMin_->value();
    r.spec.promptMax = promptMax_->value();
    r.spec.outputMin = outputMin_->value();
    r.spec.outputMax = outputMax_->value();
    r.spec.systemPromptTokens = system_->isChecked() ? systemTokens_->value() : 0;
    r.spec.seed = 1;
    r.maxBatch = maxBatch_->value();
    r.tokenBudget = budget_->value();
    r.prefixCache = true;
    return r;
}

GanttAxis ServingLoadPanel::axis() const { return GanttAxis(axis_->currentData().toInt()); }
void ServingLoadPanel::setAxis(GanttAxis a) { axis_->setCurrentIndex(axis_->findData(int(a))); }

QLabel* ServingLoadPanel::metricLabel(Metric m, BatchingMode mode) const {
    const auto it = metricValues_.find({m, modeIndex(mode)});
    return it == metricValues_.end() ? nullptr : it->second;
}

void ServingLoadPanel::setBusy(bool busy) {
    busy_ = busy;
    run_->setEnabled(modelReady_ && !busy);
    for (QWidget* w : std::initializer_list<QWidget*>{rate_, requests_, promptMin_, promptMax_, outputMin_, outputMax_, system_, maxBatch_, budget_})
        w->setEnabled(!busy);
    systemTokens_->setEnabled(!busy && system_->isChecked());
}

void ServingLoadPanel::setModelReady(bool ready) {
    modelReady_ = ready;
    setBusy(busy_);
}

void ServingLoadPanel::clear() {
    view_.reset();
    live_[0].reset();
    live_[1].reset();
    running_ = false;
    redraw();
    showMetrics();
}

void ServingLoadPanel::showLive(const ServingLiveRun& live) {
    if (!running_) {
        // The first live step of a new run: the previous run's pictures go.
        running_ = true;
        view_.reset();
        live_[0].reset();
        live_[1].reset();
        showMetrics();
    }
    live_[modeIndex(live.mode)] = live.run;
    liveRequests_ = live.requests;
    // At most four redraws a second, and only on screen: the GUI thread leaves the cores to the run.
    if (!isVisible() || (liveRedraw_.isValid() && liveRedraw_.elapsed() < 250)) return;
    liveRedraw_.start();
    redraw();
}

void ServingLoadPanel::showRun(const ServingLoadPtr& view) {
    running_ = false;
    view_ = view;
    live_[0].reset();
    live_[1].reset();
    redraw();
    showMetrics();
}

void ServingLoadPanel::redraw() {
    const TraceRunResult* runs[2] = {nullptr, nullptr};
    int requests = liveRequests_;
    if (view_) {
        runs[0] = view_->staticRun.run.steps.empty() && view_->staticRun.run.requests.empty() ? nullptr : &view_->staticRun.run;
        runs[1] = view_->continuousRun.run.steps.empty() && view_->continuousRun.run.requests.empty() ? nullptr : &view_->continuousRun.run;
        requests = view_->request.spec.requests;
    } else {
        for (int i = 0; i < 2; ++i) runs[i] = live_[i].get();
    }
    const GanttAxis a = axis();
    double extent = 0;
    for (const TraceRunResult* r : runs)
        if (r) extent = std::max(extent, servingGanttExtent(*r, a));
    widgets::GanttView* views[2] = {staticGantt_, continuousGantt_};
    for (int i = 0; i < 2; ++i) {
        if (!runs[i]) {
            views[i]->clear();
            continue;
        }
        widgets::GanttChart c = servingGantt(*runs[i], requests, a);
        c.xMax = extent;   // both modes on one scale
        views[i]->setChart(std::move(c));
    }
}

void ServingLoadPanel::showMetrics() {
    for (int mode = 0; mode < 2; ++mode) {
        const ServingModeRun* m = !view_ ? nullptr : mode == 0 ? &view_->staticRun : &view_->continuousRun;
        for (Metric k : metrics()) metricValues_[{k, mode}]->setText(m && m->done ? metricText(k, m->summary) : QStringLiteral("–"));
    }
    if (!view_) {
        summary_->setText(tr("Run a load: the same requests arrive at random (Poisson) times and are served with static and then with "
                             "continuous batching. Every bar is a step the engine ran."));
        return;
    }
    if (view_->cancelled) {
        summary_->setText(tr("Stopped: the charts show the steps run before Stop; the metrics of a mode that did not finish stay empty."));
        return;
    }
    const ServeSummary& s = view_->staticRun.summary;
    const ServeSummary& c = view_->continuousRun.summary;
    const QLocale loc;
    summary_->setText(tr("The same %n request(s) both ways. Continuous batching: %1 tokens/s, p99 time to first token %2 ms. "
                         "Static batching: %3 tokens/s, p99 time to first token %4 ms, and %5 padding tokens computed for "
                         "requests that had already finished.",
                         nullptr, s.requests)
                          .arg(loc.toString(c.throughput, 'f', 1), loc.toString(c.ttftP99, 'f', 0), loc.toString(s.throughput, 'f', 1),
                               loc.toString(s.ttftP99, 'f', 0), loc.toString(qint64(s.paddingTokens))));
    // Hits without a shared system prompt look like a fault; they are prompts that begin alike.
    if (view_->request.spec.systemPromptTokens == 0 && c.prefixHitRate > 0.0) {
        QStringList hits;
        for (const RequestOutcome& o : view_->continuousRun.run.requests)
            if (o.timings.cachedPromptTokens > 0)
                hits << tr("#%1 (%n token(s))", nullptr, o.timings.cachedPromptTokens).arg(o.index + 1);
        summary_->setText(summary_->text() + u' ' +
                          tr("No system prompt is shared, yet %1 % of the prompt tokens came from the prefix cache: the prompts are "
                             "cut from one sample text, and %2 began where an earlier prompt began.")
                              .arg(loc.toString(c.prefixHitRate * 100.0, 'f', 0), loc.createSeparatedList(hits)));
    }
}

void ServingLoadPanel::retranslate() {
    rateLabel_->setText(tr("R&ate"));
    rate_->setSuffix(tr(" req/s"));
    rate_->setToolTip(tr("Mean arrivals per second; the requests arrive independently (a Poisson process)"));
    requestsLabel_->setText(tr("Re&quests"));
    promptLabel_->setText(tr("&Prompt tokens"));
    outputLabel_->setText(tr("&Output tokens"));
    outputMin_->setToolTip(tr("Each request generates a length drawn from this range"));
    system_->setText(tr("Shared s&ystem prompt"));
    system_->setToolTip(tr("Every prompt starts with the same tokens, which the prefix cache can share"));
    systemTokens_->setSuffix(tr(" tokens"));
    maxBatchLabel_->setText(tr("Max &batch"));
    budgetLabel_->setText(tr("Token bud&get"));
    budget_->setToolTip(tr("Tokens evaluated per step: decode tokens and prefill chunks together"));
    axisLabel_->setText(tr("&X axis"));
    axis_->setItemText(0, tr("time (ms)"));
    axis_->setItemText(1, tr("step"));
    run_->setText(tr("&Run"));
    run_->setToolTip(tr("Run the trace with static, then with continuous batching (F5)"));
    metricsBox_->setTitle(tr("Measured"));
    staticHead_->setText(tr("static"));
    continuousHead_->setText(tr("continuous"));
    for (const auto& [m, l] : metricNames_) l->setText(metricName(m));
    staticTitle_->setText(tr("Static batching: a batch starts when it is full (or its first request waited 1 s) and runs until its longest request is done"));
    staticTitle_->setWordWrap(true);
    continuousTitle_->setText(tr("Continuous batching: a request joins at the next step with a free slot and leaves when it is done"));
    continuousTitle_->setWordWrap(true);
    for (widgets::GanttView* g : {staticGantt_, continuousGantt_}) g->setPlaceholderText(tr("Run a load to see the requests join and leave the batch."));
    redraw();
    showMetrics();
}

void ServingLoadPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
