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
#include <QLegendMarker>
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>

#include "ui/engine/step_views.h"
#include "ui/playground/constraint_box.h"
#include "widgets/adaptive_row.h"
#include "widgets/distribution_chart.h"
#include "widgets/flow_layout.h"
#include "widgets/image_export.h"
#include "widgets/line_chart_view.h"
#include "widgets/number_text.h"
#include "widgets/probability_legend.h"
#include "widgets/eliding_label.h"
#include "widgets/row_scroll_area.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/streaming_timeline_view.h"
#include "widgets/text_box_lines.h"
#include "widgets/text_line.h"
#include "widgets/token_strip.h"

// Qt's object hooks (qhooks_p.h): every QObject constructed / destroyed is reported, so a test can
// prove that deleting a widget leaves none of the objects it created behind.
Q_CORE_EXPORT extern quintptr qtHookData[];

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

// A widget's font scaled (presentation mode, a larger system font).
void scaleFont(QWidget& w, double factor) {
    QFont f = w.font();
    f.setPointSizeF(f.pointSizeF() * factor);
    w.setFont(f);
}

QList<DistributionBar> someBars(int n) {
    QList<DistributionBar> bars;
    for (int i = 0; i < n; ++i)
        bars << DistributionBar{i, QStringLiteral("t%1").arg(i), 0.5 / (i + 1), i < n / 2 ? 0.6 / (i + 1) : 0.0, i >= n / 2};
    return bars;
}

// The plot's background: the colour most of its pixels have (its centre may lie on a grid line).
QRgb commonestColour(const QImage& image, const QRect& area) {
    QHash<QRgb, int> counts;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) ++counts[image.pixel(x, y)];
    QRgb best = 0;
    int most = -1;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (it.value() > most) {
            most = it.value();
            best = it.key();
        }
    return best;
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

// Translations as long as German ("behalten"), to prove the panels wrap instead of eliding:
// every word of the SamplerWaterfall / DistributionChart texts twice as long, placeholders kept.
class LongTranslator : public QTranslator {
public:
    bool isEmpty() const override { return false; }
    QString translate(const char* context, const char* source, const char*, int n) const override {
        const QString ctx = QString::fromLatin1(context);
        if (ctx != QLatin1String("dlab::widgets::SamplerWaterfall") && ctx != QLatin1String("SamplerWaterfall") &&
            ctx != QLatin1String("dlab::widgets::DistributionChart"))
            return {};
        QString text = QString::fromUtf8(source);
        if (n >= 0) text.replace(QLatin1String("%n"), QString::number(n));
        static const QRegularExpression word(QStringLiteral("\\b([A-Za-z]{3,})\\b"));
        text.replace(word, QStringLiteral("\\1\\1"));
        return text;
    }
};

QList<StagePanel> greedyPanels() {
    // The greedy-loop demo at T = 0: the model is nearly sure, the temperature stage keeps one token.
    QList<StagePanel> panels;
    const QStringList labels{"\u2423the", "\u2423a", "\u2423cat", "\u2423dog", "\u2423mat", "\u2423sat", "\u2423on", "\u2423in"};
    for (const char* stage : {"raw", "repetition", "temperature", "top-k", "top-p", "min-p"}) {
        StagePanel p;
        p.stage = QString::fromLatin1(stage);
        const bool raw = p.stage == QLatin1String("raw") || p.stage == QLatin1String("repetition");
        p.kept = raw ? 49152 : 1;
        p.massKept = raw ? 1.0 : 0.9993;
        p.entropy = raw ? 0.01 : 0.0;
        p.changed = p.stage == QLatin1String("temperature") || p.stage == QLatin1String("repetition");
        p.labels = raw ? labels : labels.mid(0, 1);
        p.p = raw ? QList<double>{0.9993, 0.0002, 0.0001, 0.0001, 0.0001, 0.00005, 0.00005, 0.00001} : QList<double>{1.0};
        panels << p;
    }
    return panels;
}

QStringList visibleSceneTexts(QGraphicsScene* scene) {
    QStringList out;
    for (QGraphicsItem* item : scene->items()) {
        if (!item->isVisible()) continue;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) out << t->toPlainText();
        else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item)) out << st->text();
    }
    return out;
}

void settle(QWidget& w) {
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCoreApplication::processEvents();
    (void)w.grab();
}

// Screenshots for people to look at: DLAB_WIDGET_SHOTS=/some/dir writes PNGs there.
void shot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("DLAB_WIDGET_SHOTS");
    if (!dir.isEmpty()) w.grab().save(dir + u'/' + name + QStringLiteral(".png"));
}

QList<StripToken> withPrompt(int count) {
    QList<StripToken> tokens;
    StripToken start = chip(-1, 1, QStringLiteral("<|im_start|>"), 1.0);
    start.special = true;
    tokens << start << chip(-1, 882, QStringLiteral("user"), 1.0);
    tokens << prose(count);
    QList<StripToken> adored{chip(0, 30, " ad", 0.7), chip(0, 31, "ored", 0.3)};
    tokens << adored;
    return tokens;
}

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
        QVERIFY(tip.contains(QStringLiteral("Step 4")));   // engine step 3 is the fourth token: counted from 1 on screen
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
        QVERIFY(strip.tokenRect(0).left() >= 2);
        QCOMPARE(inkPixels(image, QRect(0, 0, strip.tokenRect(0).left(), image.height()), background), 0);  // the margin
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
        // Chain order reads left to right, then (when too narrow for all) on the next row.
        const int cols = waterfall.columns();
        QVERIFY(cols >= 1 && cols <= 5);
        if (width >= 900) QCOMPARE(cols, 5);
        // The repetition penalty changed nothing this step: a slim strip, still in its place.
        QVERIFY(waterfall.folded(1));
        QVERIFY(!waterfall.folded(0) && !waterfall.folded(2));
        QVERIFY(waterfall.panelRect(1).width() > 20);
        QVERIFY(waterfall.panelRect(1).width() < waterfall.panelRect(0).width() / 2);
        for (int i = 0; i < 5; ++i) {
            const QRect r = waterfall.panelRect(i);
            QVERIFY(r.right() < width);
            QVERIFY(r.bottom() < 220);
            if (i != 1) QCOMPARE(r.width(), waterfall.panelRect(0).width());
            QCOMPARE(r.height(), waterfall.panelRect(0).height());
            for (int j = 0; j < i; ++j) QVERIFY(!r.intersects(waterfall.panelRect(j)));
            if (i % cols > 0) QVERIFY(r.left() > waterfall.panelRect(i - 1).right());
            else if (i > 0) QVERIFY(r.top() > waterfall.panelRect(i - 1).bottom());
        }
        QVERIFY(waterfall.panelRect(5).isNull());
        QVERIFY(waterfall.sizeHint().width() >= 4 * 140);
        waterfall.clear();
        QVERIFY(waterfall.panels().isEmpty());
        QVERIFY(waterfall.panelRect(0).isNull());
    }

    void stageTexts_data() {
        QTest::addColumn<QString>("stage");
        for (const char* s : {"raw", "logit-bias", "repetition", "freq-presence", "no-repeat-ngram", "dry",
                              "temperature", "top-k", "top-p", "min-p", "typical", "xtc", "top-n-sigma", "mirostat", "mirostat-v1"})
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
            QTRY_VERIFY(QToolTip::text().contains(stageExplanation(waterfall.panels()[i].stage).toHtmlEscaped()));
            QVERIFY(QToolTip::text().contains(stageTitle(waterfall.panels()[i].stage)));
        }
        QToolTip::hideText();
    }

    // A stage that changed nothing folds to a slim strip in its place: its name and "no change"
    // along the strip, its numbers in the tooltip, and the stages that did something get the
    // width. A CJK name stands one character under the other instead of lying on its side.
    // A language switched while the waterfall shows a step: its row is measured again for the new
    // words and the splitter gives it the room (after a switch to German the last line of each
    // panel, the entropy, fell below the panel until the next step).
    void waterfallMeasuresAgainForANewLanguage() {
        // As on the Playground: the row in a splitter pane under the chart's, the window short.
        QWidget host;
        auto* layout = new QVBoxLayout(&host);
        auto* split = new QSplitter(Qt::Vertical, &host);
        split->setChildrenCollapsible(false);
        split->addWidget(new QLabel(QStringLiteral("chart")));
        auto* area = new RowScrollArea;
        auto* waterfall = new SamplerWaterfall;
        waterfall->setWrapping(false);
        area->setRowWidget(waterfall);
        split->addWidget(area);
        layout->addWidget(split);
        waterfall->setPanels(chainPanels());
        host.setFixedSize(900, 400);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        split->setSizes({1000, 0});   // the row at its least height, as in a short window
        QCoreApplication::processEvents();
        waterfall->grab();
        QVERIFY2(waterfall->elidedTexts().isEmpty(), qPrintable(waterfall->elidedTexts().join(QStringLiteral(" | "))));
        const int before = area->height();
        LongTranslator longer;
        QCoreApplication::installTranslator(&longer);   // posts QEvent::LanguageChange, as a switch does
        QTest::qWait(50);
        waterfall->grab();
        const QStringList elided = waterfall->elidedTexts();
        const int after = area->height(), wanted = area->minimumSizeHint().height();
        QCoreApplication::removeTranslator(&longer);
        QVERIFY2(after > before && after >= wanted, qPrintable(QStringLiteral("%1 px, then %2 of %3").arg(before).arg(after).arg(wanted)));
        QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(" | "))));
    }

    void waterfallFoldsUnchangedStages_data() {
        QTest::addColumn<bool>("cjk");
        QTest::newRow("latin") << false;
        QTest::newRow("cjk") << true;
    }
    void waterfallFoldsUnchangedStages() {
        QFETCH(bool, cjk);
        class CjkTranslator : public QTranslator {
        public:
            bool isEmpty() const override { return false; }
            QString translate(const char* context, const char* source, const char*, int) const override {
                if (QByteArray(context) != "SamplerWaterfall" && QByteArray(context) != "dlab::widgets::SamplerWaterfall") return {};
                if (QByteArray(source) == "Repetition penalty") return QStringLiteral("\u91cd\u590d\u60e9\u7f5a");
                if (QByteArray(source) == "no change") return QStringLiteral("\u65e0\u53d8\u5316");
                return {};
            }
        } translator;
        if (cjk) QCoreApplication::installTranslator(&translator);
        SamplerWaterfall waterfall;
        waterfall.setPalette(lightPalette());
        waterfall.setWrapping(false);
        QList<StagePanel> panels = chainPanels();
        waterfall.setPanels(panels);
        const int foldedMin = waterfall.minimumSizeHint().width();
        waterfall.resize(foldedMin, 220);
        const QImage image = waterfall.grab().toImage();
        const QStringList painted = waterfall.paintedTexts(), elided = waterfall.elidedTexts();
        const QString title = stageTitle(QStringLiteral("repetition")), note = SamplerWaterfall::tr("no change");
        const QString tip = waterfall.toolTipFor(1);
        if (cjk) QCoreApplication::removeTranslator(&translator);

        QVERIFY(waterfall.folded(1));
        const int grows = waterfall.panelRect(0).width() - waterfall.panelRect(1).width();   // at the minimum width
        QVERIFY2(elided.isEmpty(), qPrintable(elided.join(" | ")));
        QVERIFY2(painted.contains(title) && painted.contains(note), qPrintable(painted.join(" | ")));
        QVERIFY(!painted.contains(waterfall.statTexts(1).first()));   // "kept 500": only in the tooltip
        QVERIFY2(tip.contains(QStringLiteral("changed nothing")) && tip.contains(waterfall.statTexts(1).first()), qPrintable(tip));
        // The strip's ink runs along it: much taller than it is wide.
        const QRect strip = waterfall.panelRect(1).adjusted(3, 3, -3, -3);
        const QColor fill = QColor::fromRgb(commonestColour(image, strip));
        QRect ink;
        for (int y = strip.top(); y <= strip.bottom(); ++y)
            for (int x = strip.left(); x <= strip.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (qAbs(c.red() - fill.red()) + qAbs(c.green() - fill.green()) + qAbs(c.blue() - fill.blue()) > 90)
                    ink |= QRect(x, y, 1, 1);
            }
        QVERIFY2(ink.height() > 2 * ink.width(), qPrintable(QStringLiteral("ink %1x%2").arg(ink.width()).arg(ink.height())));

        // The stage starts doing something: it unfolds and the row wants a panel's room for it.
        panels[1].changed = true;
        waterfall.setPanels(panels);
        QVERIFY(!waterfall.folded(1));
        QCOMPARE(waterfall.minimumSizeHint().width(), foldedMin + grows);
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

    // --- image export ---------------------------------------------------------------------

    // A file name typed without an extension in an export dialog gets the chosen type's (Export
    // wrote "tree", a PNG no viewer opened by its name); a typed extension is kept.
    void exportPathTakesTheFiltersSuffix_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("expected");
        QTest::newRow("png") << "/tmp/tree" << "PNG image (*.png)" << "/tmp/tree.png";
        QTest::newRow("svg") << "/tmp/tree" << "SVG image (*.svg)" << "/tmp/tree.svg";
        QTest::newRow("jsonl") << "/tmp/runs" << "JSON Lines (*.jsonl)" << "/tmp/runs.jsonl";
        QTest::newRow("German filter") << "/tmp/baum" << "PNG-Bild (*.png)" << "/tmp/baum.png";
        QTest::newRow("typed extension kept") << "/tmp/tree.svg" << "PNG image (*.png)" << "/tmp/tree.svg";
        QTest::newRow("a dot in the folder") << "/tmp/v1.2/tree" << "PNG image (*.png)" << "/tmp/v1.2/tree.png";
        QTest::newRow("cancelled") << "" << "PNG image (*.png)" << "";
        QTest::newRow("no filter") << "/tmp/tree" << "" << "/tmp/tree";
    }
    void exportPathTakesTheFiltersSuffix() {
        QFETCH(QString, path);
        QFETCH(QString, filter);
        QFETCH(QString, expected);
        QCOMPARE(dlab::widgets::withFilterSuffix(path, filter), expected);
    }

    // --- ConstraintBox --------------------------------------------------------------------

    // A grammar edited after it was loaded goes by "<file> (edited)" in messages (an error in the
    // edited text named the example file, as if the file were wrong); loading a file drops it.
    void editedGrammarIsNamedSo() {
        dlab::ui::ConstraintBox box;
        box.setKind(dlab::ui::ConstraintBox::Kind::Gbnf);
        const QString file = box.exampleCombo()->currentText();
        QVERIFY(file.endsWith(QLatin1String(".gbnf")));
        QCOMPARE(QString::fromStdString(box.choice().spec.source), file);
        box.apply();   // applied again unchanged: still the file
        QCOMPARE(QString::fromStdString(box.choice().spec.source), file);
        box.textEdit()->setPlainText(QStringLiteral("root ::= \"a\" undefined_rule ("));
        box.apply();
        QCOMPARE(QString::fromStdString(box.choice().spec.source), file + QStringLiteral(" (edited)"));
        box.textEdit()->appendPlainText(QStringLiteral("x"));
        box.apply();   // once
        QCOMPARE(QString::fromStdString(box.choice().spec.source), file + QStringLiteral(" (edited)"));
        QVERIFY(box.selectExample(file));   // the file again
        QCOMPARE(QString::fromStdString(box.choice().spec.source), file);
    }

    // One distribution (the beam tree's node chart): no legend over the token labels of a short
    // chart; every label whole. Two again: the legend is back.
    void singleDistributionHasNoLegend() {
        DistributionChart chart;
        chart.resize(640, 150);
        chart.setSingleDistribution(true);
        chart.setBars(someBars(12), DistributionCutoffs{});
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        (void)chart.grab();
        QVERIFY(!chart.chart()->legend()->isVisible());
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
        chart.setSingleDistribution(false);
        QVERIFY(chart.chart()->legend()->isVisible());
    }

    // A chart emptied after a step (the playground starting over, a new constraint) draws no
    // trace of the old bars: Qt Charts kept the old categories' grid lines and the category axis
    // line where it was (seen at 1024 × 700: ~20 vertical lines and a horizontal one at 40 %).
    // Counted: columns of the plot area with a vertical line in them, as a fresh chart has none.
    void emptiedChartLooksFresh() {
        DistributionChart fresh, emptied;
        for (DistributionChart* c : {&fresh, &emptied}) {
            c->resize(560, 220);
            c->show();
        }
        DistributionCutoffs cut;
        double sum = 0.0;
        for (int i = 0; i < 20; ++i) cut.cumulative << (sum += 0.04);
        cut.topP = 0.5;
        cut.topPKept = 12;
        emptied.setBars(someBars(20), cut);
        QVERIFY(QTest::qWaitForWindowExposed(&emptied));
        (void)emptied.grab();
        emptied.setBars({}, DistributionCutoffs{});
        QTest::qWait(20);
        const auto verticalLines = [](DistributionChart& c) {
            const QImage image = c.grab().toImage();
            const QRect plot = c.chart()->plotArea().toRect().adjusted(3, 3, -3, -3);   // inside the axis lines
            const QRgb background = commonestColour(image, plot);
            int lines = 0;
            for (int x = plot.left(); x <= plot.right(); ++x) {
                int marked = 0;
                for (int y = plot.top(); y <= plot.bottom(); ++y) marked += image.pixel(x, y) != background;
                lines += marked > plot.height() / 2;
            }
            return lines;
        };
        QCOMPARE(verticalLines(fresh), 0);
        QCOMPARE(verticalLines(emptied), 0);
        // Across the plot, where the old axis line was, no line the fresh chart lacks (the value
        // axis's own grid lines are in both).
        QCOMPARE(emptied.chart()->plotArea(), fresh.chart()->plotArea());
        const auto lineRows = [](DistributionChart& c) {
            const QImage image = c.grab().toImage();
            const QRect plot = c.chart()->plotArea().toRect();
            const QRgb background = commonestColour(image, plot);
            QSet<int> rows;
            for (int y = plot.top() + 3; y < plot.bottom() - 3; ++y) {
                int row = 0;
                for (int x = plot.left() + 3; x < plot.right() - 3; ++x) row += image.pixel(x, y) != background;
                if (row > plot.width() / 2) rows << y;
            }
            return rows;
        };
        const QSet<int> freshRows = lineRows(fresh);
        int marked = 0;
        for (int y : lineRows(emptied)) marked += !freshRows.contains(y);
        QCOMPARE(marked, 0);
    }

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
        cut.topKCut = true;
        cut.topP = topP;
        cut.topPKept = topPKept;
        cut.topPCut = true;
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
        cut.topKCut = true;
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
        cut.topKCut = true;
        cut.topP = 0.6;
        cut.topPKept = 90;
        cut.topPCut = true;
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
        cut.topPCut = true;
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

    // --- issue 8: waterfall readability ------------------------------------------------------

    // Every statistic and every shown bar's label and percentage is drawn whole, at the widths
    // the playground gives the waterfall (1024 px window and up), in English and with German-
    // length texts; nothing is elided.
    void waterfallNothingElided_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<bool>("longTexts");
        QTest::addColumn<bool>("greedy");
        for (bool longTexts : {false, true})
            for (bool greedy : {false, true})
                for (int width : {560, 900, 1600}) {
                    const QString name = QStringLiteral("%1%2 %3").arg(longTexts ? "long " : "", greedy ? "greedy" : "chain").arg(width);
                    QTest::newRow(qPrintable(name)) << width << 300 << longTexts << greedy;
                }
    }
    void waterfallNothingElided() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(bool, longTexts);
        QFETCH(bool, greedy);
        LongTranslator translator;
        if (longTexts) QCoreApplication::installTranslator(&translator);
        SamplerWaterfall waterfall;
        waterfall.setPanels(greedy ? greedyPanels() : chainPanels());
        waterfall.resize(width, height);
        (void)waterfall.grab();
        const QStringList elided = waterfall.elidedTexts();
        const QStringList painted = waterfall.paintedTexts();
        if (longTexts) QCoreApplication::removeTranslator(&translator);
        QVERIFY2(elided.isEmpty(), qPrintable(elided.join(" | ")));
        for (int i = 0; i < waterfall.panels().size(); ++i) {
            const StagePanel& panel = waterfall.panels()[i];
            if (waterfall.folded(i)) continue;   // its name along the strip (nothing elided, above)
            // The best token of every panel: its label and its percentage.
            QVERIFY2(painted.contains(panel.labels[0]), qPrintable(panel.stage));
            const QString top = QStringLiteral("%1 %").arg(panel.p[0] * 100.0, 0, 'f', panel.p[0] * 100.0 < 9.95 ? 1 : 0);
            QVERIFY2(painted.contains(top), qPrintable(panel.stage + ": " + top + " not in " + painted.join(" | ")));
        }
    }

    // p = 1 fills the bar's whole span: its number goes inside, in a contrasting colour.
    void waterfallCertainTokenShowsItsNumber() {
        SamplerWaterfall waterfall;
        waterfall.setPalette(lightPalette());
        waterfall.setPanels(greedyPanels());
        waterfall.resize(900, 260);
        (void)waterfall.grab();
        // Raw, the penalty and the temperature; top-k, top-p and min-p changed nothing and fold.
        QCOMPARE(waterfall.paintedTexts().count(QStringLiteral("100 %")), 3);
        QVERIFY2(waterfall.elidedTexts().isEmpty(), qPrintable(waterfall.elidedTexts().join(" | ")));
        // The raw and penalty panels keep their other tokens' labels and numbers.
        for (const QString& label : greedyPanels()[0].labels.mid(0, 3)) QCOMPARE(waterfall.paintedTexts().count(label), label == QStringLiteral("\u2423the") ? 3 : 2);
        QVERIFY(waterfall.paintedTexts().contains(QStringLiteral("< 0.1 %")));
        QVERIFY(waterfall.paintedTexts().contains(QStringLiteral("\u2423the")));  // one space mark: ␣
    }

    // Too little height for eight bars: fewer bars, the numbers stay.
    void waterfallShortShowsFewerBars() {
        SamplerWaterfall waterfall;
        waterfall.setPanels(chainPanels());
        waterfall.resize(900, 150);
        (void)waterfall.grab();
        QVERIFY2(waterfall.elidedTexts().isEmpty(), qPrintable(waterfall.elidedTexts().join(" | ")));
        for (int i = 0; i < 5; ++i)
            if (!waterfall.folded(i))
                for (const QString& s : waterfall.statTexts(i)) QVERIFY2(waterfall.paintedTexts().contains(s), qPrintable(s));
        QVERIFY(waterfall.paintedTexts().contains(QStringLiteral("\u2423the").replace(QChar(0x2423), u' ')));
    }

    // The share of its input is the engine's (inputMassKept), measured under the distribution the
    // stage was given; only a session saved before that was recorded falls back to the raw ratio.
    void waterfallMassOfInputAndRaw() {
        QList<StagePanel> panels = chainPanels();
        panels[3].massKept = 0.804;   // top-k
        panels[4].massKept = 0.764;   // top-p: 76.4 % of raw
        panels[4].inputMassKept = 0.9512;   // of what temperature and top-k handed it
        SamplerWaterfall waterfall;
        waterfall.setPanels(panels);
        const QString topP = waterfall.statTexts(4).join(u'\n');
        QVERIFY2(topP.contains(QStringLiteral("kept 95.1 % of its input \u00b7 76.4 % of raw")), qPrintable(topP));
        QVERIFY(!topP.contains(QStringLiteral("by raw p")));
        QVERIFY(!waterfall.toolTipFor(4).contains(QStringLiteral("saved before")));
        QVERIFY(!waterfall.statTexts(0).join(u' ').contains(QStringLiteral("of raw")));  // raw is the reference

        panels[4].inputMassKept.reset();   // an older session: 0.764 / 0.804 by raw p, and it says so
        waterfall.setPanels(panels);
        const QString old = waterfall.statTexts(4).join(u'\n');
        QVERIFY2(old.contains(QStringLiteral("kept 95.0 % of its input by raw p \u00b7 76.4 % of raw")), qPrintable(old));
        QVERIFY(waterfall.toolTipFor(4).contains(QStringLiteral("saved before")));
    }

    // A mask's "removed" is of the distribution it was given, like its forbidden tokens' p.
    void waterfallMaskRemovedOfItsInput() {
        QList<StagePanel> panels = chainPanels();
        panels[1].stage = QStringLiteral("grammar");
        panels[1].forbiddenCount = 100;
        panels[2].stage = QStringLiteral("grammar");
        panels[2].forbiddenCount = 10;
        panels[1].massKept = 0.5;
        panels[2].massKept = 0.4;   // 0.1 of raw removed, which is 20 % of the 0.5 it was given
        SamplerWaterfall waterfall;
        waterfall.setPanels(panels);
        QVERIFY(waterfall.statTexts(2).contains(QStringLiteral("removed 10.0 %")));   // no measure: raw difference
        panels[2].inputMassKept = 0.8;
        waterfall.setPanels(panels);
        QVERIFY2(waterfall.statTexts(2).contains(QStringLiteral("removed 20.0 %")), qPrintable(waterfall.statTexts(2).join(" | ")));
    }

    // A prompt box kept at three lines shows three whole lines and nothing of the fourth, in the
    // fonts a window can have (also after the font changes, as presentation mode does).
    void textBoxShowsWholeLines_data() {
        QTest::addColumn<int>("pointSize");
        QTest::newRow("9 pt") << 9;
        QTest::newRow("12 pt") << 12;
        QTest::newRow("20 pt") << 20;
    }
    void textBoxShowsWholeLines() {
        QFETCH(int, pointSize);
        QWidget window;
        auto* box = new QPlainTextEdit(&window);
        box->setPlainText(QString(QStringLiteral("a cache keeps one key and one value vector per token and layer ")).repeated(8));
        keepTextBoxLines(box, 3);
        box->resize(300, box->height());
        window.resize(320, 200);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QFont f = box->font();
        f.setPointSize(pointSize);
        box->setFont(f);   // after the keeper is in place: it must follow
        QCoreApplication::processEvents();
        const QTextBlock block = box->document()->firstBlock();
        const QTextLayout* layout = block.layout();
        QVERIFY(layout->lineCount() > 4);
        const double top = box->document()->documentMargin();   // where the first line starts in the viewport
        const int viewport = box->viewport()->height();
        // The third line ends inside the viewport, the fourth starts at or below its bottom.
        QVERIFY2(top + layout->lineAt(2).y() + layout->lineAt(2).height() <= viewport + 0.5,
                 qPrintable(QStringLiteral("viewport %1, third line ends at %2").arg(viewport).arg(top + layout->lineAt(2).rect().bottom())));
        QVERIFY2(top + layout->lineAt(3).y() >= viewport - 0.5,
                 qPrintable(QStringLiteral("viewport %1, fourth line starts at %2").arg(viewport).arg(top + layout->lineAt(3).y())));
    }

    // Numbers a person reads are in the interface language's form, like the spin boxes beside them.
    // Grouped as the language groups, everywhere alike ("5,877 ms" beside "49,152", never "5877").
    void numberTextsFollowTheLanguage_data() {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("decimal");     // decimalText(1234.5678, 2)
        QTest::addColumn<QString>("shortNum");    // shortNumberText(0.95), shortNumberText(0.00021, 2)
        QTest::addColumn<QString>("bytes");       // byteText: 512, 4608, 98,304,000, 1.2 GiB
        QTest::addColumn<QString>("count");       // countText: 950, 12,345, 134,515,008, 1,240,000,000
        QTest::addColumn<QString>("integer");     // integerText: 950, 2048, 49,152
        QTest::newRow("en") << "en_US" << "1,234.57" << "0.95 0.00021" << "512 B|4.50 KiB|93.8 MiB|1.20 GiB" << "950|12.3 K|134.5 M|1.24 B" << "950|2,048|49,152";
        QTest::newRow("de") << "de_DE" << "1.234,57" << "0,95 0,00021" << "512 B|4,50 KiB|93,8 MiB|1,20 GiB" << "950|12,3 K|134,5 M|1,24 B" << "950|2.048|49.152";
        QTest::newRow("zh_CN") << "zh_CN" << "1,234.57" << "0.95 0.00021" << "512 B|4.50 KiB|93.8 MiB|1.20 GiB" << "950|12.3 K|134.5 M|1.24 B" << "950|2,048|49,152";
    }
    void numberTextsFollowTheLanguage() {
        QFETCH(QString, locale);
        QFETCH(QString, decimal);
        QFETCH(QString, shortNum);
        QFETCH(QString, bytes);
        QFETCH(QString, count);
        QFETCH(QString, integer);
        const QLocale before;
        QLocale::setDefault(QLocale(locale));
        QCOMPARE(decimalText(1234.5678, 2), decimal);
        QCOMPARE(shortNumberText(0.95) + u' ' + shortNumberText(0.00021, 2), shortNum);
        QCOMPARE(QStringList({byteText(512), byteText(4608), byteText(98'304'000), byteText(1.2 * 1024 * 1024 * 1024)}).join(u'|'), bytes);
        QCOMPARE(QStringList({countText(950), countText(12'345), countText(134'515'008), countText(1'240'000'000)}).join(u'|'), count);
        QCOMPARE(QStringList({integerText(950), integerText(2048), integerText(49'152)}).join(u'|'), integer);
        QLocale::setDefault(before);
    }

    // The charts' axis labels too: "0,25" under German, and again after the language changes.
    void chartAxisLabelsFollowTheLocale() {
        const QLocale before;
        QLocale::setDefault(QLocale(QStringLiteral("de_DE")));
        QWidget window;   // a top-level that takes the default, as the main window does
        auto* chart = new DistributionChart(&window);
        chart->setBars(someBars(6));
        window.resize(700, 400);
        chart->resize(700, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto axisTexts = [&] {
            QStringList out;
            for (QGraphicsItem* item : chart->scene()->items())
                if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible()) out << t->toPlainText();
            return out;
        };
        QTRY_VERIFY2(axisTexts().contains(QStringLiteral("0,25")), qPrintable(axisTexts().join(" | ")));
        QVERIFY(!axisTexts().contains(QStringLiteral("0.25")));
        QLocale::setDefault(QLocale(QStringLiteral("en_US")));
        window.unsetLocale();   // what the language manager does to every window
        QTRY_VERIFY2(axisTexts().contains(QStringLiteral("0.25")), qPrintable(axisTexts().join(" | ")));
        QVERIFY(!axisTexts().contains(QStringLiteral("0,25")));
        QLocale::setDefault(before);
    }

    // The line charts (KV growth, serving) keep numbers on both axes when they are localized: with
    // a "%g" or "%d" label format Qt Charts drew none at all.
    void lineChartAxesKeepTheirNumbers_data() {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("fraction");   // a y label the points give, in that locale
        QTest::addColumn<QString>("thousand");   // an x label
        QTest::newRow("en") << "en_US" << "0.5" << "1,000";
        QTest::newRow("de") << "de_DE" << "0,5" << "1.000";
        QTest::newRow("zh_CN") << "zh_CN" << "0.5" << "1,000";
    }
    void lineChartAxesKeepTheirNumbers() {
        QFETCH(QString, locale);
        QFETCH(QString, fraction);
        const QLocale before;
        QLocale::setDefault(QLocale(locale));
        QWidget window;
        auto* chart = new LineChartView(&window);
        chart->setTitles(QStringLiteral("t"), QStringLiteral("step"), QStringLiteral("ms"));
        chart->setSeries({{QStringLiteral("a"), {QPointF(0, 0.0), QPointF(1000, 0.5), QPointF(2000, 1.5)}, false}});
        window.resize(600, 400);
        chart->resize(600, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto numbers = [&] {
            QStringList out;
            static const QRegularExpression number(QStringLiteral("^[0-9][0-9.,]*$"));
            for (QGraphicsItem* item : chart->scene()->items())
                if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && number.match(t->toPlainText()).hasMatch())
                    out << t->toPlainText();
            return out;
        };
        QTRY_VERIFY2(numbers().contains(fraction), qPrintable(numbers().join(" | ")));
        QFETCH(QString, thousand);
        QVERIFY2(numbers().contains(thousand), qPrintable(numbers().join(" | ")));   // x, grouped like every other figure
        // Redrawn whole: minimal updates left pieces of old lines on screen during a KV run.
        QCOMPARE(chart->viewportUpdateMode(), QGraphicsView::FullViewportUpdate);
        QLocale::setDefault(before);
    }

    // A chart with nothing measured yet still draws its axes (Qt Charts drew none: only the title
    // showed) and says what fills it, wrapped inside the plot, in Chinese too; the first points
    // take the note away, and emptying the chart brings it back.
    void emptyLineChartShowsAxesAndNote_data() {
        QTest::addColumn<QString>("note");
        QTest::newRow("en") << QStringLiteral("Run eviction to draw each cache policy's loss per token.");
        QTest::newRow("zh") << QStringLiteral("运行驱逐以绘制每种缓存策略的逐词元损失。运行驱逐以绘制每种缓存策略的逐词元损失。");
    }
    void emptyLineChartShowsAxesAndNote() {
        QFETCH(QString, note);
        LineChartView chart;
        chart.setTitles(QStringLiteral("Loss"), QStringLiteral("token"), QStringLiteral("nats"));
        chart.setEmptyText(note);
        chart.resize(360, 300);
        settle(chart);
        const QStringList texts = visibleSceneTexts(chart.scene());
        for (const QString& tick : {QStringLiteral("0"), QStringLiteral("10"), QStringLiteral("1"), QStringLiteral("token"), QStringLiteral("nats")})
            QVERIFY2(texts.contains(tick), qPrintable(texts.join(" | ")));
        QVERIFY(chart.emptyTextShown());
        const QRectF plot = chart.chart()->plotArea();
        for (QGraphicsItem* item : chart.scene()->items())
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && t->toPlainText() == note)
                QVERIFY2(plot.contains(t->sceneBoundingRect()), qPrintable(QStringLiteral("note outside the plot")));
        chart.setSeries({{QStringLiteral("a"), {QPointF(0, 1.0), QPointF(40, 2.0)}, false}});
        settle(chart);
        QVERIFY(!chart.emptyTextShown());
        QVERIFY(!visibleSceneTexts(chart.scene()).contains(note));
        chart.setSeries({});
        settle(chart);
        QVERIFY(chart.emptyTextShown());
        // The axis holder has no legend entry.
        for (QLegendMarker* m : chart.chart()->legend()->markers()) QVERIFY(!m->isVisible() || !m->label().isEmpty());
    }

    // The y title is whole next to one-digit tick labels, also where it is taller than "..."
    // (Chinese): Qt Charts kept room for "..." only and drew "奈特" as "...".
    void lineChartYTitleWhole_data() {
        QTest::addColumn<QString>("title");
        QTest::addColumn<double>("top");
        QTest::addColumn<bool>("log");
        QTest::addColumn<double>("fontScale");
        for (const QString& title : {QStringLiteral("nats"), QStringLiteral("奈特"), QStringLiteral("毫秒"), QStringLiteral("词元/秒")})
            for (double top : {4.6, 9.0, 0.8})
                for (double scale : {1.0, 1.6}) {
                    QTest::newRow(qPrintable(QStringLiteral("%1 to %2 x%3").arg(title).arg(top).arg(scale))) << title << top << false << scale;
                    QTest::newRow(qPrintable(QStringLiteral("%1 to %2 x%3 log").arg(title).arg(top).arg(scale))) << title << top << true << scale;
                }
    }
    void lineChartYTitleWhole() {
        QFETCH(QString, title);
        QFETCH(double, top);
        QFETCH(bool, log);
        QFETCH(double, fontScale);
        LineChartView chart;
        scaleFont(chart, fontScale);
        chart.setTitles(QStringLiteral("Loss"), QStringLiteral("token"), title);
        chart.setLogY(log);
        QList<QPointF> points;
        for (int i = 0; i < 50; ++i) points << QPointF(i, 0.05 + top * (i % 7) / 7.0);
        chart.setSeries({{QStringLiteral("a"), points, false}});
        chart.resize(420, 300);
        settle(chart);
        QStringList rotated;
        for (QGraphicsItem* item : chart.scene()->items())
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && t->rotation() != 0.0) rotated << t->toPlainText();
        QCOMPARE(rotated, QStringList{title});
    }

    // The legend keeps every series name whole: entries wrap onto further lines under the plot
    // (Qt Charts' own legend cut "bei p50-Abstand zwischen Tokens" to "bei p50-Abstand zwis…"
    // beside the Lessons panel). One line where they fit.
    void lineChartLegendWraps_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<int>("maxLines");
        QTest::newRow("1024 beside the Lessons panel") << 370 << 1.0 << 2;
        QTest::newRow("very narrow") << 220 << 1.0 << 4;
        QTest::newRow("1920") << 900 << 1.0 << 1;
        QTest::newRow("presentation font") << 700 << 2.0 << 2;
    }
    void lineChartLegendWraps() {
        QFETCH(int, width);
        QFETCH(double, fontScale);
        QFETCH(int, maxLines);
        LineChartView chart;
        scaleFont(chart, fontScale);
        chart.setTitles(QStringLiteral("Durchsatz gegen Latenz"), QStringLiteral("ms"), QStringLiteral("Tokens/s"));
        const QStringList names{QStringLiteral("bei p50-Abstand zwischen Tokens"), QStringLiteral("bei p99-Abstand zwischen Tokens")};
        chart.setSeries({{names[0], {QPointF(1, 10), QPointF(4, 30)}, false, true}, {names[1], {QPointF(2, 10), QPointF(6, 30)}, true, true}});
        chart.resize(width, 320);
        settle(chart);
        QString text = chart.legendText();
        text.replace(QChar(0x00a0), QLatin1Char(' ')).replace(QChar(0x2029), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
        for (const QString& name : names) QVERIFY2(text.contains(name), qPrintable(text));
        const QRectF legend = chart.legendRect();
        QVERIFY(!legend.isEmpty());
        QVERIFY2(QRectF(QPointF(0, 0), chart.chart()->size()).contains(legend), "the legend leaves the chart");
        // ... and its background box (the largest rectangle item drawn; the legend sat half below it).
        QRectF box;
        for (QGraphicsItem* item : chart.scene()->items())
            if (auto* r = dynamic_cast<QGraphicsRectItem*>(item); r && r->isVisible() &&
                r->sceneBoundingRect().width() * r->sceneBoundingRect().height() > box.width() * box.height())
                box = r->sceneBoundingRect();
        QVERIFY(!box.isEmpty());
        QVERIFY2(box.contains(legend), qPrintable(QStringLiteral("legend %1,%2 %3x%4, box %5,%6 %7x%8").arg(legend.x()).arg(legend.y()).arg(legend.width()).arg(legend.height()).arg(box.x()).arg(box.y()).arg(box.width()).arg(box.height())));
        QVERIFY2(legend.top() >= chart.chart()->plotArea().bottom(), "the legend overlaps the plot");
        const double line = QFontMetricsF(chart.font()).lineSpacing();
        QVERIFY2(legend.height() <= (maxLines + 0.6) * line, qPrintable(QStringLiteral("%1 px for %2 lines of %3").arg(legend.height()).arg(maxLines).arg(line)));
        // Nothing the x axis draws runs into it.
        for (QGraphicsItem* item : chart.scene()->items())
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && t->toPlainText() == QStringLiteral("ms"))
                QVERIFY2(t->sceneBoundingRect().bottom() <= legend.top() + 1, "the x title runs into the legend");
    }

    // Measured points drawn as dots sit inside the plot, not on its left and right edges (the
    // serving lab's first and last batch size were cut in half); plain lines still span the range.
    void lineChartDotsKeepAMargin() {
        LineChartView chart;
        chart.setSeries({{QStringLiteral("p50"), {QPointF(12.0, 100.0), QPointF(40.0, 300.0), QPointF(95.0, 420.0)}, false, true}});
        auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QVERIFY2(x->min() < 12.0 && x->max() > 95.0, qPrintable(QStringLiteral("%1 .. %2").arg(x->min()).arg(x->max())));
        QVERIFY(x->min() > 12.0 - 0.1 * 83.0 && x->max() < 95.0 + 0.1 * 83.0);   // a margin, not a new scale
        chart.setSeries({{QStringLiteral("line"), {QPointF(12.0, 1.0), QPointF(95.0, 2.0)}, false, false}});
        QCOMPARE(x->min(), 12.0);
        QCOMPARE(x->max(), 95.0);
    }

    // Point labels (the serving lab's batch sizes) sit inside the plot, each beside its own point,
    // over no other label and no other point's dot; two series of the same sizes both get theirs.
    void lineChartPointLabels_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("fontScale");
        QTest::newRow("1280") << 620 << 1.0;
        QTest::newRow("1024 beside the Lessons panel") << 370 << 1.0;
        QTest::newRow("presentation font") << 700 << 2.0;
    }
    void lineChartPointLabels() {
        QFETCH(int, width);
        QFETCH(double, fontScale);
        LineChartView chart;
        scaleFont(chart, fontScale);
        chart.setTitles(QStringLiteral("Throughput"), QStringLiteral("ms"), QStringLiteral("tokens/s"));
        const QStringList batches{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("8")};
        // The p99 series steps back left from batch 1 to 2, as a noisy measurement can.
        const QList<QPointF> p50{{6.3, 145}, {8.2, 240}, {12.3, 326}, {23.2, 344}};
        const QList<QPointF> p99{{9.9, 145}, {9.6, 240}, {13.6, 326}, {24.4, 344}};
        chart.setSeries({{QStringLiteral("p50"), p50, false, true, batches}, {QStringLiteral("p99"), p99, true, true, batches}});
        chart.resize(width, 340);
        settle(chart);
        const QStringList texts = chart.pointLabelTexts();
        const QList<QRectF> rects = chart.pointLabelRects();
        QVERIFY2(texts == batches + batches, qPrintable(texts.join(u' ')));
        const QRectF plot = chart.chart()->plotArea();
        QList<QPointF> dots;
        for (int s = 0; s < 2; ++s)
            for (const QPointF& p : s == 0 ? p50 : p99) dots << chart.chart()->mapToPosition(p, chart.chart()->series().value(s + 1));
        for (int i = 0; i < rects.size(); ++i) {
            QVERIFY2(plot.contains(rects[i]), qPrintable(texts[i]));
            for (int j = 0; j < i; ++j) QVERIFY2(!rects[i].intersects(rects[j]), qPrintable(texts[i] + " over " + texts[j]));
            for (int d = 0; d < dots.size(); ++d)
                if (d != i) QVERIFY2(!rects[i].contains(dots[d]), qPrintable(texts[i] + " over a dot"));
            // Beside its own point: within two lines of it.
            const double reach = 2.0 * QFontMetricsF(chart.font()).height() + rects[i].width();
            QVERIFY2(QLineF(rects[i].center(), dots[i]).length() < reach, qPrintable(texts[i]));
            // Off both lines (at 1280 there is room everywhere).
            if (width >= 600 && fontScale == 1.0)
                for (int d = 1; d < dots.size(); ++d) {
                    if (d == 4) continue;   // p50's last point to p99's first: no line between them
                    const QLineF segment(dots[d - 1], dots[d]);
                    for (int k = 0; k <= 20; ++k)
                        QVERIFY2(!rects[i].contains(segment.pointAt(k / 20.0)), qPrintable(texts[i] + " over a line"));
                }
        }
        // New points, fewer labels: the old ones go.
        chart.setSeries({{QStringLiteral("p50"), p50.mid(0, 2), false, true, batches.mid(0, 2)}});
        QCOMPARE(chart.pointLabelTexts(), batches.mid(0, 2));
    }

    // A log axis down past 0.0001 writes every decade as a power of ten ("1E-05" beside "0,0001"
    // on the KV compression chart); one that stays above it keeps plain decimals.
    void lineChartLogLabelsOneForm_data() {
        QTest::addColumn<double>("low");
        QTest::addColumn<bool>("powers");
        QTest::newRow("down to 1e-5") << 5e-6 << true;
        QTest::newRow("down to 0.001") << 0.002 << false;
    }
    void lineChartLogLabelsOneForm() {
        QFETCH(double, low);
        QFETCH(bool, powers);
        LineChartView chart;
        chart.setTitles(QStringLiteral("KL"), QStringLiteral("step"), QStringLiteral("nats"));
        chart.setLogY(true);
        chart.setSeries({{QStringLiteral("f16"), {QPointF(0, low), QPointF(10, 0.05), QPointF(20, 0.01)}, false}});
        chart.resize(500, 320);
        settle(chart);
        static const QRegularExpression number(QStringLiteral("^[0-9][0-9.,]*(E[-+]?[0-9]+)?$"), QRegularExpression::CaseInsensitiveOption);
        int withE = 0, fractions = 0;
        for (const QString& t : visibleSceneTexts(chart.scene())) {
            if (!number.match(t).hasMatch()) continue;
            if (t.contains(u'e', Qt::CaseInsensitive)) ++withE;
            else if (t.startsWith(QStringLiteral("0.")) || t.startsWith(QStringLiteral("0,"))) ++fractions;
        }
        if (powers) QVERIFY2(withE >= 3 && fractions == 0, qPrintable(QStringLiteral("%1 with E, %2 decimals: %3").arg(withE).arg(fractions).arg(visibleSceneTexts(chart.scene()).join(" | "))));
        else QVERIFY2(withE == 0 && fractions >= 2, qPrintable(QStringLiteral("%1 with E, %2 decimals").arg(withE).arg(fractions)));
    }

    // "first text at 38 ms" stands inside the grey wait where it fits, else wholly after its edge,
    // never half on each (it read as running out of its box).
    void streamingFirstTextNoteBesideTheWait_data() {
        QTest::addColumn<double>("firstMs");
        QTest::newRow("short wait") << 38.0;
        QTest::newRow("long wait") << 300.0;
    }
    void streamingFirstTextNoteBesideTheWait() {
        QFETCH(double, firstMs);
        StreamingTimelineView view;
        StreamingTimeline t;
        for (int i = 0; i < 15; ++i) t.tokenMs.push_back(firstMs + 28.0 * i);
        view.setTimeline(t);
        view.resize(800, 300);
        (void)view.grab();
        const QRect lane = view.laneRect(0);
        const int edge = view.tokenStepRect(0).left();
        int notes = 0;
        for (const QRect& r : view.lastTextRects()) {
            if (r.top() < lane.top() || r.bottom() > lane.top() + lane.height() / 2 || r.left() < lane.left()) continue;
            ++notes;
            QVERIFY2(r.right() <= edge || r.left() >= edge, qPrintable(QStringLiteral("note %1..%2 across the edge at %3").arg(r.left()).arg(r.right()).arg(edge)));
        }
        QCOMPARE(notes, 1);
    }

    // Where the whole text does not fit, the first shorter form that does is drawn whole; only
    // the last is elided; the tooltip then holds the whole text.
    void elidingLabelShorterForms_data() {
        QTest::addColumn<QString>("room");   // which text just fits
        QTest::addColumn<int>("expected");   // index into {whole, sizes, bare}, -1: bare elided
        QTest::newRow("whole fits") << "whole" << 0;
        QTest::newRow("sizes fit") << "sizes" << 1;
        QTest::newRow("only the bare form") << "bare" << 2;
        QTest::newRow("not even that") << "" << -1;
    }
    void elidingLabelShorterForms() {
        QFETCH(QString, room);
        QFETCH(int, expected);
        const QStringList forms{QStringLiteral("SmolLM2-135M-Instruct — llama, 134.5 M parameters, 30 layers, vocabulary 49,152 — CPU, 2 threads"),
                                QStringLiteral("SmolLM2-135M-Instruct — 134.5 M parameters, 30 layers — CPU, 2 threads"),
                                QStringLiteral("SmolLM2-135M-Instruct — CPU, 2 threads")};
        ElidingLabel label;
        label.setText(forms[0]);
        label.setShorterTexts(forms.mid(1));
        const QFontMetrics fm = label.fontMetrics();
        const int width = room == QLatin1String("whole") ? fm.horizontalAdvance(forms[0])
                          : room == QLatin1String("sizes") ? fm.horizontalAdvance(forms[1])
                          : room == QLatin1String("bare")  ? fm.horizontalAdvance(forms[2])
                                                           : fm.horizontalAdvance(forms[2]) / 2;
        label.setContentsMargins(0, 0, 0, 0);
        label.resize(width + 1, label.sizeHint().height());
        if (expected >= 0) {
            QCOMPARE(label.displayedText(), forms[expected]);
        } else {
            QVERIFY(label.displayedText().endsWith(QChar(0x2026)));
            QVERIFY(label.displayedText().startsWith(QStringLiteral("SmolLM2")));
        }
        QCOMPARE(label.isElided(), expected != 0);
        if (expected != 0) QVERIFY(label.effectiveToolTip().contains(forms[0]));
    }

    // A few whole-number x values (request 1 … 6) get a tick each, not 2, 4, 6.
    void lineChartCountedXTicks() {
        LineChartView chart;
        QList<QPointF> points;
        for (int i = 1; i <= 6; ++i) points << QPointF(i, 100.0 * i);
        chart.setSeries({{QStringLiteral("ttft"), points, false, true}});
        auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->tickInterval(), 1.0);
        points.clear();
        for (int i = 0; i < 50; ++i) points << QPointF(i, i);   // many: a 1-2-5 step again
        chart.setSeries({{QStringLiteral("ttft"), points, false, true}});
        QVERIFY(x->tickInterval() >= 5.0);
        // A fractional label format keeps its decimals only where the step needs them.
        chart.setXLabelFormat(QStringLiteral("%.1f"));
        chart.setSeries({{QStringLiteral("ms"), {QPointF(6.3, 145.0), QPointF(23.2, 344.0), QPointF(35.0, 350.0)}, false, true}});
        QVERIFY(x->tickInterval() >= 1.0);
        QCOMPARE(x->labelFormat(), QStringLiteral("%.0f"));   // "10, 20, 30", not "10.0, 20.0, 30.0"
        chart.setSeries({{QStringLiteral("ms"), {QPointF(0.12, 1.0), QPointF(0.93, 2.0)}, false, true}});
        QVERIFY(x->tickInterval() < 1.0);
        QCOMPARE(x->labelFormat(), QStringLiteral("%.1f"));
    }

    // FlowLayout: five 100-px groups wrap onto as many lines as the width needs; nothing overlaps or
    // leaves the width; a group (label and box) stays on one line; heightForWidth is the height used.
    void flowLayoutWraps_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("lines");
        QTest::newRow("all on one line") << 700 << 1;
        QTest::newRow("three, then two") << 340 << 2;
        QTest::newRow("one a line") << 120 << 5;
    }
    void flowLayoutWraps() {
        QFETCH(int, width);
        QFETCH(int, lines);
        QWidget host;
        auto* flow = new FlowLayout(&host);
        flow->setContentsMargins(0, 0, 0, 0);
        flow->setSpacing(10);
        QList<QWidget*> parts;
        for (int i = 0; i < 5; ++i) {
            auto* label = new QLabel(&host);
            label->setFixedSize(40, 20);
            auto* box = new QSpinBox(&host);
            box->setFixedSize(50, 24);
            flow->addGroup({label, box});
            parts << label << box;
        }
        QCOMPARE(flow->minimumSize().width(), flow->itemAt(0)->sizeHint().width());   // one group: label and box
        QVERIFY(flow->minimumSize().width() >= 90);
        host.resize(width, flow->heightForWidth(width));
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QCoreApplication::processEvents();
        QCOMPARE(flow->lineCount(), lines);
        for (int i = 0; i < parts.size(); ++i) {
            QVERIFY2(host.rect().contains(parts[i]->geometry()), qPrintable(QString::number(i)));
            for (int j = i + 1; j < parts.size(); ++j) QVERIFY(!parts[i]->geometry().intersects(parts[j]->geometry()));
        }
        for (int i = 0; i < parts.size(); i += 2)   // a label beside its box, centred on the same line
            QCOMPARE(parts[i]->geometry().center().y(), parts[i + 1]->geometry().center().y());
        QCOMPARE(flow->heightForWidth(width), lines * 24 + (lines - 1) * 10);
    }

    // AdaptiveRow: side by side from the children's minimum widths on, one above the other below;
    // it asks only for its widest child's width.
    void adaptiveRowStacksWhenNarrow() {
        QWidget host;   // inside a layout, as on a page (a top-level row would be held at its layout's minimum)
        auto* hostLayout = new QVBoxLayout(&host);
        hostLayout->setContentsMargins(0, 0, 0, 0);
        auto* row = new AdaptiveRow;
        hostLayout->addWidget(row);
        auto* a = new QWidget;
        a->setMinimumSize(300, 100);
        auto* b = new QWidget;
        b->setMinimumSize(200, 80);
        row->addWidget(a, 1);
        row->addWidget(b, 1);
        QCOMPARE(row->minimumSizeHint().width(), 300);
        QVERIFY(row->sideBySideWidth() >= 500);
        host.resize(800, 300);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QCoreApplication::processEvents();
        QVERIFY(!row->stacked());
        QVERIFY(a->geometry().right() < b->geometry().left());
        host.resize(400, 300);
        QCoreApplication::processEvents();
        QVERIFY(row->stacked());
        QVERIFY(a->geometry().bottom() < b->geometry().top());
        QVERIFY(a->width() >= 300 && b->width() >= 200);
        QVERIFY(row->minimumSizeHint().height() >= 180);   // both heights, one above the other
        host.resize(900, 300);
        QCoreApplication::processEvents();
        QVERIFY(!row->stacked());
    }

    void waterfallEntropyUnit() {
        SamplerWaterfall waterfall;
        waterfall.setPanels(chainPanels());
        QCOMPARE(waterfall.entropyUnit(), EntropyUnit::Bits);
        const QString bits = QStringLiteral("H %1 bits").arg(3.0 / std::log(2.0), 0, 'f', 2);
        QVERIFY2(waterfall.statTexts(0).contains(bits), qPrintable(waterfall.statTexts(0).join(" | ")));
        QVERIFY(waterfall.toolTipFor(0).contains(QStringLiteral("entropy")));
        waterfall.setEntropyUnit(EntropyUnit::Nats);
        QVERIFY(waterfall.statTexts(0).contains(QStringLiteral("H 3.00 nats")));
    }

    // Presentation mode: twice the font, thicker lines; at 1920 px nothing is cut.
    void waterfallDoubleFontFits() {
        SamplerWaterfall waterfall;
        QFont big = waterfall.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        waterfall.setFont(big);
        waterfall.setLineScale(2.5);
        QCOMPARE(waterfall.lineScale(), 2.5);
        QList<StagePanel> panels = chainPanels();
        panels << panels[4] << panels[4];
        panels[5].stage = "min-p";
        panels[6].stage = "no-repeat-ngram";
        waterfall.setPanels(panels);
        waterfall.resize(1920, 640);
        (void)waterfall.grab();
        QVERIFY2(waterfall.elidedTexts().isEmpty(), qPrintable(waterfall.elidedTexts().join(" | ")));
        QVERIFY(waterfall.panelRect(0).width() >= 2 * 100);
    }

    // --- issue 8: chart ------------------------------------------------------------------

    void chartClearRemovesTokenLabels() {
        DistributionChart chart;
        chart.resize(700, 400);
        QList<DistributionBar> bars = someBars(5);
        for (int i = 0; i < 5; ++i) bars[i].label = QStringLiteral("word%1").arg(i);
        chart.setBars(bars);
        settle(chart);
        QVERIFY(visibleSceneTexts(chart.scene()).contains(QStringLiteral("word0")));
        chart.clear();
        QCoreApplication::processEvents();
        (void)chart.grab();
        for (const QString& t : visibleSceneTexts(chart.scene())) QVERIFY2(!t.startsWith(QStringLiteral("word")), qPrintable(t));
    }

    void chartSpecialTokenLabelShown() {
        DistributionChart chart;
        chart.resize(700, 400);
        QList<DistributionBar> bars = someBars(3);
        bars[0].label = QStringLiteral("<|im_end|>");
        bars[1].label = QStringLiteral("a<b&c");
        chart.setBars(bars);
        settle(chart);
        const QStringList texts = visibleSceneTexts(chart.scene());
        QVERIFY2(texts.contains(QStringLiteral("<|im_end|>")), qPrintable(texts.join(" | ")));
        QVERIFY(texts.contains(QStringLiteral("a<b&c")));
    }

    // At T = 0 the temperature stage leaves one token; top-k and top-p are handed one and remove
    // nothing: no marker at bar 1, a caption that says so. The cut-offs come from the snapshots.
    void greedyCutoffsDrawNoMarker() {
        std::vector<dlab::StageSnapshot> stages;
        const auto snap = [](const char* name, int kept, bool changed) {
            dlab::StageSnapshot s;
            s.stage = name;
            s.kept = kept;
            s.changed = changed;
            s.top = {dlab::Candidate{0, 5.0f, 1.0f}};
            return s;
        };
        stages.push_back(snap("temperature", 1, true));
        stages.push_back(snap("top-k", 1, false));
        stages.push_back(snap("top-p", 1, false));
        stages.push_back(snap("min-p", 1, false));
        const QList<DistributionBar> bars = someBars(10);
        std::vector<float> logits(10);
        for (int i = 0; i < 10; ++i) logits[i] = float(std::log(0.5 / (i + 1)));
        const dlab::LogitSummary raw = dlab::summarizeLogits(logits);
        const DistributionCutoffs cut = dlab::ui::distributionCutoffs(bars, logits, raw, stages, 40, 0.95f, 0.05f);
        QCOMPARE(cut.topKKept, 1);
        QVERIFY(!cut.topKCut && !cut.topPCut && !cut.minPCut);
        QCOMPARE(cut.minPKept, 1);
        QCOMPARE(cut.minP, 0.05f);
        DistributionChart chart;
        chart.resize(800, 400);
        chart.setBars(bars, cut);
        settle(chart);
        QCOMPARE(chart.topKMarkerX(), -1.0);
        QCOMPARE(chart.topPMarkerX(), -1.0);
        QCOMPARE(chart.minPMarkerX(), -1.0);
        QVERIFY2(chart.caption().contains(QStringLiteral("top-k = 40 removed nothing")), qPrintable(chart.caption()));
        QVERIFY(chart.caption().contains(QStringLiteral("min-p = 0.05 removed nothing")));
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
    }

    void minPMarkerFromSnapshots() {
        std::vector<dlab::StageSnapshot> stages(2);
        stages[0].stage = "top-k";
        stages[0].kept = 40;
        stages[0].changed = true;
        stages[1].stage = "min-p";
        stages[1].kept = 3;
        stages[1].changed = true;
        std::vector<float> logits(10, 0.0f);
        const dlab::LogitSummary raw = dlab::summarizeLogits(logits);
        const DistributionCutoffs cut = dlab::ui::distributionCutoffs(someBars(10), logits, raw, stages, 40, 1.0f, 0.2f);
        QCOMPARE(cut.minPKept, 3);
        QVERIFY(cut.minPCut);
        DistributionChart chart;
        chart.resize(800, 400);
        chart.setBars(someBars(10), cut);
        settle(chart);
        QCOMPARE(chart.minPMarkerX(), 2.5);
        QCOMPARE(chart.minPLabelText(), QStringLiteral("min-p = 0.2"));
        QVERIFY(chart.caption().contains(QStringLiteral("top-k keeps 40 tokens")));
    }

    // The marker labels are read against the cumulative line: none sits on it, nor on another
    // label (top-k and top-p cutting at the same bar). Before, they always took the plot's top
    // rows, where a peaked distribution's cumulative line runs.
    void markerLabelsStayOffTheCumulativeLine_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("first");   // the top token's probability: how high the line starts
        QTest::newRow("800x400, peaked") << QSize(800, 400) << 0.9;
        QTest::newRow("560x260, peaked") << QSize(560, 260) << 0.9;
        QTest::newRow("800x400, flat") << QSize(800, 400) << 0.3;
        QTest::newRow("1300x700, peaked") << QSize(1300, 700) << 0.8;
    }
    void markerLabelsStayOffTheCumulativeLine() {
        QFETCH(QSize, size);
        QFETCH(double, first);
        DistributionCutoffs cut;
        double sum = 0.0;
        for (int i = 0; i < 20; ++i) cut.cumulative << (sum += (i == 0 ? first : (1.0 - first) * std::pow(0.7, i) * 0.3 / 0.7));
        cut.topP = 0.95;
        cut.topPKept = 4;
        cut.topPCut = true;
        cut.topK = 4;
        cut.topKKept = 4;
        cut.topKCut = true;
        cut.minP = 0.05;
        cut.minPKept = 2;
        cut.minPCut = true;
        DistributionChart chart;
        chart.resize(size);
        chart.setBars(someBars(20), cut);
        settle(chart);
        const QList<QRectF> labels = chart.markerLabelRects();
        QCOMPARE(labels.size(), 3);
        const QPolygonF line = chart.cumulativeLine();
        QCOMPARE(line.size(), 20);
        for (int a = 0; a < labels.size(); ++a) {
            for (int i = 1; i < line.size(); ++i) {
                const QLineF seg(line[i - 1], line[i]);
                const QRectF r = labels[a];
                for (const QLineF& edge : {QLineF(r.topLeft(), r.topRight()), QLineF(r.bottomLeft(), r.bottomRight()),
                                           QLineF(r.topLeft(), r.bottomLeft()), QLineF(r.topRight(), r.bottomRight())})
                    QVERIFY2(seg.intersects(edge, nullptr) != QLineF::BoundedIntersection && !r.contains(line[i]),
                             qPrintable(QString("label %1 (%2,%3 %4x%5) crosses the line between points %6 and %7")
                                            .arg(a).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()).arg(i - 1).arg(i)));
            }
            for (int b = a + 1; b < labels.size(); ++b) QVERIFY2(!labels[a].intersects(labels[b]), qPrintable(QString("labels %1 and %2").arg(a).arg(b)));
        }
    }

    void topPBeyondBarsIsLabelled() {
        DistributionChart chart;
        DistributionCutoffs cut;
        for (int i = 0; i < 20; ++i) cut.cumulative << 0.04 * (i + 1);
        cut.topP = 0.95;
        cut.topPKept = 57;
        cut.topPCut = true;
        chart.resize(800, 400);
        chart.setBars(someBars(20), cut);
        settle(chart);
        QCOMPARE(chart.topPMarkerX(), -1.0);
        QCOMPARE(chart.topPLevel(), 0.95);
        QCOMPARE(chart.topPLabelText(), QStringLiteral("top-p = 0.95"));
    }

    // The chart inside a 1024 px window, with every note at once: the caption wraps instead of
    // leaving the chart on the left, the axis titles are whole (or their short form).
    void chartNarrowNothingElided_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("bars");
        QTest::addColumn<double>("fontScale");
        QTest::newRow("1024 window, 20 bars") << 560 << 20 << 1.0;
        QTest::newRow("1024 window, 5 bars") << 560 << 5 << 1.0;
        QTest::newRow("1920 projector, 2x font, 20 bars") << 1300 << 20 << 2.0;
        QTest::newRow("1600 window, 30 bars") << 1100 << 30 << 1.0;
    }
    void chartNarrowNothingElided() {
        QFETCH(int, width);
        QFETCH(int, bars);
        QFETCH(double, fontScale);
        DistributionChart chart;
        scaleFont(chart, fontScale);
        chart.setLineScale(fontScale);
        DistributionCutoffs cut;
        for (int i = 0; i < bars; ++i) cut.cumulative << std::min(1.0, 0.01 * (i + 1));
        cut.topK = 400;
        cut.topKKept = 400;
        cut.topKCut = true;
        cut.topP = 0.95;
        cut.topPKept = 300;
        cut.topPCut = true;
        cut.minP = 0.05;
        cut.minPKept = 2;
        cut.minPCut = false;
        QList<DistributionBar> b;
        for (int i = 0; i < bars; ++i) b << DistributionBar{i, QStringLiteral("\u2423tok%1").arg(i), 0.3 / (i + 1), 0.3 / (i + 1), false};
        chart.resize(width, int(340 * fontScale));
        chart.setBars(b, cut);
        settle(chart);
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
        const QStringList texts = visibleSceneTexts(chart.scene());
        int shown = 0;
        for (const auto& bar : b) shown += texts.contains(bar.label);
        QVERIFY2(shown == bars, qPrintable(QStringLiteral("%1 of %2 token labels shown").arg(shown).arg(bars)));
        // The caption starts inside the chart.
        for (QGraphicsItem* item : chart.scene()->items())
            if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->text().contains("keeps"))
                QVERIFY(t->sceneBoundingRect().left() >= 0 && t->sceneBoundingRect().right() <= width);
        shot(chart, QStringLiteral("chart-%1-%2").arg(width).arg(bars));
    }

    // Long tokens in a short chart (the Playground at 1024 × 700): every token label lies between
    // the plot and the legend, none runs into the legend or out of the chart. Qt Charts' own
    // rotated labels reached 10-17 px into the legend here.
    void chartTokenLabelsClearTheLegend_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<bool>("single");
        QTest::addColumn<bool>("dark");
        QTest::newRow("1024x700 playground") << QSize(610, 200) << 1.0 << false << false;
        QTest::newRow("1024x700 playground, dark") << QSize(610, 200) << 1.0 << false << true;
        QTest::newRow("short strip") << QSize(560, 150) << 1.0 << false << false;
        QTest::newRow("presentation 1024x700") << QSize(600, 260) << 1.6 << false << false;
        QTest::newRow("projector 2x") << QSize(1300, 500) << 2.0 << false << false;
        QTest::newRow("beam node chart, no legend") << QSize(420, 170) << 1.0 << true << false;
    }
    void chartTokenLabelsClearTheLegend() {
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        QFETCH(bool, single);
        QFETCH(bool, dark);
        DistributionChart chart;
        if (dark) chart.setPalette(darkPalette());
        scaleFont(chart, fontScale);
        chart.setSingleDistribution(single);
        QList<DistributionBar> bars = someBars(20);
        const QStringList words = {"\u2423metropolitan", "\u2423European", "\u2423Paris", "\u2423the", "\u2423internationally",
                                   "<|im_end|>", "\u2423a"};
        for (int i = 0; i < bars.size(); ++i) bars[i].label = words[i % words.size()] + (i >= words.size() ? QString::number(i) : QString());
        chart.resize(size);
        chart.setBars(bars, DistributionCutoffs{});
        settle(chart);
        shot(chart, QStringLiteral("chart-labels-%1x%2").arg(size.width()).arg(size.height()));
        const QList<QRectF> labels = chart.tokenLabelRects();
        QCOMPARE(labels.size(), bars.size());
        const QRectF plot = chart.chart()->plotArea();
        const qreal floor = single ? chart.height() : chart.legendEntriesTop();
        QVERIFY(floor > plot.bottom());
        for (const QRectF& r : labels) {
            QVERIFY2(r.top() >= plot.bottom(), qPrintable(QStringLiteral("label top %1, plot bottom %2").arg(r.top()).arg(plot.bottom())));
            QVERIFY2(r.bottom() <= floor, qPrintable(QStringLiteral("label bottom %1, legend at %2").arg(r.bottom()).arg(floor)));
            QVERIFY(r.left() >= plot.left() - 1 && r.right() <= plot.right() + 1);
        }
        // The legend's own texts below the labels, and the labels not running into each other.
        for (QGraphicsItem* item : chart.chart()->legend()->childItems())
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible())
                for (const QRectF& r : labels) QVERIFY(!t->sceneBoundingRect().intersects(r));
        for (int i = 1; i < labels.size(); ++i) QVERIFY(labels[i].left() >= labels[i - 1].right() - 0.5);
        // The plot keeps room for bars: at least a fifth of the chart.
        QVERIFY2(plot.height() >= chart.height() / 5.0, qPrintable(QString::number(plot.height())));
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
        // Whole tokens where they fit the cap; a shortened one ends in "…" and its tooltip is whole.
        // Short tokens whole; a shortened one is the token's start and "…", whole in its tooltip.
        const QStringList texts = visibleSceneTexts(chart.scene());
        QVERIFY(texts.contains(QStringLiteral("\u2423a")));
        QVERIFY(texts.contains(QStringLiteral("\u2423the")));
        for (QGraphicsItem* item : chart.scene()->items()) {
            auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (!t || !t->isVisible() || t->rotation() != -90.0) continue;
            const QString shown = t->text();
            if (!shown.endsWith(QChar(0x2026))) continue;
            QVERIFY2(shown.size() >= 3, qPrintable(shown));   // at least two characters of the token
            QVERIFY2(t->toolTip().contains(shown.chopped(1).toHtmlEscaped()), qPrintable(t->toolTip()));
        }
    }

    // A narrow chart (beside the Lessons panel at 1024 px) writes its legend's short forms rather
    // than letting Qt Charts cut each entry ("before t..."); a wide one the full names.
    void chartLegendShortensWhenNarrow_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("full");
        QTest::newRow("330 px") << 330 << false;
        QTest::newRow("800 px") << 800 << true;
    }
    void chartLegendShortensWhenNarrow() {
        QFETCH(int, width);
        QFETCH(bool, full);
        DistributionChart chart;
        QList<DistributionBar> bars = someBars(12);
        bars[3].forbidden = true;
        DistributionCutoffs cut;
        for (int i = 0; i < bars.size(); ++i) cut.cumulative << 0.08 * (i + 1);
        chart.resize(width, 260);
        chart.setBars(bars, cut);
        settle(chart);
        const QStringList texts = visibleSceneTexts(chart.scene());
        QCOMPARE(texts.contains(QStringLiteral("before the chain")), full);
        QCOMPARE(texts.contains(QStringLiteral("forbidden by the grammar")), full);
        QCOMPARE(texts.contains(QStringLiteral("before")), !full);
        QVERIFY(texts.contains(QStringLiteral("cumulative")));
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
    }

    // In a chart narrower than a note (beside the Lessons panel at 1024 px, in German) the note
    // breaks into lines instead of ending in "…"; every line inside the chart, above the plot.
    void chartCaptionWrapsLongNotes() {
        DistributionChart chart;
        DistributionCutoffs cut;
        cut.topK = 400;
        cut.topKKept = 400;
        cut.topKCut = true;
        chart.resize(210, 260);
        chart.setBars(someBars(6), cut);
        settle(chart);
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
        bool found = false;
        for (QGraphicsItem* item : chart.scene()->items())
            if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->text().contains(QStringLiteral("400"))) {
                found = true;
                QVERIFY2(t->text().contains(u'\n'), qPrintable(t->text()));   // on two lines or more
                QVERIFY(t->sceneBoundingRect().left() >= 0 && t->sceneBoundingRect().right() <= chart.width());
                // The plot starts below the caption's lines.
                QVERIFY(t->sceneBoundingRect().bottom() <= chart.chart()->plotArea().top());
            }
        QVERIFY(found);
    }

    // The labels follow the bars: a new step with as many bars relabels them in place; fewer bars
    // hide the rest; too many for the width show every other label and say which are left out.
    void chartTokenLabelsFollowTheBars() {
        DistributionChart chart;
        chart.resize(600, 300);
        QList<DistributionBar> bars = someBars(10);
        chart.setBars(bars);
        settle(chart);
        QCOMPARE(chart.tokenLabelRects().size(), 10);
        for (int i = 0; i < bars.size(); ++i) bars[i].label = QStringLiteral("next%1").arg(i);
        chart.setBars(bars);
        settle(chart);
        QStringList texts = visibleSceneTexts(chart.scene());
        QVERIFY(texts.contains(QStringLiteral("next9")));
        QVERIFY(!texts.contains(QStringLiteral("t9")));
        chart.setBars(bars.mid(0, 4));
        settle(chart);
        QCOMPARE(chart.tokenLabelRects().size(), 4);
        QVERIFY(!visibleSceneTexts(chart.scene()).contains(QStringLiteral("next9")));
        // 120 bars in 300 px: slots of ~2 px, far narrower than a line of text.
        chart.resize(300, 300);
        chart.setBars(someBars(120));
        settle(chart);
        const int shown = int(chart.tokenLabelRects().size());
        QVERIFY2(shown > 1 && shown < 120, qPrintable(QString::number(shown)));
        QCOMPARE(chart.elidedTexts().size(), 120 - shown);
        QVERIFY(chart.elidedTexts().first().startsWith(QStringLiteral("token label")));
        const QList<QRectF> rects = chart.tokenLabelRects();
        for (int i = 1; i < rects.size(); ++i) QVERIFY(rects[i].left() >= rects[i - 1].right() - 0.5);
    }

    void chartLogScale() {
        DistributionChart chart;
        chart.resize(700, 400);
        chart.setBars(someBars(10));
        chart.setLogScale(true);
        QVERIFY(chart.logScale());
        QBarSeries* series = barSeriesOf(chart);
        QCategoryAxis* axis = nullptr;
        for (QAbstractAxis* a : series->attachedAxes())
            if (auto* l = qobject_cast<QCategoryAxis*>(a)) axis = l;
        QVERIFY(axis);
        QVERIFY(axis->isVisible());
        // someBars' smallest p is 0.05: the floor is the power of ten below it, labels per decade.
        QCOMPARE(chart.logFloor(), 0.01);
        QCOMPARE(axis->categoriesLabels(), (QStringList{"0.01", "0.1", "1"}));
        // Bar heights are decades above the floor; removed tokens (p = 0) sit on it with no height.
        const QList<DistributionBar> bars = someBars(10);
        for (int i = 0; i < 10; ++i) QVERIFY(std::abs(series->barSets()[0]->at(i) - std::log10(bars[i].before / 0.01)) < 1e-9);
        QCOMPARE(series->barSets()[1]->at(9), 0.0);
        settle(chart);
        QVERIFY(visibleSceneTexts(chart.scene()).contains(QStringLiteral("0.1")));
        QVERIFY2(chart.elidedTexts().isEmpty(), qPrintable(chart.elidedTexts().join(" | ")));
        chart.setLogScale(false);
        QCOMPARE(series->barSets()[1]->at(9), 0.0);
        QCOMPARE(series->barSets()[0]->at(0), 0.5);
    }

    // QChartView makes a chart of its own; replacing it orphaned it. Every QObject the chart
    // creates must go with it.
    void chartLeavesNoObjectBehind() {
        static QSet<QObject*>* live = nullptr;
        QSet<QObject*> objects;
        live = &objects;
        const quintptr oldAdd = qtHookData[3], oldRemove = qtHookData[4];
        qtHookData[3] = reinterpret_cast<quintptr>(+[](QObject* o) { if (live) live->insert(o); });
        qtHookData[4] = reinterpret_cast<quintptr>(+[](QObject* o) { if (live) live->remove(o); });
        {
            DistributionChart chart;
            chart.setBars(someBars(5));
        }
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        qtHookData[3] = oldAdd;
        qtHookData[4] = oldRemove;
        live = nullptr;
        QStringList left;
        // QGraphicsView's gesture objects belong to the application's gesture manager, which
        // keeps them for reuse: not the chart's.
        for (QObject* o : std::as_const(objects))
            if (qobject_cast<QGesture*>(o)) objects.remove(o);
        for (QObject* o : objects) left << QString::fromLatin1(o->metaObject()->className());
        QVERIFY2(!left.contains(QStringLiteral("QChart")), qPrintable(left.join(", ")));
        QVERIFY2(objects.isEmpty(), qPrintable(left.join(", ")));
    }

    // --- issue 8: token strip --------------------------------------------------------------

    // In a scroll area the strip scrolls by whole rows: at the end the last row is whole, and
    // anywhere no row is cut at the top (light and dark, viewport heights off the row pitch).
    void stripRowsAlignToViewport_data() {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<int>("height");
        for (bool dark : {false, true})
            for (int h : {97, 151, 203}) QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(dark ? "dark" : "light").arg(h))) << dark << h;
    }
    void stripRowsAlignToViewport() {
        QFETCH(bool, dark);
        QFETCH(int, height);
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* strip = new TokenStrip;
        area.setWidget(strip);
        area.setPalette(dark ? darkPalette() : lightPalette());
        area.resize(420, height);
        strip->setTokens(prose(400));
        settle(area);
        QScrollBar* bar = area.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        const int view = area.viewport()->height();
        const QColor base = area.viewport()->palette().color(area.viewport()->backgroundRole());
        const auto checkWhole = [&] {
            const QImage image = area.viewport()->grab().toImage();
            for (int i = 0; i < strip->tokens().size(); ++i) {
                const QRect r = strip->tokenRect(i).translated(0, -bar->value());
                if (r.bottom() < 0 || r.top() >= view) continue;
                // Nothing of a row shows above the viewport's top edge.
                QVERIFY2(r.top() >= 0, qPrintable(QStringLiteral("chip %1 at %2..%3 (scrolled %4)").arg(i).arg(r.top()).arg(r.bottom()).arg(bar->value())));
                // A row the bottom edge cuts is left blank, not drawn in half.
                if (r.bottom() >= view) {
                    const QRect seen = r.intersected(QRect(0, 0, image.width(), view));
                    QVERIFY2(inkPixels(image, seen, base) == 0 && distance(image.pixelColor(seen.center()), base) < 0.02,
                             qPrintable(QStringLiteral("chip %1 drawn cut at %2..%3 of %4").arg(i).arg(r.top()).arg(r.bottom()).arg(view)));
                }
            }
        };
        bar->setValue(bar->maximum());
        QCoreApplication::processEvents();
        checkWhole();
        const QRect last = strip->tokenRect(int(strip->tokens().size()) - 1).translated(0, -bar->value());
        QVERIFY(last.bottom() < view);
        for (int v : {1, 37, bar->maximum() / 2 + 3}) {
            bar->setValue(v);
            QCoreApplication::processEvents();
            checkWhole();
        }
        QCOMPARE(bar->singleStep(), strip->rowPitch());
        shot(area, QStringLiteral("strip-%1-%2").arg(dark ? "dark" : "light").arg(height));
    }

    void stripPrefersSeveralRows() {
        TokenStrip strip;
        QVERIFY(strip.sizeHint().height() >= 6 * strip.rowPitch() - 4);
        strip.setPreferredRows(10);
        QVERIFY(strip.sizeHint().height() >= 10 * strip.rowPitch() - 4);
        QFont big = strip.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        const int before = strip.rowPitch();
        strip.setFont(big);
        QVERIFY(strip.rowPitch() > 1.6 * before);
    }

    // Words read as words: the chips of " ad" + "ored" touch, no gap between them.
    void stripTokensRunOn() {
        TokenStrip strip;
        strip.resize(600, 200);
        strip.setTokens(withPrompt(8));
        const int n = int(strip.tokens().size());
        const QRect ad = strip.tokenRect(n - 2), ored = strip.tokenRect(n - 1);
        QCOMPARE(ored.top(), ad.top());
        QCOMPARE(ored.left(), ad.right() + 1);
        const QFontMetrics fm(strip.font());
        QCOMPARE(ored.width(), fm.horizontalAdvance(QStringLiteral("ored")));
    }

    void stripShowsIdsAndSpecialTokens() {
        TokenStrip strip;
        strip.setPalette(lightPalette());
        strip.resize(600, 200);
        strip.setTokens(withPrompt(4));
        const int plainHeight = strip.tokenRect(0).height();
        const QRect special = strip.tokenRect(0);
        // The special token is framed: ink along its left edge, top to bottom.
        const QImage image = strip.grab().toImage();
        int framed = 0;
        for (int y = special.top(); y <= special.bottom(); ++y)
            if (distance(image.pixelColor(special.left(), y), strip.backgroundFor(1.0)) > 0.3) ++framed;
        QVERIFY2(framed >= special.height() - 2, qPrintable(QString::number(framed)));
        strip.setShowIds(true);
        QVERIFY(strip.showIds());
        QVERIFY(strip.tokenRect(1).height() > plainHeight);
        QFont idFont = strip.font();
        idFont.setPointSizeF(idFont.pointSizeF() * 0.8);
        QVERIFY(strip.tokenRect(1).width() >= QFontMetrics(idFont).horizontalAdvance(QStringLiteral("882")));
        // The special token's own text fits its chip (no "<|im_start…").
        QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        mono.setPointSizeF(strip.font().pointSizeF() * 0.9);
        QVERIFY(strip.tokenRect(0).width() >= QFontMetricsF(mono).horizontalAdvance(QStringLiteral("<|im_start|>")) + 6);
        strip.setLineScale(3.0);
        QCOMPARE(strip.lineScale(), 3.0);
        shot(strip, QStringLiteral("strip-ids"));
    }

    void legendShowsTheRamp_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void legendShowsTheRamp() {
        QFETCH(bool, dark);
        ProbabilityLegend legend;
        legend.setPalette(dark ? darkPalette() : lightPalette());
        legend.resize(legend.sizeHint());
        const QImage image = legend.grab().toImage();
        QVERIFY(!legend.elided());
        // Somewhere the ramp's ends appear: the colours of p = 0 and p = 1 chips.
        const auto found = [&](const QColor& c) {
            for (int x = 0; x < image.width(); ++x)
                if (distance(image.pixelColor(x, image.height() / 2), c) < 0.03) return true;
            return false;
        };
        QVERIFY(found(TokenStrip::backgroundFor(0.02, legend.palette())));
        QVERIFY(found(TokenStrip::backgroundFor(0.98, legend.palette())));
        QVERIFY(legend.toolTip().contains(QStringLiteral("probable")));
        shot(legend, QStringLiteral("legend-%1").arg(dark ? "dark" : "light"));
        // At its narrowest it still says what the ramp is: "Shading:" and a shorter ramp.
        legend.resize(legend.minimumSizeHint());
        (void)legend.grab();
        QVERIFY(!legend.elided());
        QCOMPARE(legend.shownCaption(), legend.shortCaption());
    }

    void textLineFollowsFont() {
        TextLine line;
        line.setText(QStringLiteral("Step 4 with these settings would choose \u201c the\u201d (p = 0.412); 17 tokens kept"));
        const int before = line.sizeHint().height();
        QFont big = line.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        line.setFont(big);
        QVERIFY(line.sizeHint().height() > 1.6 * before);
        line.resize(1920, line.sizeHint().height());
        (void)line.grab();
        QVERIFY(!line.elided());
        line.resize(120, line.sizeHint().height());
        (void)line.grab();
        QVERIFY(line.elided());
    }

    // Screenshots of the waterfall for people (DLAB_WIDGET_SHOTS); asserts only that it paints.
    void waterfallScreenshots_data() {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<int>("width");
        for (bool dark : {false, true})
            for (int w : {560, 1400}) QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(dark ? "dark" : "light").arg(w))) << dark << w;
    }
    void waterfallScreenshots() {
        QFETCH(bool, dark);
        QFETCH(int, width);
        SamplerWaterfall waterfall;
        waterfall.setPalette(dark ? darkPalette() : lightPalette());
        QList<StagePanel> panels = chainPanels();
        panels[0].labels[0] = QStringLiteral("\u2423the");
        panels << greedyPanels()[0];
        waterfall.setPanels(panels);
        waterfall.resize(width, 300);
        (void)waterfall.grab();
        QVERIFY2(waterfall.elidedTexts().isEmpty(), qPrintable(waterfall.elidedTexts().join(" | ")));
        shot(waterfall, QStringLiteral("waterfall-%1-%2").arg(dark ? "dark" : "light").arg(width));
        DistributionChart chart;
        chart.setPalette(dark ? darkPalette() : lightPalette());
        DistributionCutoffs cut;
        for (int i = 0; i < 20; ++i) cut.cumulative << std::min(1.0, 0.09 * (i + 1));
        cut.topK = 40; cut.topKKept = 40; cut.topKCut = true;
        cut.topP = 0.9; cut.topPKept = 9; cut.topPCut = true;
        cut.minP = 0.05; cut.minPKept = 6; cut.minPCut = true;
        QList<DistributionBar> bars = someBars(20);
        bars[0].label = QStringLiteral("<|im_end|>");
        chart.resize(width, 360);
        chart.setBars(bars, cut);
        settle(chart);
        shot(chart, QStringLiteral("chart-%1-%2").arg(dark ? "dark" : "light").arg(width));
        chart.setLogScale(true);
        settle(chart);
        shot(chart, QStringLiteral("chart-log-%1-%2").arg(dark ? "dark" : "light").arg(width));
    }
};

QTEST_MAIN(TestGuiWidgets)
#include "test_gui_widgets.moc"
