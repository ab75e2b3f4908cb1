#pragma once
// The mouse wheel scrolls what it is over; it turns a value box, a combo box or a slider only once
// that control has the focus. Without this, scrolling a page (the KV compression tab in a short
// window) changed whichever control passed under the pointer: its "Text:" box jumped to "Open a
// text file…" and a file dialog opened. Installed on the application by the main window; an
// unfocused control's wheel goes to the nearest scroll area around it, or nowhere.
#include <QObject>

namespace dlab::widgets {

class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;
};

}  // namespace dlab::widgets
