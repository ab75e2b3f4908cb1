#include "ui/app/lab_style.h"

#include <algorithm>

#include <QApplication>
#include <QPainter>
#include <QWidget>
#include <QPainterPath>
#include <QStyleOption>

namespace dlab::ui {

QSize LabStyle::sizeFromContents(ContentsType type, const QStyleOption* option, const QSize& contents,
                                 const QWidget* widget) const {
    QSize size = QProxyStyle::sizeFromContents(type, option, contents, widget);
    if (type == CT_PushButton && option) {
        // `contents` is the text and icon; the frame and margins come on top of the padding.
        const int frame = pixelMetric(PM_DefaultFrameWidth, option, widget);
        size.setWidth(std::max(size.width(), contents.width() + 2 * (buttonTextPadding(option->fontMetrics) + frame)));
    }
    return size;
}

int LabStyle::pixelMetric(PixelMetric metric, const QStyleOption* option, const QWidget* widget) const {
    const int size = QProxyStyle::pixelMetric(metric, option, widget);
    switch (metric) {
    case PM_IndicatorWidth:
    case PM_IndicatorHeight:
    case PM_ExclusiveIndicatorWidth:
    case PM_ExclusiveIndicatorHeight:
        return std::max(size, indicatorSize(widget ? widget->fontMetrics() : option ? option->fontMetrics : QFontMetrics(QApplication::font())));
    default:
        return size;
    }
}

void LabStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                             const QWidget* widget) const {
    if (!ownCheckIndicators_ || (element != PE_IndicatorCheckBox && element != PE_IndicatorItemViewItemCheck)) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    const QPalette& pal = option->palette;
    const bool enabled = option->state & State_Enabled;
    QRectF r = QRectF(option->rect).adjusted(1.5, 1.5, -1.5, -1.5);
    const qreal side = std::min(r.width(), r.height());
    r = QRectF(r.center().x() - side / 2, r.center().y() - side / 2, side, side);
    QColor frame = pal.color(enabled ? QPalette::Active : QPalette::Disabled, QPalette::Text);
    frame.setAlphaF(enabled ? 0.65 : 0.35);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(frame, std::max(1.0, side / 12.0)));
    painter->setBrush(pal.color(QPalette::Base));
    painter->drawRoundedRect(r, side / 6.0, side / 6.0);
    const QColor mark = enabled ? pal.color(QPalette::Highlight) : frame;
    if (option->state & State_On) {
        QPainterPath tick;
        tick.moveTo(r.left() + side * 0.22, r.top() + side * 0.52);
        tick.lineTo(r.left() + side * 0.42, r.top() + side * 0.72);
        tick.lineTo(r.left() + side * 0.78, r.top() + side * 0.30);
        painter->setPen(QPen(mark, std::max(1.5, side / 7.0), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(tick);
    } else if (option->state & State_NoChange) {
        painter->fillRect(r.adjusted(side * 0.25, side * 0.42, -side * 0.25, -side * 0.42), mark);
    }
    painter->restore();
}

}  // namespace dlab::ui
