#include "widgets/recorded_text.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace dlab::widgets {

int lineHeight(const QFontMetrics& fm) {
    return std::max(fm.height(), fm.boundingRect(QRect(0, 0, 10000, 10000), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("XgÉ")).height());
}

int textWidth(const QFontMetrics& fm, const QString& text) { return text.isEmpty() ? 0 : fm.horizontalAdvance(text) + 1; }

QRect drawRecordedText(QPainter& painter, const QRect& box, int flags, const QString& text, QList<QRect>* drawn) {
    if (text.isEmpty()) return {};
    const QRect landed = painter.fontMetrics().boundingRect(box, flags, text);
    painter.drawText(box, flags, text);
    if (drawn) drawn->append(landed);
    return landed;
}

}  // namespace dlab::widgets
