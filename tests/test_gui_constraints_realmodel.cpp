// Constrained decoding in the app, on the default model (SmolLM2-135M-Instruct):
//  * the distribution chart marks exactly the bars whose tokens the engine's mask forbids: the
//    mask is computed here, from the same spec compiled here for the file's own vocabulary
//    (GrammarStage::stateAfter over the tokens generated before the step, then
//    GrammarAutomaton::mask), for any JSON, a JSON Schema and GBNF grammars, up to 50 bars (past
//    the 32 best forbidden tokens a snapshot lists); the candidate table says "forbidden" for the
//    same rows;
//  * the strip under the text shows, per step, 1 - massKept of that step's grammar snapshot, the
//    count and the best token it forbade; the waterfall's grammar panel its kept and forbidden counts;
//  * a grammar or schema with a mistake shows the engine's own sentence in the box, nothing
//    crashes, and the playground runs without a constraint;
//  * "Compare with unconstrained" shows the same prompt generated with the same settings and no
//    constraint (the very tokens the playground makes with the constraint off), and marks the
//    first token the grammar forbids;
//  * switching the constraint off keeps the session (the current step re-sampled without it); a
//    constraint the text does not fit starts over;
//  * the chat's JSON mode answers with text that parses as one JSON object;
//  * every example shipped in resources/ compiles (the same check as `decoding-lab-cli grammar check`).
#include <QtTest>
#include <QtWidgets>

#include <memory>

#include "core/error.h"
#include "gguf/gguf_file.h"
#include "grammar/constraint.h"
#include "sampling/stage_grammar.h"
#include "session/session_file.h"
#include "test_paths.h"
#include "tokenizer/token_bytes.h"
#include "ui/app/app_settings.h"
#include "ui/app/main_window.h"
#include "ui/chat/chat_model.h"
#include "ui/chat/chat_page.h"
#include "ui/engine/engine_types.h"
#include "ui/engine/step_views.h"
#include "ui/playground/candidate_table_model.h"
#include "ui/playground/constraint_box.h"
#include "ui/playground/playground_controller.h"
#include "ui/playground/playground_page.h"
#include "widgets/distribution_chart.h"
#include "widgets/mask_strip.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

using namespace dlab;
using dlab::ui::ConstraintBox;
using dlab::ui::MainWindow;

Q_DECLARE_METATYPE(dlab::ui::ConstraintBox::Kind)

namespace {

QString readResource(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool allowed(const std::vector<uint64_t>& mask, int id) { return maskAllows(mask, id); }

}  // namespace

class TestGuiConstraintsRealModel : public QObject {
    Q_OBJECT

    QString modelPath_;
    std::unique_ptr<GgufFile> file_;
    std::unique_ptr<Tokenizer> tok_;
    std::shared_ptr<const TokenBytesTable> vocab_;

    std::unique_ptr<MainWindow> openWindow(QStringList* errors) {
        auto w = std::make_unique<MainWindow>(modelPath_);
        w->setErrorReporter([errors](const QString& m) { errors->append(m); });
        w->resize(1280, 820);
        w->show();
        if (!QTest::qWaitFor([&] { return w->hasModel(); }, 60000)) return nullptr;
        return w;
    }

    // The spec as the box hands it over, compiled here for the file's vocabulary (not the app's).
    std::shared_ptr<const Constraint> compileHere(const ui::ConstraintChoice& choice) {
        return Constraint::compile(choice.spec, vocab_);
    }

    // Sets the box and waits for the engine's answer; false if it did not come.
    static bool choose(ui::PlaygroundPage* page, ConstraintBox::Kind kind, const QString& example) {
        ConstraintBox* box = page->constraintBox();
        box->setKind(kind);
        if (!example.isEmpty() && !box->selectExample(example)) return false;
        return QTest::qWaitFor([&] { return !box->compiling(); }, 30000) && page->constraintOn();
    }

    static bool stepOnce(ui::PlaygroundPage* page) {
        const int before = int(page->strip()->tokens().size());
        QTest::mouseClick(page->stepButton(), Qt::LeftButton);
        return QTest::qWaitFor([&] { return int(page->strip()->tokens().size()) == before + 1 && !page->busy(); }, 60000);
    }

    static std::vector<TokenId> ids(const QList<widgets::StripToken>& chips, int n = -1) {
        std::vector<TokenId> out;
        for (const auto& c : chips) {
            if (n >= 0 && int(out.size()) >= n) break;
            out.push_back(c.id);
        }
        return out;
    }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        const std::string path = test::defaultModelPath();
        if (path.empty()) QFAIL("the default model is not installed; run ./scripts/setup.sh");
        modelPath_ = QString::fromStdString(path);
        file_ = GgufFile::open(path);
        tok_ = Tokenizer::fromGguf(*file_);
        vocab_ = std::make_shared<TokenBytesTable>(*tok_);
    }

    void init() {
        // Every case starts from the defaults: no constraint, the default sampler.
        ui::openSettings()->clear();
    }

    void examplesCompile_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        for (const QString& f : ConstraintBox::examples(ConstraintBox::Kind::Gbnf))
            QTest::newRow(qPrintable(f)) << QStringLiteral(":/grammars/") + f << int(ConstraintSpec::Kind::Gbnf);
        for (const QString& f : ConstraintBox::examples(ConstraintBox::Kind::JsonSchema))
            QTest::newRow(qPrintable(f)) << QStringLiteral(":/schemas/") + f << int(ConstraintSpec::Kind::JsonSchema);
    }

    void examplesCompile() {
        QFETCH(QString, path);
        QFETCH(int, kind);
        const QString text = readResource(path);
        QVERIFY2(!text.isEmpty(), qPrintable(path));
        try {
            auto c = Constraint::compile({ConstraintSpec::Kind(kind), text.toStdString(), QFileInfo(path).fileName().toStdString()}, vocab_);
            QVERIFY(c);
            QVERIFY(!c->gbnf().empty());
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(ConstraintBox::examples(ConstraintBox::Kind::Gbnf).size() >= 3);
        QVERIFY(ConstraintBox::examples(ConstraintBox::Kind::JsonSchema).size() >= 3);
    }

    void chartMarksEqualTheEngineMask_data() {
        QTest::addColumn<ConstraintBox::Kind>("kind");
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("bars");
        QTest::newRow("any JSON, 20 bars") << ConstraintBox::Kind::AnyJson << QString() << QStringLiteral("Here is the data as JSON:") << 10 << 20;
        QTest::newRow("person.json, 50 bars") << ConstraintBox::Kind::JsonSchema << QStringLiteral("person.json")
                                              << QStringLiteral("Anna is 31 and lives in Berlin. Her profile as JSON:") << 14 << 50;
        QTest::newRow("product.json, 35 bars") << ConstraintBox::Kind::JsonSchema << QStringLiteral("product.json")
                                               << QStringLiteral("A red toy car for 12 euros, as JSON:") << 10 << 35;
        QTest::newRow("yes-no.gbnf") << ConstraintBox::Kind::Gbnf << QStringLiteral("yes-no.gbnf")
                                     << QStringLiteral("Is Paris the capital of France? Answer:") << 3 << 20;
        QTest::newRow("iso-date.gbnf, 50 bars") << ConstraintBox::Kind::Gbnf << QStringLiteral("iso-date.gbnf")
                                                << QStringLiteral("The first person walked on the Moon on") << 8 << 50;
    }

    void chartMarksEqualTheEngineMask() {
        QFETCH(ConstraintBox::Kind, kind);
        QFETCH(QString, example);
        QFETCH(QString, prompt);
        QFETCH(int, steps);
        QFETCH(int, bars);
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        page->promptEdit()->setPlainText(prompt);
        page->barsSpin()->setValue(bars);
        QVERIFY2(choose(page, kind, example), qPrintable(page->constraintBox()->statusText()));
        const auto mine = compileHere(page->constraintBox()->choice());
        std::vector<uint64_t> mask;
        int forbiddenSeen = 0, allowedSeen = 0;
        for (int s = 0; s < steps; ++s) {
            QVERIFY(stepOnce(page));
            const QList<widgets::StripToken> chips = page->strip()->tokens();
            // The mask of this step: the grammar state after every token before it.
            GrammarStage stage(mine);
            const std::vector<TokenId> before = ids(chips, s);
            mine->automaton().mask(stage.stateAfter(before), mask);
            const QList<widgets::DistributionBar>& shown = page->chart()->bars();
            QCOMPARE(int(shown.size()), bars);
            const QList<int> marks = page->chart()->forbiddenMarks();
            const QList<ui::CandidateRow>& rows = page->candidateModel()->rows();
            for (int i = 0; i < shown.size(); ++i) {
                const bool ok = allowed(mask, shown[i].id);
                QVERIFY2(shown[i].forbidden == !ok, qPrintable(QStringLiteral("step %1 bar %2 (id %3 \"%4\"): the engine's mask says %5")
                                                                   .arg(s + 1).arg(i).arg(shown[i].id).arg(shown[i].label)
                                                                   .arg(ok ? "allowed" : "forbidden")));
                QCOMPARE(marks.contains(i), !ok);
                if (!ok) QVERIFY(!page->chart()->forbiddenMarkRect(i).isEmpty());
                QCOMPARE(rows[i].forbidden, !ok);
                // A forbidden token has no probability after the chain.
                if (!ok) QCOMPARE(shown[i].after, 0.0);
                (ok ? allowedSeen : forbiddenSeen) += 1;
            }
            QCOMPARE(page->chart()->forbiddenLegendShown(), !marks.isEmpty());
            // The chosen token is one the grammar allowed.
            QVERIFY(allowed(mask, chips.last().id));
            if (tok_->isEndOfGeneration(chips.last().id)) break;
        }
        QVERIFY2(forbiddenSeen > 0 && allowedSeen > 0, "the grammar should both allow and forbid bars shown");

        // Saved and opened again (through the file's JSON), each recorded step marks the same bars.
        const std::vector<TokenId> all = ids(page->strip()->tokens());
        const SavedSession reread = parseSessionJson(sessionJson(page->saveSession()), "constrained.json");
        page->openSession(reread, QStringLiteral("constrained.json"));
        QVERIFY(page->replaying());
        for (int s = 0; s < int(all.size()); ++s) {
            page->showRecordedStep(s);
            GrammarStage stage(mine);
            mine->automaton().mask(stage.stateAfter(std::span(all.data(), size_t(s))), mask);
            const QList<widgets::DistributionBar>& shown = page->chart()->bars();
            QVERIFY(!shown.isEmpty());
            for (int i = 0; i < shown.size(); ++i) {
                QVERIFY2(shown[i].forbidden == !allowed(mask, shown[i].id),
                         qPrintable(QStringLiteral("replayed step %1 bar %2 (id %3)").arg(s + 1).arg(i).arg(shown[i].id)));
                QCOMPARE(page->chart()->forbiddenMarks().contains(i), !allowed(mask, shown[i].id));
            }
            QVERIFY(qAbs(page->maskStrip()->values().value(s) - (1.0 - page->waterfall()->panels().value(1).massKept)) < 1e-6);
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void maskStripEqualsTheGrammarSnapshots() {
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        page->promptEdit()->setPlainText(QStringLiteral("Anna is 31 and lives in Berlin. Her profile as JSON:"));
        QVERIFY(choose(page, ConstraintBox::Kind::JsonSchema, QStringLiteral("person.json")));
        QSignalSpy steps(page->controller(), &ui::PlaygroundController::stepDone);
        QSignalSpy finished(page->controller(), &ui::PlaygroundController::runFinished);
        page->setRunLength(24);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QTRY_VERIFY(!page->busy());
        QVERIFY(page->maskRow()->isVisible());
        const QList<double> values = page->maskStrip()->values();
        QCOMPARE(int(values.size()), int(steps.count()));
        double mean = 0.0;
        for (int k = 0; k < steps.count(); ++k) {
            const StepTrace t = steps.at(k).at(0).value<StepTrace>();
            const StageSnapshot* g = ui::grammarSnapshot(t.stages);
            QVERIFY(g);
            QCOMPARE(t.stages.front().stage, std::string("grammar"));   // the chain runs it first
            QVERIFY(qAbs(values[k] - (1.0 - double(g->massKept))) < 1e-6);
            const widgets::StepMask& m = page->maskStrip()->steps()[k];
            QCOMPARE(m.forbidden, g->forbiddenCount);
            if (!g->forbidden.empty()) QCOMPARE(m.best, ui::printableToken(tok_->tokenToPiece(g->forbidden.front().id, true)));
            QVERIFY(page->maskStrip()->toolTipFor(k).contains(QStringLiteral("Step %1").arg(k + 1)));
            mean += values[k];
        }
        QVERIFY(qAbs(page->maskStrip()->meanRemoved() - mean / steps.count()) < 1e-9);
        QVERIFY(page->maskStrip()->maxRemoved() > 0.0);
        QVERIFY(!page->maskStrip()->barRect(int(values.size()) - 1).isNull());
        // The waterfall's grammar panel is the last step's snapshot.
        const StepTrace last = steps.last().at(0).value<StepTrace>();
        const QList<widgets::StagePanel>& panels = page->waterfall()->panels();
        QVERIFY(panels.size() >= 2);
        QCOMPARE(panels[1].stage, QStringLiteral("grammar"));
        QCOMPARE(panels[1].kept, last.stages.front().kept);
        QCOMPARE(panels[1].forbiddenCount, last.stages.front().forbiddenCount);
        // The text parses as far as it goes: everything after the prompt is a valid start of the schema.
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void badGrammarShowsTheEnginesSentence_data() {
        QTest::addColumn<ConstraintBox::Kind>("kind");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("source");
        QTest::newRow("GBNF: unfinished class") << ConstraintBox::Kind::Gbnf << QStringLiteral("root ::= \"yes\" | answer\nanswer ::= [a-z\n")
                                                << QStringLiteral("broken.gbnf");
        QTest::newRow("GBNF: undefined rule") << ConstraintBox::Kind::Gbnf << QStringLiteral("root ::= item+\n") << QStringLiteral("list.gbnf");
        QTest::newRow("GBNF: left recursion") << ConstraintBox::Kind::Gbnf << QStringLiteral("root ::= root \"a\" | \"a\"\n")
                                              << QStringLiteral("left.gbnf");
        QTest::newRow("schema: not JSON") << ConstraintBox::Kind::JsonSchema << QStringLiteral("{\"type\": \"object\",") << QStringLiteral("cut.json");
        QTest::newRow("schema: unsupported keyword")
            << ConstraintBox::Kind::JsonSchema
            << QStringLiteral("{\"type\": \"object\", \"properties\": {\"code\": {\"type\": \"string\", \"pattern\": \"^[A-Z]+$\"}}}")
            << QStringLiteral("pattern.json");
    }

    void badGrammarShowsTheEnginesSentence() {
        QFETCH(ConstraintBox::Kind, kind);
        QFETCH(QString, text);
        QFETCH(QString, source);
        // The engine's sentence, had here from the engine itself.
        const ConstraintSpec::Kind specKind = kind == ConstraintBox::Kind::Gbnf ? ConstraintSpec::Kind::Gbnf : ConstraintSpec::Kind::JsonSchema;
        QString sentence;
        try {
            Constraint::compile({specKind, text.toStdString(), source.toStdString()}, vocab_);
        } catch (const Error& e) {
            sentence = QString::fromUtf8(e.what());
        }
        QVERIFY2(!sentence.isEmpty(), "the text was meant to be wrong");
        QVERIFY(sentence.contains(source));

        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        ConstraintBox* box = page->constraintBox();
        box->setKind(kind);
        QTRY_VERIFY_WITH_TIMEOUT(page->constraintOn(), 30000);   // the first example, in force
        box->setText(text, source);
        QTRY_VERIFY_WITH_TIMEOUT(box->statusIsError(), 30000);
        QVERIFY2(box->statusText().contains(sentence), qPrintable(box->statusText() + QStringLiteral("\nexpected: ") + sentence));
        QVERIFY(box->statusLabel()->isVisible());
        QVERIFY(!page->constraintOn());
        QVERIFY(page->controller()->constraint() == nullptr);
        // The playground goes on without a constraint: no grammar stage, no marks, no strip.
        QSignalSpy steps(page->controller(), &ui::PlaygroundController::stepDone);
        QVERIFY(stepOnce(page));
        QVERIFY(stepOnce(page));
        for (const auto& args : steps)
            for (const StageSnapshot& s : args.at(0).value<StepTrace>().stages) QVERIFY(s.stage != "grammar");
        QVERIFY(page->chart()->forbiddenMarks().isEmpty());
        QVERIFY(!page->maskRow()->isVisible());
        // The compile error is the box's to say, not an error dialog.
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        // Fixing the text puts a constraint in force again.
        box->setText(QStringLiteral("root ::= \" yes\" | \" no\"\n"), source);
        QTRY_VERIFY_WITH_TIMEOUT(page->constraintOn() || box->statusIsError(), 30000);
        QVERIFY2(!box->statusIsError() || kind == ConstraintBox::Kind::JsonSchema, qPrintable(box->statusText()));
    }

    void compareShowsTheSamePromptUnconstrained() {
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        const QString prompt = QStringLiteral("Anna is 31 and lives in Berlin. Her profile as JSON:");
        page->promptEdit()->setPlainText(prompt);
        page->setRunLength(12);

        // What the playground makes of the prompt without a constraint, same settings and seed.
        QSignalSpy finished(page->controller(), &ui::PlaygroundController::runFinished);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QTRY_VERIFY(!page->busy());
        const std::vector<TokenId> free = ids(page->strip()->tokens());
        QVERIFY(free.size() >= 2);

        page->constraintBox()->setCompareUnconstrained(true);
        QVERIFY(choose(page, ConstraintBox::Kind::JsonSchema, QStringLiteral("person.json")));
        // That text is not JSON: the playground started over under the schema.
        QTRY_VERIFY(page->strip()->tokens().isEmpty());
        QVERIFY(page->unconstrainedColumn()->isVisible());
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
        QTRY_VERIFY(!page->busy());
        const std::vector<TokenId> constrained = ids(page->strip()->tokens());
        QTRY_COMPARE(int(page->unconstrainedStrip()->tokens().size()), int(free.size()));
        QCOMPARE(ids(page->unconstrainedStrip()->tokens()), free);
        QVERIFY(constrained != free);
        // The first token of the free text the schema forbids, found here.
        const auto mine = compileHere(page->constraintBox()->choice());
        int misfit = -1;
        GrammarAutomaton::StateId s = mine->automaton().initial();
        for (size_t i = 0; i < free.size() && misfit < 0; ++i) {
            s = mine->automaton().advance(s, free[i]);
            if (s == GrammarAutomaton::kDead) misfit = int(i);
        }
        QCOMPARE(page->unconstrainedMisfit(), misfit);
        if (misfit >= 0) {
            QCOMPARE(page->unconstrainedStrip()->highlightFirst(), misfit);
            QCOMPARE(page->unconstrainedStrip()->highlightCount(), 1);
            QVERIFY2(page->unconstrainedNoteText().contains(QString::number(misfit + 1)), qPrintable(page->unconstrainedNoteText()));
        }
        // Off again: the column goes.
        page->constraintBox()->setCompareUnconstrained(false);
        QTRY_VERIFY(!page->unconstrainedColumn()->isVisible());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void switchingKeepsOrRestarts() {
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        page->promptEdit()->setPlainText(QStringLiteral("Here is the data as JSON:"));
        QVERIFY(choose(page, ConstraintBox::Kind::AnyJson, QString()));
        for (int i = 0; i < 5; ++i) QVERIFY(stepOnce(page));
        QCOMPARE(page->waterfall()->panels().value(1).stage, QStringLiteral("grammar"));
        // Off: any text fits "no constraint": the session stays, the current step re-sampled without it.
        QSignalSpy resampled(page->controller(), &ui::PlaygroundController::resampled);
        page->constraintBox()->setKind(ConstraintBox::Kind::None);
        QTRY_VERIFY_WITH_TIMEOUT(resampled.count() >= 1, 30000);
        QTRY_VERIFY(!page->busy());
        QCOMPARE(int(page->strip()->tokens().size()), 5);
        for (const auto& p : page->waterfall()->panels()) QVERIFY(p.stage != QLatin1String("grammar"));
        QVERIFY(page->chart()->forbiddenMarks().isEmpty());
        // Steps made under the grammar keep their bars in the mask strip.
        QVERIFY(page->maskRow()->isVisible());
        // A grammar the JSON so far does not fit: the playground starts over.
        QVERIFY(choose(page, ConstraintBox::Kind::Gbnf, QStringLiteral("yes-no.gbnf")));
        QTRY_VERIFY(page->strip()->tokens().isEmpty());
        QVERIFY2(page->captionText().contains(QStringLiteral("does not fit")), qPrintable(page->captionText()));
        QVERIFY(stepOnce(page));
        // The whole answer (" yes." or the like, then the end of text): no date starts so.
        for (int i = 0; i < 6 && !tok_->isEndOfGeneration(page->strip()->tokens().last().id); ++i) QVERIFY(stepOnce(page));
        QVERIFY(tok_->isEndOfGeneration(page->strip()->tokens().last().id));
        // A new prompt, a new grammar and Run at once, before the grammar's answer came back: the
        // answer (about the session it found) must not stop the run that started under it.
        QSignalSpy finished(page->controller(), &ui::PlaygroundController::runFinished);
        page->constraintBox()->selectExample(QStringLiteral("iso-date.gbnf"));   // the yes/no text does not fit it
        page->promptEdit()->setPlainText(QStringLiteral("The first person walked on the Moon on"));
        page->setRunLength(6);
        QTest::mouseClick(page->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QTRY_VERIFY(!page->busy());
        QVERIFY(!page->constraintBox()->compiling());
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("length"));
        QCOMPARE(int(page->strip()->tokens().size()), 6);
        const auto date = compileHere(page->constraintBox()->choice());
        QVERIFY(QString::fromStdString(date->describe()).contains(QStringLiteral("iso-date")));
        GrammarStage(date).stateAfter(ids(page->strip()->tokens()));   // throws if the text is not a date's start
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void constraintIsRemembered() {
        QStringList errors;
        {
            auto w = openWindow(&errors);
            QVERIFY(w);
            auto* page = w->page<ui::PlaygroundPage>();
            page->constraintBox()->setCompareUnconstrained(true);
            QVERIFY(choose(page, ConstraintBox::Kind::JsonSchema, QStringLiteral("person.json")));
            QTest::qWait(800);   // the window writes its settings 0.4 s after the last change
        }
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        QCOMPARE(page->constraintBox()->kind(), ConstraintBox::Kind::JsonSchema);
        QCOMPARE(page->constraintBox()->exampleCombo()->currentText(), QStringLiteral("person.json"));
        QVERIFY(page->constraintBox()->compareUnconstrained());
        QTRY_VERIFY_WITH_TIMEOUT(page->constraintOn(), 30000);
        QCOMPARE(QString::fromStdString(page->controller()->constraint()->describe()), QStringLiteral("JSON Schema person.json"));
        QVERIFY(stepOnce(page));
        QTRY_VERIFY(page->unconstrainedColumn()->isVisible());
        QTRY_COMPARE(int(page->unconstrainedStrip()->tokens().size()), 1);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // The chat's JSON mode and max tokens come back in the next window, and the restored switch
    // really constrains (the controller heard it): the next reply is a JSON object.
    void chatJsonModeIsRemembered() {
        QStringList errors;
        {
            auto w = openWindow(&errors);
            QVERIFY(w);
            auto* chat = w->page<ui::ChatPage>();
            chat->findChild<QSpinBox*>(QStringLiteral("maxTokensSpin"))->setValue(150);
            chat->jsonModeCheck()->setChecked(true);
            QTest::qWait(800);   // the window writes its settings 0.4 s after the last change
        }
        auto w = openWindow(&errors);
        QVERIFY(w);
        w->page<ui::PlaygroundPage>()->temperatureSlider()->setValue(0);
        auto* chat = w->page<ui::ChatPage>();
        QVERIFY(chat->jsonModeCheck()->isChecked());
        QCOMPARE(chat->findChild<QSpinBox*>(QStringLiteral("maxTokensSpin"))->value(), 150);
        w->tabs()->setCurrentWidget(chat);
        QSignalSpy answered(chat, &ui::ChatPage::answerFinished);
        chat->inputEdit()->setPlainText(QStringLiteral("Describe a dog called Rex as a JSON object with his name, age and colour."));
        QTRY_VERIFY_WITH_TIMEOUT(chat->sendButton()->isEnabled(), 30000);
        QTest::mouseClick(chat->sendButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 180000);
        QVERIFY(answered.first().at(0).value<ui::ChatStats>().jsonMode);
        QCOMPARE(answered.first().at(0).value<ui::ChatStats>().stopReason, QStringLiteral("eos"));
        QVERIFY2(ui::ChatPage::isJsonObject(chat->model()->last()->text), qPrintable(chat->model()->last()->text));
        chat->jsonModeCheck()->setChecked(false);
        QTest::qWait(800);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void chatJsonModeAnswersAJsonObject() {
        QStringList errors;
        auto w = openWindow(&errors);
        QVERIFY(w);
        auto* page = w->page<ui::PlaygroundPage>();
        page->temperatureSlider()->setValue(0);   // the chat samples with the playground's settings
        auto* chat = w->page<ui::ChatPage>();
        w->tabs()->setCurrentWidget(chat);
        chat->findChild<QSpinBox*>(QStringLiteral("maxTokensSpin"))->setValue(160);
        chat->jsonModeCheck()->setChecked(true);
        QVERIFY(chat->samplingLabel()->text().contains(QStringLiteral("JSON mode")));
        QSignalSpy answered(chat, &ui::ChatPage::answerFinished);
        chat->inputEdit()->setPlainText(QStringLiteral("Describe a cat called Tom as a JSON object with his name, age and colour."));
        QTRY_VERIFY(chat->sendButton()->isEnabled());
        QTest::mouseClick(chat->sendButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 180000);
        const ui::ChatStats stats = answered.first().at(0).value<ui::ChatStats>();
        QVERIFY(stats.jsonMode);
        QCOMPARE(stats.stopReason, QStringLiteral("eos"));
        const QString text = chat->model()->last()->text;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + QStringLiteral(": ") + text));
        QVERIFY2(doc.isObject(), qPrintable(text));
        QVERIFY(!doc.object().isEmpty());
        QVERIFY(ui::ChatPage::isJsonObject(text));
        auto* caption = chat->findChildren<QLabel*>(QStringLiteral("captionLabel")).last();
        QVERIFY2(caption->text().contains(QStringLiteral("valid JSON object")), qPrintable(caption->text()));

        // Off again: the next reply is free (here: not JSON at all).
        chat->jsonModeCheck()->setChecked(false);
        chat->inputEdit()->setPlainText(QStringLiteral("Now say hello in one short sentence."));
        QTRY_VERIFY(chat->sendButton()->isEnabled());
        QTest::mouseClick(chat->sendButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 2, 180000);
        QVERIFY(!answered.last().at(0).value<ui::ChatStats>().jsonMode);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }
};

QTEST_MAIN(TestGuiConstraintsRealModel)
#include "test_gui_constraints_realmodel.moc"
