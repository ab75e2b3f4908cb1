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

bool WheelGuard::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() != QEvent::Wheel) return QObject::eventFilter(watched, e);
    auto* w = qobject_cast<QWidget*>(watched);
    // A spin box's wheel arrives at its line edit first: judge the box itself.
    if (w && qobject_cast<QAbstractSpinBox*>(w->parentWidget())) w = w->parentWidget();
    const bool control = w && !qobject_cast<QScrollBar*>(w) &&
                         (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSlider*>(w));
    if (!control || w->hasFocus()) return QObject::eventFilter(watched, e);
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
            QCoreApplication::sendEvent(area->verticalScrollBar(), e);
            break;
        }
    return true;
}

}  // namespace dlab::widgets
