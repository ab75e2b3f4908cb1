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

namespace dlab::ui {

namespace {

// lupdate reads the context from the macro: the strings below are translated as "ShortcutCollector".
struct Texts {
    Q_DECLARE_TR_FUNCTIONS(ShortcutCollector)
};

// "&Open…" -> "Open…", "Fish && Chips" -> "Fish & Chips".
QString withoutMnemonic(QString text) {
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

QString keysText(const QList<QKeySequence>& keys) {
    QStringList parts;
    for (const QKeySequence& k : keys)
        if (!k.isEmpty()) parts << k.toString(QKeySequence::NativeText);
    return parts.join(QStringLiteral(", "));
}

// A button's text without the key it shows: "Step (F10)" -> "Step".
QString withoutKeyHint(const QString& text, const QKeySequence& key) {
    QString t = withoutMnemonic(text);
    for (const auto format : {QKeySequence::NativeText, QKeySequence::PortableText})
        t.remove(QStringLiteral(" (%1)").arg(key.toString(format)));
    return t.trimmed();
}

// The tab, dock or window part a widget sits in.
QString placeOf(const QWidget* w, const QWidget* window) {
    for (; w && w != window; w = w->parentWidget()) {
        if (const auto* dock = qobject_cast<const QDockWidget*>(w)) return withoutMnemonic(dock->windowTitle());
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
    QStringList path;
    const QMenu* menu = nullptr;
    for (QObject* o : action->associatedObjects())
        if ((menu = qobject_cast<const QMenu*>(o))) break;
    while (menu) {
        path.prepend(withoutMnemonic(menu->title()));
        const QMenu* parentMenu = nullptr;
        for (QObject* o : menu->menuAction()->associatedObjects())
            if ((parentMenu = qobject_cast<const QMenu*>(o))) break;
        menu = parentMenu;
    }
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
    // A button on the same page that shows the key in its text ("Run (F5)") says what it does.
    if (const QWidget* page = qobject_cast<const QWidget*>(s->parent())) {
        const QString native = s->key().toString(QKeySequence::NativeText);
        const auto buttons = page->findChildren<QAbstractButton*>();
        for (const QAbstractButton* b : buttons)
            if (b->text().contains(QStringLiteral("(%1)").arg(native))) return withoutKeyHint(b->text(), s->key());
    }
    if (!s->objectName().isEmpty()) return s->objectName();
    return Texts::tr("(no description)");
}

void add(QList<ShortcutEntry>& out, const QString& keys, const QString& action, const QString& where) {
    if (keys.isEmpty()) return;
    for (ShortcutEntry& e : out) {
        if (e.action != action || e.where != where) continue;
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
