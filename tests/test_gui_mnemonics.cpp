// Alt+letter reaches one thing at a time: on every page, and inside it on every tab of its tab
// widgets, in English, German and Chinese, no two visible mnemonics of the window (menu titles,
// the page tabs, a page's inner tabs, buttons, check boxes, group boxes, labels with a buddy)
// share a letter, nor two items of one menu. Where two did, Alt+R only moved the focus between "Run" and the "Serve" tab and
// pressed neither (Qt's answer to an ambiguous shortcut). Offscreen, on the tiny random model.
#include <QtTest>
#include <QtWidgets>

#include <map>

#include "gguf/tiny_model.h"
#include "test_paths.h"
#include "ui/app/app_settings.h"
#include "ui/app/language_manager.h"
#include "ui/app/main_window.h"
#include "ui/app/page.h"

using namespace dlab;
using dlab::ui::MainWindow;

namespace {

// The window's active mnemonics now: Alt+key -> the visible things that carry it.
std::map<QString, QStringList> mnemonics(const QWidget* window) {
    std::map<QString, QStringList> out;
    const auto add = [&](const QString& text, const QString& kind) {
        const QKeySequence key = QKeySequence::mnemonic(text);
        if (!key.isEmpty()) out[key.toString()] << QStringLiteral("%1 '%2'").arg(kind, text);
    };
    if (const auto* w = qobject_cast<const QMainWindow*>(window); w && w->menuBar()->isVisible())
        for (QAction* a : w->menuBar()->actions())
            if (a->isVisible()) add(a->text(), QStringLiteral("menu"));
    for (const QWidget* w : window->findChildren<QWidget*>()) {
        if (!w->isVisible() || w->window() != window) continue;
        if (const auto* b = qobject_cast<const QAbstractButton*>(w)) add(b->text(), QStringLiteral("button"));
        else if (const auto* l = qobject_cast<const QLabel*>(w); l && l->buddy()) add(l->text(), QStringLiteral("label"));
        else if (const auto* g = qobject_cast<const QGroupBox*>(w)) add(g->title(), QStringLiteral("group"));
        else if (const auto* t = qobject_cast<const QTabBar*>(w))
            for (int i = 0; i < t->count(); ++i)
                if (t->isTabVisible(i)) add(t->tabText(i), QStringLiteral("tab"));
    }
    return out;
}

// Every clash on the current page, then again with each tab of each of its tab widgets in front
// (and theirs, one level down).
void collectClashes(QWidget* window, QWidget* page, const QString& where, QStringList& clashes, int depth = 0) {
    QCoreApplication::processEvents();
    for (const auto& [key, owners] : mnemonics(window)) {
        const QString clash = QStringLiteral("%1: %2: %3").arg(where, key, owners.join(QStringLiteral(", ")));
        if (owners.size() > 1 && !clashes.contains(clash)) clashes << clash;
    }
    if (depth > 1) return;
    for (QTabWidget* tabs : page->findChildren<QTabWidget*>()) {
        if (!tabs->isVisible()) continue;
        const int was = tabs->currentIndex();
        for (int i = 0; i < tabs->count(); ++i) {
            if (i == was) continue;
            tabs->setCurrentIndex(i);
            collectClashes(window, tabs->widget(i), where + QStringLiteral(" › ") + QString(tabs->tabText(i)).remove(u'&'),
                           clashes, depth + 1);
        }
        tabs->setCurrentIndex(was);
    }
}

}  // namespace

class TestGuiMnemonics : public QObject {
    Q_OBJECT
    QString tinyPath_;

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/mnemonics-tiny.gguf");
        writeTinyModel(TinyModelSpec{}, tinyPath_.toStdString());
    }

    void noTwoShareALetter_data() {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << "en";
        QTest::newRow("de") << "de";
        QTest::newRow("zh_CN") << "zh_CN";
    }
    void noTwoShareALetter() {
        QFETCH(QString, language);
        ui::openSettings()->clear();
        ui::openSettings()->setValue(QStringLiteral("language"), language);
        MainWindow w(tinyPath_);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(w.hasModel(), 30000);
        QStringList clashes;
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            collectClashes(&w, w.tabs()->widget(i), QString(w.tabs()->tabText(i)).remove(u'&'), clashes);
        }
        // The lessons dock's controls too, beside the first page.
        w.tabs()->setCurrentIndex(0);
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lessonsDock"));
        QVERIFY(dock);
        dock->show();
        QTRY_VERIFY(dock->isVisible());
        collectClashes(&w, w.tabs()->widget(0), QStringLiteral("lessons dock"), clashes);
        // And inside each menu (its letters work while it is open): File, View › Go to page, …
        for (const QMenu* menu : w.findChildren<QMenu*>()) {
            std::map<QString, QStringList> keys;
            for (const QAction* a : menu->actions()) {
                if (!a->isVisible() || a->isSeparator()) continue;
                const QKeySequence key = QKeySequence::mnemonic(a->text());
                if (!key.isEmpty()) keys[key.toString()] << a->text();
            }
            for (const auto& [key, texts] : keys)
                if (texts.size() > 1)
                    clashes << QStringLiteral("menu '%1': %2: %3").arg(menu->title(), key, texts.join(QStringLiteral(", ")));
        }
        for (const QString& c : clashes) qWarning("clash: %s", qPrintable(c));   // the whole list (a message is cut)
        QVERIFY2(clashes.isEmpty(), qPrintable(QStringLiteral("%1 clashes, the first: %2").arg(clashes.size()).arg(clashes.value(0))));
        QVERIFY(ui::LanguageManager::instance().setLanguage(QStringLiteral("en")));
    }
};

QTEST_MAIN(TestGuiMnemonics)
#include "test_gui_mnemonics.moc"
