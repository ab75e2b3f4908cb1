#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace dlab::widgets {

FlowLayout::FlowLayout(QWidget* parent) : QLayout(parent) {}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addLayout(QLayout* layout) {
    addChildLayout(layout);
    addItem(layout);
}

void FlowLayout::addGroup(std::initializer_list<QWidget*> widgets) {
    auto* group = new QHBoxLayout;
    group->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : widgets) group->addWidget(w);
    addLayout(group);
}

void FlowLayout::addItem(QLayoutItem* item) {
    items_ << item;
    invalidate();
}

QLayoutItem* FlowLayout::takeAt(int index) {
    if (index < 0 || index >= items_.size()) return nullptr;
    QLayoutItem* item = items_.takeAt(index);
    invalidate();
    return item;
}

int FlowLayout::gap() const {
    if (spacing() >= 0) return spacing();
    const QWidget* w = parentWidget();
    return w ? w->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, w) : 6;
}

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty()) size = size.expandedTo(item->minimumSize().expandedTo(item->sizeHint().boundedTo(item->maximumSize())));
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    int w = 0, h = 0, shown = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        w += item->sizeHint().width();
        h = std::max(h, item->sizeHint().height());
        ++shown;
    }
    const QMargins m = contentsMargins();
    return {w + std::max(0, shown - 1) * gap() + m.left() + m.right(), h + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int space = gap();
    int y = area.y(), lines = 0;
    QList<QLayoutItem*> line;
    int lineWidth = 0;
    const auto place = [&] {
        if (line.isEmpty()) return;
        int height = 0;
        for (QLayoutItem* item : line) height = std::max(height, item->sizeHint().height());
        if (apply) {
            int x = area.x();
            for (QLayoutItem* item : line) {
                const QSize s = item->sizeHint();
                item->setGeometry(QRect(QPoint(x, y + (height - s.height()) / 2), s));   // centred on the line
                x += s.width() + space;
            }
        }
        y += height + space;
        ++lines;
        line.clear();
        lineWidth = 0;
    };
    for (QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        const int w = item->sizeHint().width();
        if (!line.isEmpty() && lineWidth + space + w > area.width()) place();
        lineWidth += (line.isEmpty() ? 0 : space) + w;
        line << item;
    }
    place();
    lines_ = lines;
    const QMargins m = contentsMargins();
    return std::max(0, y - space - area.y()) + m.top() + m.bottom();
}

}  // namespace dlab::widgets
