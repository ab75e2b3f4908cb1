#include "ui/help/shortcut_collector.h"

#include <QAbstractButton>
#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QStackedWidget>
#include <QTabWidget>

#include <algorithm>
#include <tuple>

#include "ui/app/mnemonic_text.h"

namespace dlab::ui {

namespace {

// lupdate reads the context from the macro: the strings below are translated as "ShortcutCollector".
struct Texts {
    Q_DECLARE_TR_FUNCTIONS(ShortcutCollector)
};

QString keysText(const QList<QKeySequence>& keys) {
    QStringList parts;
    for (const QKeySequence& k : keys) {
        // Two bindings can read the same ("Ctrl+-" for Key_Minus and for QKeySequence::ZoomOut).
        const QString text = k.toString(QKeySequence::NativeText);
        if (!k.isEmpty() && !parts.contains(text)) parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

// How a text may name a key: "(F5)" or, in Chinese, "（F5）", in the platform's words ("Strg")
// or Qt's portable ones ("Ctrl").
QStringList keyHints(const QKeySequence& key) {
    QStringList hints;
    for (const auto format : {QKeySequence::NativeText, QKeySequence::PortableText})
        for (const char* pattern : {"(%1)", "（%1）"})
            hints << QString::fromUtf8(pattern).arg(key.toString(format));
    hints.removeDuplicates();
    return hints;
}

// A button's text without the key it shows: "Step (F10)" -> "Step".
QString withoutKeyHint(const QString& text, const QKeySequence& key) {
    QString t = withoutMnemonic(text);
    for (const QString& hint : keyHints(key)) t.remove(hint);
    return t.trimmed();
}

// The tab, dock or window part a widget sits in.
QString placeOf(const QWidget* w, const QWidget* window) {
    for (; w && w != window; w = w->parentWidget()) {
        if (const auto* dock = qobject_cast<const QDockWidget*>(w)) return withoutMnemonic(dock->windowTitle());
        // A dialog the window owns (the user guide's F3) is a place of its own.
        if (w->isWindow()) return withoutMnemonic(w->windowTitle());
        const auto* stack = qobject_cast<const QStackedWidget*>(w->parentWidget());
        if (stack) {
            if (const auto* tabs = qobject_cast<const QTabWidget*>(stack->parentWidget())) {
                const int i = tabs->indexOf(const_cast<QWidget*>(w));
                if (i >= 0) return withoutMnemonic(tabs->tabText(i));
            }
        }
    }
    return Texts::tr("Whole window");
}

// "Settings › Language" for an action in a submenu; empty when the action is in no menu.
QString menuPath(const QAction* action) {
    // Untitled menus are not places: a too narrow menu bar also shows its menus in an untitled
    // overflow popup, and a context menu may reuse an action.
    const auto titledMenuOf = [](const QAction* a) -> const QMenu* {
        for (QObject* o : a->associatedObjects())
            if (const auto* m = qobject_cast<const QMenu*>(o); m && !m->title().isEmpty()) return m;
        return nullptr;
    };
    QStringList path;
    for (const QMenu* menu = titledMenuOf(action); menu && path.size() < 16; menu = titledMenuOf(menu->menuAction()))
        path.prepend(withoutMnemonic(menu->title()));
    return path.join(QStringLiteral(" › "));
}

QString placeOf(const QAction* action, const QWidget* window) {
    const QString path = menuPath(action);
    if (!path.isEmpty()) return Texts::tr("%1 menu").arg(path);
    if (const auto* w = qobject_cast<const QWidget*>(action->parent())) return placeOf(w, window);
    for (QObject* o : action->associatedObjects())
        if (const auto* w = qobject_cast<const QWidget*>(o)) return placeOf(w, window);
    return Texts::tr("Whole window");
}

QString describe(const QShortcut* s) {
    if (!s->whatsThis().isEmpty()) return s->whatsThis();
    // A button on the same page that names the key in its text ("Run (F5)") or its tooltip
    // ("... (Ctrl+Return)") says what it does. Enter on the keypad counts as Return.
    if (const QWidget* page = qobject_cast<const QWidget*>(s->parent())) {
        QStringList hints = keyHints(s->key());
        if (s->key().count() == 1 && s->key()[0].key() == Qt::Key_Enter)
            hints << keyHints(QKeySequence(QKeyCombination(s->key()[0].keyboardModifiers(), Qt::Key_Return)));
        const auto buttons = page->findChildren<QAbstractButton*>();
        for (const QString& hint : hints)
            for (const QAbstractButton* b : buttons)
                if (b->text().contains(hint) || b->toolTip().contains(hint)) return withoutKeyHint(b->text(), s->key());
    }
    if (!s->objectName().isEmpty()) return s->objectName();
    return Texts::tr("(no description)");
}

void add(QList<ShortcutEntry>& out, const QString& keys, const QString& action, const QString& where) {
    if (keys.isEmpty()) return;
    for (ShortcutEntry& e : out) {
        // Undescribed shortcuts are different things: each keeps its own row.
        if (e.action != action || e.where != where || action == Texts::tr("(no description)")) continue;
        for (const QString& k : keys.split(QStringLiteral(", ")))
            if (!e.keys.split(QStringLiteral(", ")).contains(k)) e.keys += QStringLiteral(", ") + k;
        return;
    }
    out << ShortcutEntry{keys, action, where};
}

}  // namespace

QList<ShortcutEntry> collectShortcuts(const QWidget* window) {
    QList<ShortcutEntry> out;
    if (!window) return out;
    for (const QAction* a : window->findChildren<QAction*>())
        add(out, keysText(a->shortcuts()), withoutMnemonic(a->text()), placeOf(a, window));
    for (const QShortcut* s : window->findChildren<QShortcut*>())
        add(out, keysText(s->keys()), describe(s), placeOf(qobject_cast<const QWidget*>(s->parent()), window));
    for (const QAbstractButton* b : window->findChildren<QAbstractButton*>())
        if (!b->shortcut().isEmpty())
            add(out, keysText({b->shortcut()}), withoutKeyHint(b->text(), b->shortcut()), placeOf(b, window));
    std::sort(out.begin(), out.end(), [](const ShortcutEntry& a, const ShortcutEntry& b) {
        return std::tie(a.where, a.action) < std::tie(b.where, b.action);
    });
    return out;
}

}  // namespace dlab::ui
