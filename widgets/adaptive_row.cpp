#include "widgets/adaptive_row.h"

#include <QBoxLayout>
#include <QResizeEvent>

#include <algorithm>

namespace dlab::widgets {

AdaptiveRow::AdaptiveRow(QWidget* parent) : QWidget(parent), layout_(new QBoxLayout(QBoxLayout::LeftToRight, this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
}

void AdaptiveRow::addWidget(QWidget* widget, int stretch, Qt::Alignment alignment) {
    layout_->addWidget(widget, stretch, alignment);
    arrange(width());
}

bool AdaptiveRow::stacked() const { return layout_->direction() == QBoxLayout::TopToBottom; }

int AdaptiveRow::sideBySideWidth() const {
    int sum = 0, shown = 0;
    for (int i = 0; i < layout_->count(); ++i) {
        QWidget* w = layout_->itemAt(i)->widget();
        if (!w || w->isHidden()) continue;
        sum += w->minimumSizeHint().expandedTo(w->minimumSize()).width();
        ++shown;
    }
    const QMargins m = layout_->contentsMargins();
    return sum + std::max(0, shown - 1) * layout_->spacing() + m.left() + m.right();
}

QSize AdaptiveRow::minimumSizeHint() const {
    int widest = 0;
    for (int i = 0; i < layout_->count(); ++i)
        if (QWidget* w = layout_->itemAt(i)->widget(); w && !w->isHidden())
            widest = std::max(widest, w->minimumSizeHint().expandedTo(w->minimumSize()).width());
    const QMargins m = layout_->contentsMargins();
    return {widest + m.left() + m.right(), layout_->minimumSize().height()};
}

void AdaptiveRow::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    arrange(e->size().width());
}

bool AdaptiveRow::event(QEvent* e) {
    if (e->type() == QEvent::LayoutRequest || e->type() == QEvent::Show) arrange(width());
    return QWidget::event(e);
}

void AdaptiveRow::arrange(int width) {
    const auto direction = width >= sideBySideWidth() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (layout_->direction() == direction) return;
    layout_->setDirection(direction);
    updateGeometry();   // the minimum height changes with the arrangement
}

}  // namespace dlab::widgets
