#include "ui/serving/serving_batch_panel.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "core/error.h"
#include "widgets/adaptive_row.h"
#include "widgets/flow_layout.h"
#include "widgets/line_chart_view.h"

namespace dlab::ui {

namespace {
QTableWidget* makeTable(QWidget* parent, const char* name, int columns) {
    auto* t = new QTableWidget(parent);
    t->setObjectName(QLatin1String(name));
    t->setColumnCount(columns);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionMode(QAbstractItemView::NoSelection);
    t->verticalHeader()->hide();
    t->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return t;
}

void setCell(QTableWidget* t, int row, int col, const QString& text, bool number) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(number ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    t->setItem(row, col, item);
}

const BatchSweepPoint* pointOf(const std::vector<BatchSweepPoint>& pts, int batch) {
    for (const BatchSweepPoint& p : pts)
        if (p.batch == batch) return &p;
    return nullptr;
}
}  // namespace

ServingBatchPanel::ServingBatchPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QHBoxLayout;
    batches_ = new QLineEdit(QStringLiteral("1, 2, 4, 8"), this);
    batches_->setObjectName(QStringLiteral("servingBatches"));
    batches_->setMinimumWidth(fontMetrics().averageCharWidth() * 18);
    prompt_ = new QSpinBox(this);
    prompt_->setObjectName(QStringLiteral("servingSweepPrompt"));
    prompt_->setRange(1, 2048);
    prompt_->setValue(32);
    output_ = new QSpinBox(this);
    output_->setObjectName(QStringLiteral("servingSweepOutput"));
    output_->setRange(2, 1024);
    output_->setValue(16);
    measure_ = new QPushButton(this);
    measure_->setObjectName(QStringLiteral("servingMeasure"));
    batchesLabel_ = new QLabel(this);
    batchesLabel_->setBuddy(batches_);
    promptLabel_ = new QLabel(this);
    promptLabel_->setBuddy(prompt_);
    outputLabel_ = new QLabel(this);
    outputLabel_->setBuddy(output_);
    // The settings wrap in a narrow window (a label stays with its box), Measure on the right.
    auto* settings = new widgets::FlowLayout;
    settings->addGroup({batchesLabel_, batches_});
    settings->addGroup({promptLabel_, prompt_});
    settings->addGroup({outputLabel_, output_});
    form->addLayout(settings, 1);
    form->addWidget(measure_, 0, Qt::AlignBottom);
    layout->addLayout(form);

    // The chart beside the table, or above it in a narrow window.
    auto* body = new widgets::AdaptiveRow(this);
    chart_ = new widgets::LineChartView(this);
    chart_->setObjectName(QStringLiteral("servingSweepChart"));
    chart_->setXLabelFormat(QStringLiteral("%.1f"));
    table_ = makeTable(this, "servingSweepTable", 6);
    table_->horizontalHeader()->setStretchLastSection(true);
    tableCaption_ = new QLabel(this);
    tableCaption_->setWordWrap(true);
    auto* tableColumn = new QWidget(this);
    auto* tableBox = new QVBoxLayout(tableColumn);
    tableBox->setContentsMargins(0, 0, 0, 0);
    tableBox->addWidget(tableCaption_);
    tableBox->addWidget(table_, 1);
    body->addWidget(chart_, 3);
    body->addWidget(tableColumn, 2);
    layout->addWidget(body, 1);

    workloadBox_ = new QGroupBox(this);
    auto* wl = new QVBoxLayout(workloadBox_);
    auto* bounds = new QHBoxLayout;
    itlBound_ = new QDoubleSpinBox(workloadBox_);
    itlBound_->setObjectName(QStringLiteral("servingItlBound"));
    itlBound_->setRange(0.1, 100000.0);
    itlBound_->setDecimals(1);
    itlBound_->setValue(100.0);
    ttftBound_ = new QDoubleSpinBox(workloadBox_);
    ttftBound_->setObjectName(QStringLiteral("servingTtftBound"));
    ttftBound_->setRange(1.0, 1000000.0);
    ttftBound_->setDecimals(0);
    ttftBound_->setValue(1000.0);
    itlBoundLabel_ = new QLabel(workloadBox_);
    itlBoundLabel_->setBuddy(itlBound_);
    ttftBoundLabel_ = new QLabel(workloadBox_);
    ttftBoundLabel_->setBuddy(ttftBound_);
    auto* boundsFlow = new widgets::FlowLayout;
    boundsFlow->addGroup({itlBoundLabel_, itlBound_});
    boundsFlow->addGroup({ttftBoundLabel_, ttftBound_});
    bounds->addLayout(boundsFlow, 1);
    wl->addLayout(bounds);
    workloads_ = makeTable(workloadBox_, "servingWorkloads", 4);
    workloads_->setRowCount(3);
    workloads_->setWordWrap(true);
    workloads_->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    workloads_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    workloads_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    wl->addWidget(workloads_);
    layout->addWidget(workloadBox_);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("servingSweepNote"));
    note_->setWordWrap(true);
    layout->addWidget(note_);

    connect(measure_, &QPushButton::clicked, this, &ServingBatchPanel::measureRequested);
    for (QDoubleSpinBox* s : {itlBound_, ttftBound_})
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] {
            showWorkloads();
            emit settingsChanged();
        });
    for (QSpinBox* s : {prompt_, output_}) connect(s, &QSpinBox::valueChanged, this, &ServingBatchPanel::settingsChanged);
    connect(batches_, &QLineEdit::textChanged, this, &ServingBatchPanel::settingsChanged);
    retranslate();
}

std::vector<int> ServingBatchPanel::batches() const {
    std::vector<int> out;
    const QStringList parts = batches_->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const int b = part.toInt(&ok);
        if (!ok || b < 1 || b > 64)
            throw Error(tr("“%1” is not a batch size: write whole numbers from 1 to 64, separated by commas (1, 2, 4, 8).").arg(part).toStdString());
        if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    }
    if (out.empty()) throw Error(tr("Write at least one batch size (1, 2, 4, 8).").toStdString());
    std::sort(out.begin(), out.end());
    return out;
}

ServingSweepRequest ServingBatchPanel::request() const {
    ServingSweepRequest r;
    r.batches = batches();
    r.promptTokens = prompt_->value();
    r.outputTokens = output_->value();
    return r;
}

void ServingBatchPanel::setBusy(bool busy) {
    busy_ = busy;
    measure_->setEnabled(modelReady_ && !busy);
    for (QWidget* w : std::initializer_list<QWidget*>{batches_, prompt_, output_}) w->setEnabled(!busy);
}

void ServingBatchPanel::setModelReady(bool ready) {
    modelReady_ = ready;
    setBusy(busy_);
}

void ServingBatchPanel::clear() {
    points_.clear();
    cancelled_ = false;
    redraw();
}

void ServingBatchPanel::addPoint(const BatchSweepPoint& p) {
    points_.push_back(p);
    redraw();
}

void ServingBatchPanel::showSweep(const ServingSweepView& v) {
    points_ = v.points;
    cancelled_ = v.cancelled;
    redraw();
}

std::vector<WorkloadAnswer> ServingBatchPanel::advice() const { return workloadAdvice(points_, itlBound_->value(), ttftBound_->value()); }

void ServingBatchPanel::redraw() {
    QList<QPointF> p50, p99;
    QStringList batches;   // each point says its batch size: a noisy p99 can step back left
    for (const BatchSweepPoint& p : points_) {
        p50 << QPointF(p.summary.itlP50, p.summary.decodeThroughput);
        p99 << QPointF(p.summary.itlP99, p.summary.decodeThroughput);
        batches << QLocale().toString(p.batch);
    }
    widgets::LineSeriesData a{tr("at p50 inter-token latency"), p50, false, true, batches};
    widgets::LineSeriesData b{tr("at p99 inter-token latency"), p99, true, true, batches};
    chart_->setSeries({a, b});
    const QLocale loc;
    table_->setRowCount(int(points_.size()));
    for (int i = 0; i < int(points_.size()); ++i) {
        const BatchSweepPoint& p = points_[size_t(i)];
        setCell(table_, i, 0, loc.toString(p.batch), true);
        setCell(table_, i, 1, loc.toString(p.summary.decodeThroughput, 'f', 1), true);
        setCell(table_, i, 2, loc.toString(p.summary.itlP50, 'f', 1), true);
        setCell(table_, i, 3, loc.toString(p.summary.itlP99, 'f', 1), true);
        setCell(table_, i, 4, loc.toString(p.summary.ttftP50, 'f', 0), true);
        setCell(table_, i, 5, loc.toString(p.summary.ttftP99, 'f', 0), true);
    }
    showWorkloads();
    if (points_.empty()) {
        note_->setText(tr("Measure: for each batch size B the engine decodes B requests together. A bigger batch makes more "
                          "tokens per second in total, and each user waits longer between tokens."));
    } else {
        const BatchSweepPoint& lo = points_.front();
        const BatchSweepPoint& hi = points_.back();
        QString text = tr("Measured on this machine: batch %1 decodes %2 tokens/s at %3 ms between a user's tokens; batch %4 decodes "
                          "%5 tokens/s at %6 ms.")
                           .arg(lo.batch)
                           .arg(loc.toString(lo.summary.decodeThroughput, 'f', 0), loc.toString(lo.summary.itlP50, 'f', 1))
                           .arg(hi.batch)
                           .arg(loc.toString(hi.summary.decodeThroughput, 'f', 0), loc.toString(hi.summary.itlP50, 'f', 1));
        if (cancelled_) text += QLatin1Char(' ') + tr("(Stopped before every batch size was measured.)");
        note_->setText(text);
    }
}

void ServingBatchPanel::showWorkloads() {
    const QLocale loc;
    const std::vector<WorkloadAnswer> answers = advice();
    const double itl = itlBound_->value(), ttft = ttftBound_->value();
    const QString names[3] = {tr("Interactive chat"), tr("Batch processing"), tr("Code completion")};
    const QString optimises[3] = {tr("p99 inter-token latency ≤ %1 ms").arg(loc.toString(itl, 'f', itl < 10 ? 1 : 0)),
                                  tr("throughput (tokens/s)"),
                                  tr("p99 time to first token ≤ %1 ms").arg(loc.toString(ttft, 'f', 0))};
    for (int i = 0; i < 3; ++i) {
        setCell(workloads_, i, 0, names[i], false);
        setCell(workloads_, i, 1, optimises[i], false);
        const WorkloadAnswer* a = i < int(answers.size()) ? &answers[size_t(i)] : nullptr;
        const BatchSweepPoint* p = a && a->batch > 0 ? pointOf(points_, a->batch) : nullptr;
        setCell(workloads_, i, 2, p ? loc.toString(p->batch) : QStringLiteral("–"), true);
        QString why;
        if (points_.empty()) why = tr("Measure first.");
        else if (i == 0)
            why = p ? tr("batch %1 keeps p99 inter-token latency at %2 ms").arg(p->batch).arg(loc.toString(p->summary.itlP99, 'f', 1))
                    : tr("no measured batch keeps p99 inter-token latency within %1 ms").arg(loc.toString(itl, 'f', 0));
        else if (i == 1)
            why = p ? tr("batch %1 decodes the most: %2 tokens/s").arg(p->batch).arg(loc.toString(p->summary.decodeThroughput, 'f', 0)) : QString();
        else
            why = p ? tr("batch %1 keeps p99 time to first token at %2 ms").arg(p->batch).arg(loc.toString(p->summary.ttftP99, 'f', 0))
                    : tr("no measured batch keeps p99 time to first token within %1 ms").arg(loc.toString(ttft, 'f', 0));
        setCell(workloads_, i, 3, why, false);
    }
}

void ServingBatchPanel::retranslate() {
    batchesLabel_->setText(tr("Batch si&zes"));
    batches_->setToolTip(tr("Whole numbers from 1 to 64, separated by commas"));
    promptLabel_->setText(tr("&Prompt tokens"));
    outputLabel_->setText(tr("&Output tokens"));
    measure_->setText(tr("&Measure"));
    measure_->setToolTip(tr("Run one batch of each size on the loaded model (F5)"));
    chart_->setTitles(tr("Throughput against latency, one point per batch size (its number beside it)"), tr("ms between a user's tokens"), tr("tokens/s"));
    chart_->setEmptyText(tr("Measure to draw one point per batch size."));
    table_->setHorizontalHeaderLabels({tr("Batch"), tr("Tokens/s"), tr("ITL p50"), tr("ITL p99"), tr("TTFT p50"), tr("TTFT p99")});
    tableCaption_->setText(tr("Decode tokens per second, inter-token latency (ITL) and time to first token (TTFT) in ms, as measured:"));
    workloadBox_->setTitle(tr("Which batch size for which workload"));
    itlBoundLabel_->setText(tr("Chat: p99 inter-token &latency at most"));
    itlBound_->setSuffix(tr(" ms"));
    ttftBoundLabel_->setText(tr("Code completion: p99 &time to first token at most"));
    ttftBound_->setSuffix(tr(" ms"));
    workloads_->setHorizontalHeaderLabels({tr("Workload"), tr("Optimises"), tr("Batch size"), tr("Why")});
    redraw();
}

void ServingBatchPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
