// The KV cache explorer's painted views, offscreen (QT_QPA_PLATFORM=offscreen), without a model:
//  * KvHeatmapView: a cell's pixel is the colour map of its value (light and dark), MAX binning keeps
//    one hot column of 2,048 visible at 300 px, hit-testing at the corners and in bins, NaN is the
//    background, categorical colours, tooltips (value, unit, token, positions of a block, the
//    page's lines), hover / click signals, the cached image is rebuilt only when needed, bad grids
//    are refused with a sentence, and no text is clipped or overlaps at 600×260 and 300×200;
//  * KvBlockTableView: poolBlockAt under every cell, shared blocks in their own hue in every row and
//    the pool strip, the partly filled block hatched, tooltips list the sharing sequences, the
//    contiguous bars on one scale, rows wrap with heightForWidth, bad tables are refused;
//  * MemoryBarsView: the over-capacity segment appears exactly when weights + KV > capacity, one
//    scale for all bars, labels inside the widget.
#include <QtTest>
#include <QtWidgets>

#include <cmath>
#include <random>

#include "ui/app/theme.h"
#include "widgets/heatmap_color_map.h"
#include "widgets/kv_block_table_view.h"
#include "widgets/kv_heatmap_view.h"
#include "widgets/memory_bars_view.h"
#include "widgets/nice_ticks.h"
#include "widgets/palette_colors.h"

using namespace dlab::widgets;
Q_DECLARE_METATYPE(HeatmapGrid)
Q_DECLARE_METATYPE(BlockTableData)

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

QPalette themePalette(bool dark) { return dark ? dlab::ui::darkPalette() : dlab::ui::lightPalette(); }

void settle(QWidget& w, QSize size) {
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCoreApplication::processEvents();
}

QImage grabbed(QWidget& w) { return w.grab().toImage(); }

void sendToolTipEvent(QWidget* w, const QPoint& pos) {
    QHelpEvent help(QEvent::ToolTip, pos, w->mapToGlobal(pos));
    QApplication::sendEvent(w, &help);
}

// Pixels of `area` in `image` that are exactly `colour`.
int pixelsOf(const QImage& image, const QRect& area, const QColor& colour) {
    int n = 0;
    const QRect a = area.intersected(image.rect());
    for (int y = a.top(); y <= a.bottom(); ++y)
        for (int x = a.left(); x <= a.right(); ++x) n += image.pixelColor(x, y).rgb() == colour.rgb();
    return n;
}

double distance(const QColor& a, const QColor& b) {
    return std::hypot(a.redF() - b.redF(), a.greenF() - b.greenF(), a.blueF() - b.blueF());
}

HeatmapGrid smallGrid() {
    HeatmapGrid g;
    g.rows = 3;
    g.cols = 4;
    g.values = {0.0f, 10.0f, 20.0f, 30.0f,   //
                40.0f, 50.0f, 60.0f, 70.0f,  //
                80.0f, 90.0f, 95.0f, 100.0f};
    g.rowLabels = {"L0", "L1", "L2"};
    g.colLabels = {"Once", " upon", " a", " time"};
    g.quantity = "attention received";
    g.unit = "%";
    return g;
}

// rows × cols of small random values in [0.01, 0.05) (seeded), so a hot cell stands out.
HeatmapGrid noiseGrid(int rows, int cols, unsigned seed = 7) {
    HeatmapGrid g;
    g.rows = rows;
    g.cols = cols;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(0.01f, 0.05f);
    g.values.resize(size_t(rows) * size_t(cols));
    for (float& v : g.values) v = d(rng);
    for (int r = 0; r < rows; ++r) g.rowLabels << QStringLiteral("L%1").arg(r);
    g.quantity = "attention received";
    g.minValue = 0.0f;
    g.maxValue = 1.0f;
    return g;
}

// 90 rows = 30 layers × 3 KV heads, grouped by layer.
HeatmapGrid headsGrid(int cols) {
    HeatmapGrid g = noiseGrid(90, cols);
    g.rowLabels.clear();
    for (int layer = 0; layer < 30; ++layer) {
        g.groupStarts.push_back(layer * 3);
        for (int h = 0; h < 3; ++h) g.rowLabels << QStringLiteral("L%1 kv%2").arg(layer).arg(h);
    }
    return g;
}

HeatmapGrid categoryGrid() {
    HeatmapGrid g;
    g.rows = 2;
    g.cols = 6;
    g.values = {0, 1, 1, 2, kNaN, 0, 2, 2, 1, 0, 0, 1};
    g.rowLabels = {"L0", "L1"};
    g.categories = {"prompt", "beam 1", "beam 2"};
    g.categoryColors = {QColor(0x11, 0x22, 0x33), QColor(0xaa, 0x55, 0x00), QColor(0x00, 0x99, 0x66)};
    g.quantity = "owner";
    return g;
}

// Every text a paint drew lies inside the widget and overlaps no other.
void checkTexts(const QList<QRect>& rects, const QRect& widget, const char* what) {
    QVERIFY2(!rects.isEmpty(), what);
    for (int i = 0; i < rects.size(); ++i) {
        QVERIFY2(widget.contains(rects[i]), qPrintable(QStringLiteral("%1: text at (%2,%3 %4×%5) leaves the widget %6×%7")
                                                          .arg(what).arg(rects[i].x()).arg(rects[i].y()).arg(rects[i].width())
                                                          .arg(rects[i].height()).arg(widget.width()).arg(widget.height())));
        for (int j = i + 1; j < rects.size(); ++j)
            QVERIFY2(!rects[i].intersects(rects[j]),
                     qPrintable(QStringLiteral("%1: texts at (%2,%3 %4×%5) and (%6,%7 %8×%9) overlap")
                                    .arg(what).arg(rects[i].x()).arg(rects[i].y()).arg(rects[i].width()).arg(rects[i].height())
                                    .arg(rects[j].x()).arg(rects[j].y()).arg(rects[j].width()).arg(rects[j].height())));
    }
}

// Three sequences over a pool of 12 blocks of 16: a prompt of 40 positions (3 blocks, the last
// 8 of 16 full), two forks sharing its first two blocks (refcount 3) and each its own last blocks.
BlockTableData forkedTable() {
    BlockTableData d;
    d.blockSize = 16;
    d.nBlocks = 12;
    d.contextLength = 256;
    d.bytesPerBlock = 16 * 30 * 2 * 3 * 64 * 2;
    d.refCount = {3, 3, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0};
    d.sequences = {{0, "prompt", 40, {0, 1, 2}}, {1, "beam 1", 41, {0, 1, 4}}, {2, "beam 2", 50, {0, 1, 5, 7}}};
    return d;
}

std::vector<MemoryBar> gpuBars(double kvBytes) {
    const double weights = 0.27e9;
    return {{"24 GB", 24e9, weights, kvBytes, "fits"}, {"40 GB", 40e9, weights, kvBytes, "fits"},
            {"80 GB", 80e9, weights, kvBytes, "20 sequences fit"}, {"141 GB", 141e9, weights, kvBytes, "36 sequences fit"}};
}

}  // namespace

class TestGuiKvWidgets : public QObject {
    Q_OBJECT

private slots:
    // A category name wider than the legend wraps to a second line instead of being cut ("reused
    // from the cac…" beside the KV growth rows at 1024 × 700), in each language's words.
    void longCategoryNamesWrap_data() {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("reused");
        QTest::addColumn<QString>("computed");
        QTest::addColumn<int>("width");
        QTest::newRow("en") << "K/V rows with the cache" << "reused from the cache" << "computed in this step" << 600;
        QTest::newRow("de") << "K/V-Zeilen mit Cache" << "aus dem Cache wiederverwendet" << "in diesem Schritt berechnet" << 600;
        // Beside the Lessons panel at 1024 px: three lines a name ("reused from the…" before).
        QTest::newRow("en, narrow") << "K/V rows with the cache" << "reused from the cache" << "computed in this step" << 330;
    }
    void longCategoryNamesWrap() {
        QFETCH(QString, title);
        QFETCH(QString, reused);
        QFETCH(QString, computed);
        QFETCH(int, width);
        HeatmapGrid g = categoryGrid();
        g.quantity = title;   // the legend's title wraps too ("K/V-Zeilen mit Ca…" at 1024 px)
        g.categories = {reused, computed};
        g.categoryColors = {QColor(0x99, 0x99, 0x99), QColor(0x22, 0x66, 0xaa)};
        for (float& v : g.values) v = std::isnan(v) ? v : std::min(v, 1.0f);
        KvHeatmapView view;
        view.resize(width, 200);
        view.setGrid(g);
        (void)view.grab();
        const QStringList lines = view.lastLegendLines();
        for (const QString& line : lines) QVERIFY2(!line.contains(QChar(0x2026)), qPrintable(lines.join(" | ")));
        QCOMPARE(lines.join(u' '), title + u' ' + reused + u' ' + computed);
        checkTexts(view.lastTextRects(), view.rect(), "wrapped legend");
    }

    // The legend's title wraps as the names do where the legend is narrower than it.
    void legendTitleWraps() {
        HeatmapGrid g = categoryGrid();
        g.quantity = QStringLiteral("K/V-Zeilen mit Cache");
        g.categories = {QStringLiteral("alt"), QStringLiteral("neu")};
        g.categoryColors = {QColor(0x99, 0x99, 0x99), QColor(0x22, 0x66, 0xaa)};
        for (float& v : g.values) v = std::isnan(v) ? v : std::min(v, 1.0f);
        KvHeatmapView view;
        view.resize(400, 200);   // the legend gets a quarter
        view.setGrid(g);
        (void)view.grab();
        QVERIFY(view.fontMetrics().horizontalAdvance(g.quantity) > view.width() / 4);
        const QStringList lines = view.lastLegendLines();
        QVERIFY2(lines.size() == 4 && lines.mid(0, 2).join(u' ') == g.quantity, qPrintable(lines.join(" | ")));
        checkTexts(view.lastTextRects(), view.rect(), "wrapped legend title");
    }

    void cleanup() { QApplication::setPalette(QPalette()); }

    // --- helpers the views share ------------------------------------------------------------------

    void niceTicksAreOneTwoFive_data() {
        QTest::addColumn<qint64>("extent");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<QList<qint64>>("ticks");
        QTest::newRow("2048 positions, 5 ticks") << qint64(2048) << 5 << QList<qint64>{0, 500, 1000, 1500, 2000};
        QTest::newRow("2048 positions, 12 ticks") << qint64(2048) << 12 << QList<qint64>{0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000};
        QTest::newRow("10 positions, room for 20") << qint64(10) << 20 << QList<qint64>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        QTest::newRow("one tick") << qint64(300) << 1 << QList<qint64>{0};
        QTest::newRow("nothing") << qint64(0) << 5 << QList<qint64>{};
    }
    void niceTicksAreOneTwoFive() {
        QFETCH(qint64, extent);
        QFETCH(int, maxTicks);
        QFETCH(QList<qint64>, ticks);
        const std::vector<int64_t> got = niceTicks(extent, maxTicks);
        QCOMPARE(QList<qint64>(got.begin(), got.end()), ticks);
        QVERIFY(int(got.size()) <= std::max(0, maxTicks));
    }

    void heatScaleLinearAndLog() {
        const HeatScale lin(0.0f, 100.0f, false);
        QCOMPARE(lin.position(25.0f), 0.25);
        QCOMPARE(lin.position(-5.0f), 0.0);
        QCOMPARE(lin.position(500.0f), 1.0);
        QVERIFY(std::isnan(lin.position(kNaN)));
        const HeatScale log(1.0f, 100.0f, true);
        QVERIFY(std::abs(log.position(10.0f) - 0.5) < 1e-6);
        QVERIFY(std::abs(log.valueAt(0.5) - 10.0) < 1e-4);
        QCOMPARE(log.position(0.0f), 0.0);   // <= 0 clamps to the bottom of a log scale
        QCOMPARE(HeatScale(3.0f, 3.0f, false).position(3.0f), 0.5);
    }

    // The ramp reads on both bases: its low end is a tint (not the base: a zero is data), lightness
    // runs one way, and its top stands far from the base.
    void rampReadsOnLightAndDark_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void rampReadsOnLightAndDark() {
        QFETCH(bool, dark);
        const QPalette pal = themePalette(dark);
        const QColor base = pal.color(QPalette::Base);
        QVERIFY(heatRampColor(0.0, pal) != base);
        QVERIFY(distance(heatRampColor(1.0, pal), base) > 0.8);
        // Relative luminance (WCAG), as the colour map's comment states it.
        double previous = relativeLuminance(heatRampColor(0.0, pal));
        for (int i = 1; i <= 40; ++i) {
            const double l = relativeLuminance(heatRampColor(i / 40.0, pal));
            QVERIFY2(dark ? l >= previous - 0.002 : l <= previous + 0.002,
                     qPrintable(QStringLiteral("step %1: luminance %2 after %3").arg(i).arg(l).arg(previous)));
            previous = l;
        }
    }

    // --- KvHeatmapView ----------------------------------------------------------------------------

    void heatmapPixelIsColourOfValue_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void heatmapPixelIsColourOfValue() {
        QFETCH(bool, dark);
        QApplication::setPalette(themePalette(dark));
        KvHeatmapView view;
        view.setGrid(smallGrid());
        settle(view, {600, 260});
        const QImage image = grabbed(view);
        const HeatmapGrid& g = view.grid();
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.cols; ++c) {
                const QRect cell = view.cellRect(r, c);
                QVERIFY(cell.width() > 20 && cell.height() > 20);   // 4 columns in ~500 px
                QCOMPARE(image.pixelColor(cell.center()).rgb(), view.colorFor(g.at(r, c)).rgb());
            }
        // The auto range is the values' own: 0 is the ramp's bottom, 100 its top.
        QCOMPARE(view.colorFor(0.0f).rgb(), heatRampColor(0.0, view.palette()).rgb());
        QCOMPARE(view.colorFor(100.0f).rgb(), heatRampColor(1.0, view.palette()).rgb());
        QCOMPARE(image.pixelColor(view.cellRect(2, 3).center()).rgb(), heatRampColor(1.0, themePalette(dark)).rgb());
        QVERIFY(distance(image.pixelColor(view.cellRect(0, 0).center()), image.pixelColor(view.cellRect(2, 3).center())) > 0.8);
    }

    void heatmapMaxBinningKeepsHotColumn_data() {
        QTest::addColumn<int>("hot");
        QTest::addColumn<int>("rows");
        QTest::newRow("sink at position 0") << 0 << 30;
        QTest::newRow("inside a bin (1001)") << 1001 << 30;
        QTest::newRow("last position") << 2047 << 30;
        QTest::newRow("90 KV-head rows, 1337") << 1337 << 90;
    }
    void heatmapMaxBinningKeepsHotColumn() {
        QFETCH(int, hot);
        QFETCH(int, rows);
        HeatmapGrid g = noiseGrid(rows, 2048);
        const int hotRow = rows / 2;
        g.values[size_t(hotRow) * 2048 + size_t(hot)] = 1.0f;   // one cell of 61,440 (or 184,320)
        KvHeatmapView view;
        view.setGrid(g);
        settle(view, {300, 200});
        const QRect area = view.cellArea();
        QVERIFY2(area.width() < 2048 / 4, "the test needs several columns per pixel");
        const QImage image = grabbed(view);
        const QColor hotColour = view.colorFor(1.0f);
        // Exactly the pixel column whose bin holds the hot column shows it.
        int hotX = -1;
        for (int x = area.left(); x <= area.right(); ++x) {
            const auto [a, b] = view.columnsAtX(x);
            if (a <= hot && hot <= b) hotX = x;
        }
        QVERIFY(hotX >= 0);
        const int y = view.cellRect(hotRow, hot).center().y();
        QCOMPARE(image.pixelColor(hotX, y).rgb(), hotColour.rgb());
        QCOMPARE(pixelsOf(image, area, hotColour), view.cellRect(hotRow, hot).height());   // that pixel column of the row, nothing else
        // Hovering that pixel names the hot cell, not the bin's first column.
        QCOMPARE(view.cellAt({hotX, y}), std::optional<QPoint>(QPoint(hot, hotRow)));
        QVERIFY(view.tooltipText(hotRow, hot).contains(QStringLiteral("position %1").arg(hot)));
        // The tooltip shown there names the hot cell and says what the pixel stands for.
        const auto [first, last] = view.columnsAtX(hotX);
        sendToolTipEvent(&view, {hotX, y});
        QTRY_VERIFY(QToolTip::text().startsWith(view.tooltipText(hotRow, hot)));
        QVERIFY(QToolTip::text().contains(QStringLiteral("This pixel covers positions %1\u2013%2").arg(first).arg(last)));
        QToolTip::hideText();
    }

    void heatmapCellAtCorners() {
        HeatmapGrid g = noiseGrid(5, 7);
        KvHeatmapView view;
        view.setGrid(g);
        settle(view, {600, 260});
        const QRect a = view.cellArea();
        QCOMPARE(view.cellAt(a.topLeft()), std::optional<QPoint>(QPoint(0, 0)));
        QCOMPARE(view.cellAt(a.topRight()), std::optional<QPoint>(QPoint(6, 0)));
        QCOMPARE(view.cellAt(a.bottomLeft()), std::optional<QPoint>(QPoint(0, 4)));
        QCOMPARE(view.cellAt(a.bottomRight()), std::optional<QPoint>(QPoint(6, 4)));
        for (const QPoint outside : {a.topLeft() - QPoint(1, 0), a.topLeft() - QPoint(0, 1), a.bottomRight() + QPoint(1, 0),
                                     a.bottomRight() + QPoint(0, 1)})
            QCOMPARE(view.cellAt(outside), std::nullopt);
        // Cells tile the area: each cell's own rectangle maps back to it, neighbours touch.
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.cols; ++c) {
                const QRect cell = view.cellRect(r, c);
                QCOMPARE(view.cellAt(cell.topLeft()), std::optional<QPoint>(QPoint(c, r)));
                QCOMPARE(view.cellAt(cell.bottomRight()), std::optional<QPoint>(QPoint(c, r)));
                if (c + 1 < g.cols) QCOMPARE(view.cellRect(r, c + 1).left(), cell.right() + 1);
                if (r + 1 < g.rows) QCOMPARE(view.cellRect(r + 1, c).top(), cell.bottom() + 1);
            }
        QCOMPARE(view.cellRect(0, 0).topLeft(), a.topLeft());
        QCOMPARE(view.cellRect(4, 6).bottomRight(), a.bottomRight());
    }

    void heatmapTooltip_data() {
        QTest::addColumn<QString>("unit");
        QTest::addColumn<int>("colsPerLabel");
        QTest::addColumn<float>("value");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("percent, a position") << "%" << 1 << 12.5f
                                             << QStringList{"L1", "position 2", "\u201c a\u201d", "attention received: 12.5 %"};
        QTest::newRow("bytes, a block of 16") << "B" << 16 << 1536.0f
                                              << QStringList{"L1", "positions 32\u201347", "attention received: 1.5 KiB"};
        QTest::newRow("no unit") << "" << 1 << 0.125f << QStringList{"position 2", "attention received: 0.125"};
    }
    void heatmapTooltip() {
        QFETCH(QString, unit);
        QFETCH(int, colsPerLabel);
        QFETCH(float, value);
        QFETCH(QStringList, expected);
        HeatmapGrid g = smallGrid();
        g.unit = unit;
        g.colsPerLabel = colsPerLabel;
        if (colsPerLabel > 1) g.colLabels.clear();   // blocks have no single token
        g.values[1 * 4 + 2] = value;
        KvHeatmapView view;
        view.setGrid(g);
        view.setTooltipProvider([](int row, int col) { return QStringLiteral("page line r%1 c%2").arg(row).arg(col); });
        const QString tip = view.tooltipText(1, 2);
        for (const QString& part : expected) QVERIFY2(tip.contains(part), qPrintable(tip + " lacks " + part));
        QVERIFY(tip.endsWith(QStringLiteral("page line r1 c2")));
        QVERIFY(view.tooltipText(3, 0).isEmpty());   // no such row
        g.values[1 * 4 + 2] = kNaN;
        view.setGrid(g);
        QVERIFY(view.tooltipText(1, 2).contains(QStringLiteral("no data")));
    }

    void heatmapNanIsBackground_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void heatmapNanIsBackground() {
        QFETCH(bool, dark);
        QApplication::setPalette(themePalette(dark));
        HeatmapGrid g = smallGrid();
        g.values[0] = kNaN;    // (0, 0)
        g.values[6] = kNaN;    // (1, 2)
        g.values[1] = 0.0f;    // (0, 1): a zero is data
        KvHeatmapView view;
        view.setGrid(g);
        settle(view, {600, 260});
        const QImage image = grabbed(view);
        const QRgb base = view.palette().color(QPalette::Base).rgb();
        QCOMPARE(image.pixelColor(view.cellRect(0, 0).center()).rgb(), base);
        QCOMPARE(image.pixelColor(view.cellRect(1, 2).center()).rgb(), base);
        QVERIFY(image.pixelColor(view.cellRect(0, 1).center()).rgb() != base);
        // A bin of NaN and data shows the data (MAX ignores NaN).
        HeatmapGrid wide = noiseGrid(2, 4096);
        std::fill(wide.values.begin(), wide.values.begin() + 4096, kNaN);
        wide.values[100] = 0.5f;
        view.setGrid(wide);
        const QImage binned = grabbed(view);
        const QRect row0 = view.cellRect(0, 0);
        const QRect rowArea(view.cellArea().left(), row0.top(), view.cellArea().width(), row0.height());
        QCOMPARE(pixelsOf(binned, rowArea, view.colorFor(0.5f)), row0.height());
        QCOMPARE(pixelsOf(binned, rowArea, QColor::fromRgb(base)), rowArea.width() * rowArea.height() - row0.height());
    }

    void heatmapCategories_data() {
        QTest::addColumn<bool>("ownColours");
        QTest::addColumn<bool>("dark");
        QTest::newRow("given colours, light") << true << false;
        QTest::newRow("given colours, dark") << true << true;
        QTest::newRow("the view's hues") << false << false;
    }
    void heatmapCategories() {
        QFETCH(bool, ownColours);
        QFETCH(bool, dark);
        QApplication::setPalette(themePalette(dark));
        HeatmapGrid g = categoryGrid();
        if (!ownColours) g.categoryColors.clear();
        KvHeatmapView view;
        view.setGrid(g);
        settle(view, {600, 260});
        const QImage image = grabbed(view);
        auto expected = [&](int category) { return ownColours ? g.categoryColors[size_t(category)] : defaultCategoryColor(category); };
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.cols; ++c) {
                const float v = g.at(r, c);
                const QColor want = std::isnan(v) ? view.palette().color(QPalette::Base) : expected(int(v));
                QCOMPARE(image.pixelColor(view.cellRect(r, c).center()).rgb(), want.rgb());
            }
        QVERIFY(defaultCategoryColor(0) != defaultCategoryColor(1));
        // The legend: a swatch of each category right of the cells.
        const QRect legend(view.cellArea().right() + 2, 0, view.width() - view.cellArea().right() - 2, view.height());
        for (int i = 0; i < 3; ++i) QVERIFY2(pixelsOf(image, legend, expected(i)) > 16, qPrintable(QString::number(i)));
        QVERIFY(view.tooltipText(0, 3).contains(QStringLiteral("owner: beam 2")));
    }

    void heatmapRejectsBadGrid_data() {
        QTest::addColumn<HeatmapGrid>("grid");
        QTest::addColumn<QString>("sentence");
        HeatmapGrid g = smallGrid();
        g.values.pop_back();
        QTest::newRow("values") << g << "the heatmap has 3 rows × 4 columns = 12 cells, but 11 values were given";
        g = smallGrid();
        g.rowLabels.removeLast();
        QTest::newRow("row labels") << g << "the heatmap has 3 rows but 2 row labels (give one per row, or none)";
        g = smallGrid();
        g.colLabels << "extra";
        QTest::newRow("column labels") << g << "the heatmap has 4 columns but 5 column labels (give one per column, or none)";
        g = smallGrid();
        g.groupStarts = {0, 3};
        QTest::newRow("group start") << g << "group start row 3 is outside the heatmap's rows 0–2";
        g = smallGrid();
        g.colsPerLabel = 0;
        QTest::newRow("colsPerLabel") << g << "colsPerLabel is 0, but a column must stand for at least one position";
        g = smallGrid();
        g.scale = HeatmapGrid::Scale::Log;
        g.minValue = 0;
        g.maxValue = 100;
        QTest::newRow("log from zero") << g << "a log scale needs a positive minimum, but the colour range starts at 0";
        g = smallGrid();
        g.minValue = 5;
        g.maxValue = 1;
        QTest::newRow("range") << g << "the colour range 5 … 1 is not a range";
        g = categoryGrid();
        g.values[3] = 3;
        QTest::newRow("category index") << g << "the value 3 at row 0, column 3 is not a category index (0–2)";
        g = categoryGrid();
        g.categoryColors.pop_back();
        QTest::newRow("category colours") << g << "the heatmap has 3 categories but 2 category colours";
    }
    void heatmapRejectsBadGrid() {
        QFETCH(HeatmapGrid, grid);
        QFETCH(QString, sentence);
        KvHeatmapView view;
        view.setGrid(smallGrid());
        try {
            view.setGrid(grid);
            QFAIL("setGrid accepted a bad grid");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(sentence), e.what());
        }
        QCOMPARE(view.grid().values, smallGrid().values);   // unchanged
    }

    void heatmapTextsInside_data() {
        QTest::addColumn<HeatmapGrid>("grid");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        for (const QSize size : {QSize(600, 260), QSize(300, 200)})
            for (double scale : {1.0, 1.6}) {
                const QByteArray at = QByteArray::number(size.width()) + "x" + QByteArray::number(size.height()) + " font x" + QByteArray::number(scale);
                QTest::newRow("30 layers, " + at) << noiseGrid(30, 2048) << size << scale;
                QTest::newRow("90 KV heads, " + at) << headsGrid(2048) << size << scale;
                HeatmapGrid log = noiseGrid(30, 2048);
                log.scale = HeatmapGrid::Scale::Log;
                log.minValue = 0.001f;
                log.unit = "%";
                QTest::newRow("log, " + at) << log << size << scale;
                QTest::newRow("categories, " + at) << categoryGrid() << size << scale;
                QTest::newRow("empty, " + at) << HeatmapGrid() << size << scale;
            }
    }
    void heatmapTextsInside() {
        QFETCH(HeatmapGrid, grid);
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        KvHeatmapView view;
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * fontScale);
        view.setFont(f);
        view.setPlaceholderText(QStringLiteral("Run a prompt to see which positions each layer attends to."));
        view.setGrid(grid);
        settle(view, size);
        (void)grabbed(view);
        if (fontScale == 1.0) QVERIFY(view.minimumSizeHint().width() <= size.width() && view.minimumSizeHint().height() <= size.height());
        checkTexts(view.lastTextRects(), view.rect(), QTest::currentDataTag());
        if (!grid.isEmpty()) {
            QVERIFY(view.cellArea().width() > size.width() / 3);
            QVERIFY(view.cellArea().height() > size.height() / 4);
        }
    }

    // Every group's first row keeps its label where groups are far enough apart; rows in between
    // give way.
    void heatmapKeepsGroupLabels() {
        HeatmapGrid g = noiseGrid(24, 64);
        g.groupStarts = {0, 4, 8, 12, 16, 20};
        KvHeatmapView view;
        view.setGrid(g);
        settle(view, {600, 200});
        (void)grabbed(view);
        const QRect area = view.cellArea();
        QVERIFY2(area.height() / 24 < view.fontMetrics().height(), "the test needs rows lower than a line of text");
        QVERIFY2(area.height() / 6 > view.fontMetrics().height() + 2, "the test needs groups taller than a line of text");
        for (int row : g.groupStarts) {
            const int y = view.cellRect(row, 0).center().y();
            bool found = false;
            for (const QRect& r : view.lastTextRects())
                found |= r.right() < area.left() && r.top() <= y && y <= r.bottom();
            QVERIFY2(found, qPrintable(QStringLiteral("group row %1 lost its label").arg(row)));
        }
        int rowLabels = 0;
        for (const QRect& r : view.lastTextRects()) rowLabels += r.right() < area.left() && r.bottom() <= area.bottom() + 1;
        QVERIFY(rowLabels >= 6 && rowLabels < 24);
    }

    // Without groups (the growth view: one row per step), the row labels are evenly spaced from
    // row 0 down, none dropped: the first label's box, pushed down by the widget's top edge, made
    // the second collide and vanish at some heights ("step 0", then "step 12" in German).
    void heatmapRowLabelsEvenlySpaced_data() {
        QTest::addColumn<int>("height");
        for (int height = 120; height <= 330; height += 7) QTest::newRow(qPrintable(QString::number(height))) << height;
    }
    void heatmapRowLabelsEvenlySpaced() {
        QFETCH(int, height);
        HeatmapGrid g = noiseGrid(48, 97);
        for (int r = 0; r < g.rows; ++r) g.rowLabels[r] = QStringLiteral("step %1").arg(r);
        KvHeatmapView view;
        view.setGrid(g);
        settle(view, {600, height});
        (void)grabbed(view);
        const QRect area = view.cellArea();
        QList<int> tops;
        for (const QRect& r : view.lastTextRects())
            if (r.right() < area.left() && r.bottom() <= area.bottom() + 1) tops << r.top();
        std::sort(tops.begin(), tops.end());
        QVERIFY2(tops.size() >= 2, qPrintable(QString("%1 row labels").arg(tops.size())));
        QList<int> gaps;
        for (int i = 1; i < tops.size(); ++i) gaps << tops[i] - tops[i - 1];
        const int narrowest = *std::min_element(gaps.begin(), gaps.end());
        for (int i = 0; i < gaps.size(); ++i)
            QVERIFY2(gaps[i] <= narrowest + narrowest / 2,
                     qPrintable(QString("gap %1 after label %2 is %3 px, the narrowest %4: a label was dropped").arg(i).arg(i).arg(gaps[i]).arg(narrowest)));
    }

    void heatmapImageCached() {
        KvHeatmapView view;
        view.setGrid(noiseGrid(30, 2048));
        settle(view, {600, 250});
        view.repaint();
        const int builds = view.imageBuilds();
        QVERIFY(builds >= 1);
        for (int i = 0; i < 5; ++i) view.repaint();
        QTest::mouseMove(&view, view.cellArea().center());
        view.repaint();
        QCOMPARE(view.imageBuilds(), builds);
        view.resize(700, 250);
        QCoreApplication::processEvents();
        QCOMPARE(view.width(), 700);
        view.repaint();
        QCOMPARE(view.imageBuilds(), builds + 1);
        view.setGrid(noiseGrid(30, 2048, 9));
        view.repaint();
        QCOMPARE(view.imageBuilds(), builds + 2);
        view.setPalette(themePalette(true));
        view.repaint();
        QCOMPARE(view.imageBuilds(), builds + 3);
    }

    void heatmapHoverAndClick() {
        KvHeatmapView view;
        view.setGrid(smallGrid());
        settle(view, {600, 260});
        QSignalSpy hovered(&view, &KvHeatmapView::cellHovered);
        QSignalSpy clicked(&view, &KvHeatmapView::cellClicked);
        QTest::mouseMove(&view, view.cellRect(2, 1).center());
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toInt(), 2);
        QCOMPARE(hovered.last().at(1).toInt(), 1);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(0, 3).center());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.first().at(0).toInt(), 0);
        QCOMPARE(clicked.first().at(1).toInt(), 3);
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(2, 2));   // the label margin: no cell
        QCOMPARE(clicked.size(), 1);
    }

    void heatmapPlaceholderAndSizes() {
        KvHeatmapView view;
        view.setPlaceholderText(QStringLiteral("Run a prompt first."));
        settle(view, {600, 250});
        (void)grabbed(view);
        QCOMPARE(view.lastTextRects().size(), 1);
        QVERIFY(view.lastTextRects().first().contains(view.rect().center()));
        QCOMPARE(view.cellAt(view.rect().center()), std::nullopt);
        view.setGrid(noiseGrid(30, 2048));
        QVERIFY(view.sizeHint().width() <= 1000 && view.sizeHint().height() <= 350);
        QVERIFY(view.minimumSizeHint().width() <= 300 && view.minimumSizeHint().height() <= 200);
    }

    // --- KvBlockTableView -------------------------------------------------------------------------

    void blockTablePoolBlockAt() {
        KvBlockTableView view;
        view.setData(forkedTable());
        settle(view, {600, view.heightForWidth(600)});
        const BlockTableData& d = view.data();
        for (size_t s = 0; s < d.sequences.size(); ++s)
            for (size_t l = 0; l < d.sequences[s].blocks.size(); ++l) {
                const QRect cell = view.blockCellRect(int(s), int(l));
                QVERIFY(!cell.isNull());
                QCOMPARE(view.poolBlockAt(cell.center()), std::optional<int>(d.sequences[s].blocks[l]));
                QCOMPARE(view.poolBlockAt(cell.topLeft()), std::optional<int>(d.sequences[s].blocks[l]));
                QCOMPARE(view.poolBlockAt(cell.topRight() + QPoint(1, 0)), std::nullopt);   // the gap between cells
            }
        for (int b = 0; b < d.nBlocks; ++b) QCOMPARE(view.poolBlockAt(view.poolCellRect(b).center()), std::optional<int>(b));
        QCOMPARE(view.poolBlockAt(QPoint(1, 1)), std::nullopt);
        QVERIFY(view.blockCellRect(0, 3).isNull());
    }

    void blockTableSharedColours_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void blockTableSharedColours() {
        QFETCH(bool, dark);
        QApplication::setPalette(themePalette(dark));
        KvBlockTableView view;
        view.setData(forkedTable());
        settle(view, {600, view.heightForWidth(600)});
        const QImage image = grabbed(view);
        // Pool block 0 is shared by all three tables: its hue in each row and in the pool strip.
        auto mostly = [&](const QRect& cell, const QColor& c) {
            const int n = pixelsOf(image, cell, c);
            return n > cell.width() * cell.height() * 2 / 5;
        };
        for (int s = 0; s < 3; ++s) {
            QVERIFY2(mostly(view.blockCellRect(s, 0), view.sharedColor(0)), qPrintable(QString::number(s)));
            QVERIFY(mostly(view.blockCellRect(s, 1), view.sharedColor(1)));
            QCOMPARE(image.pixelColor(view.blockCellRect(s, 0).topLeft()).rgb(), view.sharedBorderColor(0).rgb());
        }
        QVERIFY(mostly(view.poolCellRect(0), view.sharedColor(0)));
        QVERIFY(mostly(view.poolCellRect(1), view.sharedColor(1)));
        QVERIFY(view.sharedColor(0) != view.sharedColor(1));
        // Unshared blocks in the neutral "in use" colour, free pool blocks in the base colour.
        QVERIFY(mostly(view.blockCellRect(2, 2), view.usedColor()));     // beam 2's block 5: 16 of 16
        QCOMPARE(pixelsOf(image, view.blockCellRect(2, 2), view.sharedColor(5)), 0);
        QVERIFY(mostly(view.poolCellRect(4), view.usedColor()));
        QVERIFY(mostly(view.poolCellRect(3), view.freeColor()));
        for (int b : {2, 4, 5, 7}) QVERIFY(distance(view.usedColor(), view.sharedColor(b)) > 0.15);
    }

    void blockTableHatchesUnfilledSlots() {
        KvBlockTableView view;
        view.setData(forkedTable());
        settle(view, {600, view.heightForWidth(600)});
        const QImage image = grabbed(view);
        // The prompt's block 2 holds positions 32-39: 8 of 16 slots, the right half hatched.
        // (Sampled on the cell's first and last inner pixel rows, above and below the block number,
        // whose antialiased pixels could take any grey.)
        auto edgeRows = [&](const QRect& cell, int x0, int x1, const QColor& c) {
            return pixelsOf(image, QRect(QPoint(x0, cell.top() + 1), QPoint(x1, cell.top() + 2)), c) +
                   pixelsOf(image, QRect(QPoint(x0, cell.bottom() - 2), QPoint(x1, cell.bottom() - 1)), c);
        };
        const QRect cell = view.blockCellRect(0, 2);
        const int middle = cell.left() + cell.width() / 2;
        QCOMPARE(edgeRows(cell, cell.left() + 1, middle - 2, view.hatchColor()), 0);
        QCOMPARE(edgeRows(cell, cell.left() + 1, middle - 2, view.usedColor()), 4 * (middle - 2 - cell.left()));
        const QRect right(middle + 1, cell.top() + 1, cell.right() - middle - 1, cell.height() - 2);
        QVERIFY(pixelsOf(image, right, view.hatchColor()) > 3);
        QVERIFY(pixelsOf(image, right, view.freeColor()) > 3);
        const QRect full = view.blockCellRect(2, 2);
        QCOMPARE(edgeRows(full, full.left() + 1, full.right() - 1, view.hatchColor()), 0);   // a full block
        // The contiguous bars: one scale, filled as far as the positions go, the rest hatched.
        const QRect bar0 = view.contiguousBarRect(0), bar2 = view.contiguousBarRect(2);
        QCOMPARE(bar0.width(), bar2.width());
        auto filledWidth = [&](const QRect& bar) {
            int x = bar.left() + 1;
            while (x < bar.right() && image.pixelColor(x, bar.center().y()).rgb() == view.usedColor().rgb()) ++x;
            return x - bar.left();
        };
        QVERIFY(std::abs(filledWidth(bar0) - bar0.width() * 40 / 256) <= 2);
        QVERIFY(std::abs(filledWidth(bar2) - bar2.width() * 50 / 256) <= 2);
        QVERIFY(pixelsOf(image, bar0.adjusted(bar0.width() / 2, 1, -1, -1), view.hatchColor()) > 10);
        // A partly filled block's number stands on a plain patch: no hatching under it.
        bool found = false;
        for (const QRect& text : view.lastTextRects())
            if (cell.contains(text)) {
                found = true;
                QCOMPARE(pixelsOf(image, text, view.hatchColor()), 0);
            }
        QVERIFY(found);
    }

    void blockTableTooltips() {
        KvBlockTableView view;
        view.setData(forkedTable());
        settle(view, {600, view.heightForWidth(600)});
        const QString shared = view.tooltipAt(view.blockCellRect(1, 0).center());
        for (const QString& part : {QStringLiteral("beam 1, logical block 0 \u2192 pool block 0"), QStringLiteral("16 of 16 slots used"),
                                    QStringLiteral("refcount 3"), QStringLiteral("prompt"), QStringLiteral("beam 2")})
            QVERIFY2(shared.contains(part), qPrintable(shared + " lacks " + part));
        const QString last = view.tooltipAt(view.blockCellRect(0, 2).center());
        QVERIFY2(last.contains(QStringLiteral("8 of 16 slots used (positions 32\u201339)")), qPrintable(last));
        QVERIFY(last.contains(QStringLiteral("refcount 1")));
        QVERIFY(!last.contains(QStringLiteral("beam")));
        QVERIFY(view.tooltipAt(view.poolCellRect(3).center()).contains(QStringLiteral("free")));
        QVERIFY(view.tooltipAt(view.poolCellRect(1).center()).contains(QStringLiteral("beam 2 (its block 1, 16 of 16 slots)")));
        QVERIFY(view.tooltipAt(view.contiguousBarRect(1).center()).contains(QStringLiteral("41 of 256 reserved slots")));
        QVERIFY(view.tooltipAt(QPoint(view.width() - 1, 1)).isEmpty());
        sendToolTipEvent(&view, view.blockCellRect(1, 0).center());
        QTRY_COMPARE(QToolTip::text(), shared);
        QToolTip::hideText();
        QSignalSpy hovered(&view, &KvBlockTableView::blockHovered);
        QTest::mouseMove(&view, view.blockCellRect(2, 3).center());
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toInt(), 7);
    }

    void blockTableRejects_data() {
        QTest::addColumn<BlockTableData>("data");
        QTest::addColumn<QString>("sentence");
        BlockTableData d = forkedTable();
        d.sequences[1].blocks[2] = 12;
        QTest::newRow("block outside the pool") << d << "sequence 'beam 1' (id 1): logical block 2 points at pool block 12, outside the pool's 12 blocks (0–11)";
        d = forkedTable();
        d.sequences[0].blocks[0] = -1;
        QTest::newRow("negative block") << d << "sequence 'prompt' (id 0): logical block 0 points at pool block -1";
        d = forkedTable();
        d.refCount.pop_back();
        QTest::newRow("refCount size") << d << "the pool has 12 blocks but refCount lists 11";
        d = forkedTable();
        d.sequences[2].blocks.pop_back();
        QTest::newRow("too few blocks") << d << "sequence 'beam 2' (id 2) holds 50 positions, but its 3 blocks of 16 hold only 48";
        d = forkedTable();
        d.sequences[0].blocks[1] = 3;
        QTest::newRow("free block in a table") << d << "sequence 'prompt' (id 0): logical block 1 points at pool block 3, whose refCount is 0 (free)";
        d = forkedTable();
        d.contextLength = 32;
        QTest::newRow("beyond the context") << d << "sequence 'prompt' (id 0) holds 40 positions, more than the context length 32";
        d = forkedTable();
        d.blockSize = 0;
        QTest::newRow("block size") << d << "the block size is 0, but a block must hold at least one position";
    }
    void blockTableRejects() {
        QFETCH(BlockTableData, data);
        QFETCH(QString, sentence);
        KvBlockTableView view;
        view.setData(forkedTable());
        try {
            view.setData(data);
            QFAIL("setData accepted a bad table");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(sentence), e.what());
        }
        QCOMPARE(view.data().nBlocks, 12);
    }

    void blockTableWrapsAndFitsScrollArea() {
        BlockTableData d;
        d.blockSize = 16;
        d.nBlocks = 300;
        d.contextLength = 2048;
        d.refCount.assign(300, 0);
        for (int s = 0; s < 2; ++s) {
            BlockTableSequence seq{s, s == 0 ? "a long prompt" : "its fork", 2000, {}};
            for (int b = 0; b < 125; ++b) {
                const int block = b < 100 ? b : 100 + s * 25 + (b - 100);   // the first 100 shared
                seq.blocks.push_back(block);
                ++d.refCount[size_t(block)];
            }
            d.sequences.push_back(seq);
        }
        QScrollArea area;
        auto* table = new KvBlockTableView;
        KvBlockTableView& view = *table;
        view.setData(d);
        QVERIFY(view.heightForWidth(300) > view.heightForWidth(900));
        area.setWidgetResizable(true);
        area.setWidget(table);
        settle(area, {620, 400});
        QTRY_COMPARE(view.height(), std::max(view.heightForWidth(view.width()), area.viewport()->height()));
        QVERIFY(view.height() > area.viewport()->height());   // it scrolls
        for (int l = 0; l < 125; ++l) QVERIFY(view.rect().contains(view.blockCellRect(1, l)));
        for (int b = 0; b < 300; ++b) QVERIFY(view.rect().contains(view.poolCellRect(b)));
        QVERIFY(view.blockCellRect(0, 124).top() > view.blockCellRect(0, 0).bottom());   // wrapped
        (void)view.grab();
        checkTexts(view.lastTextRects(), view.rect(), "block table in a scroll area");
    }

    void blockTableTextsInside_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("fontScale");
        for (int w : {600, 300})
            for (double scale : {1.0, 1.6}) QTest::newRow(qPrintable(QStringLiteral("%1 px, font x%2").arg(w).arg(scale))) << w << scale;
    }
    void blockTableTextsInside() {
        QFETCH(int, width);
        QFETCH(double, fontScale);
        KvBlockTableView view;
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * fontScale);
        view.setFont(f);
        view.setData(forkedTable());
        settle(view, {width, view.heightForWidth(width)});
        (void)grabbed(view);
        checkTexts(view.lastTextRects(), view.rect(), QTest::currentDataTag());
    }

    // --- MemoryBarsView ---------------------------------------------------------------------------

    void memoryOverflowOnlyWhenOver_data() {
        QTest::addColumn<double>("kvBytes");
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QList<bool>>("over");   // per bar: 24, 40, 80, 141 GB
        QTest::newRow("10 GB of KV, light") << 10e9 << false << QList<bool>{false, false, false, false};
        QTest::newRow("30 GB of KV, light") << 30e9 << false << QList<bool>{true, false, false, false};
        QTest::newRow("79.73 GB: 80 GB exactly full, dark") << 79.73e9 << true << QList<bool>{true, true, false, false};
        QTest::newRow("200 GB of KV, dark") << 200e9 << true << QList<bool>{true, true, true, true};
    }
    void memoryOverflowOnlyWhenOver() {
        QFETCH(double, kvBytes);
        QFETCH(bool, dark);
        QFETCH(QList<bool>, over);
        QApplication::setPalette(themePalette(dark));
        MemoryBarsView view;
        view.setBars(gpuBars(kvBytes));
        settle(view, {600, view.heightForWidth(600)});
        const QImage image = grabbed(view);
        for (int i = 0; i < 4; ++i) {
            const MemoryBarsView::BarGeometry g = view.barGeometry(i);
            const QRect row(0, g.capacity.top(), view.width(), g.capacity.height());
            const int red = pixelsOf(image, row, view.overflowColor());
            QCOMPARE(!g.overflow.isNull(), over[i]);
            if (over[i]) {
                QVERIFY(g.overflow.left() > g.capacity.right());   // beyond the outline
                QVERIFY2(red > g.overflow.width(), qPrintable(QString::number(i)));
                QCOMPARE(pixelsOf(image, g.capacity, view.overflowColor()), 0);
            } else {
                QCOMPARE(red, 0);
            }
            // The KV segment stays inside the capacity and is drawn in its colour.
            QVERIFY(g.capacity.contains(g.kv));
            QVERIFY(pixelsOf(image, g.kv, view.kvColor()) > g.kv.width() * g.kv.height() / 2);
        }
    }

    void memoryBarsShareOneScale() {
        MemoryBarsView view;
        view.setBars(gpuBars(10e9));
        settle(view, {800, view.heightForWidth(800)});
        const double w24 = view.barGeometry(0).capacity.width(), w141 = view.barGeometry(3).capacity.width();
        QVERIFY(std::abs(w24 / w141 - 24.0 / 141.0) < 0.01);
        QCOMPARE(view.barGeometry(0).kv.width(), view.barGeometry(3).kv.width());   // 10 GB is 10 GB on every GPU
        QVERIFY(view.tooltipAt(view.barGeometry(2).capacity.center()).contains(QStringLiteral("20 sequences fit")));
        QVERIFY(view.gigabytes(0.27 * double(1LL << 30)) == QStringLiteral("0.27 GiB"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, view.setBars({{"bad", 24e9, -1, 0, {}}}));
    }

    // A small model (SmolLM2-135M: 92 MiB of weights, 90 MiB of cache) beside 141 GiB: each
    // segment is still drawn, at least 3 px wide, in its colour, weights before cache; sizes above
    // the minimum keep their true lengths.
    void memoryBarsSmallAmountsStayVisible() {
        MemoryBarsView view;
        std::vector<MemoryBar> bars;
        for (double gib : {24.0, 141.0}) bars.push_back({QStringLiteral("GPU"), gib * double(1LL << 30), 92.1 * (1 << 20), 90.0 * (1 << 20), {}});
        view.setBars(bars);
        settle(view, {600, view.heightForWidth(600)});
        const QImage image = grabbed(view);
        for (int i = 0; i < 2; ++i) {
            const MemoryBarsView::BarGeometry g = view.barGeometry(i);
            QVERIFY2(g.weights.width() >= 3 && g.kv.width() >= 3, qPrintable(QStringLiteral("%1 / %2").arg(g.weights.width()).arg(g.kv.width())));
            QVERIFY(g.weights.right() < g.kv.left());
            QVERIFY(pixelsOf(image, g.kv, view.kvColor()) >= g.kv.height() * 2);
            QVERIFY(pixelsOf(image, g.weights, view.weightsColor()) >= g.weights.height() * 2);
        }
        // 10 GB of cache is its true length, not the minimum.
        MemoryBarsView large;
        large.setBars(gpuBars(10e9));
        settle(large, {800, large.heightForWidth(800)});
        const MemoryBarsView::BarGeometry g = large.barGeometry(3);
        QVERIFY2(std::abs(g.kv.width() - g.capacity.width() * 10e9 / 141e9) <= 2.0, qPrintable(QStringLiteral("%1 of %2").arg(g.kv.width()).arg(g.capacity.width())));
    }

    void memoryBarsTextsInside_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("fontScale");
        for (const QSize size : {QSize(600, 260), QSize(300, 200)})
            for (double scale : {1.0, 1.6})
                QTest::newRow(qPrintable(QStringLiteral("%1x%2 font x%3").arg(size.width()).arg(size.height()).arg(scale))) << size << scale;
    }
    void memoryBarsTextsInside() {
        QFETCH(QSize, size);
        QFETCH(double, fontScale);
        MemoryBarsView view;
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * fontScale);
        view.setFont(f);
        view.setBars(gpuBars(30e9));
        // The view asks for its height (legend lines wrap): a page gives it heightForWidth.
        settle(view, {size.width(), std::max(size.height(), view.heightForWidth(size.width()))});
        QVERIFY(view.heightForWidth(size.width()) <= 700 / 2);
        (void)grabbed(view);
        checkTexts(view.lastTextRects(), view.rect(), QTest::currentDataTag());
    }
};

QTEST_MAIN(TestGuiKvWidgets)
#include "test_gui_kv_widgets.moc"
