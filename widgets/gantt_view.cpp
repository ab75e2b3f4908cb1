#include "widgets/gantt_view.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "widgets/nice_ticks.h"
#include "widgets/palette_colors.h"
#include "widgets/recorded_text.h"
#include "widgets/tooltip_event.h"

namespace dlab::widgets {

namespace {

int marginFor(const QFontMetrics& fm) { return std::max(2, lineHeight(fm) / 4); }

// One legend entry: a swatch (or, for waiting, a line) and its text.
struct LegendEntry {
    QRect swatch, text;
    int kind;   // 0 prefill, 1 decode, 2 padding, 3 waiting
    QString label;
};

std::vector<LegendEntry> legendEntries(const QFontMetrics& fm, int width, const QStringList& labels, int* bottom) {
    std::vector<LegendEntry> out;
    const int h = lineHeight(fm), m = marginFor(fm), gap = fm.averageCharWidth(), swatch = std::max(6, h - 4);
    int x = m, y = m;
    for (int kind = 0; kind < labels.size(); ++kind) {
        const int w = swatch + gap / 2 + textWidth(fm, labels[kind]);
        if (x > m && x + w > width - m) {
            x = m;
            y += h + 2;
        }
        out.push_back({QRect(x, y + (h - swatch) / 2, swatch, swatch), QRect(x + swatch + gap / 2, y, w - swatch - gap / 2, h), kind, labels[kind]});
        x += w + 2 * gap;
    }
    if (bottom) *bottom = y + h + m;
    return out;
}

}  // namespace

GanttView::GanttView(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMouseTracking(true);
}

void GanttView::setChart(GanttChart chart) {
    for (const GanttSegment& s : chart.segments) {
        if (s.row < 0 || s.row >= chart.rows.size())
            throw std::invalid_argument("Gantt segment of step " + std::to_string(s.step) + " is in row " + std::to_string(s.row) +
                                        ", but the chart has " + std::to_string(chart.rows.size()) + " rows");
        if (!(s.end >= s.start) || !std::isfinite(s.start) || !std::isfinite(s.end))
            throw std::invalid_argument("Gantt segment of step " + std::to_string(s.step) + " ends before it starts");
    }
    chart_ = std::move(chart);
    updateGeometry();
    update();
}

void GanttView::setPlaceholderText(const QString& text) {
    placeholder_ = text;
    update();
}

QColor GanttView::workColor(GanttWork work) const {
    const QPalette& pal = palette();
    const bool dark = hasDarkBase(pal);
    switch (work) {
        case GanttWork::Prefill: return dark ? QColor(0xf0, 0xa0, 0x40) : QColor(0xd5, 0x5e, 0x00);    // Okabe-Ito vermillion / orange
        case GanttWork::Decode: return probabilityAccent(pal);
        // Grey, set apart from the base by at least 3:1 (WCAG's minimum for graphics): 30 % of the
        // way to the text colour was 2.1:1 on white and dark grey on near-black in the dark theme.
        case GanttWork::Padding: return mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.45);
    }
    return probabilityAccent(pal);
}

QColor GanttView::waitColor() const {
    return mix(palette().color(QPalette::Base), palette().color(QPalette::Text), hasDarkBase(palette()) ? 0.70 : 0.55);
}

int GanttView::legendHeight() const {
    int bottom = 0;
    legendEntries(fontMetrics(), width(), {tr("prefill"), tr("decode"), tr("padding"), tr("waiting for a slot")}, &bottom);
    return bottom;
}

int GanttView::labelWidth() const {
    const QFontMetrics fm = fontMetrics();
    int w = 0;
    for (const GanttRow& r : chart_.rows) w = std::max(w, textWidth(fm, r.label));
    return std::min(w, width() / 5);
}

QRect GanttView::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const int m = marginFor(fm), gap = fm.averageCharWidth();
    const int top = legendHeight();
    const int bottom = height() - m - 2 * lineHeight(fm) - 4;   // tick labels and the axis title
    const int left = m + labelWidth() + gap;
    // Room on the right for the last tick label's half.
    const int right = width() - m - fm.horizontalAdvance(QStringLiteral("00000")) / 2;
    return QRect(QPoint(left, top), QPoint(std::max(left + 1, right), std::max(top + 1, bottom)));
}

double GanttView::xAxisMax() const {
    if (chart_.xMax > 0) return chart_.xMax;
    double x = 0;
    for (const GanttSegment& s : chart_.segments) x = std::max(x, s.end);
    for (const GanttRow& r : chart_.rows) x = std::max({x, r.arrival, r.admitted});
    return x > 0 ? x : 1.0;
}

double GanttView::xToPixel(double x, const QRect& plot) const { return plot.left() + x / xAxisMax() * plot.width(); }

QRect GanttView::rowRect(int row) const {
    if (row < 0 || row >= chart_.rows.size()) return {};
    const QRect plot = plotRect();
    const double pitch = double(plot.height()) / chart_.rows.size();
    const int y0 = plot.top() + int(std::floor(row * pitch)), y1 = plot.top() + int(std::floor((row + 1) * pitch));
    return QRect(plot.left(), y0, plot.width(), std::max(1, y1 - y0));
}

QRect GanttView::segmentRect(int index) const {
    if (index < 0 || index >= int(chart_.segments.size())) return {};
    const GanttSegment& s = chart_.segments[size_t(index)];
    const QRect plot = plotRect(), row = rowRect(s.row);
    const int pad = row.height() >= 6 ? std::max(1, row.height() / 8) : 0;
    const int x0 = int(std::floor(xToPixel(s.start, plot))), x1 = int(std::ceil(xToPixel(s.end, plot)));
    return QRect(x0, row.top() + pad, std::max(1, x1 - x0), std::max(1, row.height() - 2 * pad));
}

std::optional<int> GanttView::segmentAt(QPoint pos) const {
    for (int i = int(chart_.segments.size()) - 1; i >= 0; --i)
        if (segmentRect(i).adjusted(0, 0, 1, 0).contains(pos)) return i;
    return std::nullopt;
}

QString GanttView::tooltipAt(QPoint pos) const {
    QString text;
    int row = -1;
    if (const auto seg = segmentAt(pos)) {
        const GanttSegment& s = chart_.segments[size_t(*seg)];
        row = s.row;
        switch (s.work) {
            case GanttWork::Prefill: text = tr("step %1: prefill, %n prompt token(s)", nullptr, s.tokens).arg(s.step); break;
            case GanttWork::Decode: text = tr("step %1: decode, one token").arg(s.step); break;
            case GanttWork::Padding: text = tr("step %1: padding (finished, its slot still in the static batch)").arg(s.step); break;
        }
    } else {
        for (int r = 0; r < chart_.rows.size(); ++r)
            if (rowRect(r).adjusted(-labelWidth() - fontMetrics().averageCharWidth(), 0, 0, 0).contains(pos)) row = r;
    }
    if (row < 0) return {};
    const QString rowTip = chart_.rows[row].toolTip;
    if (text.isEmpty()) return rowTip;
    return rowTip.isEmpty() ? text : rowTip + QLatin1Char('\n') + text;
}

QSize GanttView::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const int rows = std::max<int>(8, int(chart_.rows.size()));
    return {fm.averageCharWidth() * 80, legendHeight() + rows * std::max(8, lineHeight(fm) * 3 / 4) + 3 * lineHeight(fm)};
}

QSize GanttView::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 30, 2 * lineHeight(fm) + 4 * lineHeight(fm) + 8};
}

bool GanttView::event(QEvent* e) {
    if (handleTooltipEvent(this, e, [this](QPoint p) { return tooltipAt(p); })) return true;
    return QWidget::event(e);
}

void GanttView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange) {
        updateGeometry();
        update();
    }
    if (e->type() == QEvent::LanguageChange) update();
}

void GanttView::paintEvent(QPaintEvent*) {
    textRects_.clear();
    QPainter p(this);
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const QColor text = pal.color(QPalette::Text);
    p.fillRect(rect(), pal.color(QPalette::Base));

    // Legend.
    const QStringList labels{tr("prefill"), tr("decode"), tr("padding"), tr("waiting for a slot")};
    for (const LegendEntry& l : legendEntries(fm, width(), labels, nullptr)) {
        if (l.kind < 3) {
            p.fillRect(l.swatch, workColor(static_cast<GanttWork>(l.kind)));
        } else {
            p.setPen(QPen(waitColor(), 1.5));
            const int y = l.swatch.center().y();
            p.drawLine(l.swatch.left(), y, l.swatch.right(), y);
            p.drawLine(l.swatch.left(), y - 3, l.swatch.left(), y + 3);
        }
        p.setPen(text);
        drawRecordedText(p, l.text, Qt::AlignLeft | Qt::AlignVCenter, l.label, &textRects_);
    }

    const QRect plot = plotRect();
    if (chart_.rows.isEmpty()) {
        p.setPen(mix(pal.color(QPalette::Base), text, 0.6));
        drawRecordedText(p, plot, Qt::AlignCenter | Qt::TextWordWrap, placeholder_, &textRects_);
        return;
    }

    // Axis: ticks at 1-2-5 steps, at most one per ~8 characters of width.
    const double xMax = xAxisMax();
    const int maxTicks = std::max(2, plot.width() / std::max(1, fm.averageCharWidth() * 8));
    double step = 1.0;
    {
        // niceStep works on whole numbers; scale fractions of a unit up first.
        double scale = 1.0;
        while (xMax * scale < maxTicks * 10.0 && scale < 1e6) scale *= 10.0;
        step = double(niceStep(xMax * scale / maxTicks)) / scale;
    }
    const QColor grid = mix(pal.color(QPalette::Base), text, 0.12);
    const int h = lineHeight(fm);
    for (int i = 0; i * step <= xMax + 1e-9; ++i) {
        const double x = i * step;
        const int px = int(std::lround(xToPixel(x, plot)));
        p.setPen(grid);
        p.drawLine(px, plot.top(), px, plot.bottom());
        p.setPen(text);
        p.drawLine(px, plot.bottom(), px, plot.bottom() + 3);
        const QString label = locale().toString(x, 'g', 6);
        const int w = textWidth(fm, label);
        drawRecordedText(p, QRect(px - w / 2, plot.bottom() + 4, w, h), Qt::AlignCenter, label, &textRects_);
    }
    p.setPen(text);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    drawRecordedText(p, QRect(plot.left(), plot.bottom() + 4 + h, plot.width(), h), Qt::AlignCenter, chart_.xTitle, &textRects_);

    // Row labels: every row when they fit, else every k-th.
    const double pitch = double(plot.height()) / chart_.rows.size();
    const int every = std::max(1, int(std::ceil(h / std::max(1.0, pitch))));
    const int labelW = labelWidth(), m = marginFor(fm);
    for (int r = 0; r < chart_.rows.size(); r += every) {
        const QRect row = rowRect(r);
        QRect box(m, row.center().y() - h / 2, labelW, h);
        const QString shown = fm.elidedText(chart_.rows[r].label, Qt::ElideRight, labelW);
        drawRecordedText(p, box, Qt::AlignRight | Qt::AlignVCenter, shown, &textRects_);
    }

    // Waiting lines, then the segments over them.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(waitColor(), 1.5));
    for (int r = 0; r < chart_.rows.size(); ++r) {
        const GanttRow& row = chart_.rows[r];
        if (row.arrival < 0) continue;
        double end = row.admitted;
        if (end < 0) {
            end = row.arrival;
            for (const GanttSegment& s : chart_.segments)
                if (s.row == r) {
                    end = s.start;
                    break;
                }
        }
        const QRect rr = rowRect(r);
        const int y = rr.center().y();
        const int x0 = int(std::lround(xToPixel(row.arrival, plot))), x1 = int(std::lround(xToPixel(end, plot)));
        const int tick = std::min(3, std::max(1, rr.height() / 3));
        p.drawLine(x0, y - tick, x0, y + tick);
        if (x1 > x0) p.drawLine(x0, y, x1, y);
    }
    // Wide enough segments keep a pixel of gap, so each step of a bar can be told apart.
    for (int i = 0; i < int(chart_.segments.size()); ++i) {
        const QRect r = segmentRect(i);
        p.fillRect(r.width() >= 4 ? r.adjusted(0, 0, -1, 0) : r, workColor(chart_.segments[size_t(i)].work));
    }
}

}  // namespace dlab::widgets
