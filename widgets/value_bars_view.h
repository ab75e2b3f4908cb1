#pragma once
// A few measured values as horizontal bars on one scale from 0, each with its label on the left
// and its value written at the bar's end ("TTFT with the prefix cache  ████ 41 ms"). Draws the
// numbers it is given; the bars' lengths are the only arithmetic.
#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

#include <vector>

namespace dlab::widgets {

struct ValueBar {
    QString label;
    double value = 0.0;       // >= 0
    QString valueText;        // "41 ms"
    int colour = 0;           // seriesColour index (line_chart_view.h)
};

class ValueBarsView : public QWidget {
    Q_OBJECT
public:
    explicit ValueBarsView(QWidget* parent = nullptr);

    // Throws std::invalid_argument for a negative or non-finite value (naming the bar).
    void setBars(std::vector<ValueBar> bars);
    const std::vector<ValueBar>& bars() const { return bars_; }
    void setPlaceholderText(const QString& text);
    QRect barRect(int index) const;           // null for no such bar
    const QList<QRect>& lastTextRects() const { return textRects_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    int labelWidth() const;
    int valueWidth() const;

    std::vector<ValueBar> bars_;
    QString placeholder_;
    QList<QRect> textRects_;
};

}  // namespace dlab::widgets
