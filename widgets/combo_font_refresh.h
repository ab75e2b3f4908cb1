#pragma once
// A combo box keeps the minimum size it first measured, whatever its font does later (Qt 6.4
// clears only its size hint on QEvent::FontChange, the minimum only on a style change). After
// presentation mode went on and off, the beam tree's "Early stopping" box still asked for the
// 231 px it needed at 14.4 pt, and the column around it was cut by 46 px; a box first measured at
// 9 pt would be squeezed in presentation mode. This filter, installed on the application by the
// main window, gives a combo box whose font changes a style change as well, so it measures again.
#include <QObject>

namespace dlab::widgets {

class ComboFontRefresh : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;
};

}  // namespace dlab::widgets
