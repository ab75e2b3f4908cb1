// Issue 12, part 5: the Serving lab's Safety tab, offscreen, on a tiny random model (greedy, so
// the engine gives the same run again). Checked against the engine's own SafetyRun:
//  * every layer's card shows that layer's state from the run (off / not reached / passed /
//    acted, with the step it first acted at), and the reply marks exactly the steps where the ban
//    removed 1 % or more of the probability, and the output filter's cut step;
//  * the run the page received equals runSafetyPipeline on the same request in the test;
//  * a blocked prompt: the input card acted, the others not reached, nothing marked;
//  * a bad pattern is its one sentence in the status line, and nothing runs;
//  * the lesson (resources/lessons/07-safety-pipeline.json) sets the tab up with the examples
//    and runs; "Restore my settings" puts the user's prompt back.
#include <QtTest>
#include <QtWidgets>

#include "gguf/tiny_model.h"
#include "model/backend.h"
#include "model/model.h"
#include "safety/safety_pipeline.h"
#include "test_paths.h"
#include "tokenizer/utf8.h"
#include "ui/app/app_settings.h"
#include "ui/app/language_manager.h"
#include "ui/app/main_window.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/serving/serving_page.h"
#include "ui/serving/serving_safety_panel.h"

using namespace dlab;
using dlab::ui::MainWindow;
using dlab::ui::SafetyLayerCard;
using dlab::ui::ServingLabPage;
using dlab::ui::ServingSafetyPanel;

namespace {

std::string literal(const std::string& text) { return "\\Q" + text + "\\E"; }

// `chars` whole characters of the run's text from the start of step `step`'s text.
std::string pieceAt(const SafetyRun& r, int step, int chars) {
    const size_t begin = r.steps[size_t(step)].textBegin;
    size_t end = begin;
    for (int i = 0; i < chars && end < r.rawText.size(); ++i) end += utf8::charLengthAt(r.rawText, end);
    return r.rawText.substr(begin, end - begin);
}

std::string asciiLetters(const SafetyRun& r, size_t from, size_t len) {
    const auto ok = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (size_t i = from; i + len <= r.rawText.size(); ++i) {
        size_t k = 0;
        while (k < len && ok(r.rawText[i + k])) ++k;
        if (k == len) return r.rawText.substr(i, len);
    }
    return {};
}

QString lines(const std::vector<std::string>& l) {
    QStringList out;
    for (const std::string& s : l) out << QString::fromStdString(s);
    return out.join(QLatin1Char('\n'));
}

}  // namespace

class TestGuiSafety : public QObject {
    Q_OBJECT

    QString tinyPath_;
    std::unique_ptr<MainWindow> w_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;
    QStringList errors_;

    ServingLabPage* page() const { return w_->page<ServingLabPage>(); }
    ServingSafetyPanel* panel() const { return page()->safetyPanel(); }

    void setLists(const SafetyPolicy& p, const QString& prompt) {
        panel()->promptEdit()->setPlainText(prompt);
        panel()->listEdit(SafetyLayer::InputFilter)->setPlainText(lines(p.inputPatterns));
        panel()->listEdit(SafetyLayer::BannedPhrases)->setPlainText(lines(p.bannedPhrases));
        panel()->listEdit(SafetyLayer::ModelRefusal)->setPlainText(lines(p.refusalPatterns));
        panel()->listEdit(SafetyLayer::OutputFilter)->setPlainText(lines(p.outputPatterns));
        panel()->ignoreCaseCheck()->setChecked(p.caseInsensitive);
    }

    // Clicks Run and waits for the page's run.
    ui::ServingSafetyPtr runFromTheTab() {
        QSignalSpy done(page(), &ServingLabPage::safetyDone);
        QTest::mouseClick(panel()->runButton(), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return done.count() == 1 && !page()->busy(); }, 120000)) return nullptr;
        return page()->lastSafety();
    }

    // What the tab draws against the run it holds.
    void checkDrawnEqualsRun(const SafetyRun& r) {
        for (int i = 0; i < kSafetyLayers; ++i) {
            const SafetyLayer layer = SafetyLayer(i);
            SafetyLayerCard* card = panel()->card(layer);
            const SafetyLayerReport& rep = r.layer(layer);
            QVERIFY(card->hasState());
            QCOMPARE(card->state(), rep.state);
            const QString status = card->statusLabel()->text();
            if (rep.state == SafetyLayerState::Acted && layer != SafetyLayer::InputFilter)
                QVERIFY2(status.contains(QString::number(rep.firstStep)), qPrintable(status));
        }
        QList<int> interventions;
        for (const SafetyStep& s : r.steps)
            if (s.intervention()) interventions << s.step;
        QCOMPARE(panel()->markedSteps(), interventions);
        QCOMPARE(panel()->markedCutStep(), r.cut ? r.cutStep : -1);
        // The reply view holds the model's text in order (step numbers and the cut marker between
        // its characters): every letter and digit of rawText, as a subsequence.
        const QString view = panel()->replyView()->toPlainText();
        QTextDocument doc;
        doc.setHtml(ServingSafetyPanel::replyHtml(r, panel()->palette()));
        QCOMPARE(view, doc.toPlainText());
        qsizetype at = 0;
        for (const QChar c : QString::fromStdString(r.blocked ? r.request.prompt : r.rawText)) {
            if (c.unicode() >= 128 || !c.isLetterOrNumber()) continue;
            at = view.indexOf(c, at);
            QVERIFY2(at >= 0, qPrintable(view));
            ++at;
        }
    }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        ui::openSettings()->clear();
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/safety-gui-tiny.gguf");
        TinyModelSpec spec;
        spec.nCtx = 512;
        writeTinyModel(spec, tinyPath_.toStdString());
        model_ = Model::load(tinyPath_.toStdString());
        backend_ = makeCpuBackend(*model_, 1);
        w_ = std::make_unique<MainWindow>(tinyPath_);
        w_->setErrorReporter([this](const QString& m) { errors_.append(m); });
        w_->resize(1280, 820);
        w_->show();
        QVERIFY(QTest::qWaitFor([&] { return w_->hasModel(); }, 30000));
        w_->tabs()->setCurrentWidget(page());
        page()->tabs()->setCurrentWidget(panel());
        QCOMPARE(page()->tabs()->tabText(page()->tabs()->currentIndex()), QStringLiteral("Safety"));
    }

    void cleanupTestCase() { w_.reset(); }

    // The examples are the lesson's setup and the engine's defaults.
    void examplesAreTheDefaults() {
        panel()->restoreExamples();
        QCOMPARE(panel()->promptEdit()->toPlainText(), QString::fromStdString(defaultSafetyPrompt()));
        QCOMPARE(panel()->policy(), defaultSafetyPolicy());
        const auto& lessons = w_->lessons()->library().lessons();
        const int i = w_->lessons()->library().indexOf(QStringLiteral("safety-pipeline"));
        QVERIFY(i >= 0);
        const QVariantMap setup = lessons.at(i).setup;
        QCOMPARE(lessons.at(i).page, QStringLiteral("serving"));
        QCOMPARE(setup.value("prompt").toString(), QString::fromStdString(defaultSafetyPrompt()));
        QCOMPARE(setup.value("inputFilter").toStringList().join('\n'), lines(defaultSafetyPolicy().inputPatterns));
        QCOMPARE(setup.value("bannedPhrases").toStringList().join('\n'), lines(defaultSafetyPolicy().bannedPhrases));
        QCOMPARE(setup.value("refusalPatterns").toStringList().join('\n'), lines(defaultSafetyPolicy().refusalPatterns));
        QCOMPARE(setup.value("outputFilter").toStringList().join('\n'), lines(defaultSafetyPolicy().outputPatterns));
        QCOMPARE(setup.value("ignoreCase").toBool(), defaultSafetyPolicy().caseInsensitive);
    }

    void layersAndMarksEqualTheRun() {
        // A plain run first (no layers), to take patterns and a phrase from the tiny model's reply.
        SafetyRequest plainRequest;
        plainRequest.prompt = "Once upon a time";
        plainRequest.maxTokens = 48;
        const SafetyRun plain = runSafetyPipeline(*model_, *backend_, plainRequest);
        QCOMPARE(int(plain.steps.size()), 48);
        SafetyPolicy p;
        p.caseInsensitive = false;
        p.inputPatterns = {"dragon"};
        const std::string phrase = asciiLetters(plain, plain.steps[4].textBegin, 2);
        QVERIFY(!phrase.empty());
        p.bannedPhrases = {phrase};
        // The ban changes the reply from the step it acts: the other patterns come from that reply.
        SafetyRequest banned = plainRequest;
        banned.policy = p;
        const SafetyRun withBan = runSafetyPipeline(*model_, *backend_, banned);
        p.refusalPatterns = {literal(pieceAt(withBan, 2, 2))};
        p.outputPatterns = {literal(pieceAt(withBan, 36, 2))};
        setLists(p, QStringLiteral("Once upon a time"));
        panel()->maxTokensSpin()->setValue(48);

        const ui::ServingSafetyPtr got = runFromTheTab();
        QVERIFY(got);
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        SafetyRequest same = plainRequest;
        same.policy = p;
        const SafetyRun expected = runSafetyPipeline(*model_, *backend_, same);
        QCOMPARE(got->request.policy, p);
        QCOMPARE(got->steps.size(), expected.steps.size());
        for (size_t i = 0; i < expected.steps.size(); ++i) QCOMPARE(got->steps[i].token, expected.steps[i].token);
        QCOMPARE(got->rawText, expected.rawText);
        QCOMPARE(got->shownText, expected.shownText);
        QCOMPARE(got->events.size(), expected.events.size());
        for (size_t i = 0; i < expected.events.size(); ++i) {
            QCOMPARE(got->events[i].layer, expected.events[i].layer);
            QCOMPARE(got->events[i].step, expected.events[i].step);
            QCOMPARE(got->events[i].matched, expected.events[i].matched);
        }
        QVERIFY(got->rawText.find(phrase) == std::string::npos);
        QCOMPARE(got->layer(SafetyLayer::InputFilter).state, SafetyLayerState::Passed);
        QCOMPARE(got->layer(SafetyLayer::ModelRefusal).state, SafetyLayerState::Acted);
        QVERIFY(got->cut);
        QVERIFY(got->layer(SafetyLayer::BannedPhrases).events > 0);   // so the reply has marks to check
        checkDrawnEqualsRun(*got);
        // In a short window (1024 × 600, German) the layers' texts after the run leave the reply,
        // the result, at least seven visible lines: the layers scroll instead (the reply kept
        // four lines at 1024 × 700 on the default model and cut one in half).
        QVERIFY(ui::LanguageManager::instance().setLanguage(QStringLiteral("de")));   // the longer texts
        w_->resize(1024, 600);
        QCoreApplication::processEvents();
        auto* reply = panel()->findChild<QTextBrowser*>(QStringLiteral("safetyReply"));
        QVERIFY(reply);
        QVERIFY2(reply->viewport()->height() >= 7 * reply->fontMetrics().lineSpacing(),
                 qPrintable(QStringLiteral("%1 px for lines of %2").arg(reply->viewport()->height()).arg(reply->fontMetrics().lineSpacing())));
        QVERIFY(ui::LanguageManager::instance().setLanguage(QStringLiteral("en")));
        w_->resize(1280, 820);
        QCoreApplication::processEvents();
    }

    void blockedPromptReachesNothingElse() {
        SafetyPolicy p = defaultSafetyPolicy();
        setLists(p, QStringLiteral("How do I make a bomb?"));
        const ui::ServingSafetyPtr got = runFromTheTab();
        QVERIFY(got);
        QVERIFY(got->blocked);
        QVERIFY(got->steps.empty());
        QCOMPARE(panel()->card(SafetyLayer::InputFilter)->state(), SafetyLayerState::Acted);
        for (SafetyLayer l : {SafetyLayer::BannedPhrases, SafetyLayer::ModelRefusal, SafetyLayer::OutputFilter})
            QCOMPARE(panel()->card(l)->state(), SafetyLayerState::NotReached);
        QVERIFY(panel()->card(SafetyLayer::InputFilter)->detailLabel()->text().contains(QStringLiteral("“bomb”")));
        QVERIFY(panel()->replyView()->toPlainText().contains(QStringLiteral("How do I make a bomb?")));
        checkDrawnEqualsRun(*got);
    }

    void emptyListsAreOff() {
        setLists(SafetyPolicy{}, QStringLiteral("Hello"));
        panel()->maxTokensSpin()->setValue(4);
        const ui::ServingSafetyPtr got = runFromTheTab();
        QVERIFY(got);
        for (int i = 0; i < kSafetyLayers; ++i) QCOMPARE(panel()->card(SafetyLayer(i))->state(), SafetyLayerState::Off);
        checkDrawnEqualsRun(*got);
    }

    void badPatternIsOneSentence_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("output") << int(SafetyLayer::OutputFilter) << "ok\n(unclosed"
                                << "output filter pattern 2 (\"(unclosed\") does not compile: missing closing parenthesis at offset 9";
        QTest::newRow("refusal") << int(SafetyLayer::ModelRefusal) << "[z-a]"
                                 << "refusal pattern 1 (\"[z-a]\") does not compile: range out of order in character class at offset 3";
        QTest::newRow("phrase") << int(SafetyLayer::BannedPhrases) << QString(65, QLatin1Char('x'))
                                << QStringLiteral("banned phrase 1 (\"%1…\") is 65 bytes long; a banned phrase may have at most 64 bytes")
                                       .arg(QString(40, QLatin1Char('x')));
    }
    void badPatternIsOneSentence() {
        QFETCH(int, layer);
        QFETCH(QString, text);
        QFETCH(QString, message);
        setLists(SafetyPolicy{}, QStringLiteral("Hello"));
        QVERIFY(runFromTheTab());   // a run that passed every layer is on the tab
        for (int i = 0; i < kSafetyLayers; ++i) QVERIFY(panel()->card(SafetyLayer(i))->hasState());
        panel()->listEdit(SafetyLayer(layer))->setPlainText(text);
        QSignalSpy requested(page(), &ServingLabPage::safetyRequested);
        QTest::mouseClick(panel()->runButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 0);
        QVERIFY(!page()->busy());
        QCOMPARE(page()->statusLabel()->text(), QStringLiteral("The policy cannot be used: ") + message);
        // The last run's layers do not stand beside the error as if this policy had passed them;
        // the lists the user typed stay.
        QVERIFY(!page()->lastSafety());
        for (int i = 0; i < kSafetyLayers; ++i) {
            QVERIFY(!panel()->card(SafetyLayer(i))->hasState());
            QVERIFY(panel()->card(SafetyLayer(i))->statusLabel()->text().isEmpty());
        }
        QCOMPARE(panel()->listEdit(SafetyLayer(layer))->toPlainText(), text);
    }

    void lessonSetsUpTheTab() {
        panel()->promptEdit()->setPlainText(QStringLiteral("my own prompt"));
        page()->tabs()->setCurrentIndex(0);
        w_->tabs()->setCurrentIndex(0);
        ui::LessonPanel* lessons = w_->lessons();
        lessons->setCurrentIndex(lessons->library().indexOf(QStringLiteral("safety-pipeline")));
        QSignalSpy done(page(), &ServingLabPage::safetyDone);
        QTest::mouseClick(lessons->setupButton(), Qt::LeftButton);
        QCOMPARE(w_->tabs()->currentWidget(), page());
        QCOMPARE(page()->tabs()->currentWidget(), panel());
        QCOMPARE(panel()->promptEdit()->toPlainText(), QString::fromStdString(defaultSafetyPrompt()));
        QCOMPARE(panel()->policy(), defaultSafetyPolicy());
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1 && !page()->busy(); }, 120000));   // "action": "run"
        QVERIFY(page()->lastSafety());
        checkDrawnEqualsRun(*page()->lastSafety());
        QVERIFY(lessons->restoreButton()->isEnabled());
        QTest::mouseClick(lessons->restoreButton(), Qt::LeftButton);
        QCOMPARE(panel()->promptEdit()->toPlainText(), QStringLiteral("my own prompt"));
        QCOMPARE(page()->tabs()->currentIndex(), 0);
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
    }
};

QTEST_MAIN(TestGuiSafety)
#include "test_gui_safety.moc"
