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
#include "ui/engine/engine_context.h"
#include "ui/playground/playground_controller.h"
#include "ui/app/main_window.h"
#include "ui/playground/candidate_table_model.h"
#include "ui/playground/playground_page.h"
#include "ui/playground/stage_order_model.h"
#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

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
        auto* page = w->page<ui::PlaygroundPage>();
        QVERIFY(page->chart()->bars().isEmpty());
        QVERIFY(page->stepButton()->isEnabled());

        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
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
        QCOMPARE(bars.size(), ui::PlaygroundController::kChartBars);
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
        auto* page = w->page<ui::PlaygroundPage>();
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
        // The spy counts on the worker thread; the page draws the step a moment later.
        QTRY_VERIFY(page->currentStep() == 0 && !page->busy());

        // Top-k and top-p off: after the chain is softmax(logits / T) over the whole vocabulary.
        QSignalSpy resampled(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::resampled);
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
        auto* page = w->page<ui::PlaygroundPage>();
        page->promptEdit()->setPlainText(QStringLiteral("word ").repeated(300));
        QSignalSpy failed(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::failed);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 1 && !page->busy(), 30000);
        QVERIFY(!errors.isEmpty());
        QVERIFY(page->stepButton()->isEnabled());

        page->promptEdit()->setPlainText(QStringLiteral("Once upon a time"));
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
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
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QTest::keyClick(w.get(), Qt::Key_F10);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
    }

    // The engine context on its own thread: raising the cancel flag during a load ends it with
    // cancelled(), not failed(), and it can load again afterwards.
    void engineLoadCancels() {
        ui::registerEngineTypes();
        QThread thread;
        auto* worker = new ui::EngineContext;
        worker->moveToThread(&thread);
        connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
        thread.start();
        QSignalSpy cancelled(worker, &ui::EngineContext::cancelled);
        QSignalSpy failed(worker, &ui::EngineContext::failed);
        QSignalSpy loaded(worker, &ui::EngineContext::modelLoaded);
        // Direct connection: runs on the worker thread inside the progress callback, as a Cancel
        // button's worker->cancel() would from the GUI thread.
        auto conn = connect(worker, &ui::EngineContext::progress, worker, [worker] { worker->cancel(); },
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

    // A file that is not a model: the engine's message is reported once, without blocking, and
    // the model that was loaded stays loaded and usable (no reload needed).
    void badModelReportsAndKeepsPreviousModel() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        const QString before = w->model().path;

        QSignalSpy failed(w->engine(), &ui::EngineContext::failed);
        w->loadModel(badPath_);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const QString message = failed.first().at(0).toString();
        QVERIFY2(message.contains("not-a-model.gguf"), qPrintable(message));
        QTRY_COMPARE(errors.size(), 1);
        QCOMPARE(errors.first(), message);
        QVERIFY(!w->isLoading());
        QVERIFY(w->hasModel());
        QCOMPARE(w->model().path, before);
        QVERIFY(w->statusText().contains(w->model().name));

        // Still usable with the previous model, at once.
        QTRY_VERIFY(w->page<ui::PlaygroundPage>()->stepButton()->isEnabled());
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QTest::mouseClick(w->page<ui::PlaygroundPage>()->stepButton(), Qt::LeftButton);
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

    // A window on the tiny model with `steps` steps taken and the page idle.
    std::unique_ptr<MainWindow> steppedWindow(int stepsWanted, QStringList* errors) {
        auto w = openWindow(tinyPath_, errors);
        if (!QTest::qWaitFor([&] { return w->hasModel(); }, 30000)) return nullptr;
        auto* page = w->page<ui::PlaygroundPage>();
        for (int i = 0; i < stepsWanted; ++i) {
            QTest::mouseClick(page->stepButton(), Qt::LeftButton);
            if (!QTest::qWaitFor([&] { return page->currentStep() == i && !page->busy(); }, 30000)) return nullptr;
        }
        return w;
    }

    // Every knob: moving its slider re-samples the current step, and the chart, the waterfall and
    // the candidate table show exactly what the engine's resample returned.
    void eachKnobResamples_data() {
        QTest::addColumn<QString>("knob");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("stage");   // the stage whose snapshot must show a change
        QTest::newRow("temperature 1.7") << "temperature" << 170 << "temperature";
        QTest::newRow("top-k 3") << "topK" << 3 << "top-k";
        QTest::newRow("top-p 0.30") << "topP" << 30 << "top-p";
        QTest::newRow("min-p 0.40") << "minP" << 40 << "min-p";
        QTest::newRow("repetition 1.80") << "repeatPenalty" << 180 << "repetition";
        QTest::newRow("frequency 1.50") << "frequencyPenalty" << 150 << "freq-presence";
        QTest::newRow("presence 1.50") << "presencePenalty" << 150 << "freq-presence";
    }
    void eachKnobResamples() {
        QFETCH(QString, knob);
        QFETCH(int, value);
        QFETCH(QString, stage);
        QStringList errors;
        auto w = steppedWindow(4, &errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        QSlider* slider = page->findChild<QSlider*>(knob + QStringLiteral("Slider"));
        QVERIFY2(slider, qPrintable(knob));
        const auto barsBefore = page->chart()->bars();

        QSignalSpy resampled(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::resampled);
        slider->setValue(value);
        QTRY_VERIFY_WITH_TIMEOUT(resampled.count() >= 1 && !page->busy(), 30000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const auto result = resampled.last().at(1).value<SampleResult>();
        const auto view = resampled.last().at(2).value<ui::StepView>();
        QCOMPARE(resampled.last().at(0).toInt(), 3);

        // The chart: what the engine says, and not what it showed before.
        const auto bars = page->chart()->bars();
        QCOMPARE(bars.size(), barsBefore.size());
        bool moved = false;
        for (int i = 0; i < bars.size(); ++i) {
            QCOMPARE(bars[i].id, barsBefore[i].id);
            QCOMPARE(float(bars[i].after), afterP(result, bars[i].id));
            moved = moved || std::abs(bars[i].after - barsBefore[i].after) > 1e-6;
        }
        QVERIFY2(moved, "the after-chain bars did not change");

        // The waterfall: "raw" then one panel per stage, with the engine's counts.
        const auto panels = page->waterfall()->panels();
        QCOMPARE(panels.size(), int(result.stages.size()) + 1);
        QCOMPARE(panels[0].stage, QStringLiteral("raw"));
        bool stageChanged = false;
        for (size_t i = 0; i < result.stages.size(); ++i) {
            QCOMPARE(panels[int(i) + 1].stage, QString::fromStdString(result.stages[i].stage));
            QCOMPARE(panels[int(i) + 1].kept, result.stages[i].kept);
            QCOMPARE(panels[int(i) + 1].massKept, double(result.stages[i].massKept));
            QVERIFY(result.stages[i].inputMassKept.has_value());
            QCOMPARE(panels[int(i) + 1].inputMassKept.value_or(-1.0), double(*result.stages[i].inputMassKept));
            if (panels[int(i) + 1].stage == stage) stageChanged = panels[int(i) + 1].changed;
        }
        QVERIFY2(stageChanged, qPrintable(stage + " did not change the candidates"));

        // The table: one row per bar with the same after-chain probabilities.
        const auto rows = page->candidateModel()->rows();
        QCOMPARE(rows.size(), bars.size());
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].id, bars[i].id);
            QCOMPARE(rows[i].finalP, bars[i].after);
            QCOMPARE(rows[i].logit, view.logits[i]);
        }
        // The cut-offs follow the settings.
        const auto cut = page->chart()->cutoffs();
        QCOMPARE(cut.cumulative.size(), bars.size());
        QCOMPARE(cut.topK, page->samplerParams().topK);
        for (int i = 1; i < cut.cumulative.size(); ++i) QVERIFY(cut.cumulative[i] >= cut.cumulative[i - 1]);
    }

    // Run generates up to the run length; every step adds one chip whose probability is the
    // engine's, and the strip reads as the generated text.
    void runFillsTheStrip() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->page<ui::PlaygroundPage>();
        page->setRunLength(12);
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QSignalSpy finished(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::runFinished);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(page->running());
        QVERIFY(page->stopButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QTRY_VERIFY(!page->busy());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const int n = steps.count();
        QVERIFY(n >= 1 && n <= 12);
        QCOMPARE(finished.first().at(0).toString(), n == 12 ? QStringLiteral("length") : QStringLiteral("eos"));
        const auto chips = page->strip()->tokens();
        QCOMPARE(chips.size(), n);
        for (int i = 0; i < n; ++i) {
            const auto trace = steps.at(i).at(0).value<StepTrace>();
            QCOMPARE(chips[i].step, i);
            QCOMPARE(chips[i].id, trace.chosen);
            QCOMPARE(float(chips[i].p), trace.chosenProbability);
            QVERIFY(!chips[i].alternatives.isEmpty());
            for (int a = 1; a < chips[i].alternatives.size(); ++a)
                QVERIFY(chips[i].alternatives[a].p <= chips[i].alternatives[a - 1].p);
        }
        const auto lastView = steps.last().at(1).value<ui::StepView>();
        // The tiny vocabulary's byte tokens make invalid UTF-8, which a streaming decoder and a
        // whole-text decoder replace differently; the real-model suite compares real text.
        if (!lastView.generatedText.contains(QChar(0xFFFD))) QCOMPARE(page->generatedText(), lastView.generatedText);
        QCOMPARE(page->currentStep(), n - 1);
        QVERIFY(w->statusText().contains(QString::number(lastView.contextUsed)));
    }

    // Choosing another alternative on a chip branches there: the strip is cut at that step and
    // ends with the chosen (forced) token, and the next step evaluates one token only.
    void alternativeBranches() {
        QStringList errors;
        auto w = steppedWindow(5, &errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        const auto chip = page->strip()->tokens().at(2);
        int alternative = -1;
        for (const auto& a : chip.alternatives)
            if (a.id != chip.id) { alternative = a.id; break; }
        QVERIFY(alternative >= 0);

        QSignalSpy branched(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::branched);
        QMenu* menu = page->strip()->alternativesMenu(2);
        QVERIFY(menu);
        QAction* pick = nullptr;
        for (QAction* a : menu->actions())
            if (a->data().toInt() == alternative) pick = a;
        QVERIFY(pick);
        pick->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(branched.count(), 1, 30000);
        QTRY_VERIFY(!page->busy());
        delete menu;
        const auto b = branched.first().at(0).value<ui::BranchView>();
        QCOMPARE(b.step, 2);
        const auto chips = page->strip()->tokens();
        QCOMPARE(chips.size(), 3);
        QCOMPARE(chips[2].id, alternative);
        QVERIFY(chips[2].forced);
        QCOMPARE(page->currentStep(), 2);

        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
        const auto trace = steps.first().at(0).value<StepTrace>();
        QCOMPARE(trace.step, 3);
        QCOMPARE(trace.evaluated, 1);   // the forced token only: the prefix was not recomputed
        QTRY_COMPARE(page->strip()->tokens().size(), 4);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // The stage list is the chain: unticking a stage removes it from the snapshots (and its knob
    // from the parameters); moving one changes the order the engine applies.
    void stageListIsTheChain() {
        QStringList errors;
        auto w = steppedWindow(1, &errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        auto* stages = page->stageModel();
        QSignalSpy resampled(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::resampled);
        stages->setEnabled(QStringLiteral("top-k"), false);
        QCOMPARE(page->samplerParams().topK, 0);
        QTRY_VERIFY_WITH_TIMEOUT(resampled.count() >= 1 && !page->busy(), 30000);
        auto result = resampled.last().at(1).value<SampleResult>();
        for (const auto& s : result.stages) QVERIFY(s.stage != "top-k");

        const int from = int(stages->stages().indexOf(QStringLiteral("temperature")));
        const int to = int(stages->stages().indexOf(QStringLiteral("top-p")));
        const int n = resampled.count();
        QVERIFY(stages->moveStage(from, to + 1));   // temperature after top-p
        QTRY_VERIFY_WITH_TIMEOUT(resampled.count() > n && !page->busy(), 30000);
        result = resampled.last().at(1).value<SampleResult>();
        QStringList order;
        for (const auto& s : result.stages) order << QString::fromStdString(s.stage);
        QVERIFY2(order.indexOf(QStringLiteral("temperature")) > order.indexOf(QStringLiteral("top-p")), qPrintable(order.join(',')));
        QCOMPARE(order.join(','), QString::fromStdString(page->samplerParams().order));
        // Every stage in view: the list does not scroll inside the controls panel (it showed 10 of 14).
        auto* list = page->findChild<QListView*>(QStringLiteral("stageList"));
        QVERIFY(list);
        const int before = list->maximumHeight();
        page->setFont([&] { QFont f = page->font(); f.setPointSizeF(f.pointSizeF() * 1.5); return f; }());
        QTRY_VERIFY(list->maximumHeight() > before);   // presentation mode: taller rows, a taller list
        QTRY_COMPARE(list->height(), list->maximumHeight());
        for (int row = 0; row < stages->rowCount(); ++row)
            QVERIFY2(list->viewport()->rect().contains(list->visualRect(stages->index(row, 0))),
                     qPrintable(QStringLiteral("stage row %1 is outside the list's view").arg(row)));
        QCOMPARE(list->verticalScrollBar()->maximum(), 0);
    }

    // Settings offered while a run goes on apply from the next step of that run: here top-k 1
    // from the 4th step on, so every later step keeps exactly one token.
    void settingsChangeARunningRun() {
        ui::registerEngineTypes();
        QThread thread;
        auto* engine = new ui::EngineContext;
        auto* worker = new ui::PlaygroundController(engine);
        engine->moveToThread(&thread);
        connect(&thread, &QThread::finished, engine, &QObject::deleteLater);
        thread.start();
        QSignalSpy loaded(engine, &ui::EngineContext::modelLoaded);
        QMetaObject::invokeMethod(engine, "loadModel", Qt::QueuedConnection, Q_ARG(QString, tinyPath_));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        SamplerParams wide;
        wide.temperature = 1.5f;
        wide.topK = 0;
        wide.topP = 1.0f;
        QMetaObject::invokeMethod(worker, "startSession", Qt::QueuedConnection, Q_ARG(QString, QStringLiteral("Once upon")),
                                  Q_ARG(dlab::SamplerParams, wide));
        SamplerParams narrow = wide;
        narrow.topK = 1;
        // Offered from the worker thread right after the 3rd step, as a slider move would be mid-run.
        QList<int> kept;
        connect(worker, &ui::PlaygroundController::stepDone, worker, [&](const StepTrace& t) {
            kept << t.stages.back().kept;
            if (t.step == 2) worker->offerSamplerParams(narrow);
        }, Qt::DirectConnection);
        QSignalSpy finished(worker, &ui::PlaygroundController::runFinished);
        QMetaObject::invokeMethod(worker, "run", Qt::QueuedConnection, Q_ARG(int, 8));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        thread.quit();
        thread.wait();
        QCOMPARE(kept.size(), 8);
        for (int i = 0; i < 3; ++i) QVERIFY2(kept[i] > 1, qPrintable(QString::number(kept[i])));
        for (int i = 3; i < 8; ++i) QCOMPARE(kept[i], 1);
    }

    // Reset while a run goes on: the run stops, and nothing it still sends is drawn.
    void resetDuringARunDiscardsIt() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->page<ui::PlaygroundPage>();
        page->setRunLength(100);
        QSignalSpy finished(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::runFinished);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QVERIFY(page->running());
        QTest::mouseClick(page->resetButton(), Qt::LeftButton);
        QVERIFY(!page->running());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QTest::qWait(50);   // let every queued step of the old run arrive
        QCOMPARE(page->strip()->tokens().size(), 0);
        QCOMPARE(page->currentStep(), -1);
        QVERIFY(page->chart()->bars().isEmpty());
        // And the page works: Step starts a new session.
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(page->currentStep(), 0, 30000);
        QTRY_COMPARE(page->strip()->tokens().size(), 1);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // The seed knob: after Reset, the same seed runs the same tokens and another seed others.
    void seedDecidesTheRun() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->page<ui::PlaygroundPage>();
        page->temperatureSlider()->setValue(150);
        page->topKSlider()->setValue(0);
        page->topPSlider()->setValue(100);
        page->setRunLength(10);
        const auto runWithSeed = [&](int seed) {
            page->seedSlider()->setValue(seed);
            QTest::mouseClick(page->resetButton(), Qt::LeftButton);
            QSignalSpy finished(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::runFinished);
            QTest::mouseClick(page->runButton(), Qt::LeftButton);
            if (!QTest::qWaitFor([&] { return finished.count() == 1 && !page->busy(); }, 30000)) return QList<int>{};
            QList<int> ids;
            for (const auto& chip : page->strip()->tokens()) ids << chip.id;
            return ids;
        };
        const QList<int> first = runWithSeed(1);
        QCOMPARE(first.size(), 10);
        QCOMPARE(page->samplerParams().seed, uint64_t(1));
        QVERIFY(runWithSeed(2) != first);
        QCOMPARE(runWithSeed(1), first);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

};

QTEST_MAIN(TestGuiPlayground)
#include "test_gui_playground.moc"
