#include "ui/serving/serving_prefix_panel.h"

#include <algorithm>

#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "widgets/adaptive_row.h"
#include "widgets/flow_layout.h"
#include "widgets/line_chart_view.h"
#include "widgets/value_bars_view.h"

namespace dlab::ui {

namespace {
QSpinBox* spin(QWidget* parent, const char* name, int lo, int hi, int value) {
    auto* s = new QSpinBox(parent);
    s->setObjectName(QLatin1String(name));
    s->setRange(lo, hi);
    s->setValue(value);
    return s;
}
}  // namespace

const std::vector<ServingPrefixPanel::Metric>& ServingPrefixPanel::metrics() {
    static const std::vector<Metric> all{Metric::TtftP50, Metric::TtftP99, Metric::HitRate, Metric::PrefillTokens, Metric::Wall};
    return all;
}

QString ServingPrefixPanel::metricText(Metric m, const ServeSummary& s) {
    const QLocale loc;
    switch (m) {
        case Metric::TtftP50: return loc.toString(s.ttftP50, 'f', 1);
        case Metric::TtftP99: return loc.toString(s.ttftP99, 'f', 1);
        case Metric::HitRate: return tr("%1 %").arg(loc.toString(100.0 * s.prefixHitRate, 'f', 0));
        case Metric::PrefillTokens: return loc.toString(qint64(s.prefillTokens));
        case Metric::Wall: return loc.toString(s.wallMs, 'f', 0);
    }
    return {};
}

ServingPrefixPanel::ServingPrefixPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QHBoxLayout;
    system_ = spin(this, "servingPrefixSystem", 1, 4096, 500);
    user_ = spin(this, "servingPrefixUser", 1, 1024, 32);
    output_ = spin(this, "servingPrefixOutput", 1, 256, 8);
    requests_ = spin(this, "servingPrefixRequests", 1, 100, 6);
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("servingRunPrefix"));
    const auto label = [this](QLabel*& l, QWidget* buddy) {
        l = new QLabel(this);
        l->setBuddy(buddy);
        return l;
    };
    // The settings wrap in a narrow window (a label stays with its box), Start on the right.
    auto* settings = new widgets::FlowLayout;
    settings->addGroup({label(systemLabel_, system_), system_});
    settings->addGroup({label(userLabel_, user_), user_});
    settings->addGroup({label(outputLabel_, output_), output_});
    settings->addGroup({label(requestsLabel_, requests_), requests_});
    form->addLayout(settings, 1);
    form->addWidget(run_, 0, Qt::AlignBottom);
    layout->addLayout(form);

    // The figures beside the bars, or above them in a narrow window.
    auto* body = new widgets::AdaptiveRow(this);
    box_ = new QGroupBox(this);
    auto* grid = new QGridLayout(box_);
    // Two columns of right-aligned figures: with the default spacing "15.4 / 105.7 17.9 / 240.1"
    // read as one row of numbers.
    grid->setHorizontalSpacing(box_->fontMetrics().horizontalAdvance(QStringLiteral("MMM")));
    withHead_ = new QLabel(box_);
    withoutHead_ = new QLabel(box_);
    grid->addWidget(withHead_, 0, 1, Qt::AlignRight);
    grid->addWidget(withoutHead_, 0, 2, Qt::AlignRight);
    int row = 1;
    for (Metric m : metrics()) {
        names_[m] = new QLabel(box_);
        grid->addWidget(names_[m], row, 0);
        for (bool cache : {true, false}) {
            auto* v = new QLabel(QStringLiteral("–"), box_);
            v->setObjectName(QStringLiteral("servingPrefixMetric%1_%2").arg(int(m)).arg(cache ? QStringLiteral("with") : QStringLiteral("without")));
            v->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            values_[{m, cache}] = v;
            grid->addWidget(v, row, cache ? 1 : 2);
        }
        ++row;
    }
    body->addWidget(box_, 0, Qt::AlignTop);
    auto* rightColumn = new QWidget(this);
    auto* right = new QVBoxLayout(rightColumn);
    right->setContentsMargins(0, 0, 0, 0);
    bars_ = new widgets::ValueBarsView(this);
    bars_->setObjectName(QStringLiteral("servingPrefixBars"));
    right->addWidget(bars_);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("servingPrefixSummary"));
    summary_->setWordWrap(true);
    right->addWidget(summary_);
    right->addStretch(1);
    body->addWidget(rightColumn, 1);
    layout->addWidget(body);
    // Request by request: the medians hide that the first request pays for the shared prompt
    // either way and every later one skips it with the cache.
    perRequest_ = new widgets::LineChartView(this);
    perRequest_->setObjectName(QStringLiteral("servingPrefixPerRequest"));
    perRequest_->setXLabelFormat(QStringLiteral("%.0f"));
    layout->addWidget(perRequest_, 1);

    connect(run_, &QPushButton::clicked, this, &ServingPrefixPanel::runRequested);
    for (QSpinBox* s : {system_, user_, output_, requests_}) connect(s, &QSpinBox::valueChanged, this, &ServingPrefixPanel::settingsChanged);
    retranslate();
}

ServingPrefixRequest ServingPrefixPanel::request() const {
    ServingPrefixRequest r;
    r.systemPromptTokens = system_->value();
    r.userTokens = user_->value();
    r.outputTokens = output_->value();
    r.requests = requests_->value();
    return r;
}

QLabel* ServingPrefixPanel::metricLabel(Metric m, bool withCache) const {
    const auto it = values_.find({m, withCache});
    return it == values_.end() ? nullptr : it->second;
}

void ServingPrefixPanel::setBusy(bool busy) {
    busy_ = busy;
    run_->setEnabled(modelReady_ && !busy);
    for (QSpinBox* s : {system_, user_, output_, requests_}) s->setEnabled(!busy);
}

void ServingPrefixPanel::setModelReady(bool ready) {
    modelReady_ = ready;
    setBusy(busy_);
}

void ServingPrefixPanel::clear() {
    has_ = false;
    view_ = {};
    redraw();
}

void ServingPrefixPanel::showResult(const ServingPrefixView& v) {
    view_ = v;
    has_ = true;
    redraw();
}

void ServingPrefixPanel::redraw() {
    for (Metric m : metrics())
        for (bool cache : {true, false})
            values_[{m, cache}]->setText(has_ ? metricText(m, cache ? view_.result.withCache : view_.result.withoutCache) : QStringLiteral("–"));
    perRequest_->setTitles(tr("Time to first token, request by request"), tr("request"), tr("ms"));
    perRequest_->setEmptyText(tr("Run to draw each request's time to first token with and without the cache."));
    if (!has_) {
        perRequest_->setSeries({});
        bars_->setBars({});
        summary_->setText(tr("Run: the requests share one system prompt and run one at a time, first with the prefix cache, then "
                             "without. With the cache only the first request computes the shared prompt; the others find its KV "
                             "blocks and start from there."));
        return;
    }
    const QLocale loc;
    const ServeSummary& w = view_.result.withCache;
    const ServeSummary& wo = view_.result.withoutCache;
    bars_->setBars({{tr("TTFT p50 with the cache"), w.ttftP50, tr("%1 ms").arg(loc.toString(w.ttftP50, 'f', 1)), 0},
                    {tr("TTFT p50 without the cache"), wo.ttftP50, tr("%1 ms").arg(loc.toString(wo.ttftP50, 'f', 1)), 1}});
    QString text = tr("%n request(s) with a shared system prompt of %1 tokens: the median time to first token is %2 ms with the "
                      "prefix cache and %3 ms without; %4\u00a0% of the prompt tokens came from the cache.",
                      nullptr, view_.request.requests)
                       .arg(view_.result.systemPromptTokens)
                       .arg(loc.toString(w.ttftP50, 'f', 1), loc.toString(wo.ttftP50, 'f', 1), loc.toString(100.0 * w.prefixHitRate, 'f', 0));
    const std::vector<PrefixRequestTiming>& rq = view_.result.requests;
    if (rq.size() >= 2 && rq[0].ttftWithMs >= 0 && rq[1].ttftWithMs >= 0) {
        int least = rq[1].cachedTokens, most = rq[1].cachedTokens;
        for (size_t i = 2; i < rq.size(); ++i)
            if (rq[i].ttftWithMs >= 0) {
                least = std::min(least, rq[i].cachedTokens);
                most = std::max(most, rq[i].cachedTokens);
            }
        const QString cached = least == most ? loc.toString(least) : tr("%1 to %2").arg(loc.toString(least), loc.toString(most));
        text += QLatin1Char(' ') + tr("With the cache, request 1 computed all %1 of its prompt tokens; each later one found %2 of "
                                      "its %3 in the cache.")
                                       .arg(loc.toString(rq[0].promptTokens - rq[0].cachedTokens), cached, loc.toString(rq[1].promptTokens));
    }
    if (view_.cancelled) text += QLatin1Char(' ') + tr("(Stopped before the end: the numbers cover the requests that finished.)");
    summary_->setText(text);
    QList<QPointF> with, without;
    for (size_t i = 0; i < view_.result.requests.size(); ++i) {
        const PrefixRequestTiming& t = view_.result.requests[i];
        if (t.ttftWithMs >= 0) with << QPointF(double(i + 1), t.ttftWithMs);
        if (t.ttftWithoutMs >= 0) without << QPointF(double(i + 1), t.ttftWithoutMs);
    }
    perRequest_->setSeries({{tr("with the cache"), with, false, true}, {tr("without the cache"), without, true, true}});
}

void ServingPrefixPanel::retranslate() {
    systemLabel_->setText(tr("Shared s&ystem prompt"));
    system_->setSuffix(tr(" tokens"));
    userLabel_->setText(tr("&User tokens"));
    user_->setToolTip(tr("Each request's own tokens after the system prompt"));
    outputLabel_->setText(tr("&Output tokens"));
    requestsLabel_->setText(tr("Re&quests"));
    run_->setText(tr("&Run"));
    run_->setToolTip(tr("Run the requests with the prefix cache and again without it (F5)"));
    box_->setTitle(tr("Measured"));
    withHead_->setText(tr("with the cache"));
    withoutHead_->setText(tr("without"));
    names_[Metric::TtftP50]->setText(tr("TTFT p50 (ms)"));
    names_[Metric::TtftP99]->setText(tr("TTFT p99 (ms)"));
    names_[Metric::HitRate]->setText(tr("Prefix-cache hit rate"));
    names_[Metric::PrefillTokens]->setText(tr("Prompt tokens computed"));
    names_[Metric::Wall]->setText(tr("Wall time (ms)"));
    bars_->setPlaceholderText(tr("Run to measure the prefix cache."));
    redraw();
}

void ServingPrefixPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
