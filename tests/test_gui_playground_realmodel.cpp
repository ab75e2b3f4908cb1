// The playground on the default model (SmolLM2-135M-Instruct, installed by scripts/setup.sh):
//  * the greedy-loop demo falls into a loop, and the page highlights exactly the span the
//    engine's repetition detector reports, and says so in words;
//  * F5 runs and Esc stops a long run within 100 ms; the text is kept and Step continues it;
//  * the strip reads exactly as the generated text (real UTF-8 text, token by token).
#include <QtTest>
#include <QtWidgets>

#include "generate/repetition.h"
#include "test_paths.h"
#include "ui/engine/engine_context.h"
#include "ui/playground/playground_controller.h"
#include "ui/app/main_window.h"
#include "ui/playground/playground_page.h"
#include "widgets/token_strip.h"

using namespace dlab;
using dlab::ui::MainWindow;

class TestGuiPlaygroundRealModel : public QObject {
    Q_OBJECT

    QString modelPath_;

    std::unique_ptr<MainWindow> openWindow(QStringList* errors) {
        auto w = std::make_unique<MainWindow>(modelPath_);
        w->setErrorReporter([errors](const QString& m) { errors->append(m); });
        w->show();
        if (!QTest::qWaitFor([&] { return w->hasModel(); }, 60000)) return nullptr;
        return w;
    }

private slots:
    void initTestCase() {
        const std::string path = test::defaultModelPath();
        if (path.empty()) QFAIL("the default model is not installed; run ./scripts/setup.sh");
        modelPath_ = QString::fromStdString(path);
    }

    void greedyLoopDemoHighlightsTheLoop() {
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        page->setRunLength(48);
        QSignalSpy finished(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::runFinished);
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QTest::mouseClick(page->loopDemoButton(), Qt::LeftButton);
        QCOMPARE(page->promptEdit()->toPlainText(), ui::PlaygroundPage::loopDemoPrompt());
        QCOMPARE(page->samplerParams().temperature, 0.0f);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QTRY_VERIFY(!page->busy());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        // What the engine's detector says about the generated tokens, computed here independently.
        std::vector<TokenId> generated;
        for (const auto& args : steps) generated.push_back(args.at(0).value<StepTrace>().chosen);
        const RepetitionSpan loop = findRepetition(generated);
        QVERIFY2(loop.found, "greedy decoding of the demo prompt did not loop");
        QVERIFY(loop.repeats >= 3);
        QVERIFY(page->repetition().found);
        QCOMPARE(page->repetition().first, int(loop.start));
        QCOMPARE(page->repetition().count, int(loop.length));
        QCOMPARE(page->strip()->highlightFirst(), int(loop.start));
        QCOMPARE(page->strip()->highlightCount(), int(loop.length));
        QVERIFY2(page->repetitionText().contains(QString::number(loop.period)), qPrintable(page->repetitionText()));
        // The sentence says the loop is greedy decoding's, and keeps saying so after the sliders
        // move and the texts are redone (a language switch): it is a fact of the run.
        QVERIFY2(page->repetitionText().contains(QStringLiteral("Greedy decoding")), qPrintable(page->repetitionText()));
        page->temperatureSlider()->setValue(80);
        QEvent relabel(QEvent::LanguageChange);
        QCoreApplication::sendEvent(page, &relabel);
        QVERIFY2(page->repetitionText().contains(QStringLiteral("Greedy decoding")), qPrintable(page->repetitionText()));
        // Greedy: every chip's token was the most probable one.
        for (const auto& chip : page->strip()->tokens()) QCOMPARE(chip.id, chip.alternatives.first().id);
    }

    void escStopsARunWithin100ms() {
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        auto* page = w->page<ui::PlaygroundPage>();
        // A story opening (no chat template): the model keeps writing well past 10 tokens.
        page->promptEdit()->setPlainText(QStringLiteral("Once upon a time there was a little girl who"));
        page->setRunLength(2000);
        QSignalSpy steps(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::stepDone);
        QSignalSpy finished(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::runFinished);
        QTest::keyClick(w.get(), Qt::Key_F5);
        QVERIFY(page->running());
        QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 10, 60000);

        // Timed when the page has handled the end of the run on the GUI thread (a slot connected
        // after the page's runs after it), not at the next poll of a QTRY loop.
        QElapsedTimer t;
        double ms = -1.0;
        connect(w->page<ui::PlaygroundPage>()->controller(), &ui::PlaygroundController::runFinished, page, [&] { ms = t.nsecsElapsed() / 1e6; }, Qt::QueuedConnection);
        t.start();
        QTest::keyClick(w.get(), Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(ms >= 0.0, 5000);
        QVERIFY(!page->running());
        qInfo("Esc -> run stopped and the page idle: %.1f ms after %d steps", ms, int(steps.count()));
        QVERIFY2(ms < 100.0, qPrintable(QStringLiteral("%1 ms").arg(ms)));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("stopped"));
        QVERIFY2(page->captionText().endsWith(QStringLiteral("(stopped)")), qPrintable(page->captionText()));
        QVERIFY(steps.count() < 2000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        // The text is kept, reads as the engine's text, and Step continues it.
        QTRY_VERIFY(!page->busy());
        const int chips = int(page->strip()->tokens().size());
        QCOMPARE(chips, int(steps.count()));
        QCOMPARE(page->generatedText(), steps.last().at(1).value<ui::StepView>().generatedText);
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(int(page->strip()->tokens().size()), chips + 1, 30000);
        QCOMPARE(steps.last().at(0).value<StepTrace>().evaluated, 1);
    }
};

QTEST_MAIN(TestGuiPlaygroundRealModel)
#include "test_gui_playground_realmodel.moc"
