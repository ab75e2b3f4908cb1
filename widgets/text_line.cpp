#include "widgets/text_line.h"

#include <QEvent>
#include <QPainter>
#include <QTextLayout>

namespace dlab::widgets {

TextLine::TextLine(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void TextLine::setText(const QString& text) {
    if (text == text_) return;
    text_ = text;
    setToolTip(text_);   // the whole text, when the lines elide it
    update();
}

void TextLine::setLines(int lines) {
    lines_ = std::max(1, lines);
    updateGeometry();
    update();
}

QSize TextLine::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 40, fm.lineSpacing() * lines_ + 2};
}

QSize TextLine::minimumSizeHint() const { return {fontMetrics().averageCharWidth() * 10, sizeHint().height()}; }

void TextLine::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::WindowText));
    const QFontMetrics fm = fontMetrics();
    QTextLayout layout(text_, font());
    QTextOption option;
    option.setWrapMode(QTextOption::WordWrap);
    layout.setTextOption(option);
    layout.beginLayout();
    elided_ = false;
    qreal y = 1;
    for (int i = 0; i < lines_; ++i) {
        QTextLine line = layout.createLine();
        if (!line.isValid()) break;
        line.setLineWidth(width());
        if (i == lines_ - 1 && line.textStart() + line.textLength() < text_.size()) {
            // The last line shows what is left, elided.
            const QString rest = fm.elidedText(text_.mid(line.textStart()), Qt::ElideRight, width());
            elided_ = true;
            p.drawText(QPointF(0, y + fm.ascent()), rest);
            break;
        }
        line.setPosition(QPointF(0, y));
        line.draw(&p, QPointF());
        y += fm.lineSpacing();
    }
    layout.endLayout();
}

void TextLine::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) {  // the height is `lines` lines of the new font
        updateGeometry();
        update();
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
