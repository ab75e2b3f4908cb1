#include "widgets/row_scroll_area.h"

#include <QEvent>
#include <QScrollBar>

namespace dlab::widgets {

RowScrollArea::RowScrollArea(QWidget* parent) : QScrollArea(parent) {
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);   // only if the splitter squeezes it anyway
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    // The content's updateGeometry() posts its layout request to its parent, the viewport.
    viewport()->installEventFilter(this);
}

void RowScrollArea::setRowWidget(QWidget* w) {
    setWidget(w);
    w->installEventFilter(this);
    updateGeometry();
}

QSize RowScrollArea::minimumSizeHint() const {
    const QWidget* w = widget();
    if (!w) return QScrollArea::minimumSizeHint();
    const int frame = 2 * frameWidth();
    const int bar = horizontalScrollBar()->sizeHint().height();
    return {QScrollArea::minimumSizeHint().width(), w->minimumSizeHint().height() + bar + frame};
}

QSize RowScrollArea::sizeHint() const {
    const QWidget* w = widget();
    if (!w) return QScrollArea::sizeHint();
    const int frame = 2 * frameWidth();
    const int bar = horizontalScrollBar()->sizeHint().height();
    return {w->sizeHint().width() + frame, w->sizeHint().height() + bar + frame};
}

bool RowScrollArea::eventFilter(QObject* watched, QEvent* e) {
    if ((watched == widget() || watched == viewport()) && e->type() == QEvent::LayoutRequest) updateGeometry();
    return QScrollArea::eventFilter(watched, e);
}

}  // namespace dlab::widgets
