// The desktop app's first slice, offscreen (QT_QPA_PLATFORM=offscreen), on a tiny random model:
//  * the window loads the model on the worker thread and Step fills the chart and the text;
//  * the chart shows softmax(raw logits) before the chain and the engine's last snapshot after it;
//  * a temperature slider move re-samples the current step: the after-chain bars change exactly as
//    the engine's resample says (and as softmax(logits / T) says, with top-k / top-p off);
//  * a bad model file makes the worker emit failed(), the error is reported without blocking and
//    the window stays usable (a good model loads and steps afterwards).
#include <QtTest>
#include <QtWidgets>

#include <cmath>
#include <fstream>

#include "gguf/tiny_model.h"
#include "test_paths.h"
#include "ui/engine_worker.h"
#include "ui/main_window.h"
#include "ui/playground_page.h"
#include "widgets/distribution_chart.h"

using namespace dlab;
using dlab::ui::MainWindow;

class TestGuiPlayground : public QObject {
    Q_OBJECT

    QString tinyPath_, badPath_;

    // A window on `path` with errors collected instead of shown.
    static std::unique_ptr<MainWindow> openWindow(const QString& path, QStringList* errors) {
        auto w = std::make_unique<MainWindow>(path);
        w->setErrorReporter([errors](const QString& m) { errors->append(m); });
        w->show();
        return w;
    }

    static float afterP(const SampleResult& r, int id) {
        for (const Candidate& c : r.stages.back().top)
            if (c.id == id) return c.p;
        return 0.0f;
    }

private slots:
    void initTestCase() {
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/gui-tiny.gguf");
        writeTinyModel(TinyModelSpec{}, tinyPath_.toStdString());
        badPath_ = QString::fromStdString(test::scratchDir() + "/not-a-model.gguf");
        std::ofstream(badPath_.toStdString()) << "this is not a GGUF file";
    }

    void loadsAndSteps() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(w->model().vocab, kTinyVocabSize);
        auto* page = w->playground();
        QVERIFY(page->chart()->bars().isEmpty());
        QVERIFY(page->stepButton()->isEnabled());

        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        for (int i = 0; i < 3; ++i) {
            QTest::mouseClick(page->stepButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), i + 1, 30000);
            QTRY_VERIFY(!page->busy());
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(page->currentStep(), 2);
        QVERIFY(!page->generatedText().isEmpty());

        const auto trace = steps.last().at(0).value<StepTrace>();
        const auto bars = page->chart()->bars();
        QCOMPARE(bars.size(), ui::EngineWorker::kChartBars);
        double sumBefore = 0.0;
        for (int i = 0; i < bars.size(); ++i) {
            if (i > 0) QVERIFY(bars[i].before <= bars[i - 1].before);
            QVERIFY(!bars[i].label.isEmpty());
            sumBefore += bars[i].before;
            // After the chain = the engine's last snapshot (default chain: T 0.8, top-k 40, top-p 0.95).
            float p = 0.0f;
            for (const Candidate& c : trace.stages.back().top)
                if (c.id == bars[i].id) p = c.p;
            QCOMPARE(float(bars[i].after), p);
            QCOMPARE(bars[i].removed, p == 0.0f);
        }
        QVERIFY(sumBefore > 0.0 && sumBefore <= 1.0 + 1e-6);

        // Editing the prompt starts over: the old session's text and chart go.
        page->promptEdit()->setPlainText(QStringLiteral("A new prompt"));
        QCOMPARE(page->currentStep(), -1);
        QVERIFY(page->chart()->bars().isEmpty());
        QVERIFY(page->generatedText().isEmpty());
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 4, 30000);
        QTRY_COMPARE(page->currentStep(), 0);
    }

    void temperatureSliderResamples() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->playground();
        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
        // The spy counts on the worker thread; the page draws the step a moment later.
        QTRY_VERIFY(page->currentStep() == 0 && !page->busy());

        // Top-k and top-p off: after the chain is softmax(logits / T) over the whole vocabulary.
        QSignalSpy resampled(w->worker(), &ui::EngineWorker::resampled);
        page->topKSlider()->setValue(0);
        page->topPSlider()->setValue(100);
        QTRY_VERIFY(resampled.count() >= 1 && !page->busy());
        const auto at08 = page->chart()->bars();

        // Counted before the move: the worker may answer before setValue() returns.
        const int before = resampled.count();
        page->temperatureSlider()->setValue(150);  // T = 1.5
        QCOMPARE(page->samplerParams().temperature, 1.5f);
        QTRY_VERIFY(resampled.count() > before && !page->busy());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        const auto args = resampled.last();
        QCOMPARE(args.at(0).toInt(), page->currentStep());
        const auto result = args.at(1).value<SampleResult>();
        const auto at15 = page->chart()->bars();
        QCOMPARE(at15.size(), at08.size());
        // Flatter: the most probable token loses probability.
        QVERIFY(at15[0].after < at08[0].after);
        for (int i = 0; i < at15.size(); ++i) {
            QCOMPARE(at15[i].id, at08[i].id);
            QCOMPARE(at15[i].before, at08[i].before);  // the raw distribution does not move
            QCOMPARE(float(at15[i].after), afterP(result, at15[i].id));  // what the engine says
            QVERIFY(!at15[i].removed);
            // p_i / p_0 = (raw_i / raw_0)^(1/T)
            for (const auto& [bars, T] : {std::pair{at08, 0.8}, std::pair{at15, 1.5}}) {
                const double want = std::pow(bars[i].before / bars[0].before, 1.0 / T);
                const double got = bars[i].after / bars[0].after;
                QVERIFY2(std::abs(got - want) <= 1e-4 + 1e-3 * want,
                         qPrintable(QStringLiteral("bar %1 T %2: %3 vs %4").arg(i).arg(T).arg(got).arg(want)));
            }
        }
        // The session itself is unchanged: the generated text is still step 0's.
        QCOMPARE(page->currentStep(), 0);

        // Top-k 5: the other bars are removed by the chain (greyed, no probability after it).
        const int n = resampled.count();
        page->topKSlider()->setValue(5);
        QTRY_VERIFY(resampled.count() > n && !page->busy());
        const auto top5 = page->chart()->bars();
        double mass = 0.0;
        for (int i = 0; i < top5.size(); ++i) {
            QCOMPARE(top5[i].removed, i >= 5);
            if (i >= 5) QCOMPARE(top5[i].after, 0.0);
            mass += top5[i].after;
        }
        QVERIFY(std::abs(mass - 1.0) < 1e-4);
    }

    // A prompt longer than the context (128 positions) is the engine's error, reported; with a
    // shorter prompt, Step works.
    void longPromptReportsAndRecovers() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->playground();
        page->promptEdit()->setPlainText(QStringLiteral("word ").repeated(300));
        QSignalSpy failed(w->worker(), &ui::EngineWorker::failed);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 1 && !page->busy(), 30000);
        QVERIFY(!errors.isEmpty());
        QVERIFY(page->stepButton()->isEnabled());

        page->promptEdit()->setPlainText(QStringLiteral("Once upon a time"));
        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
        QTRY_COMPARE(page->currentStep(), 0);
    }

    // F10 is Step's shortcut.
    void f10Steps() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        QTest::keyClick(w.get(), Qt::Key_F10);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
    }

    // The worker on its own thread: raising the cancel flag during a load ends it with cancelled(),
    // not failed(), and the worker can load again afterwards.
    void workerLoadCancels() {
        ui::registerEngineTypes();
        QThread thread;
        auto* worker = new ui::EngineWorker;
        worker->moveToThread(&thread);
        connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
        thread.start();
        QSignalSpy cancelled(worker, &ui::EngineWorker::cancelled);
        QSignalSpy failed(worker, &ui::EngineWorker::failed);
        QSignalSpy loaded(worker, &ui::EngineWorker::modelLoaded);
        // Direct connection: runs on the worker thread inside the progress callback, as a Cancel
        // button's worker->cancel() would from the GUI thread.
        auto conn = connect(worker, &ui::EngineWorker::progress, worker, [worker] { worker->cancel(); },
                            Qt::DirectConnection);
        QMetaObject::invokeMethod(worker, "loadModel", Qt::QueuedConnection, Q_ARG(QString, tinyPath_));
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 30000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(loaded.count(), 0);
        disconnect(conn);
        QMetaObject::invokeMethod(worker, "loadModel", Qt::QueuedConnection, Q_ARG(QString, tinyPath_));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        QCOMPARE(loaded.first().at(0).value<ui::ModelSummary>().vocab, kTinyVocabSize);
        thread.quit();
        thread.wait();
    }

    void badModelReportsAndStaysUsable() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);

        QSignalSpy failed(w->worker(), &ui::EngineWorker::failed);
        w->loadModel(badPath_);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const QString message = failed.first().at(0).toString();
        QVERIFY2(message.contains("not-a-model.gguf"), qPrintable(message));
        QTRY_COMPARE(errors.size(), 1);
        QCOMPARE(errors.first(), message);
        QVERIFY(!w->isLoading());
        QVERIFY(!w->hasModel());
        QVERIFY(!w->playground()->stepButton()->isEnabled());

        // Still usable: a good model loads and steps.
        w->loadModel(tinyPath_);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        QSignalSpy steps(w->worker(), &ui::EngineWorker::stepDone);
        QTest::mouseClick(w->playground()->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
        QCOMPARE(errors.size(), 1);
    }

    void defaultErrorReportIsNonBlocking() {
        MainWindow w(badPath_);  // default reporter: a QMessageBox opened with open()
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(!w.lastError().isEmpty(), 30000);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox*>()) && box->isVisible());
        QCOMPARE(box->text(), w.lastError());
        box->accept();
        QTRY_VERIFY(!w.findChild<QMessageBox*>() || !w.findChild<QMessageBox*>()->isVisible());
        QVERIFY(!w.isLoading());
    }
};

QTEST_MAIN(TestGuiPlayground)
#include "test_gui_playground.moc"
