// The hand-painted views, offscreen (QT_QPA_PLATFORM=offscreen), without a model:
//  * TokenStrip: text, flow layout (hit-testing, newlines, height for width, incremental appends
//    equal a full layout, a QScrollArea grows), colour ramp, tooltip table, branching menu,
//    highlight, hover, and that 2,000 streamed tokens stay cheap;
//  * SamplerWaterfall: panels left to right without overlap, tooltips explain the stage, a
//    stage that changed nothing is drawn fainter;
//  * DistributionChart: the cumulative line sits on the bar centres, top-k / top-p markers between
//    the last kept and first cut bar, cuts beyond the bars shown go to the caption, dark theme.
#include <QtTest>
#include <QtWidgets>

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>

#include <algorithm>
#include <cmath>

#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

using namespace dlab::widgets;

namespace {

StripToken chip(int step, int id, const QString& text, double p, QList<TokenAlternative> alternatives = {}) {
    StripToken t;
    t.step = step;
    t.id = id;
    t.text = text;
    t.p = p;
    t.alternatives = std::move(alternatives);
    return t;
}

// `count` tokens of ordinary prose, probabilities cycling so every chip colour appears.
QList<StripToken> prose(int count) {
    static const QStringList words{"The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "."};
    QList<StripToken> tokens;
    for (int i = 0; i < count; ++i)
        tokens << chip(i, 100 + i % 10, words[i % words.size()], (i % 7) / 6.0,
                       {{100 + i % 10, words[i % words.size()], (i % 7) / 6.0, 0.2}, {999, " cat", 0.05, 0.1}});
    return tokens;
}

// Pixels in `area` that differ clearly from `background`: proof that something was painted.
int inkPixels(const QImage& image, const QRect& area, const QColor& background) {
    int ink = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                    std::abs(c.blue() - background.blue()) > 60)
                ++ink;
        }
    return ink;
}

// Summed contrast against `background` over `area`: a muted panel has less of it.
double contrast(const QImage& image, const QRect& area, const QColor& background) {
    double sum = 0.0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            sum += std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                   std::abs(c.blue() - background.blue());
        }
    return sum;
}

double distance(const QColor& a, const QColor& b) {
    return std::hypot(a.redF() - b.redF(), a.greenF() - b.greenF(), a.blueF() - b.blueF());
}

QPalette darkPalette() {
    QPalette pal;
    pal.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    pal.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1c));
    pal.setColor(QPalette::AlternateBase, QColor(0x28, 0x28, 0x2e));
    pal.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    pal.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    return pal;
}

QPalette lightPalette() {
    QPalette pal;
    pal.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
    pal.setColor(QPalette::Base, Qt::white);
    pal.setColor(QPalette::AlternateBase, QColor(0xf4, 0xf4, 0xf4));
    pal.setColor(QPalette::Text, Qt::black);
    pal.setColor(QPalette::WindowText, Qt::black);
    return pal;
}

void sendToolTipEvent(QWidget* w, const QPoint& pos) {
    QHelpEvent help(QEvent::ToolTip, pos, w->mapToGlobal(pos));
    QApplication::sendEvent(w, &help);
}

QList<StagePanel> chainPanels() {
    QList<StagePanel> panels;
    const QStringList stages{"raw", "repetition", "temperature", "top-k", "top-p"};
    for (int i = 0; i < stages.size(); ++i) {
        StagePanel p;
        p.stage = stages[i];
        p.kept = 1000 / (i + 1);
        p.massKept = 1.0 - 0.05 * i;
        p.entropy = 3.0 - 0.4 * i;
        p.changed = stages[i] != "repetition";
        p.labels = {" the", " a", " cat", " dog", " mat", " sat", " on", " in", " over"};
        p.p = {0.4, 0.2, 0.1, 0.08, 0.07, 0.05, 0.04, 0.03, 0.03};
        panels << p;
    }
    return panels;
}

QList<DistributionBar> someBars(int n) {
    QList<DistributionBar> bars;
    for (int i = 0; i < n; ++i)
        bars << DistributionBar{i, QStringLiteral("t%1").arg(i), 0.5 / (i + 1), i < n / 2 ? 0.6 / (i + 1) : 0.0, i >= n / 2};
    return bars;
}

QBarSeries* barSeriesOf(DistributionChart& chart) {
    for (QAbstractSeries* s : chart.chart()->series())
        if (auto* bars = qobject_cast<QBarSeries*>(s)) return bars;
    return nullptr;
}

// Times its own painting, so the measurement can tell the strip's work from the window's.
class TimedStrip : public TokenStrip {
public:
    qint64 paintNs = 0;
    int paints = 0;

protected:
    void paintEvent(QPaintEvent* e) override {
        QElapsedTimer t;
        t.start();
        TokenStrip::paintEvent(e);
        paintNs += t.nsecsElapsed();
        ++paints;
    }
};

}  // namespace

class TestGuiWidgets : public QObject {
    Q_OBJECT

private slots:
    // --- TokenStrip ------------------------------------------------------------------------

    void stripText_data() {
        QTest::addColumn<QStringList>("pieces");
        QTest::newRow("empty") << QStringList{};
        QTest::newRow("words") << QStringList{"Hello", ",", " world", "!"};
        QTest::newRow("newlines and tabs") << QStringList{"line", "\n", "\tindented", "\n\n", "end"};
        QTest::newRow("partial utf-8 and emoji") << QStringList{"caf", "", "\u00e9", " \U0001F600"};
    }
    void stripText() {
        QFETCH(QStringList, pieces);
        TokenStrip strip;
        QList<StripToken> tokens;
        for (int i = 0; i < pieces.size(); ++i) tokens << chip(i, i, pieces[i], 0.5);
        strip.setTokens(tokens);
        QCOMPARE(strip.text(), pieces.join(QString()));
        TokenStrip appended;
        for (const StripToken& t : tokens) appended.appendToken(t);
        QCOMPARE(appended.text(), pieces.join(QString()));
        QCOMPARE(appended.tokens().size(), pieces.size());
    }

    void heightForWidthGrowsWhenNarrower() {
        TokenStrip strip;
        strip.setTokens(prose(80));
        const int wide = strip.heightForWidth(900);
        const int narrow = strip.heightForWidth(150);
        QVERIFY2(narrow > wide, qPrintable(QStringLiteral("%1 vs %2").arg(narrow).arg(wide)));
        // At the widget's own width the answer matches the chips actually laid out.
        strip.resize(150, 100);
        QCOMPARE(strip.heightForWidth(150), narrow);
        QVERIFY(strip.tokenRect(79).bottom() < narrow);
        QVERIFY(strip.tokenRect(79).bottom() > narrow - 12);
    }

    void tokenAtRoundTrip_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("narrow") << 120;
        QTest::newRow("wide") << 520;
    }
    void tokenAtRoundTrip() {
        QFETCH(int, width);
        TokenStrip strip;
        QList<StripToken> tokens = prose(60);
        tokens.insert(20, chip(20, 5, "\n", 0.9));
        strip.setTokens(tokens);
        strip.resize(width, strip.heightForWidth(width));
        for (int i = 0; i < tokens.size(); ++i) {
            const QRect r = strip.tokenRect(i);
            QVERIFY(!r.isEmpty());
            QVERIFY2(r.right() < width, qPrintable(QString::number(i)));
            QCOMPARE(strip.tokenAt(r.center()), i);
            if (i > 0) QVERIFY(!r.intersects(strip.tokenRect(i - 1)));
        }
        QCOMPARE(strip.tokenAt(QPoint(width - 1, strip.height() - 1)), -1);
    }

    void newlineBreaksLine_data() {
        QTest::addColumn<QString>("newlineToken");
        QTest::addColumn<int>("rowsDown");
        QTest::newRow("bare newline") << QStringLiteral("\n") << 1;
        QTest::newRow("text then newline") << QStringLiteral("end.\n") << 1;
        QTest::newRow("blank line") << QStringLiteral("\n\n") << 2;
    }
    void newlineBreaksLine() {
        QFETCH(QString, newlineToken);
        QFETCH(int, rowsDown);
        TokenStrip strip;
        strip.setTokens({chip(0, 1, "Hello", 0.5), chip(1, 2, " world", 0.5), chip(2, 3, newlineToken, 0.5),
                         chip(3, 4, "Next", 0.5), chip(4, 5, " line", 0.5)});
        strip.resize(600, 200);  // wide enough that nothing wraps by width
        const QRect first = strip.tokenRect(0), breaker = strip.tokenRect(2), next = strip.tokenRect(3);
        QCOMPARE(breaker.top(), first.top());          // the ↵ chip ends its own row
        QCOMPARE(next.left(), first.left());           // the next token starts at the left margin...
        const int rowStep = next.top() - first.top();
        QVERIFY(rowStep > 0);                          // ...on a new row,
        QCOMPARE(rowStep % rowsDown, 0);
        const int oneRow = rowStep / rowsDown;         // one row down per newline
        QVERIFY(oneRow >= first.height());
        QVERIFY(oneRow < 2 * first.height());
        QCOMPARE(strip.tokenRect(4).top(), next.top());
    }

    void incrementalLayoutEqualsFullLayout() {
        const QList<StripToken> tokens = prose(200);
        TokenStrip full, streamed;
        full.resize(333, 400);
        streamed.resize(333, 400);
        full.setTokens(tokens);
        for (const StripToken& t : tokens) streamed.appendToken(t);
        for (int i = 0; i < tokens.size(); ++i) QCOMPARE(streamed.tokenRect(i), full.tokenRect(i));
        // A width change re-flows everything.
        const QRect before = streamed.tokenRect(199);
        streamed.resize(200, 400);
        full.resize(200, 400);
        QVERIFY(streamed.tokenRect(199).top() > before.top());
        for (int i = 0; i < tokens.size(); ++i) QCOMPARE(streamed.tokenRect(i), full.tokenRect(i));
    }

    void fontChangeRelaysOut() {
        TokenStrip strip;
        strip.resize(300, 200);
        strip.setTokens(prose(10));
        const QRect small = strip.tokenRect(1);
        QFont big = strip.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        strip.setFont(big);
        QVERIFY(strip.tokenRect(1).width() > small.width());
        QVERIFY(strip.tokenRect(1).height() > small.height());
    }

    void backgroundMonotonicInP_data() {
        QTest::addColumn<QPalette>("palette");
        QTest::newRow("light") << lightPalette();
        QTest::newRow("dark") << darkPalette();
    }
    void backgroundMonotonicInP() {
        QFETCH(QPalette, palette);
        TokenStrip strip;
        strip.setPalette(palette);
        const QColor base = palette.color(QPalette::Base);
        double previous = -1.0;
        for (double p : {0.0, 0.25, 0.5, 1.0}) {
            const double d = distance(strip.backgroundFor(p), base);
            QVERIFY2(d > previous, qPrintable(QStringLiteral("p = %1").arg(p)));
            previous = d;
        }
        QVERIFY(distance(strip.backgroundFor(0.0), base) > 0.02);  // unlikely chips stay visible
    }

    void toolTipListsAlternatives_data() {
        QTest::addColumn<bool>("chosenListed");
        QTest::newRow("chosen among the alternatives") << true;
        QTest::newRow("chosen not listed") << false;
    }
    void toolTipListsAlternatives() {
        QFETCH(bool, chosenListed);
        QList<TokenAlternative> alts{{8, " dog", 0.5, 0.45}, {9, " mat", 0.05, 0.1}};
        if (chosenListed) alts.insert(1, {7, " cat", 0.421, 0.3});
        TokenStrip strip;
        strip.setLocale(QLocale::c());
        strip.setTokens({chip(3, 7, " cat", 0.421, alts)});
        const QString tip = strip.toolTipFor(0);
        const int dog = tip.indexOf(QStringLiteral("dog")), cat = tip.indexOf(QStringLiteral("cat")),
                  mat = tip.indexOf(QStringLiteral("mat"));
        QVERIFY2(dog >= 0 && dog < cat && cat < mat, qPrintable(tip));   // most probable first
        QVERIFY(tip.contains(QStringLiteral("50.0 %")));
        QVERIFY(tip.contains(QStringLiteral("42.1 %")));
        QVERIFY(tip.contains(QStringLiteral("5.0 %")));
        QVERIFY(tip.contains(QStringLiteral("(45.0 %)")));               // raw p beside it
        QCOMPARE(tip.count(QStringLiteral("chosen")), 1);
        QVERIFY(tip.indexOf(QStringLiteral("chosen")) > cat);
        QVERIFY(tip.contains(QStringLiteral("Step 3")));
        QVERIFY(strip.toolTipFor(1).isEmpty());
    }

    void toolTipEventShowsTable() {
        TokenStrip strip;
        strip.setTokens(prose(5));
        strip.resize(400, 100);
        strip.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strip));
        sendToolTipEvent(&strip, strip.tokenRect(2).center());
        QTRY_COMPARE(QToolTip::text(), strip.toolTipFor(2));
        QToolTip::hideText();
    }

    void alternativesMenuBranches() {
        TokenStrip strip;
        strip.setTokens({chip(0, 1, "A", 0.9),
                         chip(4, 7, " cat", 0.4, {{8, " dog", 0.5, 0.4}, {7, " cat", 0.4, 0.3}, {9, " a&b", 0.1, 0.2}})});
        QSignalSpy chosen(&strip, &TokenStrip::alternativeChosen);
        QMenu* menu = strip.alternativesMenu(1);
        QVERIFY(menu);
        QList<QAction*> offered;
        for (QAction* a : menu->actions())
            if (!a->isSeparator()) offered << a;
        QCOMPARE(offered.size(), 2);                       // the chosen token is not offered
        QCOMPARE(offered[0]->data().toInt(), 8);
        QCOMPARE(offered[1]->data().toInt(), 9);
        QVERIFY(offered[1]->text().contains(QStringLiteral("a&&b")));  // '&' is not a mnemonic
        offered[1]->trigger();
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen[0][0].toInt(), 4);
        QCOMPARE(chosen[0][1].toInt(), 9);
        delete menu;
        QVERIFY(!strip.alternativesMenu(0));               // no alternatives: nothing to offer
        QVERIFY(!strip.alternativesMenu(5));
    }

    void clickPopsMenuOnlyWhenBranching_data() {
        QTest::addColumn<bool>("branching");
        QTest::newRow("branching") << true;
        QTest::newRow("no branching") << false;
    }
    void clickPopsMenuOnlyWhenBranching() {
        QFETCH(bool, branching);
        TokenStrip strip;
        strip.setTokens(prose(6));
        strip.setBranchingEnabled(branching);
        QCOMPARE(strip.branchingEnabled(), branching);
        strip.resize(400, 100);
        strip.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strip));
        QSignalSpy chosen(&strip, &TokenStrip::alternativeChosen);
        QTest::mouseClick(&strip, Qt::LeftButton, {}, strip.tokenRect(2).center());
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        QCOMPARE(menu != nullptr, branching);
        if (menu) menu->close();
        QCOMPARE(chosen.size(), 0);
        if (!branching) QVERIFY(!strip.alternativesMenu(2));
    }

    void highlightAccessors() {
        TokenStrip strip;
        strip.setTokens(prose(10));
        strip.setHighlight(2, 3);
        QCOMPARE(strip.highlightFirst(), 2);
        QCOMPARE(strip.highlightCount(), 3);
        strip.setHighlight(-4, -1);
        QCOMPARE(strip.highlightFirst(), 0);
        QCOMPARE(strip.highlightCount(), 0);
        strip.setHighlight(1, 2);
        strip.clear();
        QCOMPARE(strip.highlightCount(), 0);
        QVERIFY(strip.tokens().isEmpty());
        QCOMPARE(strip.text(), QString());
        QCOMPARE(strip.tokenAt(QPoint(5, 5)), -1);
    }

    void highlightIsPainted() {
        TokenStrip strip;
        strip.setPalette(lightPalette());
        strip.setTokens(prose(6));
        strip.resize(400, 60);
        const QImage plain = strip.grab().toImage();
        strip.setHighlight(1, 2);
        const QImage lit = strip.grab().toImage();
        const QRect r = strip.tokenRect(1);
        QVERIFY(plain.copy(r) != lit.copy(r));
        const QRect untouched = strip.tokenRect(4);
        QCOMPARE(plain.copy(untouched), lit.copy(untouched));
    }

    void hoverSignalsIndex() {
        TokenStrip strip;
        strip.setTokens(prose(6));
        strip.resize(400, 60);
        QSignalSpy hovered(&strip, &TokenStrip::tokenHovered);
        const QPoint at = strip.tokenRect(3).center();
        QMouseEvent move(QEvent::MouseMove, at, strip.mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&strip, &move);
        QCOMPARE(hovered.size(), 1);
        QCOMPARE(hovered[0][0].toInt(), 3);
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&strip, &leave);
        QCOMPARE(hovered.size(), 2);
        QCOMPARE(hovered[1][0].toInt(), -1);
    }

    void stripPaints() {
        TokenStrip strip;
        strip.setPalette(lightPalette());
        QList<StripToken> tokens = prose(20);
        tokens[3].forced = true;
        strip.setTokens(tokens);
        strip.resize(300, strip.heightForWidth(300));
        const QImage image = strip.grab().toImage();
        const QColor background = image.pixelColor(0, 0);
        QVERIFY(inkPixels(image, strip.tokenRect(6), background) > 20);  // p = 6/6: a saturated chip
        QCOMPARE(inkPixels(image, QRect(0, 0, 3, image.height()), background), 0);  // the margin
    }

    void scrollAreaGrowsWithAppends() {
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* strip = new TokenStrip;
        area.setWidget(strip);
        area.resize(300, 120);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        for (const StripToken& t : prose(300)) strip->appendToken(t);
        QTRY_VERIFY(strip->height() >= strip->heightForWidth(strip->width()));
        QVERIFY(strip->height() > area.viewport()->height());
        QVERIFY(area.verticalScrollBar()->maximum() > 0);
        QVERIFY(strip->tokenRect(299).bottom() < strip->height());
    }

    void streamingTwoThousandTokensIsCheap() {
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* strip = new TimedStrip;
        area.setWidget(strip);
        area.resize(600, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QScrollBar* bar = area.verticalScrollBar();
        const QList<StripToken> tokens = prose(2000);
        QElapsedTimer timer, part;
        qint64 appendNs = 0;
        timer.start();
        for (int i = 0; i < tokens.size(); ++i) {
            part.start();
            strip->appendToken(tokens[i]);
            appendNs += part.nsecsElapsed();
            if (i % 30 == 29) {
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);  // the area takes the new height
                bar->setValue(bar->maximum());                                    // follow the answer
                strip->repaint();
            }
        }
        QCoreApplication::processEvents();
        const qint64 streamedMs = timer.elapsed();
        QVERIFY(strip->paints >= 2000 / 30);
        bar->setValue(bar->maximum());
        QCoreApplication::processEvents();
        QVERIFY(strip->visibleRegion().boundingRect().contains(strip->tokenRect(1999)));

        TokenStrip bare;  // the worst case: every chip on screen, full repaints
        bare.setTokens(tokens);
        bare.resize(600, bare.heightForWidth(600));
        timer.restart();
        for (int r = 0; r < 10; ++r) bare.grab();
        const double fullPaintMs = timer.elapsed() / 10.0;
        qInfo("2,000 tokens streamed with a repaint per 30: %lld ms in all, of which the strip's appends %.1f ms "
              "and its %d paints %.1f ms (the rest is the window's repaint and flush); one full paint of all "
              "2,000 chips %.1f ms",
              streamedMs, appendNs / 1e6, strip->paints, strip->paintNs / 1e6, fullPaintMs);
        QVERIFY(streamedMs < 2000);  // generous: the target is < 100 ms, timing on shared CPUs is noisy
        QCOMPARE(strip->text(), bare.text());
    }

    // --- SamplerWaterfall -----------------------------------------------------------------

    void waterfallPanelsLeftToRight_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("cramped") << 420;
        QTest::newRow("natural") << 900;
        QTest::newRow("roomy") << 1600;
    }
    void waterfallPanelsLeftToRight() {
        QFETCH(int, width);
        SamplerWaterfall waterfall;
        waterfall.setPanels(chainPanels());
        waterfall.resize(width, 220);
        QCOMPARE(waterfall.panels().size(), 5);
        for (int i = 0; i < 5; ++i) {
            const QRect r = waterfall.panelRect(i);
            QVERIFY(r.width() > 40);
            QVERIFY(r.right() < width);
            QVERIFY(r.bottom() < 220);
            QCOMPARE(r.width(), waterfall.panelRect(0).width());
            if (i > 0) {
                QVERIFY(r.left() > waterfall.panelRect(i - 1).right());
                QVERIFY(!r.intersects(waterfall.panelRect(i - 1)));
            }
        }
        QVERIFY(waterfall.panelRect(5).isNull());
        QVERIFY(waterfall.sizeHint().width() >= 5 * 140);
        waterfall.clear();
        QVERIFY(waterfall.panels().isEmpty());
        QVERIFY(waterfall.panelRect(0).isNull());
    }

    void stageTexts_data() {
        QTest::addColumn<QString>("stage");
        for (const char* s : {"raw", "logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "dry",
                              "temperature", "top-k", "top-p", "min-p", "typical", "xtc", "top-n-sigma", "mirostat"})
            QTest::newRow(s) << QString::fromLatin1(s);
    }
    void stageTexts() {
        QFETCH(QString, stage);
        QVERIFY(!stageTitle(stage).isEmpty());
        const QString why = stageExplanation(stage);
        QVERIFY(why.size() > 30);
        QVERIFY(why.endsWith(u'.'));
    }

    void unknownStageFallsBack() {
        QCOMPARE(stageTitle(QStringLiteral("my-sampler")), QStringLiteral("my-sampler"));
        QVERIFY(stageExplanation(QStringLiteral("my-sampler")).isEmpty());
        QCOMPARE(stageTitle(QStringLiteral("top-k")), QStringLiteral("Top-k"));
        QVERIFY(stageExplanation(QStringLiteral("temperature")).startsWith(QStringLiteral("Divides every logit by T")));
    }

    void waterfallToolTipExplainsStage() {
        SamplerWaterfall waterfall;
        waterfall.setPanels(chainPanels());
        waterfall.resize(900, 220);
        waterfall.show();
        QVERIFY(QTest::qWaitForWindowExposed(&waterfall));
        for (int i : {0, 3}) {
            sendToolTipEvent(&waterfall, waterfall.panelRect(i).center());
            QTRY_COMPARE(QToolTip::text(), stageExplanation(waterfall.panels()[i].stage));
        }
        QToolTip::hideText();
    }

    void waterfallPaintsAndMutesUnchangedStages() {
        SamplerWaterfall waterfall;
        waterfall.setPalette(lightPalette());
        QList<StagePanel> panels = chainPanels();
        panels[1] = panels[2];       // the same content, ...
        panels[1].stage = "min-p";
        panels[1].changed = false;   // ...but this stage did nothing this step
        waterfall.setPanels(panels);
        waterfall.resize(900, 220);
        const QImage image = waterfall.grab().toImage();
        const QColor background = image.pixelColor(1, 1);
        for (int i = 0; i < panels.size(); ++i)
            QVERIFY(inkPixels(image, waterfall.panelRect(i), background) > 100);
        const double muted = contrast(image, waterfall.panelRect(1), background);
        const double active = contrast(image, waterfall.panelRect(2), background);
        QVERIFY2(muted < 0.8 * active, qPrintable(QStringLiteral("%1 vs %2").arg(muted).arg(active)));
    }

    // --- DistributionChart ----------------------------------------------------------------

    void cumulativeLineOnePointPerBar_data() {
        QTest::addColumn<int>("bars");
        QTest::newRow("one") << 1;
        QTest::newRow("five") << 5;
        QTest::newRow("twenty") << 20;
    }
    void cumulativeLineOnePointPerBar() {
        QFETCH(int, bars);
        DistributionChart chart;
        DistributionCutoffs cut;
        double sum = 0.0;
        for (int i = 0; i < bars; ++i) cut.cumulative << (sum += 0.5 / (i + 1) / 4.0);
        chart.setBars(someBars(bars), cut);
        const QList<QPointF> points = chart.cumulativeSeries()->points();
        QCOMPARE(points.size(), bars);
        for (int i = 0; i < bars; ++i) {
            QCOMPARE(points[i].x(), qreal(i));
            QCOMPARE(points[i].y(), cut.cumulative[i]);
        }
        QVERIFY(chart.cumulativeSeries()->isVisible());
    }

    void cutoffMarkers_data() {
        QTest::addColumn<int>("bars");
        QTest::addColumn<int>("topK");
        QTest::addColumn<int>("topKKept");
        QTest::addColumn<double>("topP");
        QTest::addColumn<int>("topPKept");
        QTest::addColumn<qreal>("kx");
        QTest::addColumn<qreal>("px");
        QTest::addColumn<QString>("captionHas");
        QTest::newRow("both inside") << 10 << 3 << 3 << 0.9 << 6 << 2.5 << 5.5 << QString();
        QTest::newRow("top-k keeps every bar shown") << 10 << 10 << 10 << 1.0 << -1 << 9.5 << -1.0 << QString();
        QTest::newRow("top-p beyond") << 20 << 0 << -1 << 0.95 << 57 << -1.0 << -1.0
                                      << QStringLiteral("top-p keeps 57 tokens (beyond the 20 shown)");
        QTest::newRow("top-k beyond") << 10 << 40 << 40 << 0.5 << 2 << -1.0 << 1.5
                                      << QStringLiteral("top-k keeps 40 tokens (beyond the 10 shown)");
        QTest::newRow("settings off") << 10 << 0 << 50000 << 1.0 << 50000 << -1.0 << -1.0 << QString();
        QTest::newRow("stages absent") << 10 << 5 << -1 << 0.9 << -1 << -1.0 << -1.0 << QString();
    }
    void cutoffMarkers() {
        QFETCH(int, bars);
        QFETCH(int, topK);
        QFETCH(int, topKKept);
        QFETCH(double, topP);
        QFETCH(int, topPKept);
        QFETCH(qreal, kx);
        QFETCH(qreal, px);
        QFETCH(QString, captionHas);
        DistributionChart chart;
        DistributionCutoffs cut;
        for (int i = 0; i < bars; ++i) cut.cumulative << std::min(1.0, 0.2 * (i + 1));
        cut.topK = topK;
        cut.topKKept = topKKept;
        cut.topP = topP;
        cut.topPKept = topPKept;
        chart.setBars(someBars(bars), cut);
        QCOMPARE(chart.topKMarkerX(), kx);
        QCOMPARE(chart.topPMarkerX(), px);
        QCOMPARE(chart.topPLevel(), topP < 1.0 ? qreal(topP) : qreal(-1.0));
        if (captionHas.isEmpty()) {
            QVERIFY2(chart.caption().isEmpty(), qPrintable(chart.caption()));
            QVERIFY(!chart.chart()->title().contains(QStringLiteral("beyond")));
        } else {
            QVERIFY2(chart.caption().contains(captionHas), qPrintable(chart.caption()));
            QVERIFY(chart.caption().contains(captionHas));
        }
    }

    void overlayLinesUpWithBars() {
        DistributionChart chart;
        DistributionCutoffs cut;
        cut.cumulative = {0.3, 0.5, 0.65, 0.75, 0.8, 0.84, 0.87};
        cut.topK = 4;
        cut.topKKept = 4;
        chart.setBars(someBars(7), cut);
        chart.resize(700, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QTRY_VERIFY(!chart.chart()->plotArea().isEmpty());
        QBarSeries* bars = barSeriesOf(chart);
        QVERIFY(bars);
        const QRectF plot = chart.chart()->plotArea();
        const qreal slot = plot.width() / 7;
        for (int i = 0; i < 7; ++i) {
            const QPointF onLine = chart.chart()->mapToPosition(QPointF(i, cut.cumulative[i]), chart.cumulativeSeries());
            const QPointF onBar = chart.chart()->mapToPosition(QPointF(i, 0.0), bars);
            QVERIFY2(std::abs(onLine.x() - onBar.x()) < 1.0, qPrintable(QStringLiteral("bar %1").arg(i)));
            QVERIFY(std::abs(onLine.x() - (plot.left() + (i + 0.5) * slot)) < 1.0);
        }
        // The top-k marker lies half-way between bar 3 and bar 4.
        const QPointF marker = chart.chart()->mapToPosition(QPointF(chart.topKMarkerX(), 0.5), chart.cumulativeSeries());
        QVERIFY(std::abs(marker.x() - (plot.left() + 4 * slot)) < 1.0);
    }

    void removedBarsStaySelected() {
        DistributionChart chart;
        chart.setBars(someBars(6));
        QBarSeries* bars = barSeriesOf(chart);
        QVERIFY(bars);
        for (QBarSet* set : bars->barSets()) {
            QList<int> removed = set->selectedBars();
            std::sort(removed.begin(), removed.end());
            QCOMPARE(removed, (QList<int>{3, 4, 5}));
        }
        QVERIFY(chart.cumulativeSeries()->points().isEmpty());
        QVERIFY(!chart.cumulativeSeries()->isVisible());
    }

    void clearResetsCutoffs() {
        DistributionChart chart;
        DistributionCutoffs cut;
        cut.cumulative = {0.5, 0.7, 0.8};
        cut.topK = 2;
        cut.topKKept = 2;
        cut.topP = 0.6;
        cut.topPKept = 90;
        chart.setBars(someBars(3), cut);
        QVERIFY(!chart.caption().isEmpty());
        chart.clear();
        QVERIFY(chart.bars().isEmpty());
        QVERIFY(chart.cumulativeSeries()->points().isEmpty());
        QCOMPARE(chart.topKMarkerX(), -1.0);
        QCOMPARE(chart.topPMarkerX(), -1.0);
        QCOMPARE(chart.topPLevel(), -1.0);
        QVERIFY(chart.caption().isEmpty());
    }

    void chartPaintsAndFollowsDarkPalette() {
        DistributionChart chart;
        chart.setPalette(lightPalette());
        DistributionCutoffs cut;
        cut.cumulative = {0.4, 0.6, 0.7, 0.75, 0.8};
        cut.topP = 0.65;
        cut.topPKept = 3;
        chart.setBars(someBars(5), cut);
        chart.resize(600, 400);
        QCOMPARE(chart.chart()->theme(), QChart::ChartThemeLight);
        const QImage light = chart.grab().toImage();
        const QRect plot = chart.chart()->plotArea().toRect();
        QVERIFY(inkPixels(light, plot, light.pixelColor(plot.topLeft() + QPoint(2, 2))) > 500);
        chart.setPalette(darkPalette());
        QCOMPARE(chart.chart()->theme(), QChart::ChartThemeDark);
        QVERIFY(chart.cumulativeSeries()->pen().color().lightness() > 128);  // our colour, re-applied
        QCOMPARE(chart.cumulativeSeries()->pen().widthF(), 2.0);
        const QImage dark = chart.grab().toImage();
        QVERIFY(dark.pixelColor(3, 3).lightness() < 100);
    }
};

QTEST_MAIN(TestGuiWidgets)
#include "test_gui_widgets.moc"
