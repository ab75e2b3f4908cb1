#include "widgets/token_axis_labels.h"

#include <QBrush>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>

#include <algorithm>
#include <cmath>

namespace dlab::widgets {

QString TokenAxisLabels::shownText(const QString& token) const {
    const QFontMetricsF fm(font_);
    if (cap_ <= 0 || fm.horizontalAdvance(token) <= cap_) return token;
    return fm.elidedText(token, Qt::ElideRight, cap_);
}

void TokenAxisLabels::setTokens(const QStringList& tokens, const QStringList& toolTips) {
    tokens_ = tokens;
    toolTips_ = toolTips;
    while (items_.size() < tokens.size()) {
        auto* item = new QGraphicsSimpleTextItem(parent_);
        item->setRotation(-90.0);   // reads upwards, as the bar chart's labels always did
        item->setZValue(1e5);
        item->setFont(font_);
        item->setBrush(color_);
        item->hide();
        items_ << item;
    }
    refreshTexts();
}

void TokenAxisLabels::refreshTexts() {
    for (int i = 0; i < items_.size(); ++i) {
        if (i >= tokens_.size()) {
            items_[i]->hide();
            continue;
        }
        const QString text = shownText(tokens_[i]);
        if (items_[i]->text() != text) items_[i]->setText(text);
        const QString tip = i < toolTips_.size() ? toolTips_[i] : tokens_[i];
        if (items_[i]->toolTip() != tip) items_[i]->setToolTip(tip);
    }
}

void TokenAxisLabels::setFont(const QFont& font) {
    if (font == font_) return;
    font_ = font;
    for (QGraphicsSimpleTextItem* item : items_) item->setFont(font);
    refreshTexts();
}

void TokenAxisLabels::setColor(const QColor& color) {
    color_ = color;
    for (QGraphicsSimpleTextItem* item : items_) item->setBrush(color);
}

void TokenAxisLabels::setLengthCap(int px) {
    if (px == cap_) return;
    cap_ = px;
    refreshTexts();
}

int TokenAxisLabels::extent() const {
    if (tokens_.isEmpty()) return 0;
    qreal longest = 0.0;
    for (int i = 0; i < tokens_.size(); ++i) longest = std::max(longest, items_[i]->boundingRect().width());
    return int(std::ceil(longest)) + kGap;
}

void TokenAxisLabels::place(const QRectF& plot) {
    hidden_.clear();
    const int n = int(tokens_.size());
    if (n == 0 || plot.isEmpty()) {
        hideAll();
        return;
    }
    const qreal slot = plot.width() / n;
    const qreal line = QFontMetricsF(font_).height();
    // Labels side by side need a line of height each; where the slots are narrower, every k-th.
    const int step = slot >= line ? 1 : int(std::ceil(line / slot));
    for (int i = 0; i < n; ++i) {
        QGraphicsSimpleTextItem* item = items_[i];
        if (i % step != 0) {
            item->hide();
            hidden_ << tokens_[i];
            continue;
        }
        const QRectF box = item->boundingRect();   // unrotated: width along the text
        // Rotated by -90 degrees about its origin, the item covers x .. x + box.height() and
        // y - box.width() .. y: its origin is the label's lower-left corner as drawn.
        const qreal centre = plot.left() + slot * (i + 0.5);
        item->setPos(centre - box.height() / 2.0, plot.bottom() + kGap + box.width());
        item->show();
    }
}

void TokenAxisLabels::hideAll() {
    for (QGraphicsSimpleTextItem* item : items_) item->hide();
}

bool TokenAxisLabels::owns(const QGraphicsItem* item) const {
    return std::find(items_.begin(), items_.end(), item) != items_.end();
}

QList<QRectF> TokenAxisLabels::shownRects() const {
    QList<QRectF> out;
    for (const QGraphicsSimpleTextItem* item : items_)
        if (item->isVisible()) out << item->sceneBoundingRect();
    return out;
}

}  // namespace dlab::widgets
