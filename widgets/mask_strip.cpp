#include "widgets/mask_strip.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

#include "widgets/palette_colors.h"

namespace dlab::widgets {

namespace {
// The distribution chart's "forbidden by the grammar" colour.
QColor forbiddenColour(const QPalette& pal) { return hasDarkBase(pal) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x1c, 0x28); }
}  // namespace

MaskStrip::MaskStrip(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void MaskStrip::setSteps(const QList<StepMask>& steps) {
    const bool grew = steps.size() != steps_.size();
    steps_ = steps;
    if (grew) updateGeometry();
    if (highlight_ >= steps_.size()) highlight_ = -1;
    hovered_ = -1;
    update();
}

void MaskStrip::appendStep(const StepMask& step) {
    steps_ << step;
    updateGeometry();
    update();
}

QList<double> MaskStrip::values() const {
    QList<double> out;
    for (const StepMask& s : steps_) out << (s.removed < 0.0 ? -1.0 : s.removed);
    return out;
}

double MaskStrip::meanRemoved() const {
    double sum = 0.0;
    int n = 0;
    for (const StepMask& s : steps_)
        if (s.removed >= 0.0) {
            sum += s.removed;
            ++n;
        }
    return n > 0 ? sum / n : 0.0;
}

double MaskStrip::maxRemoved() const {
    double m = 0.0;
    for (const StepMask& s : steps_) m = std::max(m, s.removed);
    return m;
}

void MaskStrip::setHighlight(int index) {
    if (index == highlight_) return;
    highlight_ = index;
    update();
}

void MaskStrip::setLineScale(double scale) {
    lineScale_ = std::clamp(scale, 0.5, 6.0);
    update();
}

// A line and a half of the font: bars tall enough to compare, one row of the text box.
QSize MaskStrip::sizeHint() const {
    // As wide as its bars at their widest (so what follows it stays beside them), at least the minimum.
    const QFontMetrics fm(font());
    const int pad = std::max(2, fm.height() / 6);
    const int widest = std::max(4, fm.averageCharWidth() * 2);
    return {std::max(minimumSizeHint().width(), int(steps_.size()) * widest + 2 * pad), fm.height() * 3 / 2};
}

QSize MaskStrip::minimumSizeHint() const {
    const QFontMetrics fm(font());
    return {fm.averageCharWidth() * 8, fm.height() * 3 / 2};
}

MaskStrip::Layout MaskStrip::layoutFor() const {
    Layout l;
    const int pad = std::max(2, fontMetrics().height() / 6);
    l.area = rect().adjusted(pad, pad, -pad, -pad);
    const int n = int(steps_.size());
    if (n == 0 || l.area.width() <= 0) return l;
    // As wide as a short token where there is room (bars read as "one per token"), down to 2 px;
    // more steps than that holds: the latest ones, so the bar of the newest token is always there.
    const int widest = std::max(4, fontMetrics().averageCharWidth() * 2);
    l.pitch = std::clamp(l.area.width() / n, 2, widest);
    const int fits = std::max(1, l.area.width() / l.pitch);
    l.first = std::max(0, n - fits);
    l.barWidth = l.pitch >= 4 ? l.pitch - 1 : l.pitch;
    return l;
}

QRect MaskStrip::barRect(int index) const {
    const Layout l = layoutFor();
    if (index < l.first || index >= steps_.size()) return {};
    const StepMask& s = steps_[index];
    const int x = l.area.left() + (index - l.first) * l.pitch;
    const double removed = std::clamp(s.removed, 0.0, 1.0);
    const int h = s.removed < 0.0 ? 0 : std::max(1, int(removed * l.area.height() + 0.5));
    return {x, l.area.bottom() + 1 - h, l.barWidth, h};
}

int MaskStrip::stepAt(const QPoint& pos) const {
    const Layout l = layoutFor();
    if (steps_.isEmpty() || pos.x() < l.area.left() || pos.y() < 0 || pos.y() > height()) return -1;
    const int i = l.first + (pos.x() - l.area.left()) / l.pitch;
    return i < steps_.size() ? i : -1;
}

QString MaskStrip::toolTipFor(int index) const {
    if (index < 0 || index >= steps_.size()) return {};
    const StepMask& s = steps_[index];
    const QLocale loc = locale();
    const auto pct = [&](double x) { return tr("%1 %").arg(loc.toString(x * 100.0, 'f', x > 0.0 && x < 0.001 ? 3 : 1)); };
    QString html = QStringLiteral("<p><b>%1</b></p>").arg(tr("Step %1").arg(index + 1));
    if (s.removed < 0.0) return html + QStringLiteral("<p>%1</p>").arg(tr("No constraint at this step."));
    html += QStringLiteral("<p>%1</p>").arg(tr("The grammar removed %1 of the probability: it forbade %n token(s).", nullptr, s.forbidden)
                                                 .arg(pct(s.removed)));
    if (!s.best.isEmpty())
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("The most probable of them: \u201c%1\u201d (p = %2).").arg(s.best.toHtmlEscaped(), loc.toString(s.bestP, 'f', 4)));
    return html;
}

bool MaskStrip::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = stepAt(help->pos());
        if (i >= 0) QToolTip::showText(help->globalPos(), toolTipFor(i), this, barRect(i).adjusted(-2, -height(), 2, height()));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void MaskStrip::mouseMoveEvent(QMouseEvent* e) {
    const int i = stepAt(e->position().toPoint());
    if (i != hovered_) {
        hovered_ = i;
        update();
        emit stepHovered(i);
    }
    QWidget::mouseMoveEvent(e);
}

void MaskStrip::leaveEvent(QEvent* e) {
    if (hovered_ >= 0) {
        hovered_ = -1;
        update();
        emit stepHovered(-1);
    }
    QWidget::leaveEvent(e);
}

void MaskStrip::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) updateGeometry();
    if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange) update();
    QWidget::changeEvent(e);
}

void MaskStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QPalette& pal = palette();
    const Layout l = layoutFor();
    // The frame of the scale: a faint top line (all of the probability) and the baseline (none).
    QColor faint = pal.color(QPalette::Mid);
    painter.setPen(QPen(faint, 1.0, Qt::DotLine));
    painter.drawLine(l.area.left(), l.area.top(), l.area.right(), l.area.top());
    painter.setPen(QPen(faint, 1.0 * lineScale_));
    painter.drawLine(l.area.left(), l.area.bottom() + 1, l.area.right(), l.area.bottom() + 1);
    const QColor bar = forbiddenColour(pal);
    const QColor mark = pal.color(QPalette::Highlight);
    for (int i = l.first; i < steps_.size(); ++i) {
        const QRect r = barRect(i);
        if (i == highlight_ || i == hovered_) {
            QColor back = mark;
            back.setAlphaF(0.25f);
            painter.fillRect(QRect(r.left(), l.area.top(), r.width(), l.area.height() + 1), back);
        }
        if (!r.isEmpty()) painter.fillRect(r, bar);
    }
}

}  // namespace dlab::widgets
