// Issue 9, the Strategies page, offscreen, on a tiny random model; every expectation is the
// engine's own result for the same request, computed here beside the page:
//  * the default columns (greedy, beam k=4, sampling T=0.7 p=0.9) hold compareRuns' tokens, texts
//    and log-probs; chips carry the engine's probabilities and alternatives;
//  * the comparison table's cells equal the values computed from the engine's re-runs (three
//    seeds, overlap, shared prefix) and from a width-16 beam (log-prob gap); greedy and beam are
//    deterministic, sampling is not;
//  * the tree holds exactly the engine's nodes with their states for several widths and length
//    penalties; a length-penalty change re-ranks the finished hypotheses as the engine does;
//  * diverse beams keep the engine's groups and penalties;
//  * export writes PNG / SVG / JSONL that parse back; Stop ends a long run at once;
//  * a spec that does not parse is one sentence in the editor, and dropped from saved settings.
#include <QtTest>
#include <QtWidgets>
#include <QSvgRenderer>

#include <cmath>

#include "cuda/backend_choice.h"
#include "generate/compare.h"
#include "generate/model_beam_scorer.h"
#include "generate/run_spec.h"
#include "generate/session.h"
#include "generate/strategy_metrics.h"
#include "gguf/tiny_model.h"
#include "model/backend.h"
#include "model/model.h"
#include "test_paths.h"
#include "ui/app/app_settings.h"
#include "ui/app/language_manager.h"
#include "ui/app/main_window.h"
#include "ui/app/presentation_mode.h"
#include "ui/strategies/beam_tree_panel.h"
#include "ui/strategies/column_editor.h"
#include "ui/strategies/comparison_table_model.h"
#include "ui/strategies/strategies_controller.h"
#include "ui/strategies/strategies_page.h"
#include "ui/strategies/strategy_column.h"
#include "widgets/beam_tree_view.h"
#include "widgets/token_strip.h"

using namespace dlab;
using dlab::ui::MainWindow;
using dlab::ui::StrategiesPage;

class TestGuiStrategies : public QObject {
    Q_OBJECT

    QString tinyPath_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;

    static std::unique_ptr<MainWindow> openWindow(const QString& path, QStringList* errors) {
        auto w = std::make_unique<MainWindow>(path);
        w->setErrorReporter([errors](const QString& m) { errors->append(m); });
        w->resize(1280, 820);
        w->show();
        return w;
    }

    static StrategiesPage* front(MainWindow& w) {
        auto* page = w.page<StrategiesPage>();
        w.tabs()->setCurrentWidget(page);
        return page;
    }

    std::vector<TokenId> encode(const QString& prompt) const {
        const Tokenizer& tok = model_->tokenizer();
        return tok.encode(prompt.toStdString(), tok.addsBosByDefault(), false);
    }

    void runAndWait(StrategiesPage* page) {
        QSignalSpy done(page, &StrategiesPage::runDone);
        QVERIFY(QTest::qWaitFor([&] { return page->runButton()->isEnabled(); }, 30000));
        page->run();
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
    }

    // Searches with the page's beam panel until no search is left (one the page queued behind it
    // too); returns how many searches ended (treeDone), or -1 on a timeout.
    static int searchAndWait(StrategiesPage* page, int timeoutMs = 60000) {
        QSignalSpy done(page, &StrategiesPage::treeDone);
        if (!QTest::qWaitFor([&] { return page->beamPanel()->searchButton()->isEnabled(); }, timeoutMs)) return -1;
        page->searchTree();
        if (!QTest::qWaitFor([&] { return done.count() >= 1 && !page->searching(); }, timeoutMs)) return -1;
        return static_cast<int>(done.count());
    }

    // The engine's own search for a beam spec of the panel, on the page's prompt.
    BeamResult engineSearch(StrategiesPage* page, const QString& spec) const {
        BeamOptions o = beamOptionsOf(parseRunSpec(spec.toStdString()));
        o.maxNewTokens = page->beamPanel()->maxTokens();
        o.endTokens = endOfGenerationTokens(model_->tokenizer());
        return beamSearchModel(*model_, *backend_, encode(page->promptEdit()->toPlainText()), o, KvType::F16,
                               defaultSessionContext(model_->hparams()));
    }

    CompareResult engineCompare(const QStringList& specs, const QString& prompt, int maxTokens) {
        std::vector<RunSpec> runs;
        for (const QString& s : specs) runs.push_back(parseRunSpec(s.toStdString()));
        CompareOptions o;
        o.maxTokens = maxTokens;
        o.contextLimit = defaultSessionContext(model_->hparams());
        return compareRuns(*model_, *backend_, encode(prompt), runs, o);
    }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/strategies-tiny.gguf");
        writeTinyModel(TinyModelSpec{}, tinyPath_.toStdString());
        model_ = Model::load(tinyPath_.toStdString());
        // The backend the window's automatic choice takes (the CPU here; the emulated GPU in
        // test_gui_strategies_emulated), so the reference runs are the page's runs.
        backend_ = makeBackend(*model_, BackendKind::Auto, 1).backend;
    }

    void init() { ui::openSettings()->clear(); }

    void defaultColumns() {
        StrategiesPage page;
        QCOMPARE(page.specs(), StrategiesPage::defaultSpecs());
        QCOMPARE(page.columns().size(), 3);
        QCOMPARE(ui::StrategyColumn::title(QStringLiteral("beam:k=4")), QStringLiteral("Beam search k=4"));
    }

    void columnsHoldTheEnginesRuns() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        page->measureTableCheck()->setChecked(false);
        page->maxTokensSpin()->setValue(12);
        page->promptEdit()->setPlainText(QStringLiteral("Once upon a time"));
        runAndWait(page);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const CompareResult ref = engineCompare(page->specs(), page->promptEdit()->toPlainText(), 12);
        QCOMPARE(static_cast<int>(ref.runs.size()), page->columns().size());
        for (int i = 0; i < page->columns().size(); ++i) {
            const ui::StrategyColumn* c = page->columns()[i];
            const RunResult& r = ref.runs[static_cast<size_t>(i)];
            QVERIFY(c->hasResult());
            QCOMPARE(c->result().text, QString::fromStdString(r.text));
            QCOMPARE(c->result().logProb, r.logProb);
            QCOMPARE(c->result().distinct2, r.distinct2);
            QCOMPARE(c->result().forwardCalls, r.forwardCalls);
            QCOMPARE(c->result().tokensEvaluated, r.tokensEvaluated);
            QCOMPARE(c->result().decodeSteps, r.decodeSteps);
            QVERIFY(c->result().msPerStep > 0.0);
            QCOMPARE(c->result().perplexity, std::exp(-r.logProb / static_cast<double>(r.steps.size())));
            const auto& chips = c->strip()->tokens();
            QCOMPARE(chips.size(), static_cast<qsizetype>(r.steps.size()));
            for (int k = 0; k < chips.size(); ++k) {
                QCOMPARE(chips[k].id, r.steps[static_cast<size_t>(k)].token);
                QCOMPARE(chips[k].p, std::exp(r.steps[static_cast<size_t>(k)].logProb));   // the model's own p, in every column
                QCOMPARE(chips[k].alternatives.size(), static_cast<qsizetype>(r.steps[static_cast<size_t>(k)].alternatives.size()));
            }
            QCOMPARE(c->result().repetition.found, r.repetition.found);
            if (r.spec.kind == RunKind::Beam) QCOMPARE(c->result().hypotheses.size(), static_cast<qsizetype>(r.beam.hypotheses.size()));
        }
    }

    void tableCellsEqualTheEnginesValues() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        page->maxTokensSpin()->setValue(10);
        page->promptEdit()->setPlainText(QStringLiteral("The cat"));
        runAndWait(page);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const ui::TableResult& t = page->tableModel()->result();
        QCOMPARE(t.rows.size(), page->columns().size());
        QCOMPARE(page->tableModel()->rowCount(), page->columns().size());

        // The seeds, re-run here the way the controller documents it.
        QStringList again;
        for (const QString& spec : page->specs())
            for (int s = 0; s < 3; ++s) {
                RunSpec r = parseRunSpec(spec.toStdString());
                r.sampler.seed += 1000003ULL * static_cast<uint64_t>(s + 1);
                again << QString::fromStdString(runSpecText(r));
            }
        const CompareResult reruns = engineCompare(again, QStringLiteral("The cat"), 10);
        const CompareResult main = engineCompare(page->specs(), QStringLiteral("The cat"), 10);
        // The wide beam: no end tokens, every depth reached.
        BeamOptions wide;
        wide.width = 16;
        wide.maxNewTokens = 10;
        wide.lengthPenalty = 0.0;
        wide.earlyStopping = EarlyStopping::Never;
        const BeamResult wideResult = beamSearchModel(*model_, *backend_, encode(QStringLiteral("The cat")), wide, KvType::F16,
                                                      defaultSessionContext(model_->hparams()));
        for (int i = 0; i < t.rows.size(); ++i) {
            const ui::TableRow& row = t.rows[i];
            std::vector<std::vector<TokenId>> outs;
            for (int s = 0; s < 3; ++s) outs.push_back(reruns.runs[static_cast<size_t>(i * 3 + s)].tokens);
            const PairwiseSimilarity sim = pairwiseSimilarity(outs);
            QCOMPARE(row.seedRuns, 3);
            QCOMPARE(row.seedsIdentical, sim.allIdentical);
            QCOMPARE(row.seedsOverlap, sim.meanOverlap);
            QCOMPARE(row.seedsSharedPrefix, sim.meanSharedPrefix);
            QCOMPARE(row.pooledDistinct2, pooledDistinctN(outs, 2));
            const RunResult& r = main.runs[static_cast<size_t>(i)];
            double lp = 0.0;
            for (const RunToken& step : r.steps)
                if (!step.end) lp += step.logProb;
            QCOMPARE(row.length, static_cast<int>(r.tokens.size()));
            QCOMPARE(row.logProb, lp);
            double best = -INFINITY;
            for (const BeamNode& n : wideResult.tree.nodes)
                if (n.depth == row.length) best = std::max(best, n.cumLogProb);
            QCOMPARE(row.bestLogProb, best);
            QCOMPARE(row.gap, best - lp);
            // The cells say what the numbers say.
            const QString det = page->tableModel()->index(i, ui::ComparisonTableModel::Deterministic).data().toString();
            QVERIFY2(det.startsWith(row.seedsIdentical ? "yes" : "no"), qPrintable(det));
            QVERIFY(!page->tableModel()->index(i, ui::ComparisonTableModel::TypicalUse).data().toString().isEmpty());
        }
        QVERIFY(t.rows[0].seedsIdentical);      // greedy
        QVERIFY(t.rows[1].seedsIdentical);      // beam
        QVERIFY(!t.rows[2].seedsIdentical);     // sampling at T=0.7 on a random model
        QCOMPARE(t.rows[0].speedVsGreedy, 1.0);
        QCOMPARE(t.rows[0].stepTimeVsGreedy, 1.0);
        QCOMPARE(t.rows[0].tokensEvaluatedVsGreedy, 1.0);
        // Beam k=4 evaluates a token per running beam and step (more than greedy's one), in one
        // batched pass per step: the page's run is the engine's, so its step time is measured, not derived.
        const ui::TableRow& beam = t.rows[1];
        QCOMPARE(beam.forwardCalls, page->columns()[1]->result().decodeSteps - 1);
        QCOMPARE(beam.forwardCalls, main.runs[1].decodeSteps - 1);
        QVERIFY2(beam.tokensEvaluatedVsGreedy > 1.0, qPrintable(QString::number(beam.tokensEvaluatedVsGreedy)));
        QVERIFY(beam.tokensPerStep <= 4.0);
        QVERIFY(beam.stepTimeVsGreedy > 0.0);
        QCOMPARE(beam.stepTimeVsGreedy, beam.msPerStep / t.rows[0].msPerStep);
        const QString speed = page->tableModel()->index(1, ui::ComparisonTableModel::Speed).data().toString();
        QVERIFY2(speed.startsWith(QString::number(beam.stepTimeVsGreedy, 'f', 1) + QStringLiteral("×")), qPrintable(speed));
        QVERIFY2(speed.contains(QString::number(beam.tokensEvaluatedVsGreedy, 'f', 1)), qPrintable(speed));
    }

    void treeHoldsTheEnginesNodes_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("lengthPenalty");
        QTest::newRow("k=2 lp=1") << 2 << 1.0;
        QTest::newRow("k=4 lp=0") << 4 << 0.0;
        QTest::newRow("k=4 lp=2") << 4 << 2.0;
        QTest::newRow("k=6 lp=-1") << 6 << -1.0;
    }

    void treeHoldsTheEnginesNodes() {
        QFETCH(int, width);
        QFETCH(double, lengthPenalty);
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        ui::BeamTreePanel* panel = page->beamPanel();
        panel->diverseCheck()->setChecked(false);
        panel->widthSpin()->setValue(width);
        panel->lengthPenaltySpin()->setValue(lengthPenalty);
        QCOMPARE(searchAndWait(page), 1);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        const BeamResult ref = engineSearch(page, panel->plainSpec());
        const widgets::BeamTreeData& tree = panel->plain().tree;
        QCOMPARE(tree.nodes.size(), static_cast<qsizetype>(ref.tree.nodes.size()));
        QCOMPARE(panel->view()->nodeCount(), tree.nodes.size());
        for (const BeamNode& n : ref.tree.nodes) {
            const widgets::BeamTreeNode& v = tree.nodes[n.id];
            QCOMPARE(v.parent, n.parent);
            QCOMPARE(v.tokenId, n.token);
            QCOMPARE(v.score, n.score);
            QCOMPARE(v.candidateRank, n.candidateRank);
            QCOMPARE(v.nBestRank, n.nBestRank);
            const int expected = n.parent < 0 ? 0 : static_cast<int>(n.status) + 1;   // Root, Kept, Pruned, Finished, Evicted
            QCOMPARE(static_cast<int>(v.state), expected);
            QCOMPARE(static_cast<int>(panel->view()->nodeState(n.id)), expected);
        }
        QCOMPARE(panel->plain().hypotheses.size(), static_cast<qsizetype>(ref.hypotheses.size()));
        for (size_t i = 0; i < ref.hypotheses.size(); ++i) QCOMPARE(panel->plain().hypotheses[static_cast<qsizetype>(i)].score, ref.hypotheses[i].score);
        // Clicking the root shows the distribution it was expanded from: the engine's recorded top N.
        QVERIFY(panel->plain().nextBars.contains(0));
        QCOMPARE(panel->plain().nextBars.value(0).size(), ui::StrategiesController::kTreeTopN);
    }

    // The length penalty re-ranks the finished hypotheses: the page's order is the engine's at every alpha.
    void lengthPenaltyReRanks() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        ui::BeamTreePanel* panel = page->beamPanel();
        panel->diverseCheck()->setChecked(false);
        panel->widthSpin()->setValue(8);
        panel->maxTokensSpin()->setValue(64);
        for (double lp : {-2.0, 0.0, 3.0}) {
            panel->lengthPenaltySpin()->setValue(lp);
            QVERIFY(searchAndWait(page) >= 1);
            const BeamResult ref = engineSearch(page, panel->plainSpec());
            QCOMPARE(panel->plain().hypotheses.size(), static_cast<qsizetype>(ref.hypotheses.size()));
            for (size_t i = 0; i < ref.hypotheses.size(); ++i) {
                QCOMPARE(panel->plain().hypotheses[static_cast<qsizetype>(i)].tokens.size(),
                         static_cast<qsizetype>(ref.hypotheses[i].tokens.size()));
                QCOMPARE(panel->plain().hypotheses[static_cast<qsizetype>(i)].score, ref.hypotheses[i].score);
            }
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        // (That the order really changes needs hypotheses of different lengths: the tiny model
        // rarely ends one, so test_gui_strategies_realmodel shows it on the default model.)
    }

    // On the default model hypotheses end at different lengths, so the length penalty visibly
    // re-orders them: the page's best hypothesis differs between alpha = -1 and alpha = 3.
    void lengthPenaltyReRanksOnTheDefaultModel() {
        const std::string path = test::defaultModelPath();
        if (path.empty()) QFAIL("the default model is not installed; run ./scripts/setup.sh");
        QStringList errors;
        auto w = openWindow(QString::fromStdString(path), &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 60000);
        StrategiesPage* page = front(*w);
        page->promptEdit()->setPlainText(QStringLiteral("Q: What is the capital of France?\nA:"));
        ui::BeamTreePanel* panel = page->beamPanel();
        panel->diverseCheck()->setChecked(false);
        panel->widthSpin()->setValue(4);
        panel->maxTokensSpin()->setValue(24);
        QStringList best;
        for (double lp : {-1.0, 3.0}) {
            panel->lengthPenaltySpin()->setValue(lp);
            QVERIFY(searchAndWait(page, 120000) >= 1);
            QVERIFY(!panel->plain().hypotheses.isEmpty());
            best << panel->plain().hypotheses.front().text;
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY2(best[0] != best[1], qPrintable(best.join(" | ")));
    }

    // Controls changed while a search runs are not lost: the search runs once more with them.
    void editDuringASearchSearchesAgain() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        ui::BeamTreePanel* panel = page->beamPanel();
        panel->diverseCheck()->setChecked(false);
        panel->widthSpin()->setValue(2);
        QSignalSpy done(page, &StrategiesPage::treeDone);
        QTRY_VERIFY_WITH_TIMEOUT(panel->searchButton()->isEnabled(), 30000);
        page->searchTree();
        QVERIFY(page->searching());
        panel->widthSpin()->setValue(5);
        page->searchTree();   // as the controls' timer does
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60000);
        QCOMPARE(panel->plain().tree.width, 5);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void diverseBeamsKeepTheirGroups() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        ui::BeamTreePanel* panel = page->beamPanel();
        panel->widthSpin()->setValue(4);
        panel->diverseCheck()->setChecked(true);
        panel->groupsSpin()->setValue(2);
        panel->diversityPenaltySpin()->setValue(0.1);   // small: penalised tokens stay among the candidates
        QCOMPARE(searchAndWait(page), 1);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(panel->diverseSpec(), panel->plainSpec() + QStringLiteral(",g=2,dp=0.1"));
        const BeamResult ref = engineSearch(page, panel->diverseSpec());
        const widgets::BeamTreeData& tree = panel->diverse().tree;
        QCOMPARE(tree.groups, 2);
        QCOMPARE(tree.nodes.size(), static_cast<qsizetype>(ref.tree.nodes.size()));
        bool penalised = false;
        for (const BeamNode& n : ref.tree.nodes) {
            QCOMPARE(tree.nodes[n.id].group, n.group);
            QCOMPARE(tree.nodes[n.id].diversityPenalty, n.diversityPenalty);
            penalised = penalised || n.diversityPenalty > 0.0;
        }
        QVERIFY(penalised);
        panel->showDiverseButton()->setChecked(true);
        QCOMPARE(panel->view()->tree().groups, 2);
    }

    void exportsParseBack() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        page->measureTableCheck()->setChecked(false);
        page->maxTokensSpin()->setValue(6);
        runAndWait(page);
        QSignalSpy tree(page, &StrategiesPage::treeDone);
        page->searchTree();
        QTRY_COMPARE_WITH_TIMEOUT(tree.count(), 1, 60000);
        page->beamPanel()->view()->nodeClicked(0);
        const QString dir = QString::fromStdString(test::scratchDir());
        for (const QString& ext : {QStringLiteral("png"), QStringLiteral("svg")}) {
            const QString cols = dir + "/cols." + ext, table = dir + "/table." + ext, treeFile = dir + "/tree." + ext,
                          chart = dir + "/chart." + ext;
            page->exportColumns(cols);
            page->exportTable(table);
            page->exportTree(treeFile);
            page->exportNodeChart(chart);
            for (const QString& f : {cols, table, treeFile, chart}) {
                if (ext == "png") QVERIFY2(!QImage(f).isNull(), qPrintable(f));
                else {
                    QFile in(f);
                    in.open(QIODevice::ReadOnly);
                    QVERIFY2(QSvgRenderer(f).isValid(), qPrintable(f + ": " + in.read(300)));
                }
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, page->exportTree(QStringLiteral("/nonexistent-dir/tree.png")));
        QSignalSpy exported(page, &StrategiesPage::traceExported);
        const QString trace = dir + "/runs.jsonl";
        page->exportTrace(trace);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 10000);
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + page->columns().size());
        for (const QByteArray& line : lines) {
            QJsonParseError e;
            QVERIFY2(QJsonDocument::fromJson(line, &e).isObject(), qPrintable(e.errorString()));
        }
        QCOMPARE(QJsonDocument::fromJson(lines[0]).object().value("type").toString(), QStringLiteral("compare"));
        QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value("type").toString(), QStringLiteral("run"));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void stopEndsALongRun() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        page->setSpecs({QStringLiteral("beam:k=16"), QStringLiteral("greedy")});
        page->maxTokensSpin()->setValue(90);   // the tiny model holds 128 positions
        QSignalSpy done(page, &StrategiesPage::runDone);
        QTRY_VERIFY_WITH_TIMEOUT(page->runButton()->isEnabled(), 30000);
        page->run();
        QTest::qWait(150);
        QElapsedTimer t;
        t.start();
        QVERIFY(page->running());
        QTest::mouseClick(page->stopButton(), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(done.count() == 1, qPrintable(page->statusLabel()->text() + errors.join('\n')), 10000);
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!page->running());
        QVERIFY(page->runButton()->isEnabled());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // Too many tokens for the context: one sentence in the page's words, and the page is usable again.
    void tooLongForTheContextIsOneSentence() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        page->maxTokensSpin()->setValue(200);   // the tiny model holds 128 positions
        QSignalSpy done(page, &StrategiesPage::runDone);
        QTRY_VERIFY_WITH_TIMEOUT(page->runButton()->isEnabled(), 30000);
        page->run();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains("lower Max tokens") && errors.first().contains("128"), qPrintable(errors.first()));
        QVERIFY(page->runButton()->isEnabled());
    }

    // Looking at the Beam tree tab for the first time searches: no empty canvas.
    void firstLookAtTheTreeSearches() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        QSignalSpy done(page, &StrategiesPage::treeDone);
        page->viewTabs()->setCurrentWidget(page->beamPanel());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QVERIFY(page->beamPanel()->view()->nodeCount() > 1);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // Every heading of the comparison table is whole: the header is as tall as its most wrapped
    // heading needs at the column's width (in German beside the Lessons panel "Findet den
    // wahrscheinlichsten Text?" took three lines in a two-line header).
    void tableHeadingsWhole_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("width");
        QTest::newRow("de narrow") << "de" << 640;
        QTest::newRow("zh_CN narrow") << "zh_CN" << 640;
        QTest::newRow("en wide") << "en" << 1400;
    }
    void tableHeadingsWhole() {
        QFETCH(QString, language);
        QFETCH(int, width);
        QVERIFY(ui::LanguageManager::instance().setLanguage(language));
        StrategiesPage page;
        page.resize(width, 600);
        page.viewTabs()->setCurrentIndex(1);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCoreApplication::processEvents();
        QHeaderView* h = page.tableView()->horizontalHeader();
        const QFontMetrics fm = h->fontMetrics();
        const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
        for (int c = 0; c < h->count(); ++c) {
            const QString text = page.tableView()->model()->headerData(c, Qt::Horizontal).toString();
            const int need = fm.boundingRect(QRect(0, 0, h->sectionSize(c) - 2 * margin - 4, 100000), Qt::TextWordWrap | Qt::AlignCenter, text).height();
            QVERIFY2(need + 2 * margin <= h->height(),
                     qPrintable(QStringLiteral("\"%1\" needs %2 px at %3 px wide, the header is %4").arg(text).arg(need).arg(h->sectionSize(c)).arg(h->height())));
        }
        QVERIFY(ui::LanguageManager::instance().setLanguage(QStringLiteral("en")));
    }

    // The columns' figures and texts start level, however tall each header is (in German at
    // 1024 px "Sampling T=0,7, Top-p 0,9" took two lines and its column sat 7 px lower).
    void columnsStartLevel() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        w->setLanguage(QStringLiteral("de"));
        w->resize(1024, 700);
        StrategiesPage* page = front(*w);
        page->viewTabs()->setCurrentIndex(0);
        QTRY_VERIFY(page->columns().size() >= 3);
        QTRY_COMPARE(w->width(), 1024);
        QTest::qWait(200);   // the layouts settle at the new width
        const auto tops = [&] {
            QList<int> ys;
            for (ui::StrategyColumn* c : page->findChildren<ui::StrategyColumn*>())
                if (c->isVisible()) ys << c->figuresLabel()->mapTo(page, QPoint(0, 0)).y();
            return ys;
        };
        int tallest = 0, shortest = 1 << 20;
        for (ui::StrategyColumn* c : page->findChildren<ui::StrategyColumn*>()) {
            tallest = std::max(tallest, c->naturalHeaderHeight());
            shortest = std::min(shortest, c->naturalHeaderHeight());
        }
        const auto level = [&] {
            const QList<int> ys = tops();
            return ys.size() >= 3 && std::all_of(ys.cbegin(), ys.cend(), [&](int y) { return y == ys.first(); });
        };
        QTRY_VERIFY2(level(), qPrintable(QStringLiteral("figures at %1").arg([&] {
            QStringList t;
            for (int y : tops()) t << QString::number(y);
            return t.join(u' ');
        }())));
        QStringList dbg;
        for (ui::StrategyColumn* c : page->findChildren<ui::StrategyColumn*>())
            dbg << QStringLiteral("%1:%2w%3").arg(ui::StrategyColumn::title(c->spec())).arg(c->naturalHeaderHeight()).arg(c->width());
        w->setLanguage(QStringLiteral("en"));
        QVERIFY2(tallest > shortest, qPrintable(QStringLiteral("all headers are as tall: the test shows nothing ") + dbg.join(u' ')));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    }

    // A cell's word wider than its column breaks inside instead of being elided ("brainstorming"
    // in presentation mode on a narrow window): the delegate's wrapped text never needs more than
    // the column's width.
    void tableCellsWrapLongWords() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        StrategiesPage* page = front(*w);
        page->maxTokensSpin()->setValue(6);
        page->promptEdit()->setPlainText(QStringLiteral("The cat"));
        runAndWait(page);
        page->viewTabs()->setCurrentIndex(1);
        w->presentation()->setPresenting(true);
        w->resize(760, 700);
        QCoreApplication::processEvents();
        QTableView* view = page->tableView();
        int longWords = 0;
        for (int r = 0; r < view->model()->rowCount(); ++r)
            for (int c = 0; c < view->model()->columnCount(); ++c) {
                const QModelIndex index = view->model()->index(r, c);
                QStyleOptionViewItem option;
                option.initFrom(view);
                option.widget = view;
                option.features |= QStyleOptionViewItem::WrapText;
                option.rect = QRect(0, 0, view->columnWidth(c), view->rowHeight(r));
                const QString text = index.data().toString();
                for (const QString& word : QString(text).replace(u'\n', u' ').split(u' '))
                    longWords += option.fontMetrics.horizontalAdvance(word) > view->columnWidth(c) - 8;
                const QSize need = view->itemDelegate()->sizeHint(option, index);
                QVERIFY2(need.width() <= view->columnWidth(c) && need.height() <= view->rowHeight(r),
                         qPrintable(QStringLiteral("\"%1\" needs %2x%3 in %4x%5")
                                        .arg(text).arg(need.width()).arg(need.height()).arg(view->columnWidth(c)).arg(view->rowHeight(r))));
            }
        w->presentation()->setPresenting(false);
        QVERIFY2(longWords > 0, qPrintable(QStringLiteral("no word wider than its column (%1 px): the test shows nothing").arg(view->columnWidth(5))));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void badSpecsAreOneSentence() {
        ui::ColumnEditor editor(QStringLiteral("beam:k=4,g=3"));
        QVERIFY2(editor.error().contains("beam:k=4,g=3"), qPrintable(editor.error()));
        QVERIFY(editor.spec().isEmpty());
        editor.specEdit()->setText(QStringLiteral("sample:t=0.5,seed=2"));
        emit editor.specEdit()->textEdited(editor.specEdit()->text());
        QVERIFY(editor.error().isEmpty());
        QCOMPARE(editor.spec(), QStringLiteral("sample:t=0.5,seed=2"));

        // Saved settings with a broken spec: it is dropped, the others stay.
        auto s = ui::openSettings();
        s->setValue("strategies/specs", QStringList{"greedy", "beam:k=zero", "beam:k=2"});
        StrategiesPage page;
        page.restoreSettings(*s);
        QCOMPARE(page.specs(), (QStringList{"greedy", "beam:k=2"}));
    }
};

QTEST_MAIN(TestGuiStrategies)
#include "test_gui_strategies.moc"
