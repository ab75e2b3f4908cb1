#pragma once
// A one-line QLabel that, when its width cannot hold the text, draws it elided with "…" instead
// of cutting it, and then shows the whole text in its tooltip (above the tooltip set on it). Its
// minimum width is a few characters, so a layout (the status bar) can give it what is left and
// the permanent labels next to it keep their whole text. Plain text only; text() stays the whole
// text, so code that reads the label is unaffected.
#include <QLabel>

namespace dlab::widgets {

class ElidingLabel : public QLabel {
    Q_OBJECT
    Q_PROPERTY(QString displayedText READ displayedText)
    Q_PROPERTY(QString effectiveToolTip READ effectiveToolTip)
public:
    explicit ElidingLabel(QWidget* parent = nullptr);

    // Shorter forms of the text, longest first ("name — backend" for the status bar's model line):
    // where the whole text does not fit, the first of them that does is drawn, and only the last
    // is elided. Cleared by nothing but another call (setText keeps them: set both together).
    void setShorterTexts(const QStringList& shorter);
    // What the label draws at its current width (a shorter form, or "…" at the end when elided).
    QString displayedText() const;
    bool isElided() const { return displayedText() != text(); }
    // The tooltip as shown: the whole text first when elided, then the tooltip set on the label.
    QString effectiveToolTip() const;

    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;

private:
    QStringList shorter_;
};

}  // namespace dlab::widgets
