#pragma once
// The tooltip part of a painted view's event(): shows `text(pos)` at the pointer for a
// QEvent::ToolTip, or hides the tooltip where the text is empty. Returns whether it handled `e`.
#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace dlab::widgets {

template <class TextAt>
bool handleTooltipEvent(QWidget* view, QEvent* e, TextAt text) {
    if (e->type() != QEvent::ToolTip) return false;
    auto* help = static_cast<QHelpEvent*>(e);
    const QString shown = text(help->pos());
    if (shown.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), shown, view);
    return true;
}

}  // namespace dlab::widgets
