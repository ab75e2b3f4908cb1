// Issue 11, item 4: the Serving lab page, offscreen, on a tiny random model. Runs are in real
// time, so the expectations are the engine's own results carried by the page, checked against
// what it draws:
//  * Load: the same trace ran with static and then continuous batching; each Gantt holds exactly
//    one segment per item of every StepRecord (its row the request, its kind prefill / decode /
//    padding, its tokens, its step), at the step's time or index, and every row's wait is the
//    request's RequestTimings; the metric labels show what summarize() gives for that run;
//  * Streaming: the timeline is the picked request's token times;
//  * Batch size: the chart and the table are batchSweep's points; the workload table is
//    workloadAdvice's choice under the bounds typed, and follows them;
//  * Prefix cache: the labels are prefixCacheExperiment's numbers (the cache hits, no cache never);
//    the per-request chart draws each request's measured TTFT both ways, request 1 with nothing cached;
//  * Stop ends a long run within a step and keeps what ran; bad input is one sentence.
#include <QtTest>
#include <QtWidgets>

#include "gguf/tiny_model.h"
#include "serve/serve_experiments.h"
#include "test_paths.h"
#include "ui/app/app_settings.h"
#include "ui/app/main_window.h"
#include "ui/app/theme.h"
#include "ui/serving/serving_batch_panel.h"
#include "ui/serving/serving_controller.h"
#include "ui/serving/serving_gantt.h"
#include "ui/serving/serving_load_panel.h"
#include "ui/serving/serving_page.h"
#include "ui/serving/serving_prefix_panel.h"
#include "ui/serving/serving_streaming_panel.h"
#include "widgets/gantt_view.h"
#include "widgets/line_chart_view.h"
#include "widgets/palette_colors.h"
#include "widgets/streaming_timeline_view.h"
#include "widgets/value_bars_view.h"

using namespace dlab;
using dlab::ui::MainWindow;
using dlab::ui::ServingLabPage;
using dlab::ui::ServingLoadPanel;

Q_DECLARE_METATYPE(dlab::BatchingMode)

class TestGuiServingLab : public QObject {
    Q_OBJECT

    QString tinyPath_;
    std::unique_ptr<MainWindow> w_;
    QStringList errors_;

    ServingLabPage* page() const { return w_->page<ServingLabPage>(); }

    static void modes() {
        QTest::addColumn<BatchingMode>("mode");
        QTest::newRow("static") << BatchingMode::Static;
        QTest::newRow("continuous") << BatchingMode::Continuous;
    }

    const ui::ServingModeRun& run(BatchingMode m) const { return page()->lastLoad()->mode(m); }

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("DLAB_SETTINGS").isEmpty(), "run through CTest: DLAB_SETTINGS keeps the user's settings safe");
        ui::openSettings()->clear();
        tinyPath_ = QString::fromStdString(test::scratchDir() + "/serving-tiny.gguf");
        TinyModelSpec spec;
        spec.nCtx = 512;
        writeTinyModel(spec, tinyPath_.toStdString());
        w_ = std::make_unique<MainWindow>(tinyPath_);
        w_->setErrorReporter([this](const QString& m) { errors_.append(m); });
        w_->resize(1280, 820);
        w_->show();
        QVERIFY(QTest::qWaitFor([&] { return w_->hasModel(); }, 30000));
        w_->tabs()->setCurrentWidget(page());

        // One load: 8 requests arriving fast, batches of 3, lengths that differ (so the static
        // batch pads), a shared system prompt (so the prefix cache hits).
        ServingLoadPanel* load = page()->loadPanel();
        load->rateSpin()->setValue(40.0);
        load->requestsSpin()->setValue(8);
        load->promptMinSpin()->setValue(6);
        load->promptMaxSpin()->setValue(20);
        load->outputMinSpin()->setValue(3);
        load->outputMaxSpin()->setValue(12);
        load->systemPromptCheck()->setChecked(true);
        load->systemTokensSpin()->setValue(40);
        load->maxBatchSpin()->setValue(3);
        load->tokenBudgetSpin()->setValue(32);
        QSignalSpy done(page(), &ServingLabPage::loadDone);
        QVERIFY(load->runButton()->isEnabled());
        QTest::mouseClick(load->runButton(), Qt::LeftButton);
        QVERIFY(page()->busy());
        QVERIFY(!load->runButton()->isEnabled());
        QVERIFY(page()->stopButton()->isEnabled());
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QVERIFY(page()->lastLoad());
        QVERIFY(!page()->lastLoad()->cancelled);
        QVERIFY(!page()->busy());
    }

    void cleanupTestCase() { w_.reset(); }

    void theSameTraceBothWays() {
        const ui::ServingLoadView& v = *page()->lastLoad();
        QCOMPARE(int(v.staticRun.run.requests.size()), 8);
        QCOMPARE(int(v.continuousRun.run.requests.size()), 8);
        for (int i = 0; i < 8; ++i) {
            const RequestOutcome& s = v.staticRun.run.requests[size_t(i)];
            const RequestOutcome& c = v.continuousRun.run.requests[size_t(i)];
            QCOMPARE(s.index, i);
            QVERIFY(s.error.empty() && c.error.empty());
            QCOMPARE(s.timings.promptTokens, c.timings.promptTokens);
            QCOMPARE(s.timings.generatedTokens, c.timings.generatedTokens);
        }
        QCOMPARE(v.staticRun.run.mode, BatchingMode::Static);
        QCOMPARE(v.continuousRun.run.mode, BatchingMode::Continuous);
    }

    void ganttIsTheSteps_data() {
        QTest::addColumn<BatchingMode>("mode");
        QTest::addColumn<int>("axis");
        for (auto [name, m] : {std::pair{"static", BatchingMode::Static}, std::pair{"continuous", BatchingMode::Continuous}})
            for (auto [an, a] : {std::pair{"ms", ui::GanttAxis::Milliseconds}, std::pair{"steps", ui::GanttAxis::Steps}})
                QTest::addRow("%s-%s", name, an) << m << int(a);
    }

    void ganttIsTheSteps() {
        QFETCH(BatchingMode, mode);
        QFETCH(int, axis);
        ServingLoadPanel* load = page()->loadPanel();
        load->setAxis(ui::GanttAxis(axis));
        const TraceRunResult& r = run(mode).run;
        const widgets::GanttChart& c = load->gantt(mode)->chart();
        QCOMPARE(c.rows.size(), qsizetype(8));
        size_t k = 0;
        int padding = 0;
        for (size_t i = 0; i < r.steps.size(); ++i) {
            const StepRecord& st = r.steps[i];
            for (const StepRecord::Item& it : st.items) {
                QVERIFY(k < c.segments.size());
                const widgets::GanttSegment& g = c.segments[k];
                QCOMPARE(g.row, int(it.request - 1));   // the trace's order
                QCOMPARE(g.work, ui::ganttWork(it.work));
                QCOMPARE(g.tokens, it.tokens);
                QCOMPARE(g.step, st.index);
                if (axis == int(ui::GanttAxis::Milliseconds)) {
                    QCOMPARE(g.start, st.startMs);
                    QCOMPARE(g.end, st.startMs + st.ms);
                } else {
                    QCOMPARE(g.start, double(i));
                    QCOMPARE(g.end, double(i + 1));
                }
                QVERIFY(!load->gantt(mode)->segmentRect(int(k)).isNull());
                padding += it.work == StepRecord::Work::Padding;
                ++k;
            }
        }
        QCOMPARE(k, c.segments.size());
        // Static batching pads finished slots; continuous never does.
        if (mode == BatchingMode::Static) QVERIFY(padding > 0);
        else QCOMPARE(padding, 0);
        // Each row's wait, from its timings; a row's tooltip names its numbers.
        for (const RequestOutcome& o : r.requests) {
            const widgets::GanttRow& row = c.rows[o.index];
            if (axis == int(ui::GanttAxis::Milliseconds)) {
                QCOMPARE(row.arrival, o.timings.arrivalMs);
                QCOMPARE(row.admitted, o.timings.admittedMs);
            }
            QVERIFY(row.toolTip.contains(QString::number(o.timings.generatedTokens) + QStringLiteral(" generated")));
        }
        // Both modes on one scale.
        QCOMPARE(load->gantt(BatchingMode::Static)->xAxisMax(), load->gantt(BatchingMode::Continuous)->xAxisMax());
        // The kinds have their own colours, and a segment's tooltip says its step.
        QVERIFY(load->gantt(mode)->workColor(widgets::GanttWork::Prefill) != load->gantt(mode)->workColor(widgets::GanttWork::Decode));
        // (The widest segment: the first ones can be under a pixel wide, and the later of two
        // drawn at the same pixel is the one under the pointer.)
        int widest = 0;
        for (int k = 1; k < int(c.segments.size()); ++k)
            if (load->gantt(mode)->segmentRect(k).width() > load->gantt(mode)->segmentRect(widest).width()) widest = k;
        const QRect seg = load->gantt(mode)->segmentRect(widest);
        QVERIFY(seg.width() >= 3);
        QVERIFY2(load->gantt(mode)->tooltipAt(seg.center()).contains(QStringLiteral("step %1").arg(c.segments[size_t(widest)].step)),
                 qPrintable(load->gantt(mode)->tooltipAt(seg.center())));
        load->setAxis(ui::GanttAxis::Milliseconds);
    }

    // Padding and the waits stand out from the chart's background in both themes: at least 3:1
    // (WCAG's minimum for graphics; the padding was dark grey on near-black in the dark theme).
    void ganttGreysContrast_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void ganttGreysContrast() {
        QFETCH(bool, dark);
        widgets::GanttView view;
        view.setPalette(dark ? ui::darkPalette() : ui::lightPalette());
        const QColor base = view.palette().color(QPalette::Base);
        QVERIFY2(widgets::contrastRatio(view.workColor(widgets::GanttWork::Padding), base) >= 3.0,
                 qPrintable(QString::number(widgets::contrastRatio(view.workColor(widgets::GanttWork::Padding), base))));
        QVERIFY2(widgets::contrastRatio(view.waitColor(), base) >= 3.0, qPrintable(QString::number(widgets::contrastRatio(view.waitColor(), base))));
    }

    void metricsAreTheSummary_data() {
        QTest::addColumn<BatchingMode>("mode");
        QTest::addColumn<int>("metric");
        for (auto [name, m] : {std::pair{"static", BatchingMode::Static}, std::pair{"continuous", BatchingMode::Continuous}})
            for (ServingLoadPanel::Metric k : ServingLoadPanel::metrics())
                QTest::addRow("%s-%d", name, int(k)) << m << int(k);
    }

    void metricsAreTheSummary() {
        QFETCH(BatchingMode, mode);
        QFETCH(int, metric);
        const ServeSummary s = summarize(run(mode).run);
        const ServeSummary& shown = run(mode).summary;
        QCOMPARE(shown.throughput, s.throughput);
        QCOMPARE(shown.ttftP99, s.ttftP99);
        QCOMPARE(shown.paddingTokens, s.paddingTokens);
        const auto m = ServingLoadPanel::Metric(metric);
        QLabel* label = page()->loadPanel()->metricLabel(m, mode);
        QVERIFY(label);
        QCOMPARE(label->text(), ServingLoadPanel::metricText(m, s));
    }

    void metricsSpelledOut() {
        const QLocale loc;
        for (BatchingMode mode : {BatchingMode::Static, BatchingMode::Continuous}) {
            const ServeSummary s = summarize(run(mode).run);
            ServingLoadPanel* load = page()->loadPanel();
            QCOMPARE(load->metricLabel(ServingLoadPanel::Metric::Padding, mode)->text(), loc.toString(qint64(s.paddingTokens)));
            QCOMPARE(load->metricLabel(ServingLoadPanel::Metric::Ttft, mode)->text(),
                     QStringLiteral("%1 / %2").arg(loc.toString(s.ttftP50, 'f', 0), loc.toString(s.ttftP99, 'f', 0)));
            QCOMPARE(load->metricLabel(ServingLoadPanel::Metric::PrefixHitRate, mode)->text(),
                     QStringLiteral("%1 %").arg(loc.toString(100.0 * s.prefixHitRate, 'f', 0)));
            QVERIFY(s.prefixHitRate > 0);   // the shared system prompt
        }
        // The two columns of figures stand apart: at least two characters between a static
        // figure's end and the continuous one's start ("15.4 / 105.7 17.9 / 240.1" read as one).
        // Figures wider than the column headings show it (the real run's are short here).
        ServingLoadPanel* load = page()->loadPanel();
        QLabel* a = load->metricLabel(ServingLoadPanel::Metric::Ttft, BatchingMode::Static);
        QLabel* b = load->metricLabel(ServingLoadPanel::Metric::Ttft, BatchingMode::Continuous);
        const QString before = a->text(), beforeB = b->text();
        a->setText(QStringLiteral("12,345.6 / 12,345.6"));
        b->setText(QStringLiteral("12,345.6 / 12,345.6"));
        for (int i = 0; i < 5; ++i) {   // every layout up to the window takes the wider figures
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QCoreApplication::processEvents();
        }
        const int gap = b->geometry().right() - b->fontMetrics().horizontalAdvance(b->text()) - a->geometry().right();
        a->setText(before);
        b->setText(beforeB);
        QVERIFY2(gap >= 2 * a->fontMetrics().averageCharWidth(), qPrintable(QStringLiteral("%1 px between the columns").arg(gap)));
        QVERIFY(page()->loadPanel()->summaryLabel()->text().contains(
            loc.toString(summarize(run(BatchingMode::Continuous).run).throughput, 'f', 1)));
    }

    // Without a shared system prompt a prompt can still begin like an earlier one (all are cut from
    // one sample text): the summary names the requests that hit the cache and how many tokens,
    // so a hit rate of 8 % with the box unticked is explained, not a puzzle.
    void hitsWithoutASharedPromptExplained() {
        ServingLoadPanel* load = page()->loadPanel();
        const QString sharedText = QStringLiteral("No system prompt is shared");
        QVERIFY(!load->summaryLabel()->text().contains(sharedText));   // this run shares one
        auto v = std::make_shared<ui::ServingLoadView>(*page()->lastLoad());
        v->request.spec.systemPromptTokens = 0;
        for (ui::ServingModeRun* m : {&v->staticRun, &v->continuousRun}) {
            for (RequestOutcome& o : m->run.requests) o.timings.cachedPromptTokens = o.index == 4 ? 16 : 0;
            m->summary = summarize(m->run);
        }
        load->showRun(v);
        const QString text = load->summaryLabel()->text();
        QVERIFY2(text.contains(sharedText) && text.contains(QStringLiteral("#5 (16 tokens)")), qPrintable(text));
        QVERIFY2(text.contains(QLocale().toString(v->continuousRun.summary.prefixHitRate * 100.0, 'f', 0) + QStringLiteral(" %")),
                 qPrintable(text));
        load->showRun(page()->lastLoad());
        QVERIFY(!load->summaryLabel()->text().contains(sharedText));
    }

    void streamingIsTheTokenTimes_data() { modes(); }
    void streamingIsTheTokenTimes() {
        QFETCH(BatchingMode, mode);
        page()->tabs()->setCurrentWidget(page()->streamingPanel());
        ui::ServingStreamingPanel* p = page()->streamingPanel();
        QCOMPARE(p->requestCombo()->count(), 8);
        for (int index : {0, 5}) {
            p->select(mode, index);
            QCOMPARE(p->mode(), mode);
            QCOMPARE(p->requestIndex(), index);
            const RequestTimings& t = run(mode).run.requests[size_t(index)].timings;
            const widgets::StreamingTimeline& tl = p->timeline()->timeline();
            QCOMPARE(tl.tokenMs.size(), t.tokenMs.size());
            for (size_t i = 0; i < t.tokenMs.size(); ++i) QCOMPARE(tl.tokenMs[i], t.tokenMs[i] - t.arrivalMs);
            QCOMPARE(tl.finishedMs, t.finishedMs - t.arrivalMs);
            QVERIFY(p->summaryLabel()->text().contains(QLocale().toString(t.ttftMs(), 'f', 0) + QStringLiteral(" ms")));
        }
        page()->tabs()->setCurrentWidget(page()->loadPanel());
    }

    void batchSweep() {
        ui::ServingBatchPanel* b = page()->batchPanel();
        page()->tabs()->setCurrentWidget(b);
        b->batchesEdit()->setText(QStringLiteral("1, 2, 4"));
        b->promptSpin()->setValue(8);
        b->outputSpin()->setValue(6);
        QSignalSpy done(page(), &ServingLabPage::sweepDone);
        QTest::mouseClick(b->measureButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        const std::vector<BatchSweepPoint>& pts = b->points();
        QCOMPARE(int(pts.size()), 3);
        const QList<QPointF> p50 = b->chart()->points(0), p99 = b->chart()->points(1);
        QCOMPARE(p50.size(), qsizetype(3));
        const QLocale loc;
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(pts[size_t(i)].batch, 1 << i);
            QCOMPARE(pts[size_t(i)].summary.requests, 1 << i);
            QCOMPARE(p50[i], QPointF(pts[size_t(i)].summary.itlP50, pts[size_t(i)].summary.decodeThroughput));
            QCOMPARE(p99[i], QPointF(pts[size_t(i)].summary.itlP99, pts[size_t(i)].summary.decodeThroughput));
            QCOMPARE(b->pointsTable()->item(i, 0)->text(), loc.toString(1 << i));
            QCOMPARE(b->pointsTable()->item(i, 1)->text(), loc.toString(pts[size_t(i)].summary.decodeThroughput, 'f', 1));
            QCOMPARE(b->pointsTable()->item(i, 3)->text(), loc.toString(pts[size_t(i)].summary.itlP99, 'f', 1));
        }
        // Every point says its batch size (a noisy p99 can step back left); a label with no room
        // is left out, so at least one series' labels are all there.
        const QStringList labels = b->chart()->pointLabelTexts();
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(u' ')));
        for (const QString& l : labels) QVERIFY2(QStringList({"1", "2", "4"}).contains(l), qPrintable(l));
        // The workload table: workloadAdvice's choice under the bounds shown, and it follows them.
        const auto check = [&] {
            const std::vector<WorkloadAnswer> a = workloadAdvice(pts, b->itlBoundSpin()->value(), b->ttftBoundSpin()->value());
            for (int row = 0; row < 3; ++row) {
                const QString cell = b->workloadTable()->item(row, 2)->text();
                QCOMPARE(cell, a[size_t(row)].batch > 0 ? loc.toString(a[size_t(row)].batch) : QStringLiteral("–"));
            }
        };
        check();
        QCOMPARE(b->workloadTable()->item(1, 2)->text(), loc.toString(b->advice()[1].batch));   // the most tokens/s
        b->itlBoundSpin()->setValue(b->itlBoundSpin()->minimum());   // hardly anything is that fast
        check();
        bool anyWithin = false;
        for (const BatchSweepPoint& p : pts) anyWithin |= p.summary.itlP99 <= b->itlBoundSpin()->value();
        if (!anyWithin) {
            QCOMPARE(b->workloadTable()->item(0, 2)->text(), QStringLiteral("–"));
            QVERIFY(b->workloadTable()->item(0, 3)->text().startsWith(QStringLiteral("no measured batch")));
        }
        b->itlBoundSpin()->setValue(100000.0);   // everything is
        check();
        QCOMPARE(b->workloadTable()->item(0, 2)->text(), QStringLiteral("4"));
        b->itlBoundSpin()->setValue(100.0);
        page()->tabs()->setCurrentWidget(page()->loadPanel());
    }

    void badBatchListIsOneSentence_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("word") << QStringLiteral("1, two");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("too big") << QStringLiteral("1, 65");
        QTest::newRow("empty") << QStringLiteral(" , ");
    }

    void badBatchListIsOneSentence() {
        QFETCH(QString, text);
        ui::ServingBatchPanel* b = page()->batchPanel();
        const QString before = b->batchesEdit()->text();
        b->batchesEdit()->setText(text);
        page()->measureBatches();
        QVERIFY(!page()->busy());
        QVERIFY(page()->statusLabel()->text().contains(QStringLiteral("batch size")));
        b->batchesEdit()->setText(before);
    }

    void prefixCache() {
        ui::ServingPrefixPanel* p = page()->prefixPanel();
        page()->tabs()->setCurrentWidget(p);
        p->systemSpin()->setValue(120);
        p->userSpin()->setValue(8);
        p->outputSpin()->setValue(4);
        p->requestsSpin()->setValue(3);
        QSignalSpy done(page(), &ServingLabPage::prefixDone);
        QTest::mouseClick(p->runButton(), Qt::LeftButton);
        QVERIFY(page()->progressBar()->isVisible());
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
        QVERIFY(p->hasResult());
        const PrefixCacheResult& r = p->result().result;
        QCOMPARE(r.systemPromptTokens, 120);
        QCOMPARE(r.withCache.requests, 3);
        QVERIFY(r.withCache.prefixHitRate > 0);
        QCOMPARE(r.withoutCache.prefixHitRate, 0.0);
        QVERIFY(r.withCache.prefillTokens < r.withoutCache.prefillTokens);
        for (ui::ServingPrefixPanel::Metric m : ui::ServingPrefixPanel::metrics()) {
            QCOMPARE(p->metricLabel(m, true)->text(), ui::ServingPrefixPanel::metricText(m, r.withCache));
            QCOMPARE(p->metricLabel(m, false)->text(), ui::ServingPrefixPanel::metricText(m, r.withoutCache));
        }
        QCOMPARE(int(p->bars()->bars().size()), 2);
        QCOMPARE(p->bars()->bars()[0].value, r.withCache.ttftP50);
        QCOMPARE(p->bars()->bars()[1].value, r.withoutCache.ttftP50);
        // Request by request: the first computes the shared prompt, the later ones find it cached;
        // the chart draws exactly the measured times.
        QCOMPARE(int(r.requests.size()), 3);
        QCOMPARE(r.requests[0].cachedTokens, 0);
        for (size_t i = 1; i < r.requests.size(); ++i) {
            QVERIFY2(r.requests[i].cachedTokens >= 112 && r.requests[i].cachedTokens <= 120 + 8,
                     qPrintable(QString::number(r.requests[i].cachedTokens)));
            QVERIFY(r.requests[i].cachedTokens < r.requests[i].promptTokens);
        }
        widgets::LineChartView* chart = p->perRequestChart();
        QCOMPARE(chart->seriesCount(), 2);
        for (int cache : {0, 1}) {
            const QList<QPointF> pts = chart->points(cache);
            QCOMPARE(pts.size(), 3);
            for (int i = 0; i < 3; ++i) {
                QCOMPARE(pts[i].x(), double(i + 1));
                QCOMPARE(pts[i].y(), cache == 0 ? r.requests[size_t(i)].ttftWithMs : r.requests[size_t(i)].ttftWithoutMs);
            }
        }
        QVERIFY(!chart->emptyTextShown());
        QVERIFY2(p->summaryLabel()->text().contains(QStringLiteral("request 1 computed all")), qPrintable(p->summaryLabel()->text()));
        page()->tabs()->setCurrentWidget(page()->loadPanel());
    }

    void stopEndsALongRun() {
        ServingLoadPanel* load = page()->loadPanel();
        load->rateSpin()->setValue(2.0);   // 200 requests at 2 per second: minutes
        load->requestsSpin()->setValue(200);
        QSignalSpy done(page(), &ServingLabPage::loadDone);
        QSignalSpy live(page()->controller(), &ui::ServingController::loadLive);
        page()->runLoad();
        QVERIFY(QTest::qWaitFor([&] { return live.count() >= 2; }, 30000));
        QElapsedTimer t;
        t.start();
        QTest::keyClick(page()->stopButton(), Qt::Key_Space);   // the Stop button
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 5000));
        QVERIFY2(t.elapsed() < 1000, qPrintable(QStringLiteral("Stop took %1 ms").arg(t.elapsed())));
        QVERIFY(page()->lastLoad()->cancelled);
        QVERIFY(!page()->lastLoad()->staticRun.done);
        QVERIFY(!page()->lastLoad()->staticRun.run.steps.empty());   // what ran is kept and drawn
        QCOMPARE(load->gantt(BatchingMode::Static)->chart().segments.empty(), false);
        QCOMPARE(load->metricLabel(ServingLoadPanel::Metric::Throughput, BatchingMode::Static)->text(), QStringLiteral("–"));
        QVERIFY(!page()->busy());
        load->requestsSpin()->setValue(8);
        load->rateSpin()->setValue(40.0);
    }

    void contextTooSmallIsOneSentence() {
        ServingLoadPanel* load = page()->loadPanel();
        load->promptMaxSpin()->setValue(2000);   // beyond the tiny model's 512 positions
        QSignalSpy done(page(), &ServingLabPage::loadDone);
        page()->runLoad();
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 10000));
        QVERIFY(page()->statusLabel()->text().contains(QStringLiteral("does not fit the model's context of 512 positions")));
        QCOMPARE(errors_.size(), 1);
        errors_.clear();
        load->promptMaxSpin()->setValue(20);
        load->promptMinSpin()->setValue(6);
    }
};

QTEST_MAIN(TestGuiServingLab)
#include "test_gui_serving_lab.moc"
