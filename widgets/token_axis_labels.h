#pragma once
// The distribution chart's token labels, drawn by the chart itself instead of Qt Charts' category
// axis: rotated plain-text items under the bars, in room the chart reserves for exactly their
// length. Qt Charts laid its rotated rich-text labels out 10-17 px lower than the room it kept
// for them, so long tokens ran into the legend of a short chart (1024 x 700); plain text also
// shows "<|im_end|>" as it is, with no escaping.
#include <QColor>
#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QGraphicsItem;
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace dlab::widgets {

class TokenAxisLabels {
public:
    explicit TokenAxisLabels(QGraphicsItem* parent) : parent_(parent) {}

    // One label per bar, the whole token in each label's tooltip.
    void setTokens(const QStringList& tokens, const QStringList& toolTips);
    void setFont(const QFont& font);
    void setColor(const QColor& color);
    // The longest a label may be drawn, in pixels; longer tokens end in "…".
    void setLengthCap(int px);

    // Room the labels need below the plot: the longest label as drawn, plus the gap.
    int extent() const;
    // Puts label i under bar i of `count` equal slots across `plot` (the chart's plot area), reading
    // upwards, its end just below the axis. Where the slots are narrower than a line of text only
    // every k-th label is shown.
    void place(const QRectF& plot);
    void hideAll();

    static constexpr int kGap = 4;   // between the plot's bottom and a label's end
    // For elidedTexts(): labels left out for lack of width, and whether an item is one of these
    // labels.
    QStringList hiddenTokens() const { return hidden_; }
    bool owns(const QGraphicsItem* item) const;
    // Scene rectangles of the labels shown (tests measure them against the legend).
    QList<QRectF> shownRects() const;

private:
    QString shownText(const QString& token) const;
    void refreshTexts();   // each item's text (shortened past the cap) and tooltip
    QGraphicsItem* parent_;
    QList<QGraphicsSimpleTextItem*> items_;
    QStringList tokens_;
    QStringList toolTips_;
    QFont font_;
    QColor color_;
    int cap_ = 0;
    QStringList hidden_;
};

}  // namespace dlab::widgets
