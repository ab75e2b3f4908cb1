#include "widgets/value_bars_view.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "widgets/line_chart_view.h"
#include "widgets/palette_colors.h"
#include "widgets/recorded_text.h"

namespace dlab::widgets {

namespace {
int marginFor(const QFontMetrics& fm) { return std::max(2, lineHeight(fm) / 4); }
int barHeight(const QFontMetrics& fm) { return lineHeight(fm) + 6; }
int pitch(const QFontMetrics& fm) { return barHeight(fm) + lineHeight(fm) / 2; }
}  // namespace

ValueBarsView::ValueBarsView(QWidget* parent) : QWidget(parent) { setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed); }

void ValueBarsView::setBars(std::vector<ValueBar> bars) {
    for (const ValueBar& b : bars)
        if (!std::isfinite(b.value) || b.value < 0)
            throw std::invalid_argument("value bar '" + b.label.toStdString() + "': the value must be finite and 0 or more");
    bars_ = std::move(bars);
    updateGeometry();
    update();
}

void ValueBarsView::setPlaceholderText(const QString& text) {
    placeholder_ = text;
    update();
}

int ValueBarsView::labelWidth() const {
    int w = 0;
    for (const ValueBar& b : bars_) w = std::max(w, textWidth(fontMetrics(), b.label));
    return std::min(w, width() * 2 / 5);
}

int ValueBarsView::valueWidth() const {
    int w = 0;
    for (const ValueBar& b : bars_) w = std::max(w, textWidth(fontMetrics(), b.valueText));
    return w;
}

QRect ValueBarsView::barRect(int i) const {
    if (i < 0 || i >= int(bars_.size())) return {};
    const QFontMetrics fm = fontMetrics();
    const int m = marginFor(fm), gap = fm.averageCharWidth();
    const int x0 = m + labelWidth() + gap, x1 = width() - m - valueWidth() - gap;
    double top = 0;
    for (const ValueBar& b : bars_) top = std::max(top, b.value);
    const double k = top > 0 ? std::max(0, x1 - x0) / top : 0.0;
    return QRect(x0, m + i * pitch(fm), std::max(1, int(std::lround(bars_[size_t(i)].value * k))), barHeight(fm));
}

QSize ValueBarsView::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 60, 2 * marginFor(fm) + std::max<int>(2, int(bars_.size())) * pitch(fm)};
}

QSize ValueBarsView::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 30, sizeHint().height()};
}

void ValueBarsView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange) {
        updateGeometry();
        update();
    }
}

void ValueBarsView::paintEvent(QPaintEvent*) {
    textRects_.clear();
    QPainter p(this);
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    if (bars_.empty()) {
        p.setPen(mix(pal.color(QPalette::Base), text, 0.6));
        drawRecordedText(p, rect(), Qt::AlignCenter | Qt::TextWordWrap, placeholder_, &textRects_);
        return;
    }
    const int m = marginFor(fm), gap = fm.averageCharWidth(), lw = labelWidth();
    for (int i = 0; i < int(bars_.size()); ++i) {
        const ValueBar& b = bars_[size_t(i)];
        const QRect bar = barRect(i);
        p.fillRect(bar, seriesColour(pal, b.colour));
        p.setPen(text);
        drawRecordedText(p, QRect(m, bar.top(), lw, bar.height()), Qt::AlignRight | Qt::AlignVCenter,
                         fm.elidedText(b.label, Qt::ElideRight, lw), &textRects_);
        drawRecordedText(p, QRect(bar.right() + gap, bar.top(), textWidth(fm, b.valueText), bar.height()), Qt::AlignLeft | Qt::AlignVCenter,
                         b.valueText, &textRects_);
    }
}

}  // namespace dlab::widgets
