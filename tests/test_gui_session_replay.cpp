// File → Save Session / Open Session on the playground, offscreen: a saved session reopens
// identically without a model.
//  * steps, a run, a branch with a forced token and steps after it, on the tiny model and (when
//    it is installed) the default model; the session is saved, then opened in a fresh window that
//    has no model at all: every replayed step's view (chart bars, logits, cut-offs, waterfall
//    panels, chosen token and its chip, probabilities, generated text, loop, context, KV bytes)
//    equals the view the live page was sent for that step, on both branches, and the page draws
//    them as the live page did (chart, caption, text);
//  * while replaying, Step / Run / the knobs / branching are off and a banner names the file and
//    the model; a click on a chip or Previous / Next shows that step; Reset leaves the replay with
//    the recorded prompt and settings in the controls;
//  * a corrupt file, one of an unknown page and "nothing to save" are reported in one sentence and
//    leave the page as it was (its live session or its replay).
#include <QtTest>
#include <QtWidgets>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "gguf/tiny_model.h"
#include "session/session_file.h"
#include "test_paths.h"
#include "ui/app/main_window.h"
#include "ui/playground/playground_controller.h"
#include "ui/playground/playground_page.h"
#include "ui/playground/session_replay.h"
#include "widgets/distribution_chart.h"
#include "widgets/token_strip.h"

using namespace dlab;
using dlab::ui::MainWindow;
using dlab::ui::PlaygroundPage;

namespace {

std::unique_ptr<MainWindow> openWindow(const QString& modelPath, QStringList* errors) {
    auto w = std::make_unique<MainWindow>(modelPath);
    w->setErrorReporter([errors](const QString& m) { errors->append(m); });
    w->show();
    return w;
}

// A window with no model: the path it is given does not exist (what a lecture-room PC without
// the model sees is the same: no model, an error said once).
std::unique_ptr<MainWindow> modelLessWindow(QStringList* errors) {
    auto w = openWindow(QString::fromStdString(test::scratchDir() + "/no-such-model.gguf"), errors);
    if (!QTest::qWaitFor([&] { return !errors->isEmpty(); }, 10000)) qWarning("the missing model was not reported");
    errors->clear();
    return w;
}

void waitIdle(PlaygroundPage* page) { QTRY_VERIFY_WITH_TIMEOUT(!page->busy(), 30000); }

QByteArray at(int step, const char* what) { return QByteArray("step ") + QByteArray::number(step) + ": " + what; }

// A live view and its replay, field by field.
void compareViews(const ui::StepView& live, const ui::StepView& replay, int step) {
    QCOMPARE(replay.step, live.step);
    QVERIFY2(!live.bars.isEmpty() && !live.stages.isEmpty() && !live.token.alternatives.isEmpty() && live.kvBytes > 0,
             at(step, "the live view has something to compare"));
    QCOMPARE(replay.bars.size(), live.bars.size());
    for (int i = 0; i < live.bars.size(); ++i) {
        QVERIFY2(replay.bars[i].id == live.bars[i].id && replay.bars[i].label == live.bars[i].label, at(step, "bar id / label"));
        QVERIFY2(replay.bars[i].before == live.bars[i].before && replay.bars[i].after == live.bars[i].after, at(step, "bar p"));
        QVERIFY2(replay.bars[i].removed == live.bars[i].removed, at(step, "bar removed"));
    }
    QVERIFY2(replay.logits == live.logits, at(step, "logits"));
    QVERIFY2(replay.cutoffs.cumulative == live.cutoffs.cumulative, at(step, "cumulative line"));
    QVERIFY2(replay.cutoffs.topK == live.cutoffs.topK && replay.cutoffs.topP == live.cutoffs.topP && replay.cutoffs.minP == live.cutoffs.minP,
             at(step, "cut-off settings"));
    QVERIFY2(replay.cutoffs.topKKept == live.cutoffs.topKKept && replay.cutoffs.topPKept == live.cutoffs.topPKept &&
                 replay.cutoffs.minPKept == live.cutoffs.minPKept && replay.cutoffs.topKCut == live.cutoffs.topKCut &&
                 replay.cutoffs.topPCut == live.cutoffs.topPCut && replay.cutoffs.minPCut == live.cutoffs.minPCut,
             at(step, "cut-offs"));
    QCOMPARE(replay.stages.size(), live.stages.size());
    for (int i = 0; i < live.stages.size(); ++i) {
        const auto& a = live.stages[i];
        const auto& b = replay.stages[i];
        QVERIFY2(a.stage == b.stage && a.kept == b.kept && a.massKept == b.massKept && a.inputMassKept == b.inputMassKept && a.entropy == b.entropy && a.changed == b.changed,
                 at(step, "waterfall panel"));
        QVERIFY2(a.labels == b.labels && a.p == b.p, at(step, "waterfall bars"));
    }
    QCOMPARE(replay.chosenText, live.chosenText);
    QCOMPARE(replay.chosenProbability, live.chosenProbability);
    QCOMPARE(replay.token.id, live.token.id);
    QCOMPARE(replay.token.step, live.token.step);
    QCOMPARE(replay.token.text, live.token.text);
    QCOMPARE(replay.token.p, live.token.p);
    QCOMPARE(replay.token.forced, live.token.forced);
    QCOMPARE(replay.token.alternatives.size(), live.token.alternatives.size());
    for (int i = 0; i < live.token.alternatives.size(); ++i) {
        const auto& a = live.token.alternatives[i];
        const auto& b = replay.token.alternatives[i];
        QVERIFY2(a.id == b.id && a.text == b.text && a.p == b.p && a.rawP == b.rawP, at(step, "chip alternative"));
    }
    QCOMPARE(replay.generatedText, live.generatedText);
    QVERIFY2(replay.repetition.found == live.repetition.found && replay.repetition.first == live.repetition.first &&
                 replay.repetition.count == live.repetition.count && replay.repetition.period == live.repetition.period,
             at(step, "loop"));
    QCOMPARE(replay.contextUsed, live.contextUsed);
    QCOMPARE(replay.kvBytes, live.kvBytes);
}

// Everything the live page was sent, per branch, step by step.
struct LiveSession {
    std::map<int, std::vector<ui::StepView>> views;   // branch id -> its steps' views
    QList<widgets::DistributionBar> lastBars;         // what the chart showed at the end
    QString caption, text, plainText, prompt;
    int branch = 0;
    qint64 kvBytes = 0;
};

}  // namespace

class TestGuiSessionReplay : public QObject {
    Q_OBJECT

    QString tinyPath_;

    QString path(const char* name) const { return QString::fromStdString(test::scratchDir()) + "/" + name; }

    // Three steps, a run of four, a branch at step 2 with another token, two steps on it.
    void record(MainWindow& w, QStringList* errors, LiveSession& live) {
        auto* page = w.page<PlaygroundPage>();
        page->promptEdit()->setPlainText(QStringLiteral("The quick brown fox"));
        page->temperatureSlider()->setValue(90);
        page->repeatPenaltySlider()->setValue(110);
        page->setRunLength(4);
        QSignalSpy steps(page->controller(), &ui::PlaygroundController::stepDone);
        QSignalSpy branched(page->controller(), &ui::PlaygroundController::branched);
        for (int i = 0; i < 3; ++i) {
            QTest::mouseClick(page->stepButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), i + 1, 30000);
            waitIdle(page);
        }
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        waitIdle(page);
        for (const auto& s : steps) live.views[0].push_back(s.at(1).value<ui::StepView>());

        const int fork = 2;
        const auto chip = page->strip()->tokens().at(fork);
        QMenu* menu = page->strip()->alternativesMenu(fork);
        QVERIFY(menu);
        int alternative = -1;
        for (const auto& a : chip.alternatives)
            if (a.id != chip.id && alternative < 0) alternative = a.id;
        QAction* pick = nullptr;
        for (QAction* a : menu->actions())
            if (a->data().isValid() && a->data().toInt() == alternative) pick = a;
        QVERIFY(pick);
        pick->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(branched.count(), 1, 30000);
        waitIdle(page);
        delete menu;
        const auto b = branched.first().at(0).value<ui::BranchView>();
        live.branch = b.branch;
        std::vector<ui::StepView>& second = live.views[b.branch];
        second.assign(live.views[0].begin(), live.views[0].begin() + fork);
        second.push_back(b.view);
        const int before = steps.count();
        for (int i = 0; i < 2; ++i) {
            QTest::mouseClick(page->stepButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), before + i + 1, 30000);
            waitIdle(page);
        }
        for (int i = before; i < steps.count(); ++i) second.push_back(steps.at(i).at(1).value<ui::StepView>());
        live.lastBars = page->chart()->bars();
        live.caption = page->captionText();
        live.text = page->generatedText();
        live.plainText = page->plainTextView()->toPlainText();
        live.prompt = page->promptEdit()->toPlainText();
        live.kvBytes = page->status().kvBytes;
        if (!errors->isEmpty()) qWarning() << *errors;
    }

private slots:
    void initTestCase() {
        tinyPath_ = path("replay-tiny.gguf");
        writeTinyModel(TinyModelSpec{}, tinyPath_.toStdString());
    }

    void reopensIdenticallyWithoutAModel_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("tiny model") << tinyPath_;
        QTest::newRow("default model") << QString::fromStdString(test::defaultModelPath());
    }

    void reopensIdenticallyWithoutAModel() {
        QFETCH(QString, model);
        if (model.isEmpty()) QSKIP("the default model is not installed (scripts/setup.sh installs it)");
        const QString file = path("lesson.dlab");
        LiveSession live;
        QString modelName;
        {
            QStringList errors;
            auto w = openWindow(model, &errors);
            QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
            modelName = w->model().name;
            record(*w, &errors, live);
            if (QTest::currentTestFailed()) return;
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
            QCOMPARE(live.views.size(), size_t(2));   // a branch was made
            QVERIFY(w->page<PlaygroundPage>()->canSaveSession());
            w->saveSessionTo(file);
        }

        QStringList errors;
        auto w = modelLessWindow(&errors);
        QVERIFY(!w->hasModel());
        w->tabs()->setCurrentIndex(w->tabs()->count() - 1);   // another page in front: opening brings the playground
        w->openSessionFrom(file);
        auto* page = w->page<PlaygroundPage>();
        QCOMPARE(w->currentPage(), page);
        QVERIFY(page->replaying());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        // Every recorded step of both branches, as the live page was sent it.
        const int bars = page->barsSpin()->value();
        QCOMPARE(bars, ui::PlaygroundController::kChartBars);   // what the live controller drew with
        QCOMPARE(page->replay()->session().currentBranch, live.branch);
        ui::SessionReplay replay(readSessionFile(file.toStdString()), "lesson.dlab");   // the page's replay, one per branch here
        int compared = 0;
        for (const auto& [branch, views] : live.views) {
            replay.switchTo(branch);
            QCOMPARE(replay.steps(), int(views.size()));
            for (int i = 0; i < int(views.size()); ++i, ++compared) {
                compareViews(views[size_t(i)], replay.view(i, bars), i);
                if (QTest::currentTestFailed()) return;
            }
        }
        QVERIFY(compared >= 3 + 1 + 3 + 2);   // three steps and a run on the first branch, the fork and two steps on the second

        // And drawn as the live page drew its last step.
        const int last = int(live.views[live.branch].size()) - 1;
        page->showRecordedStep(last);
        QCOMPARE(page->currentStep(), last);
        const auto shown = page->chart()->bars();
        QCOMPARE(shown.size(), live.lastBars.size());
        for (int i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].id, live.lastBars[i].id);
            QCOMPARE(shown[i].before, live.lastBars[i].before);
            QCOMPARE(shown[i].after, live.lastBars[i].after);
        }
        // DLAB_REPLAY_SHOT=DIR saves the replayed window (to look at).
        if (const QString dir = qEnvironmentVariable("DLAB_REPLAY_SHOT"); !dir.isEmpty())
            w->grab().save(dir + "/replay-" + QString(QTest::currentDataTag()).replace(' ', '-') + ".png");
        QCOMPARE(page->captionText(), live.caption);
        QCOMPARE(page->plainTextView()->toPlainText(), live.plainText);
        QCOMPARE(page->promptEdit()->toPlainText(), live.prompt);
        QCOMPARE(page->status().kvBytes, live.kvBytes);
        QCOMPARE(page->status().kvBytes, live.views[live.branch].back().kvBytes);

        // What needs the model is off; the banner says what is shown.
        QVERIFY(!page->stepButton()->isEnabled());
        QVERIFY(!page->runButton()->isEnabled());
        QVERIFY(!page->strip()->branchingEnabled());
        QVERIFY(!page->temperatureSlider()->isEnabled());
        QVERIFY(page->resetButton()->isEnabled());
        QVERIFY(page->replayBannerText().contains("lesson.dlab"));
        QVERIFY(page->replayBannerText().contains(modelName));
        QVERIFY(page->replayPositionText().contains(QString::number(last + 1)));

        // A click on a chip shows that step; Previous / Next walk the steps.
        const auto chips = page->strip()->tokens();
        QCOMPARE(chips.size(), last + 1);
        QTest::mouseClick(page->strip(), Qt::LeftButton, {}, page->strip()->tokenRect(1).center());
        QCOMPARE(page->currentStep(), 1);
        QCOMPARE(page->chart()->bars().first().id, live.views[live.branch][1].bars.first().id);
        page->nextStepButton()->click();
        QCOMPARE(page->currentStep(), 2);
        page->previousStepButton()->click();
        page->previousStepButton()->click();
        QCOMPARE(page->currentStep(), 0);
        QVERIFY(!page->previousStepButton()->isEnabled());

        // Saving a replay writes the same session again.
        const QString again = path("lesson-again.dlab");
        w->saveSessionTo(again);
        QVERIFY(readSessionFile(again.toStdString()) == readSessionFile(file.toStdString()));

        // Reset leaves the replay; the recorded prompt stays for a live run once a model is in.
        QTest::mouseClick(page->resetButton(), Qt::LeftButton);
        QVERIFY(!page->replaying());
        QCOMPARE(page->promptEdit()->toPlainText(), live.prompt);
        QVERIFY(!page->promptEdit()->isReadOnly());
        QVERIFY(!page->stepButton()->isEnabled());   // still no model
        QVERIFY(page->chart()->bars().isEmpty());
        QVERIFY(!page->canSaveSession());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void badFilesAreReportedAndChangeNothing_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated") << "truncated" << "not a complete JSON document";
        QTest::newRow("a bad field") << "field" << "branches[0].steps[1].p must be a number between 0 and 1 (got \"x\")";
        QTest::newRow("an unknown page") << "page" << "\u201cteleporter\u201d page, which this version of Decoding Lab does not have";
        QTest::newRow("missing") << "missing" << "the file does not exist";
    }

    void badFilesAreReportedAndChangeNothing() {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* page = w->page<PlaygroundPage>();
        QSignalSpy steps(page->controller(), &ui::PlaygroundController::stepDone);
        for (int i = 0; i < 2; ++i) {
            QTest::mouseClick(page->stepButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(steps.count(), i + 1, 30000);
            waitIdle(page);
        }
        const QString good = path("good.dlab");
        QVERIFY(w->trySaveSessionTo(good));
        std::ifstream in(good.toStdString());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const QString bad = path("bad.dlab");
        nlohmann::json doc = nlohmann::json::parse(text);
        if (kind == "truncated") std::ofstream(bad.toStdString()) << text.substr(0, text.size() * 2 / 3);
        if (kind == "field") doc["branches"][0]["steps"][1]["p"] = "x";
        if (kind == "page") doc["page"] = "teleporter";
        if (kind == "field" || kind == "page") std::ofstream(bad.toStdString()) << doc.dump();
        if (kind == "missing") QFile::remove(bad);

        // The live page: its steps, its text, its settings, the tab in front.
        const QString textBefore = page->generatedText();
        const int stepBefore = page->currentStep();
        const float temperature = page->samplerParams().temperature;
        w->tabs()->setCurrentIndex(1);
        QVERIFY(!w->tryOpenSessionFrom(bad));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(expected), qPrintable(errors.first()));
        QVERIFY2(!errors.first().contains('\n'), qPrintable(errors.first()));
        QVERIFY(!page->replaying());
        QCOMPARE(w->tabs()->currentIndex(), 1);
        QCOMPARE(page->generatedText(), textBefore);
        QCOMPARE(page->currentStep(), stepBefore);
        QCOMPARE(page->samplerParams().temperature, temperature);
        QVERIFY(page->stepButton()->isEnabled());

        // And a replay on screen stays when the next file is bad.
        QVERIFY(w->tryOpenSessionFrom(good));
        QVERIFY(page->replaying());
        errors.clear();
        QVERIFY(!w->tryOpenSessionFrom(bad));
        QCOMPARE(errors.size(), 1);
        QVERIFY(page->replaying());
        QCOMPARE(page->generatedText(), textBefore);
    }

    void nothingToSaveIsSaid() {
        QStringList errors;
        auto w = modelLessWindow(&errors);
        const QString file = path("nothing.dlab");
        QFile::remove(file);
        QVERIFY(!w->trySaveSessionTo(file));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains("no steps to save yet"), qPrintable(errors.first()));
        QVERIFY(!QFile::exists(file));
        // Another page in front: it says it saves none.
        errors.clear();
        w->tabs()->setCurrentIndex(1);
        QVERIFY(!w->trySaveSessionTo(file));
        QVERIFY2(errors.size() == 1 && errors.first().contains("does not save sessions"), qPrintable(errors.join('\n')));
    }
};

QTEST_MAIN(TestGuiSessionReplay)
#include "test_gui_session_replay.moc"
