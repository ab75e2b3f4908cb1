#pragma once
// Gives a widget the resize event Qt lost. Qt sends a hidden widget's pending resize event when
// it is shown; if handling that event resizes the widget again (a scroll area fitting its content
// to a new minimum, a layout growing a box to its new maximum), Qt clears the pending flag after
// the event and the second size never arrives: the widget is shown at its new size while its
// layout and scroll bars still work from the old one. A page whose fonts or language changed while
// it was hidden came back with the beam tree's settings placed for 370 px in a 286-px column (zh,
// presentation mode), the Safety tab's check box at y 573 in a 520-px column (de), and the Serve
// page's Python example scrolling a line it had room for.
//
// Installed on the application by the main window, it notes the size each widget last heard of in
// a resize event, and on QEvent::Show sends one more where the widget's size differs from it; a
// layout still placed for another rectangle is laid out again.
#include <QHash>
#include <QObject>
#include <QSize>

namespace dlab::widgets {

class LostResizeGuard : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    QHash<const QObject*, QSize> heard_;   // widget → the size its last resize event carried
};

}  // namespace dlab::widgets
