#include "widgets/lost_resize_guard.h"

#include <QCoreApplication>
#include <QLayout>
#include <QResizeEvent>
#include <QWidget>

namespace dlab::widgets {

bool LostResizeGuard::eventFilter(QObject* watched, QEvent* e) {
    if (!watched->isWidgetType() || (e->type() != QEvent::Resize && e->type() != QEvent::Show))
        return QObject::eventFilter(watched, e);
    auto* w = static_cast<QWidget*>(watched);
    if (e->type() == QEvent::Resize) {
        const QSize size = static_cast<QResizeEvent*>(e)->size();
        auto it = heard_.find(w);
        if (it == heard_.end()) {
            heard_.insert(w, size);
            connect(w, &QObject::destroyed, this, [this, w] { heard_.remove(w); });
        } else {
            *it = size;
        }
        return QObject::eventFilter(watched, e);
    }
    // QEvent::Show
    if (auto it = heard_.constFind(w); it != heard_.constEnd() && *it != w->size()) {
        QResizeEvent again(w->size(), *it);
        QCoreApplication::sendEvent(w, &again);   // comes back through here and is noted
    }
    if (QLayout* layout = w->layout(); layout && layout->isEnabled() && layout->geometry().isValid()) {
        // Where QLayout puts a widget's top-level layout (QLayoutPrivate::doResize).
        const QRect room = w->testAttribute(Qt::WA_LayoutOnEntireRect) ? w->rect() : w->contentsRect();
        if (layout->geometry() != room) {
            layout->invalidate();
            layout->activate();
        }
    }
    return QObject::eventFilter(watched, e);
}

}  // namespace dlab::widgets
