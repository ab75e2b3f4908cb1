#include "widgets/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QScrollBar>
#include <QWidget>

namespace dlab::widgets {

namespace {
bool isKnob(const QWidget* w) {
    return w && !qobject_cast<const QScrollBar*>(w) &&
           (qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSlider*>(w));
}
}  // namespace

bool WheelGuard::eventFilter(QObject* watched, QEvent* e) {
    // Spin and combo boxes take the focus from the wheel itself (Qt::WheelFocus), before any filter
    // sees the event, and then turn: in a real X session "Tokens" went from 512 to 514 under a
    // scrolling pointer. Every knob is made StrongFocus (click or Tab) as it is polished.
    if (e->type() == QEvent::Polish) {
        auto* w = qobject_cast<QWidget*>(watched);
        if (isKnob(w) && (w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
        return QObject::eventFilter(watched, e);
    }
    if (e->type() != QEvent::Wheel) return QObject::eventFilter(watched, e);
    auto* w = qobject_cast<QWidget*>(watched);
    // A spin box's wheel arrives at its line edit first: judge the box itself.
    if (w && qobject_cast<QAbstractSpinBox*>(w->parentWidget())) w = w->parentWidget();
    if (!isKnob(w) || w->hasFocus()) return QObject::eventFilter(watched, e);
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
            QCoreApplication::sendEvent(area->verticalScrollBar(), e);
            break;
        }
    return true;
}

}  // namespace dlab::widgets
