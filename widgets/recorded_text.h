#pragma once
// Text drawn into a box whose landing rectangle is kept: the KV views list what their last paint
// wrote (lastTextRects()), so a test can prove at 1024×700 and at presentation font sizes that no
// label is clipped by the widget's edge or drawn over another one.
#include <QList>
#include <QRect>
#include <QString>

QT_BEGIN_NAMESPACE
class QFontMetrics;
class QPainter;
QT_END_NAMESPACE

namespace dlab::widgets {

// painter.drawText(box, flags, text) with the painter's font; appends the rectangle the text
// occupies (QFontMetrics::boundingRect for that box and those flags) to `drawn` unless it is null
// or the text is empty. Returns that rectangle.
// The height one line of text lands in: QFontMetrics::height() can be a pixel short of it (fractional
// metrics at presentation sizes), so rows pitched by height() would overlap by that pixel.
int lineHeight(const QFontMetrics& fm);

// The width to give a box that must hold `text` whole: QFontMetrics::horizontalAdvance() rounds the
// fractional advance, and elidedText() at that width may still elide ("GPU mem…"); one more pixel holds it.
int textWidth(const QFontMetrics& fm, const QString& text);

QRect drawRecordedText(QPainter& painter, const QRect& box, int flags, const QString& text, QList<QRect>* drawn);

}  // namespace dlab::widgets
