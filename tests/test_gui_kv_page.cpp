// Issue 10, the KV cache page, offscreen, on a tiny random model (heads 32 wide, so q8_0 works).
// Every expectation is the engine's own result for the same request, computed here beside the page:
//  * the growth panel's steps are the engine's (positions, rows computed and reused, bytes); the
//    no-cache timings computed every row again;
//  * heatmap cells equal the engine's numbers for every quantity and both row modes (attention
//    per layer and per KV head, bytes, sharing, norms, q8_0 quantization error against f32);
//  * the block table view equals the pool (tables, reference counts), the summaries its report;
//  * the calculator equals the formula for every preset and head layout;
//  * the dtype and eviction tables hold the experiments' results; Stop ends a long one at once;
//  * bad input is one sentence; export writes PNG and SVG.
#include <QtTest>
#include <QtWidgets>

#include <cmath>

#include <unistd.h>

#include "cuda/backend_choice.h"
#include "generate/session.h"
#include "gguf/tiny_model.h"
#include "kv/kv_allocation.h"
#include "kv/kv_cell_stats.h"
#include "kv/kv_run.h"
#include "model/backend.h"
#include "model/kv_memory.h"
#include "model/model.h"
#include "squeezed_controls.h"
#include "test_paths.h"
#include "ui/app/app_settings.h"
#include "ui/app/language_manager.h"
#include "ui/app/main_window.h"
#include "ui/kv/kv_blocks_panel.h"
#include "ui/kv/kv_calculator_panel.h"
#include "ui/kv/kv_compression_panel.h"
#include "ui/kv/kv_controller.h"
#include "ui/kv/kv_growth_panel.h"
#include "ui/kv/kv_heatmap_data.h"
#include "ui/kv/kv_heatmap_panel.h"
#include "ui/kv/kv_page.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/playground/playground_controller.h"
#include "ui/playground/playground_page.h"
#include "widgets/adaptive_row.h"
#include "widgets/kv_block_table_view.h"
#include "widgets/kv_heatmap_view.h"
#include "widgets/line_chart_view.h"
#include "widgets/memory_bars_view.h"
#include "widgets/number_text.h"

using namespace dlab;
using dlab::ui::KvPage;
using dlab::ui::MainWindow;

namespace {
bool close(float a, float b, float tol = 1e-4f) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= tol * std::max(1.0f, std::abs(b));
}
}  // namespace

class TestGuiKvPage : public QObject {
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

    // The page in front with a prompt that fits the tiny model's 128 positions (the default
    // prompt is 145 byte-level tokens there).
    static KvPage* front(MainWindow& w) {
        auto* page = w.page<KvPage>();
        w.tabs()->setCurrentWidget(page);
        page->promptEdit()->setPlainText(QStringLiteral("the key and the value"));
        return page;
    }

    static void runAndWait(KvPage* page) {
        QSignalSpy done(page, &KvPage::runDone);
        QSignalSpy noCache(page, &KvPage::noCacheDone);
        QVERIFY(QTest::qWaitFor([&] { return page->runButton()->isEnabled(); }, 30000));
        page->run();
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
        if (page->noCacheCheck()->isChecked()) QVERIFY(QTest::qWaitFor([&] { return noCache.count() == 1; }, 120000));
    }

    // The engine's run for the page's request, as the controller sets it up.
    KvRunResult reference(const ui::KvRunRequest& r, KvType type) const {
        const Tokenizer& tok = model_->tokenizer();
        KvRunOptions o;
        o.steps = r.steps;
        o.sequences = r.sequences;
        o.type = type;
        o.blockSize = r.blockSize;
        o.contextLength = defaultSessionContext(model_->hparams());
        o.sampler.temperature = r.sequences > 1 ? 0.8f : 0.0f;
        o.sampler.topK = 0;
        o.sampler.topP = 1.0f;
        o.sampler.seed = 1;
        o.attentionEvery = 1;
        return runKvExplorer(*model_, *backend_, tok.encode(r.prompt.toStdString(), tok.addsBosByDefault(), false), o);
    }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/kv-page-tiny.gguf");
        TinyModelSpec spec;
        spec.nEmbd = 128;
        spec.nHead = 4;
        spec.nHeadKv = 2;
        spec.nFf = 256;
        writeTinyModel(spec, tinyPath_.toStdString());
        model_ = Model::load(tinyPath_.toStdString());
        // The backend the window's automatic choice takes (the CPU here; the emulated GPU in
        // test_gui_kv_page_emulated), so the reference run is the page's run.
        backend_ = makeBackend(*model_, BackendKind::Auto, 2).backend;
    }

    void init() { ui::openSettings()->clear(); }

    void runShowsTheEnginesNumbers() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->promptEdit()->setPlainText(QStringLiteral("the quick brown fox jumps over"));
        page->stepsSpin()->setValue(12);
        page->sequencesSpin()->setValue(3);
        page->blockSizeCombo()->setCurrentIndex(page->blockSizeCombo()->findData(8));
        page->dtypeCombo()->setCurrentIndex(page->dtypeCombo()->findData(QStringLiteral("f16")));
        QCOMPARE(page->heatmapPanel()->view()->placeholderText(), QStringLiteral("Run a prompt to fill the cache."));
        {
            // While the run fills the cache, the empty map says it is coming (it said "Run a prompt").
            QSignalSpy done(page, &KvPage::runDone);
            QSignalSpy noCache(page, &KvPage::noCacheDone);
            QVERIFY(QTest::qWaitFor([&] { return page->runButton()->isEnabled(); }, 30000));
            page->run();
            QVERIFY(page->busy());
            QCOMPARE(page->heatmapPanel()->view()->placeholderText(),
                     QStringLiteral("The run is filling the cache; the map appears when it ends."));
            QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
            if (page->noCacheCheck()->isChecked()) QVERIFY(QTest::qWaitFor([&] { return noCache.count() == 1; }, 120000));
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const ui::KvRunView& v = page->lastRun();
        const KvRunResult ref = reference(page->request(), KvType::F16);
        const KvBlockPool& pool = *ref.pool;
        const SeqId s0 = ref.sequences[0];

        // Growth: the engine's steps.
        const auto& steps = page->growthPanel()->steps();
        QCOMPARE(steps.size(), qsizetype(ref.steps.size()));
        for (int i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].positions, ref.steps[i].positions);
            QCOMPARE(steps[i].computed, ref.steps[i].computed);
            QCOMPARE(steps[i].reused, ref.steps[i].reused);
            QCOMPARE(steps[i].bytesInUse, ref.steps[i].bytesInUse);
            QCOMPARE(steps[i].withoutCacheComputed, steps[i].positions);   // without the cache: every row again
            QVERIFY(steps[i].withoutCacheMs > 0);
        }
        QCOMPARE(page->growthPanel()->stepChart()->seriesCount(), 2);
        QCOMPARE(page->growthPanel()->stepChart()->points(1).size(), qsizetype(ref.steps.size() - 1));

        // Heatmap: attention at the last recorded step, per KV head and per layer.
        QCOMPARE(v.attention.size(), qsizetype(ref.steps.size()));
        const AttentionWeights& last = ref.steps.back().attention;
        const std::vector<float> group = last.perKvGroup(), mean = last.meanOverHeads();
        ui::KvHeatmapPanel* hp = page->heatmapPanel();
        QVERIFY(hp->logCheck()->isChecked());   // the default: attention spans orders of magnitude
        hp->logCheck()->setChecked(false);
        hp->setQuantity(ui::KvCellQuantity::Attention);
        hp->setRows(ui::KvHeatmapRows::KvHeads);
        hp->setAttentionIndex(static_cast<int>(v.attention.size()) - 1);
        const widgets::HeatmapGrid& g = hp->view()->grid();
        QCOMPARE(g.rows, int(model_->hparams().nLayer * model_->hparams().nHeadKv));
        QCOMPARE(g.cols, int(pool.length(s0)));
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < last.nSlots; ++c) QVERIFY(close(g.at(r, c), 100.0f * group[r * last.nSlots + c]));
        hp->setRows(ui::KvHeatmapRows::Layers);
        for (int r = 0; r < hp->view()->grid().rows; ++r)
            for (int c = 0; c < last.nSlots; ++c) QVERIFY(close(hp->view()->grid().at(r, c), 100.0f * mean[r * last.nSlots + c]));
        // Log colours: the same weights, floored at 1 % of an even share (100 / slots %).
        hp->logCheck()->setChecked(true);
        QCOMPARE(hp->view()->grid().scale, widgets::HeatmapGrid::Scale::Log);
        QCOMPARE(hp->view()->grid().minValue, 1.0f / float(last.nSlots));
        for (int c = 0; c < last.nSlots; ++c)
            QVERIFY(close(hp->view()->grid().at(0, c), std::max(100.0f * mean[c], 1.0f / float(last.nSlots))));
        hp->logCheck()->setChecked(false);
        QCOMPARE(hp->view()->grid().scale, widgets::HeatmapGrid::Scale::Linear);
        // An earlier step: positions not yet cached are empty.
        hp->setAttentionIndex(0);
        QVERIFY(std::isnan(hp->view()->grid().at(0, int(ref.steps[0].positions))));
        QVERIFY(close(hp->view()->grid().at(0, 0), 100.0f * ref.steps[0].attention.meanOverHeads()[0]));

        // Bytes and sharing per block; norms per position.
        hp->setQuantity(ui::KvCellQuantity::Bytes);
        QCOMPARE(hp->view()->grid().quantity, ui::kvCellQuantityName(ui::KvCellQuantity::Bytes));
        const auto table0 = pool.blockTable(s0);
        QCOMPARE(hp->view()->grid().cols, int(table0.size()));
        QCOMPARE(hp->view()->grid().colsPerLabel, 8);
        const KvStats st = pool.stats();
        for (size_t b = 0; b < table0.size(); ++b) {
            int64_t filled = 0;
            for (const KvBlockStats& bs : st.blocks)
                if (bs.block == table0[b]) filled = bs.filled;
            QCOMPARE(hp->view()->grid().at(1, int(b)), float(filled * 2 * pool.rowBytes()));
        }
        hp->setQuantity(ui::KvCellQuantity::Sharing);
        for (size_t b = 0; b < table0.size(); ++b) QCOMPARE(hp->view()->grid().at(0, int(b)), float(pool.refCount(table0[b])));
        QCOMPARE(hp->view()->grid().at(0, 0), 3.0f);   // the prompt's first block: all three continuations
        hp->setQuantity(ui::KvCellQuantity::KeyNorm);
        hp->setRows(ui::KvHeatmapRows::KvHeads);
        const KvCellStats cells = kvCellStats(pool, s0, model_->hparams().headDim);
        for (int r = 0; r < hp->view()->grid().rows; ++r)
            for (int c = 0; c < cells.nSlots; ++c) QVERIFY(close(hp->view()->grid().at(r, c), cells.kNorm[r * cells.nSlots + c]));
        // Hover text: the token at the position and the query heads of the KV head.
        const QString tip = hp->view()->tooltipText(1, 2);
        QVERIFY2(tip.contains(QStringLiteral("query heads 2–3")), qPrintable(tip));

        // Blocks: the view holds the pool.
        const widgets::BlockTableData& bt = page->blocksPanel()->view()->data();
        QCOMPARE(bt.sequences.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const auto t = pool.blockTable(ref.sequences[i]);
            QCOMPARE(bt.sequences[i].blocks, std::vector<int32_t>(t.begin(), t.end()));
            QCOMPARE(bt.sequences[i].positions, pool.length(ref.sequences[i]));
        }
        for (int64_t b = 0; b < pool.nBlocks(); ++b) QCOMPARE(bt.refCount[b], pool.refCount(int32_t(b)));
        const KvAllocationReport rep = kvAllocationReport(pool, defaultSessionContext(model_->hparams()));
        QCOMPARE(v.allocation.pagedBytes, rep.pagedBytes);
        QCOMPARE(v.allocation.contiguousBytes, rep.contiguousBytes);
        QCOMPARE(v.allocation.bytesSavedBySharing, rep.bytesSavedBySharing);
        QVERIFY(page->blocksPanel()->contiguousLabel()->text().contains(widgets::byteText(double(rep.contiguousBytes))));
        QVERIFY(page->blocksPanel()->pagedLabel()->text().contains(widgets::byteText(double(rep.bytesSavedBySharing))));

        // f16 has no quantization-error cells to show against itself... but against f32 it does.
        QVERIFY(!v.kError.empty());
    }

    // The block view's other source: the playground's live session, its original run and a branch
    // that shares the prefix (not yet written, so every block of the branch is shared).
    // The status over the tabs keeps its two lines from the start, and a run's quoted
    // continuation is cut (whole words, "…") to fit them: the tabs and the buttons under the
    // pointer stay where they were, at 1280 and at 1024 px.
    void statusKeepsTheTabsInPlace_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("1280") << 1280;
        QTest::newRow("1024") << 1024;
    }
    void statusKeepsTheTabsInPlace() {
        QFETCH(int, width);
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        w->resize(width, 700);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->stepsSpin()->setValue(60);   // a long continuation: random weights write byte soup
        QCoreApplication::processEvents();
        // Before any run, with the model loaded: the hint says what the page does.
        QVERIFY2(page->statusLabel()->text().startsWith(QStringLiteral("Run a prompt")), qPrintable(page->statusLabel()->text()));
        const int tabsBefore = page->tabs()->mapTo(page, QPoint(0, 0)).y();
        runAndWait(page);
        QCoreApplication::processEvents();
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
        QLabel* status = page->statusLabel();
        QVERIFY(status->text().contains(QStringLiteral("It continued")));
        const QFontMetrics fm = status->fontMetrics();
        const int lines = fm.boundingRect(QRect(0, 0, status->contentsRect().width(), 1 << 20), Qt::TextWordWrap, status->text()).height() /
                          fm.lineSpacing();
        QVERIFY2(lines <= 2, qPrintable(QStringLiteral("%1 lines: %2").arg(lines).arg(status->text())));
        QCOMPARE(page->tabs()->mapTo(page, QPoint(0, 0)).y(), tabsBefore);
        // The quote is closed, cut or not.
        QVERIFY(status->text().endsWith(QStringLiteral("\u201d")));
    }

    void blocksShowThePlaygroundsBranches() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        auto* pc = w->page<ui::PlaygroundPage>()->controller();
        SamplerParams greedy;
        greedy.temperature = 0.0f;
        const QString prompt = QStringLiteral("the key and the value of every token");
        QSignalSpy finished(pc, &ui::PlaygroundController::runFinished);
        QSignalSpy branched(pc, &ui::PlaygroundController::branched);
        QMetaObject::invokeMethod(pc, "startSession", Qt::QueuedConnection, Q_ARG(QString, prompt), Q_ARG(dlab::SamplerParams, greedy));
        QMetaObject::invokeMethod(pc, "run", Qt::QueuedConnection, Q_ARG(int, 8));
        QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 30000));
        QMetaObject::invokeMethod(pc, "branch", Qt::QueuedConnection, Q_ARG(int, 3), Q_ARG(int, 101), Q_ARG(dlab::SamplerParams, greedy));
        QVERIFY(QTest::qWaitFor([&] { return branched.count() == 1; }, 30000));

        KvPage* page = front(*w);
        page->tabs()->setCurrentWidget(page->blocksPanel());
        page->blocksPanel()->setSource(QStringLiteral("playground"));
        const widgets::BlockTableData& bt = page->blocksPanel()->view()->data();
        QVERIFY(QTest::qWaitFor([&] { return bt.sequences.size() == 2; }, 10000));
        const Tokenizer& tok = model_->tokenizer();
        const int64_t n = static_cast<int64_t>(tok.encode(prompt.toStdString(), tok.addsBosByDefault(), false).size());
        QCOMPARE(bt.sequences[0].label, QStringLiteral("original"));
        QCOMPARE(bt.sequences[1].label, QStringLiteral("branch 1 (current)"));
        QCOMPARE(bt.sequences[0].positions, n + 7);   // every token but the last chosen one is cached
        QCOMPARE(bt.sequences[1].positions, n + 3);   // steps 0-2; the forced token is evaluated by the next step
        for (size_t b = 0; b < bt.sequences[1].blocks.size(); ++b) {
            QCOMPARE(bt.sequences[1].blocks[b], bt.sequences[0].blocks[b]);
            QCOMPARE(bt.refCount[bt.sequences[1].blocks[b]], 2);
        }
        QVERIFY(page->blocksPanel()->pagedLabel()->text().contains(QStringLiteral("2 sequences")));
        // Back to the page's own run: nothing run yet.
        page->blocksPanel()->setSource(QString());
        QVERIFY(page->blocksPanel()->view()->data().sequences.empty());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void quantErrorIsAgainstAnF32Run() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->stepsSpin()->setValue(6);
        page->sequencesSpin()->setValue(1);
        page->noCacheCheck()->setChecked(false);
        page->dtypeCombo()->setCurrentIndex(page->dtypeCombo()->findData(QStringLiteral("q8_0")));
        runAndWait(page);
        const KvRunResult q8 = reference(page->request(), KvType::Q8_0);
        ui::KvRunRequest f32req = page->request();
        const KvRunResult f32 = reference(f32req, KvType::F32);
        KvCellStats cells = kvCellStats(*q8.pool, q8.sequences[0], model_->hparams().headDim);
        addKvQuantError(cells, *q8.pool, q8.sequences[0], *f32.pool, f32.sequences[0], model_->hparams().headDim);
        ui::KvHeatmapPanel* hp = page->heatmapPanel();
        hp->logCheck()->setChecked(false);
        hp->setQuantity(ui::KvCellQuantity::ValueError);
        hp->setRows(ui::KvHeatmapRows::KvHeads);
        const widgets::HeatmapGrid& g = hp->view()->grid();
        QCOMPARE(g.cols, int(cells.nSlots));
        float mx = 0;
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.cols; ++c) {
                QVERIFY(close(g.at(r, c), 100.0f * cells.vError[r * g.cols + c]));
                mx = std::max(mx, g.at(r, c));
            }
        QVERIFY(mx > 0.0f);
        // With an f32 cache there is nothing to compare: an empty heatmap that says why.
        page->dtypeCombo()->setCurrentIndex(page->dtypeCombo()->findData(QStringLiteral("f32")));
        runAndWait(page);
        hp->setQuantity(ui::KvCellQuantity::KeyError);
        QVERIFY(hp->view()->grid().isEmpty());
        QVERIFY(hp->view()->placeholderText().contains(QStringLiteral("f32")));
    }

    void calculatorEqualsTheFormula_data() {
        QTest::addColumn<int>("preset");
        QTest::addColumn<int>("layout");
        for (size_t i = 0; i < kvPresets().size(); ++i)
            for (int l : {int(KvHeadLayout::AsTrained), int(KvHeadLayout::Mha), int(KvHeadLayout::Mqa)})
                QTest::newRow(qPrintable(QString::fromStdString(kvPresets()[i].key) + "/" + QString::number(l))) << int(i) << l;
    }
    void calculatorEqualsTheFormula() {
        QFETCH(int, preset);
        QFETCH(int, layout);
        ui::KvCalculatorPanel panel;
        panel.resize(900, 500);
        panel.modelCombo()->setCurrentIndex(panel.modelCombo()->findData(preset));
        panel.layoutCombo()->setCurrentIndex(panel.layoutCombo()->findData(layout));
        panel.contextSpin()->setValue(4096);
        panel.batchSpin()->setValue(3);
        const KvShape& p = kvPresets()[preset];
        const int64_t heads = layout == int(KvHeadLayout::Mha) ? p.nHead : layout == int(KvHeadLayout::Mqa) ? 1 : p.nHeadKv;
        const double perPos = 2.0 * p.nLayer * heads * p.headDim * 2;   // f16
        const auto r = panel.result();
        QCOMPARE(r.bytesPerPosition, perPos);
        QCOMPARE(r.bytesPerSequence, perPos * 4096);
        QCOMPARE(r.kvBytes, perPos * 4096 * 3);
        QCOMPARE(r.weightsBytes, p.parameters * 2);
        const double GiB = double(1LL << 30);
        for (int i = 0; i < 4; ++i) {
            const double cap = gpuSizesGiB()[i] * GiB;
            QCOMPARE(r.kvOnlyFit[i], qint64(std::floor(cap / (perPos * 4096))));
            QCOMPARE(r.withWeightsFit[i], cap > p.parameters * 2 ? qint64(std::floor((cap - p.parameters * 2) / (perPos * 4096))) : 0);
        }
        // This machine's memory first (from the system, read independently here), then the GPUs.
        const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
        const double ram = double(pages) * double(pageSize);
        QVERIFY(ram > 0);
        QCOMPARE(r.ramBytes, ram);
        QCOMPARE(r.ramKvOnlyFit, qint64(std::floor(ram / (perPos * 4096))));
        QCOMPARE(r.ramWithWeightsFit, ram > p.parameters * 2 ? qint64(std::floor((ram - p.parameters * 2) / (perPos * 4096))) : 0);
        QCOMPARE(int(panel.bars()->bars().size()), 5);
        QCOMPARE(panel.bars()->bars()[0].capacityBytes, ram);
        QCOMPARE(panel.bars()->bars()[2].capacityBytes, 40 * GiB);
        QCOMPARE(panel.bars()->bars()[2].kvBytes, r.kvBytes);
        // The share used, in the note: (weights + KV) / capacity.
        const double share = 100.0 * (r.weightsBytes + r.kvBytes) / (40 * GiB);
        const QString shown = share < 10 ? QLocale().toString(share, 'f', 1) : QLocale().toString(qint64(std::llround(share)));
        QVERIFY2(panel.bars()->bars()[2].note.contains(shown + QStringLiteral(" % used")), qPrintable(panel.bars()->bars()[2].note));
        // The lesson: Llama 2 7B, 4,096 tokens, f16 -> 2 GiB a sequence, 20 in 40 GiB.
        if (p.key == "llama2-7b" && layout == int(KvHeadLayout::AsTrained)) {
            QCOMPARE(r.bytesPerSequence, double(2LL << 30));
            QCOMPARE(r.kvOnlyFit[1], qint64(20));
        }
    }

    void calculatorOffersTheLoadedModel() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        ui::KvCalculatorPanel* calc = page->calculatorPanel();
        QTRY_VERIFY_WITH_TIMEOUT(calc->modelCombo()->itemData(0).toInt() == -1, 10000);
        calc->modelCombo()->setCurrentIndex(0);
        calc->contextSpin()->setValue(100);
        const HParams& hp = model_->hparams();
        QCOMPARE(calc->result().bytesPerPosition, double(2 * hp.nLayer * hp.nHeadKv * hp.headDim * 2));
        double fileBytes = 0;
        for (const GgufTensor& t : model_->file().tensors()) fileBytes += double(t.nbytes);
        QCOMPARE(calc->result().weightsBytes, fileBytes);
    }

    // The KV lesson (resources/lessons/08-kv-cache-memory.json) sets the calculator up, and every
    // figure its steps quote is what the calculator then shows: step by step, as a student would.
    void kvLessonSetsUpTheCalculatorAndItsFiguresHold() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = w->page<KvPage>();
        ui::KvCalculatorPanel* calc = page->calculatorPanel();
        QTRY_VERIFY_WITH_TIMEOUT(calc->modelCombo()->itemData(0).toInt() == -1, 10000);
        calc->contextSpin()->setValue(333);   // the user's own choice, to be put back
        page->tabs()->setCurrentWidget(page->growthPanel());
        w->tabs()->setCurrentIndex(0);
        ui::LessonPanel* lessons = w->lessons();
        const int index = lessons->library().indexOf(QStringLiteral("kv-cache-memory"));
        QVERIFY(index >= 0);
        lessons->setCurrentIndex(index);
        const QStringList steps = [&] {
            QStringList out;
            for (const auto& s : lessons->library().lessons()[index].steps) out << s.value(QStringLiteral("en"));
            return out;
        }();
        QTest::mouseClick(lessons->setupButton(), Qt::LeftButton);
        QCOMPARE(w->tabs()->currentWidget(), page);
        QCOMPARE(page->tabs()->currentWidget(), calc);
        // Beside the Lessons panel at 1024 px, every note whole.
        w->lessonsDock()->show();
        w->resize(1024, 700);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        (void)calc->bars()->grab();
        QVERIFY2(calc->bars()->elidedTexts().isEmpty(), qPrintable(calc->bars()->elidedTexts().join(" | ")));
        const auto shown = [&] { return calc->resultLabel()->text() + QLatin1Char(' ') + [&] {
                                        QStringList notes;
                                        for (const auto& b : calc->bars()->bars()) notes << b.label + QStringLiteral(": ") + b.note;
                                        return notes.join(QStringLiteral("; "));
                                    }(); };
        const auto quoted = [&](int step, const QString& figure) {
            QVERIFY2(steps[step].contains(figure), qPrintable(steps[step]));
            QVERIFY2(shown().contains(figure), qPrintable(figure + QStringLiteral(" not in: ") + shown()));
        };
        // Step 1: Llama 2 7B at 4,096 positions in f16.
        quoted(0, QStringLiteral("512.0 KiB"));
        quoted(0, QStringLiteral("2.00 GiB"));
        quoted(0, QStringLiteral("12.6 GiB"));
        const int gpu40 = 1 + 1;   // the RAM bar, then 24 and 40 GiB
        QCOMPARE(calc->bars()->bars()[gpu40].label, QStringLiteral("GPU 40 GiB"));
        QVERIFY2(calc->bars()->bars()[gpu40].note.startsWith(QStringLiteral("13 fit (KV only: 20)")), qPrintable(calc->bars()->bars()[gpu40].note));
        // Step 2: 13 sequences fit beside the weights, 14 run over.
        const auto over40 = [&] {
            const auto& b = calc->bars()->bars()[gpu40];
            return b.weightsBytes + b.kvBytes > b.capacityBytes;
        };
        calc->batchSpin()->setValue(13);
        QVERIFY(!over40());
        calc->batchSpin()->setValue(14);
        QVERIFY(over40());
        calc->batchSpin()->setValue(1);
        // Step 3: Llama 3 8B, a quarter of the bytes per position.
        calc->modelCombo()->setCurrentIndex(calc->modelCombo()->findData(2));
        QVERIFY(calc->modelCombo()->currentText().startsWith(QStringLiteral("Llama 3 8B")));
        quoted(2, QStringLiteral("128.0 KiB"));
        // Step 4: MQA, then q8_0 at 34/64 of f16.
        calc->layoutCombo()->setCurrentIndex(calc->layoutCombo()->findData(int(KvHeadLayout::Mqa)));
        quoted(3, QStringLiteral("16.0 KiB"));
        quoted(3, QStringLiteral("64.0 MiB"));
        const double f16 = calc->result().bytesPerSequence;
        calc->dtypeCombo()->setCurrentIndex(calc->dtypeCombo()->findData(QStringLiteral("q8_0")));
        QCOMPARE(calc->result().bytesPerSequence, f16 * 34.0 / 64.0);
        // Step 5: the loaded model's first bar is this computer's memory.
        calc->modelCombo()->setCurrentIndex(0);
        QVERIFY(calc->bars()->bars()[0].label.startsWith(QStringLiteral("RAM ")));
        // Restore: the user's context and tab come back.
        QVERIFY(lessons->restoreButton()->isEnabled());
        QTest::mouseClick(lessons->restoreButton(), Qt::LeftButton);
        QCOMPARE(calc->contextSpin()->value(), 333);
        QCOMPARE(page->tabs()->currentWidget(), page->growthPanel());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // Beside the Lessons panel at 1024 px the calculator is about 650 px wide: every bar's note
    // whole, in German too ("5 passen (nur KV: 11) · 62 % belegt" was cut at 30 % of the width).
    void calculatorNotesWholeWhenNarrow_data() {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << "en";
        QTest::newRow("de") << "de";
        QTest::newRow("zh_CN") << "zh_CN";
    }
    void calculatorNotesWholeWhenNarrow() {
        QFETCH(QString, language);
        QVERIFY(ui::LanguageManager::instance().setLanguage(language));
        ui::KvCalculatorPanel calc;
        calc.applySetup({{QStringLiteral("calcModel"), QStringLiteral("llama2-7b")}, {QStringLiteral("calcContext"), 4096}});
        calc.resize(650, 520);
        calc.show();
        QVERIFY(QTest::qWaitForWindowExposed(&calc));
        (void)calc.bars()->grab();
        QVERIFY2(calc.bars()->elidedTexts().isEmpty(), qPrintable(calc.bars()->elidedTexts().join(" | ")));
        QVERIFY(calc.minimumSizeHint().width() <= 650);
        QVERIFY(ui::LanguageManager::instance().setLanguage(QStringLiteral("en")));
    }

    // Narrower than its two experiments side by side (beside the Lessons panel at 1024 px), the
    // compression tab puts one above the other; nothing in it is squeezed below its minimum
    // width (buttons read "ntypen verglei" when the row was squeezed instead). Wide, side by side.
    void compressionStacksWhenNarrow() {
        ui::KvCompressionPanel panel;
        auto* row = panel.findChild<widgets::AdaptiveRow*>(QStringLiteral("kvCompressionRow"));
        QVERIFY(row);
        const auto squeezed = [&] { return test::squeezedControls(&panel); };
        panel.resize(650, 1200);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();
        QVERIFY2(row->stacked(), qPrintable(QStringLiteral("row %1 px, side by side needs %2").arg(row->width()).arg(row->sideBySideWidth())));
        QVERIFY2(squeezed().isEmpty(), qPrintable(squeezed().join(" | ")));
        panel.resize(1400, 700);
        QCoreApplication::processEvents();
        QVERIFY(!row->stacked());
        QVERIFY2(squeezed().isEmpty(), qPrintable(squeezed().join(" | ")));
    }

    void compressionTablesHoldTheExperiments() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->tabs()->setCurrentWidget(page->compressionPanel());
        ui::KvCompressionPanel* c = page->compressionPanel();
        c->typeStepsSpin()->setValue(8);
        QSignalSpy types(page, &KvPage::typesDone);
        QVERIFY(QTest::qWaitFor([&] { return c->typesButton()->isEnabled(); }, 10000));
        c->typesButton()->click();
        QVERIFY(QTest::qWaitFor([&] { return types.count() == 1; }, 60000));
        QCOMPARE(c->typesTable()->rowCount(), 3);
        QCOMPARE(c->typesTable()->item(0, 0)->text(), QStringLiteral("f32"));
        QCOMPARE(c->typesTable()->item(0, 2)->text(), QStringLiteral("0"));
        QCOMPARE(c->typesTable()->item(2, 0)->text(), QStringLiteral("q8_0"));
        QCOMPARE(c->klChart()->seriesCount(), 2);

        c->tokensSpin()->setValue(64);
        c->cacheSpin()->setValue(16);
        c->sinksSpin()->setValue(2);
        QSignalSpy evicted(page, &KvPage::evictionDone);
        c->evictButton()->click();
        QVERIFY(QTest::qWaitFor([&] { return evicted.count() == 1; }, 60000));
        QCOMPARE(c->evictionTable()->rowCount(), 3);
        QCOMPARE(c->evictionTable()->item(0, 1)->text(), QStringLiteral("63"));
        QCOMPARE(c->evictionTable()->item(1, 1)->text(), QStringLiteral("16"));
        QCOMPARE(c->evictionTable()->item(2, 1)->text(), QStringLiteral("16"));
        QCOMPARE(c->evictionTable()->item(0, 4)->text(), QStringLiteral("0.0000"));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // Stop while the prompt goes into the cache: the run ends stopped, with nothing past the cache
    // (it built its continuation from past the cache's end: "cannot create std::vector larger than
    // max_size()"). The engine takes the stop when it comes, so it is tried after a few delays.
    void stopInsideThePromptIsClean() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->promptEdit()->setPlainText(QString(QStringLiteral("the quick brown fox jumps over the lazy dog ")).repeated(3));
        page->stepsSpin()->setValue(4);
        page->noCacheCheck()->setChecked(false);
        int stopped = 0;
        for (int delayUs : {0, 200, 500, 1000, 2000, 4000, 8000}) {
            QSignalSpy done(page, &KvPage::runDone);
            QVERIFY(QTest::qWaitFor([&] { return page->runButton()->isEnabled(); }, 30000));
            page->run();
            QElapsedTimer t;
            t.start();
            while (t.nsecsElapsed() < qint64(delayUs) * 1000) QThread::usleep(50);
            page->stop();
            QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 30000));
            QTRY_VERIFY(!page->busy());
            QVERIFY2(errors.isEmpty(), qPrintable(QStringLiteral("after %1 us: ").arg(delayUs) + errors.join('\n')));
            stopped += page->lastRun().cancelled;
        }
        QVERIFY(stopped > 0);
    }

    void stopEndsALongEvictionAtOnce() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->tabs()->setCurrentWidget(page->compressionPanel());
        ui::KvCompressionPanel* c = page->compressionPanel();
        c->tokensSpin()->setValue(8000);
        c->cacheSpin()->setValue(256);
        QSignalSpy evicted(page, &KvPage::evictionDone);
        QVERIFY(QTest::qWaitFor([&] { return c->evictButton()->isEnabled(); }, 10000));
        c->evictButton()->click();
        QTest::qWait(300);
        QElapsedTimer t;
        t.start();
        page->stop();
        QVERIFY(QTest::qWaitFor([&] { return evicted.count() == 1; }, 10000));
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(c->evictionNote()->text().contains(QStringLiteral("Stopped early")));
        QVERIFY(page->runButton()->isEnabled());
    }

    // At 1024 × 700, after a whole run (the status line above the tabs takes two lines then), the
    // Growth tab's charts keep their axis labels and titles whole (they turned into "..."), also
    // beside the Lessons panel in German, where the heatmap's column had squeezed the two charts
    // on the left to 60 px.
    void growthChartsKeepTheirLabels_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<bool>("lessons");
        QTest::newRow("en") << "en" << false;
        QTest::newRow("de beside the Lessons panel") << "de" << true;
    }
    void growthChartsKeepTheirLabels() {
        QFETCH(QString, language);
        QFETCH(bool, lessons);
        ui::openSettings()->setValue(QStringLiteral("language"), language);
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        if (lessons) w->lessonsDock()->show();
        w->resize(1024, 700);
        KvPage* page = front(*w);
        page->stepsSpin()->setValue(48);
        runAndWait(page);
        QTest::qWait(50);
        QStringList cut;
        for (QChartView* c : page->growthPanel()->findChildren<QChartView*>()) {
            if (!c->isVisible()) continue;
            (void)c->grab();
            for (QGraphicsItem* item : c->scene()->items()) {
                if (!item->isVisible()) continue;
                QString text;
                if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) text = t->toPlainText();
                else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = st->text();
                if (text.endsWith(QLatin1String("...")) || text.endsWith(QChar(0x2026))) cut << c->objectName() + ": " + text;
            }
            // And no chart gets less than a third of the tab's width.
            if (c->width() < page->growthPanel()->width() / 3)
                cut << QStringLiteral("%1 is %2 px wide of %3").arg(c->objectName()).arg(c->width()).arg(page->growthPanel()->width());
        }
        QVERIFY(ui::LanguageManager::instance().setLanguage(QStringLiteral("en")));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(" | ")));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // Scrolling a short window with the wheel does not turn the controls that pass under the
    // pointer: over the eviction's "Text:" box it picked "Open a text file…" and opened a file
    // dialog. A focused control still takes the wheel; an unfocused one hands it to the page.
    void wheelScrollsThePageNotTheControls() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        w->resize(1024, 420);
        KvPage* page = front(*w);
        page->tabs()->setCurrentWidget(page->compressionPanel());
        QCoreApplication::processEvents();
        auto* text = page->compressionPanel()->findChild<QComboBox*>(QStringLiteral("kvEvictionText"));
        auto* steps = page->stepsSpin();
        QVERIFY(text && steps);
        auto* area = w->findChild<QScrollArea*>(QStringLiteral("pageArea"));
        QVERIFY(area);
        QVERIFY2(area->verticalScrollBar()->maximum() > 0, "the test needs a page taller than the window");
        const auto wheel = [](QWidget* target, int delta) {
            const QPoint at = target->rect().center();
            QWheelEvent e(at, target->mapToGlobal(at), {}, QPoint(0, delta), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &e);
        };
        // Qt gives a WheelFocus control the focus from the wheel before any filter sees it (in a
        // real X session the Tokens box then turned): no knob keeps that policy.
        for (QWidget* knob : page->findChildren<QWidget*>())
            if (qobject_cast<QAbstractSpinBox*>(knob) || qobject_cast<QComboBox*>(knob))
                QVERIFY2((knob->focusPolicy() & Qt::WheelFocus) != Qt::WheelFocus, qPrintable(knob->objectName()));
        w->setFocus();
        const int before = area->verticalScrollBar()->value();
        wheel(text, -120);
        QCOMPARE(text->currentIndex(), 0);
        QVERIFY2(area->verticalScrollBar()->value() > before, "the page did not scroll");
        const int value = steps->value();
        wheel(steps, 120);
        QCOMPARE(steps->value(), value);
        steps->setFocus();
        QTRY_VERIFY(steps->hasFocus());
        wheel(steps, 120);
        QVERIFY(steps->value() > value);   // focused: the wheel is the user's intent
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void badInputIsOneSentence_data() {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty prompt") << QString() << 4 << "The prompt is empty: write a few words for the model to continue.";
        QTest::newRow("past the context") << QStringLiteral("hello") << 2000
                                          << "The prompt (4 tokens) and 2000 steps need 2004 positions, but the model's context holds 128: lower the steps";
    }
    void badInputIsOneSentence() {
        QFETCH(QString, prompt);
        QFETCH(int, steps);
        QFETCH(QString, message);
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->promptEdit()->setPlainText(prompt);
        page->stepsSpin()->setValue(steps);
        QSignalSpy done(page, &KvPage::runDone);
        page->run();
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 30000));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].startsWith(message), qPrintable(errors[0]));
        QVERIFY(!errors[0].contains(QLatin1Char('\n')));
        QVERIFY(page->runButton()->isEnabled());
    }

    void badEvictionInputIsOneSentence_data() {
        QTest::addColumn<QString>("file");        // "" = the built-in text
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("cache");
        QTest::addColumn<int>("sinks");
        QTest::addColumn<QString>("message");
        const QString dir = QString::fromStdString(test::scratchDir());
        QTest::newRow("missing file") << dir + "/no-such-text.txt" << 64 << 16 << 2 << "Cannot read the text file '" + dir + "/no-such-text.txt'";
        QTest::newRow("not UTF-8") << dir + "/latin1.txt" << 64 << 16 << 2 << "The text file '" + dir + "/latin1.txt' is not UTF-8 text.";
        QTest::newRow("text too short") << dir + "/short.txt" << 64 << 16 << 2 << "The text has 8 tokens; the experiment was asked to read 64.";   // "hello world": 7 tokens after merges, and the BOS
        QTest::newRow("sinks fill the cache") << QString() << 64 << 16 << 16 << "The sinks (16) must be fewer than the cache's 16 positions.";
    }
    void badEvictionInputIsOneSentence() {
        QFETCH(QString, file);
        QFETCH(int, tokens);
        QFETCH(int, cache);
        QFETCH(int, sinks);
        QFETCH(QString, message);
        const QString dir = QString::fromStdString(test::scratchDir());
        {
            QFile f(dir + "/latin1.txt");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("caf\xe9 au lait");
        }
        {
            QFile f(dir + "/short.txt");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("hello world");
        }
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->tabs()->setCurrentWidget(page->compressionPanel());
        ui::KvCompressionPanel* c = page->compressionPanel();
        c->setEvictionFile(file);
        c->tokensSpin()->setValue(tokens);
        c->cacheSpin()->setValue(cache);
        c->sinksSpin()->setValue(sinks);
        QVERIFY(QTest::qWaitFor([&] { return c->evictButton()->isEnabled(); }, 10000));
        c->evictButton()->click();
        QVERIFY(QTest::qWaitFor([&] { return !errors.isEmpty(); }, 30000));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].startsWith(message), qPrintable(errors[0]));
        QVERIFY(!errors[0].contains(QLatin1Char('\n')));
        QVERIFY(QTest::qWaitFor([&] { return c->evictButton()->isEnabled(); }, 10000));   // usable again
    }

    void exportWritesPngAndSvg() {
        QStringList errors;
        auto w = openWindow(tinyPath_, &errors);
        QTRY_VERIFY_WITH_TIMEOUT(w->hasModel(), 30000);
        KvPage* page = front(*w);
        page->stepsSpin()->setValue(6);
        page->noCacheCheck()->setChecked(false);
        runAndWait(page);
        page->tabs()->setCurrentWidget(page->heatmapPanel());
        const QString dir = QString::fromStdString(test::scratchDir());
        page->exportCurrentTab(dir + "/kv-heatmap.png");
        page->exportCurrentTab(dir + "/kv-heatmap.svg");
        QImage png(dir + "/kv-heatmap.png");
        QVERIFY(!png.isNull() && png.width() > 100);
        QFile svg(dir + "/kv-heatmap.svg");
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, page->exportCurrentTab("/nonexistent-dir/x.png"));
    }
};

QTEST_MAIN(TestGuiKvPage)
#include "test_gui_kv_page.moc"
