#pragma once
// A tab widget that asks for the room of the tab in front only. QTabWidget's minimum is its widest
// page's, so one wide tab (the KV page's compression tables) made every other tab of the same
// widget, and the window around it, scroll sideways beside the Lessons panel on a 1024-pixel
// screen. The tabs behind the front one ignore their size hints; switching tabs swaps the policy.
#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QTabWidget;
QT_END_NAMESPACE

namespace dlab::widgets {

void sizeToFrontTab(QTabWidget* tabs);

}  // namespace dlab::widgets
