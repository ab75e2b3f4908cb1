#pragma once
// Every keyboard shortcut of a window, found at run time: its QActions (menus, toolbars, pages),
// its QShortcuts and the buttons that carry a shortcut. So the list in Help -> Keyboard shortcuts
// is always the one the window really has, in its current language.
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace dlab::ui {

struct ShortcutEntry {
    QString keys;    // "Ctrl+O" (the platform's own notation); several joined with ", "
    QString action;  // what it does: the action's or button's text, without '&' and "(F5)"
    QString where;   // the page, dock or menu it belongs to
};

// Sorted by `where`, then `action`. Entries with the same action and place share one row.
// A QShortcut is described by its whatsThis(), else by a button on its page whose text names
// the same key ("Step (F10)"), else by its objectName().
QList<ShortcutEntry> collectShortcuts(const QWidget* window);

}  // namespace dlab::ui
