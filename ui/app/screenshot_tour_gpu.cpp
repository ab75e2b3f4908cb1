#include "ui/app/screenshot_tour_gpu.h"

#include <QAction>
#include <QMenu>
#include <QStatusBar>

#include "ui/app/main_window.h"

namespace dlab::ui {

namespace {
// The Backend submenu: the menu that holds the checkable actions whose data is auto / cpu / cuda.
QMenu* backendMenu(MainWindow& w) {
    for (QAction* a : w.findChildren<QAction*>())
        if (a->isCheckable() && a->data().toString() == QLatin1String("cuda"))
            for (QObject* o : a->associatedObjects())
                if (auto* m = qobject_cast<QMenu*>(o)) return m;
    return nullptr;
}
}  // namespace

void gpuScreens(MainWindow& w, const std::function<void(const QString&)>& shoot, const std::function<void(const QString&)>& shootScreen) {
    const QSize normal = w.size();
    int threads = 1;
    for (const QSize size : {QSize(1024, 700), QSize(1920, 1080)})
        for (const char* lang : {"en", "de", "zh_CN"})
            for (const char* theme : {"light", "dark"}) {
                w.resize(size);
                w.setLanguage(QLatin1String(lang));
                w.setTheme(QLatin1String(theme));
                threads = threads == 1 ? 2 : 1;   // a change each time, so the status bar says it
                w.setThreads(threads);
                shoot(QStringLiteral("gpu-%1x%2-%3-%4.png").arg(size.width()).arg(size.height()).arg(QLatin1String(lang), QLatin1String(theme)));
            }
    w.setTheme(QStringLiteral("system"));
    w.resize(1024, 700);
    // A user's pointer over the menus clears a temporary message (each item's status tip); menus
    // popped up from code do not move it, so the message goes first.
    w.statusBar()->clearMessage();
    if (QMenu* backend = backendMenu(w)) {
        for (const char* lang : {"en", "de", "zh_CN"}) {
            w.setLanguage(QLatin1String(lang));
            QMenu* settings = nullptr;
            for (QObject* o : backend->menuAction()->associatedObjects())
                if (auto* m = qobject_cast<QMenu*>(o)) settings = m;
            if (!settings) break;
            settings->popup(w.mapToGlobal(QPoint(w.width() / 3, 30)));
            backend->popup(settings->geometry().topRight() + QPoint(0, settings->actionGeometry(backend->menuAction()).top()));
            shootScreen(QStringLiteral("gpu-backend-menu-%1.png").arg(QLatin1String(lang)));
            backend->close();
            settings->close();
        }
    }
    w.setLanguage(QStringLiteral("en"));
    w.resize(normal);
}

}  // namespace dlab::ui
