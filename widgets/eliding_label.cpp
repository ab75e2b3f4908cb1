#include "widgets/eliding_label.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace dlab::widgets {

ElidingLabel::ElidingLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidingLabel::setShorterTexts(const QStringList& shorter) {
    shorter_ = shorter;
    update();
}

QString ElidingLabel::displayedText() const {
    const int room = contentsRect().width();
    const QString whole = text();
    if (fontMetrics().horizontalAdvance(whole) <= room) return whole;
    for (const QString& s : shorter_)
        if (fontMetrics().horizontalAdvance(s) <= room) return s;
    return fontMetrics().elidedText(shorter_.isEmpty() ? whole : shorter_.last(), Qt::ElideRight, room);
}

QString ElidingLabel::effectiveToolTip() const {
    if (!isElided()) return toolTip();
    return toolTip().isEmpty() ? text() : text() + QStringLiteral("\n\n") + toolTip();
}

QSize ElidingLabel::minimumSizeHint() const {
    const QSize hint = QLabel::minimumSizeHint();
    const QMargins m = contentsMargins();
    return {std::min(hint.width(), fontMetrics().averageCharWidth() * 8 + m.left() + m.right()), hint.height()};
}

bool ElidingLabel::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        const QString tip = effectiveToolTip();
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(), tip, this);
        return true;
    }
    return QLabel::event(e);
}

void ElidingLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    style()->drawItemText(&p, contentsRect(), QStyle::visualAlignment(layoutDirection(), alignment()), palette(),
                          isEnabled(), displayedText(), foregroundRole());
}

}  // namespace dlab::widgets
