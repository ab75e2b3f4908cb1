// The main window around the pages, offscreen on tiny random models:
//  * settings (sampler values, recent models, the last model, language and appearance) persist
//    through QSettings from one window to the next;
//  * a .gguf dropped on the window loads; other files are refused;
//  * a model file deleted while it is open: the open model keeps working (it is memory-mapped),
//    and opening the deleted path again is one clear message, with the open model still in use;
//  * a cancelled load leaves the previous model in use;
//  * the CPU thread count reloads the model on the new backend; the appearance switches palettes.
#include <QtTest>
#include <QtWidgets>

#include <filesystem>

#include "gguf/tiny_model.h"
#include "test_paths.h"
#include "ui/app_settings.h"
#include "ui/engine_worker.h"
#include "ui/main_window.h"
#include "ui/playground_page.h"
#include "ui/theme.h"

using namespace dlab;
using dlab::ui::MainWindow;

class TestGuiMainWindow : public QObject {
    Q_OBJECT

    QString tinyPath_, otherPath_;

    static std::unique_ptr<MainWindow> openWindow(const QString& path, QStringList* errors) {
        auto w = std::make_unique<MainWindow>(path);
        w->setErrorReporter([errors](const QString& m) { errors->append(m); });
        w->show();
        return w;
    }

    static QString copyModel(const QString& from, const QString& name) {
        const QString to = QString::fromStdString(test::scratchDir()) + QLatin1Char('/') + name;
        QFile::remove(to);
        QFile::copy(from, to);
        return to;
    }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        QFile::remove(qEnvironmentVariable("DLAB_SETTINGS"));
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/main-tiny.gguf");
        writeTinyModel(TinyModelSpec{}, tinyPath_.toStdString());
        TinyModelSpec other;
        other.seed = 7;
        other.arch = "qwen2";
        otherPath_ = QString::fromStdString(test::scratchDir() + "/main-other.gguf");
        writeTinyModel(other, otherPath_.toStdString());
    }

    void init() { ui::openSettings()->clear(); }

    void settingsPersist() {
        QStringList errors;
        {
            auto w = openWindow(tinyPath_, &errors);
            QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
            w->loadModel(otherPath_);
            QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->model().path == otherPath_, 30000);
            w->playground()->temperatureSlider()->setValue(135);
            w->playground()->topKSlider()->setValue(7);
            w->playground()->promptEdit()->setPlainText(QStringLiteral("Persisted prompt"));
            w->setTheme(QStringLiteral("dark"));
            QVERIFY(w->close());   // closing saves
        }
        auto w = openWindow(QString(), &errors);   // no path: the last model
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(w->model().path, otherPath_);
        QCOMPARE(w->playground()->samplerParams().temperature, 1.35f);
        QCOMPARE(w->playground()->samplerParams().topK, 7);
        QCOMPARE(w->playground()->promptEdit()->toPlainText(), QStringLiteral("Persisted prompt"));
        QVERIFY(ui::isDark(QApplication::palette()));
        const QStringList recent = w->recentModels();
        QCOMPARE(recent.size(), 2);
        QCOMPARE(recent.at(0), QFileInfo(otherPath_).absoluteFilePath());
        QCOMPARE(recent.at(1), QFileInfo(tinyPath_).absoluteFilePath());
        w->setTheme(QStringLiteral("light"));
        QVERIFY(!ui::isDark(QApplication::palette()));
        w->setTheme(QStringLiteral("system"));
    }

    void droppedModelLoads() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto dropOn = [&](const QString& file) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(file)});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(w.get(), &enter);
            const bool accepted = enter.isAccepted();
            if (accepted) {
                QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
                QApplication::sendEvent(w.get(), &drop);
            }
            return accepted;
        };
        QVERIFY(!dropOn(QString::fromStdString(test::scratchDir()) + QStringLiteral("/notes.txt")));
        QVERIFY(dropOn(otherPath_));
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->model().path == otherPath_, 30000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void modelDeletedWhileOpen() {
        const QString path = copyModel(tinyPath_, QStringLiteral("deleted-while-open.gguf"));
        QStringList errors;
        auto w = openWindow(path, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->playground();
        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
        QTRY_VERIFY(!page->busy());

        QVERIFY(QFile::remove(path));
        // The open model is memory-mapped: it keeps generating.
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 2, 30000);
        QTRY_VERIFY(!page->busy());
        page->restart();
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 3, 30000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        // Opening it again (say from the recent list) is one clear message; the model stays.
        QVERIFY(w->recentModels().contains(QFileInfo(path).absoluteFilePath()));
        w->loadModel(path);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(QStringLiteral("deleted-while-open.gguf")) && errors.first().contains(QStringLiteral("does not exist")),
                 qPrintable(errors.first()));
        QVERIFY(!w->isLoading());
        QVERIFY(w->hasModel());
        QVERIFY(!w->recentModels().contains(QFileInfo(path).absoluteFilePath()));
        QTRY_VERIFY(page->stepButton()->isEnabled());
    }

    // Cancel during a load: the load ends, the previous model is still the one in use.
    void cancelledLoadKeepsModel() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        QSignalSpy cancelled(w->worker(), &ui::EngineWorker::cancelled);
        // Cancel from inside the first progress report, as the Cancel button would.
        auto conn = connect(w->worker(), &ui::EngineWorker::progress, w->worker(), [&] { w->worker()->cancel(); },
                            Qt::DirectConnection);
        w->loadModel(otherPath_);
        QVERIFY(w->isLoading());
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 30000);
        disconnect(conn);
        QTRY_VERIFY(!w->isLoading());
        QCOMPARE(w->model().path, tinyPath_);
        QVERIFY(errors.isEmpty());
        // Said in the status bar, naming the model still in use.
        const QString said = w->statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("cancelled")) && said.contains(w->model().name), qPrintable(said));
        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        QTRY_VERIFY(w->playground()->stepButton()->isEnabled());
        QTest::mouseClick(w->playground()->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
    }

    void threadsReloadTheBackend() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        QSignalSpy loaded(w->worker(), &ui::EngineWorker::modelLoaded);
        w->setThreads(1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        QTRY_VERIFY(!w->isLoading());
        QCOMPARE(w->threads(), 1);
        QCOMPARE(w->model().threads, 1);
        QVERIFY2(w->statusText().contains(QStringLiteral("1 thread")), qPrintable(w->statusText()));
    }
};

QTEST_MAIN(TestGuiMainWindow)
#include "test_gui_main_window.moc"
