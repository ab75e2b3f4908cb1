#include "widgets/streaming_timeline_view.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "widgets/nice_ticks.h"
#include "widgets/palette_colors.h"
#include "widgets/recorded_text.h"
#include "widgets/tooltip_event.h"

namespace dlab::widgets {

namespace {
int marginFor(const QFontMetrics& fm) { return std::max(2, lineHeight(fm) / 4); }
}

StreamingTimelineView::StreamingTimelineView(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMouseTracking(true);
}

void StreamingTimelineView::setTimeline(StreamingTimeline t) {
    double previous = 0.0;
    for (double ms : t.tokenMs) {
        if (!std::isfinite(ms) || ms < previous)
            throw std::invalid_argument("streaming timeline: token times must be finite, 0 or more and ascending");
        previous = ms;
    }
    if (!t.tokenMs.empty() && t.finishedMs >= 0 && t.finishedMs < t.tokenMs.back())
        throw std::invalid_argument("streaming timeline: the request finishes before its last token");
    timeline_ = std::move(t);
    update();
}

void StreamingTimelineView::setPlaceholderText(const QString& text) {
    placeholder_ = text;
    update();
}

double StreamingTimelineView::finishedMs() const {
    if (timeline_.finishedMs >= 0) return timeline_.finishedMs;
    return timeline_.tokenMs.empty() ? 0.0 : timeline_.tokenMs.back();
}

QColor StreamingTimelineView::fillColor() const { return probabilityAccent(palette()); }
QColor StreamingTimelineView::waitColor() const { return mix(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.12); }

int StreamingTimelineView::labelWidth() const {
    const QFontMetrics fm = fontMetrics();
    return std::max(textWidth(fm, tr("with streaming")), textWidth(fm, tr("without streaming")));
}

QRect StreamingTimelineView::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const int m = marginFor(fm), gap = fm.averageCharWidth();
    const int left = m + labelWidth() + gap;
    const int right = width() - m - fm.horizontalAdvance(QStringLiteral("00000")) / 2;
    const int bottom = height() - m - 2 * lineHeight(fm) - 10;   // the axis: ticks, labels, title
    return QRect(QPoint(left, m), QPoint(std::max(left + 1, right), std::max(m + 1, bottom)));
}

double StreamingTimelineView::axisMax() const {
    const double end = finishedMs();
    return end > 0 ? end * 1.08 : 1.0;
}

int StreamingTimelineView::xOf(double ms) const {
    const QRect plot = plotRect();
    return plot.left() + int(std::lround(ms / axisMax() * plot.width()));
}

QRect StreamingTimelineView::laneRect(int lane) const {
    if (lane < 0 || lane > 1) return {};
    const QRect plot = plotRect();
    const int gap = lineHeight(fontMetrics()) / 2;
    const int h = std::max(1, (plot.height() - gap) / 2);
    return QRect(plot.left(), plot.top() + lane * (h + gap), plot.width(), h);
}

QRect StreamingTimelineView::tokenStepRect(int index) const {
    const int n = int(timeline_.tokenMs.size());
    if (index < 0 || index >= n) return {};
    const QRect lane = laneRect(0);
    const int x0 = xOf(timeline_.tokenMs[size_t(index)]);
    const int x1 = index + 1 < n ? xOf(timeline_.tokenMs[size_t(index) + 1]) : lane.right();
    const int h = int(std::lround(double(index + 1) / n * lane.height()));
    return QRect(x0, lane.bottom() - h + 1, std::max(1, x1 - x0), std::max(1, h));
}

QRect StreamingTimelineView::bufferedRect() const {
    if (timeline_.tokenMs.empty()) return {};
    const QRect lane = laneRect(1);
    const int x0 = xOf(finishedMs());
    return QRect(x0, lane.top(), std::max(1, lane.right() - x0 + 1), lane.height());
}

QString StreamingTimelineView::tooltipAt(QPoint pos) const {
    const int n = int(timeline_.tokenMs.size());
    if (n == 0) return {};
    const QLocale loc = locale();
    const QRect lane0 = laneRect(0), lane1 = laneRect(1);
    if (lane0.contains(pos)) {
        for (int i = n - 1; i >= 0; --i)
            if (pos.x() >= xOf(timeline_.tokenMs[size_t(i)]))
                return tr("token %1 of %2 appears at %3 ms").arg(i + 1).arg(n).arg(loc.toString(timeline_.tokenMs[size_t(i)], 'f', 1));
        return tr("nothing on screen yet: the first token comes at %1 ms").arg(loc.toString(timeline_.tokenMs[0], 'f', 1));
    }
    if (lane1.contains(pos)) {
        if (pos.x() >= xOf(finishedMs())) return tr("all %1 tokens appear at once at %2 ms").arg(n).arg(loc.toString(finishedMs(), 'f', 1));
        return tr("nothing on screen until the whole answer is ready at %1 ms").arg(loc.toString(finishedMs(), 'f', 1));
    }
    return {};
}

QSize StreamingTimelineView::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 80, lineHeight(fm) * 12};
}

QSize StreamingTimelineView::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {labelWidth() + fm.averageCharWidth() * 24, lineHeight(fm) * 7};
}

bool StreamingTimelineView::event(QEvent* e) {
    if (handleTooltipEvent(this, e, [this](QPoint p) { return tooltipAt(p); })) return true;
    return QWidget::event(e);
}

void StreamingTimelineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange || e->type() == QEvent::LanguageChange) {
        updateGeometry();
        update();
    }
}

void StreamingTimelineView::paintEvent(QPaintEvent*) {
    textRects_.clear();
    QPainter p(this);
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const QColor text = pal.color(QPalette::Text);
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QRect plot = plotRect();
    const int n = int(timeline_.tokenMs.size());
    if (n == 0) {
        p.setPen(mix(pal.color(QPalette::Base), text, 0.6));
        drawRecordedText(p, plot, Qt::AlignCenter | Qt::TextWordWrap, placeholder_, &textRects_);
        return;
    }
    const int h = lineHeight(fm), m = marginFor(fm);
    const QRect lane0 = laneRect(0), lane1 = laneRect(1);
    p.setPen(text);
    drawRecordedText(p, QRect(m, lane0.center().y() - h / 2, labelWidth(), h), Qt::AlignRight | Qt::AlignVCenter, tr("with streaming"), &textRects_);
    drawRecordedText(p, QRect(m, lane1.center().y() - h / 2, labelWidth(), h), Qt::AlignRight | Qt::AlignVCenter, tr("without streaming"), &textRects_);

    // The wait before anything is on screen.
    p.fillRect(QRect(QPoint(lane0.left(), lane0.top()), QPoint(xOf(timeline_.tokenMs[0]), lane0.bottom())), waitColor());
    p.fillRect(QRect(QPoint(lane1.left(), lane1.top()), QPoint(xOf(finishedMs()), lane1.bottom())), waitColor());
    // The answer on screen: a staircase with streaming, one block without.
    QColor fill = fillColor();
    for (int i = 0; i < n; ++i) p.fillRect(tokenStepRect(i), fill);
    p.fillRect(bufferedRect(), fill);
    // Each token's arrival as a tick on the lane's base line.
    p.setPen(QPen(text, 1));
    for (int i = 0; i < n; ++i) {
        const int x = xOf(timeline_.tokenMs[size_t(i)]);
        p.drawLine(x, lane0.bottom() + 1, x, lane0.bottom() + 3);
    }
    p.setPen(QPen(mix(pal.color(QPalette::Base), text, 0.3), 1));
    p.drawRect(lane0.adjusted(0, 0, -1, -1));
    p.drawRect(lane1.adjusted(0, 0, -1, -1));

    // Notes inside the lanes where they fit: when text first appears.
    p.setPen(text);
    const QLocale loc = locale();
    const QString first = tr("first text at %1 ms").arg(loc.toString(timeline_.tokenMs[0], 'f', 0));
    const QString all = tr("everything at %1 ms").arg(loc.toString(finishedMs(), 'f', 0));
    const int wFirst = textWidth(fm, first), wAll = textWidth(fm, all);
    if (lane0.height() >= 2 * h) {
        // Inside the grey wait where it fits, else just after its edge: half on the grey and half
        // on the plot it read as running out of its box.
        const int edge = xOf(timeline_.tokenMs[0]);
        const int inside = edge - wFirst - 4;
        const int x = std::clamp(inside >= lane0.left() + 2 ? inside : edge + 4, lane0.left() + 2, lane0.right() - wFirst - 2);
        drawRecordedText(p, QRect(x, lane0.top() + 2, wFirst, h), Qt::AlignLeft | Qt::AlignVCenter, first, &textRects_);
        const int x1 = std::clamp(xOf(finishedMs()) - wAll - 4, lane1.left() + 2, lane1.right() - wAll - 2);
        drawRecordedText(p, QRect(x1, lane1.top() + 2, wAll, h), Qt::AlignLeft | Qt::AlignVCenter, all, &textRects_);
    }

    // Axis.
    const double xMax = axisMax();
    const int maxTicks = std::max(2, plot.width() / std::max(1, fm.averageCharWidth() * 8));
    double scale = 1.0;
    while (xMax * scale < maxTicks * 10.0 && scale < 1e6) scale *= 10.0;
    const double step = double(niceStep(xMax * scale / maxTicks)) / scale;
    const int axisY = lane1.bottom() + 4;
    for (int i = 0; i * step <= xMax + 1e-9; ++i) {
        const int x = xOf(i * step);
        p.drawLine(x, axisY, x, axisY + 3);
        const QString label = loc.toString(i * step, 'g', 6);
        const int w = textWidth(fm, label);
        drawRecordedText(p, QRect(x - w / 2, axisY + 4, w, h), Qt::AlignCenter, label, &textRects_);
    }
    drawRecordedText(p, QRect(plot.left(), axisY + 4 + h, plot.width(), h), Qt::AlignCenter, tr("ms since the request arrived"), &textRects_);
}

}  // namespace dlab::widgets
