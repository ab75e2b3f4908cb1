#pragma once
// A few lines of plain text, word-wrapped and painted by hand. Unlike a word-wrapping QLabel,
// setText() never asks the parent layout to re-run: its height is fixed at `lines` lines, so a
// caption that changes on every slider move repaints itself alone (a QLabel cost ~4 ms of
// relayout per change in the playground). Sizes come from the font, so an enlarged application
// font (presentation mode) enlarges it.
#include <QString>
#include <QWidget>

namespace dlab::widgets {

class TextLine : public QWidget {
    Q_OBJECT
public:
    explicit TextLine(QWidget* parent = nullptr);

    QString text() const { return text_; }
    void setText(const QString& text);
    void clear() { setText(QString()); }
    int lines() const { return lines_; }
    void setLines(int lines);   // >= 1; text beyond them is elided
    // Whether the last paint had to elide the text (it needed more than lines() lines).
    bool elided() const { return elided_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    QString text_;
    int lines_ = 2;
    mutable bool elided_ = false;
};

}  // namespace dlab::widgets
