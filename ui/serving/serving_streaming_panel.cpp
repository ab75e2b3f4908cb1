#include "ui/serving/serving_streaming_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "widgets/streaming_timeline_view.h"

namespace dlab::ui {

ServingStreamingPanel::ServingStreamingPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QHBoxLayout;
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("servingStreamMode"));
    mode_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mode_->addItem(QString(), int(BatchingMode::Continuous));
    mode_->addItem(QString(), int(BatchingMode::Static));
    request_ = new QComboBox(this);
    request_->setObjectName(QStringLiteral("servingStreamRequest"));
    request_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    modeLabel_ = new QLabel(this);
    modeLabel_->setBuddy(mode_);
    requestLabel_ = new QLabel(this);
    requestLabel_->setBuddy(request_);
    form->addWidget(modeLabel_);
    form->addWidget(mode_);
    form->addWidget(requestLabel_);
    form->addWidget(request_);
    form->addStretch(1);
    layout->addLayout(form);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    timeline_ = new widgets::StreamingTimelineView(this);
    timeline_->setObjectName(QStringLiteral("servingTimeline"));
    timeline_->setMaximumHeight(timeline_->fontMetrics().height() * 24);   // lanes no taller than they need to read
    layout->addWidget(timeline_, 3);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("servingStreamSummary"));
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    layout->addStretch(1);
    connect(mode_, &QComboBox::currentIndexChanged, this, &ServingStreamingPanel::fillRequests);
    connect(request_, &QComboBox::currentIndexChanged, this, &ServingStreamingPanel::showRequest);
    retranslate();
}

BatchingMode ServingStreamingPanel::mode() const { return BatchingMode(mode_->currentData().toInt()); }
int ServingStreamingPanel::requestIndex() const { return request_->currentIndex() < 0 ? -1 : request_->currentData().toInt(); }

void ServingStreamingPanel::select(BatchingMode m, int index) {
    mode_->setCurrentIndex(mode_->findData(int(m)));
    const int i = request_->findData(index);
    if (i >= 0) request_->setCurrentIndex(i);
}

void ServingStreamingPanel::setRun(const ServingLoadPtr& view) {
    view_ = view;
    fillRequests();
}

const RequestOutcome* ServingStreamingPanel::shown() const {
    if (!view_) return nullptr;
    const int index = requestIndex();
    for (const RequestOutcome& o : view_->mode(mode()).run.requests)
        if (o.index == index && o.error.empty() && !o.timings.tokenMs.empty()) return &o;
    return nullptr;
}

void ServingStreamingPanel::fillRequests() {
    const int keep = requestIndex();
    {
        const QSignalBlocker block(request_);
        request_->clear();
        if (view_) {
            const QLocale loc;
            for (const RequestOutcome& o : view_->mode(mode()).run.requests) {
                if (!o.error.empty() || o.timings.tokenMs.empty()) continue;
                request_->addItem(tr("#%1: %2 tokens, TTFT %3 ms").arg(o.index + 1).arg(o.timings.generatedTokens).arg(loc.toString(o.timings.ttftMs(), 'f', 0)),
                                  o.index);
            }
        }
        const int i = request_->findData(keep);
        request_->setCurrentIndex(i >= 0 ? i : (request_->count() > 0 ? 0 : -1));
    }
    showRequest();
}

void ServingStreamingPanel::showRequest() {
    const RequestOutcome* o = shown();
    if (!o) {
        timeline_->clear();
        summary_->setText(view_ ? tr("This mode has no finished request to show.") : tr("Run a load on the Load tab first: every request of that run can be shown here."));
        return;
    }
    const RequestTimings& t = o->timings;
    widgets::StreamingTimeline tl;
    for (double ms : t.tokenMs) tl.tokenMs.push_back(ms - t.arrivalMs);
    tl.finishedMs = t.finishedMs - t.arrivalMs;
    timeline_->setTimeline(tl);
    const QLocale loc;
    const int n = int(t.tokenMs.size());
    const double gaps = n > 1 ? (t.tokenMs.back() - t.tokenMs.front()) / (n - 1) : 0.0;
    summary_->setText(tr("With streaming, the user of request %1 reads the first text after %2 ms (its time to first token) and then "
                         "a token every %3 ms on average. Without streaming the screen stays empty for %4 ms, until all %n token(s) "
                         "are there at once.",
                         nullptr, n)
                          .arg(o->index + 1)
                          .arg(loc.toString(t.ttftMs(), 'f', 0), loc.toString(gaps, 'f', 1), loc.toString(t.e2eMs(), 'f', 0)));
}

void ServingStreamingPanel::retranslate() {
    modeLabel_->setText(tr("&Batching"));
    mode_->setItemText(0, tr("continuous"));
    mode_->setItemText(1, tr("static"));
    requestLabel_->setText(tr("Re&quest"));
    intro_->setText(tr("What one user of the last load run saw. The filled area is how much of the answer is on the screen; "
                       "the grey part is waiting. A long flat stretch is a step in which the batch also read another "
                       "request's prompt (prefill)."));
    timeline_->setPlaceholderText(tr("Run a load on the Load tab first."));
    fillRequests();
}

void ServingStreamingPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
