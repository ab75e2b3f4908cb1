// Frame time of the KV heatmap (KvHeatmapView) on the KV explorer's largest grids: 2,048 positions ×
// 30 layers and 2,048 × 90 (30 layers × 3 KV heads), attention-like values (a sink at position 0, a
// recent window, noise), at 1600×400 and 600×250, offscreen. Measures
//   (a) a full repaint (repaint() of the whole widget, the cell image cached): median and p95 of 100;
//   (b) setGrid + the first repaint (validation, colour range, the cell image rebuilt): of 20;
//   (c) a resize by one pixel + repaint (a splitter drag: the image is rebuilt at the new size): of 40.
// The target is 16 ms for every frame.
//
// usage: bench_kv_heatmap [--shots DIR]
//   QT_QPA_PLATFORM=offscreen; --shots DIR also writes screenshots of the three KV views (light and
//   dark palettes) to DIR, for people to look at.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QtTest/QTest>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "ui/app/theme.h"
#include "widgets/kv_block_table_view.h"
#include "widgets/kv_heatmap_view.h"
#include "widgets/memory_bars_view.h"

using namespace dlab::widgets;

namespace {

// Attention received per (row, position), in percent: position 0 takes a large share (the sink),
// the last 64 positions a rising share, everything else a little noise.
HeatmapGrid attentionGrid(int layers, int kvHeads, int positions, unsigned seed) {
    HeatmapGrid g;
    g.rows = layers * kvHeads;
    g.cols = positions;
    g.values.resize(size_t(g.rows) * size_t(g.cols));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> noise(0.0f, 0.08f);
    for (int r = 0; r < g.rows; ++r)
        for (int c = 0; c < g.cols; ++c) {
            float v = noise(rng);
            if (c == 0) v = 20.0f + float(r % 7) * 5.0f;
            else if (c >= positions - 64) v += float(c - (positions - 64)) / 64.0f * 3.0f;
            g.values[size_t(r) * size_t(g.cols) + size_t(c)] = v;
        }
    for (int l = 0; l < layers; ++l) {
        if (kvHeads > 1) g.groupStarts.push_back(l * kvHeads);
        for (int h = 0; h < kvHeads; ++h) g.rowLabels << (kvHeads > 1 ? QStringLiteral("L%1 kv%2").arg(l).arg(h) : QStringLiteral("L%1").arg(l));
    }
    static const QStringList words{"Once", " upon", " a", " time", ",", " there", " was", " a", " little", " cat", ".", "\n"};
    for (int c = 0; c < g.cols; ++c) g.colLabels << words[c % words.size()];
    g.quantity = QStringLiteral("attention received");
    g.unit = QStringLiteral("%");
    return g;
}

struct Stats {
    double median, p95, max;
};

Stats summarize(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back()};
}

double msSince(QElapsedTimer& t) { return double(t.nsecsElapsed()) / 1e6; }

void shots(const QString& dir) {
    QDir().mkpath(dir);
    auto save = [&](QWidget& w, QSize size, const QString& name) {
        w.resize(size);
        w.show();
        (void)QTest::qWaitForWindowExposed(&w);
        QApplication::processEvents();
        w.grab().save(dir + u'/' + name + QStringLiteral(".png"));
        std::printf("wrote %s/%s.png\n", qPrintable(dir), qPrintable(name));
    };
    for (bool dark : {false, true}) {
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        const QPalette pal = dark ? dlab::ui::darkPalette() : dlab::ui::lightPalette();
        {
            KvHeatmapView v;
            v.setPalette(pal);
            v.setGrid(attentionGrid(30, 1, 2048, 1));
            save(v, {600, 250}, "heatmap-30x2048-600-" + theme);
            save(v, {1600, 400}, "heatmap-30x2048-1600-" + theme);
            save(v, {300, 200}, "heatmap-30x2048-300-" + theme);
            v.setGrid(attentionGrid(30, 3, 2048, 2));
            save(v, {600, 250}, "heatmap-90x2048-600-" + theme);
            HeatmapGrid few = attentionGrid(6, 1, 24, 3);
            few.scale = HeatmapGrid::Scale::Log;
            few.minValue = 0.01f;
            few.maxValue = 50.0f;
            v.setGrid(few);
            save(v, {600, 250}, "heatmap-log-6x24-600-" + theme);
            HeatmapGrid owners;
            owners.rows = 4;
            owners.cols = 64;
            owners.colsPerLabel = 16;
            owners.categories = {"free", "prompt", "beam 1", "beam 2"};
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 64; ++c) owners.values.push_back(c < 20 ? 1.0f : c < 40 ? float(1 + (c + r) % 3) : 0.0f);
            owners.rowLabels = {"L0", "L1", "L2", "L3"};
            owners.quantity = "block owner";
            v.setGrid(owners);
            save(v, {600, 250}, "heatmap-categories-" + theme);
        }
        {
            KvBlockTableView v;
            v.setPalette(pal);
            BlockTableData d;
            d.blockSize = 16;
            d.nBlocks = 24;
            d.contextLength = 256;
            d.bytesPerBlock = 92160;
            d.refCount = {3, 3, 1, 0, 1, 1, 0, 1, 2, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            d.sequences = {{0, "prompt", 40, {0, 1, 2}}, {1, "beam 1", 73, {0, 1, 4, 8, 9}}, {2, "beam 2", 89, {0, 1, 5, 7, 8, 9, 12}}};
            v.setData(d);
            QScrollArea area;
            area.setPalette(pal);
            area.setWidgetResizable(true);
            area.setWidget(&v);
            save(area, {600, 420}, "blocks-" + theme);
            area.takeWidget();
        }
        {
            MemoryBarsView v;
            v.setPalette(pal);
            v.setBars({{"24 GB", 24e9, 0.27e9, 30e9, "does not fit"}, {"40 GB", 40e9, 0.27e9, 30e9, "1 sequence fits"},
                       {"80 GB", 80e9, 0.27e9, 30e9, "2 sequences fit"}, {"141 GB", 141e9, 0.27e9, 30e9, "4 sequences fit"}});
            save(v, {600, v.heightForWidth(600)}, "memory-" + theme);
            save(v, {300, v.heightForWidth(300)}, "memory-300-" + theme);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    for (int i = 1; i + 1 < argc; ++i)
        if (QString::fromLocal8Bit(argv[i]) == QLatin1String("--shots")) shots(QString::fromLocal8Bit(argv[i + 1]));

    std::printf("platform %s\n\n", qPrintable(QGuiApplication::platformName()));
    std::printf("| grid | view | (a) repaint median | (a) p95 | (b) setGrid + first paint median | (b) p95 | (c) resize + paint median | (c) p95 |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    double worst = 0.0;
    for (int heads : {1, 3}) {
        const HeatmapGrid grid = attentionGrid(30, heads, 2048, 11);
        for (const QSize size : {QSize(1600, 400), QSize(600, 250)}) {
            KvHeatmapView view;
            view.setPalette(dlab::ui::darkPalette());
            view.resize(size);
            view.show();
            (void)QTest::qWaitForWindowExposed(&view);
            QElapsedTimer timer;
            std::vector<double> first, frames, resized;
            for (int i = 0; i < 20; ++i) {
                HeatmapGrid copy = grid;   // the copy is the caller's, not the view's
                timer.start();
                view.setGrid(std::move(copy));
                view.repaint();
                first.push_back(msSince(timer));
            }
            for (int i = 0; i < 100; ++i) {
                timer.start();
                view.repaint();
                frames.push_back(msSince(timer));
            }
            for (int i = 0; i < 40; ++i) {
                const int builds = view.imageBuilds();
                timer.start();
                view.resize(size.width() + (i % 2 ? 0 : 1), size.height());
                view.repaint();
                resized.push_back(msSince(timer));
                if (view.imageBuilds() != builds + 1) std::printf("(resize frame %d did not rebuild the image)\n", i);
                QApplication::processEvents();
            }
            const Stats a = summarize(frames), b = summarize(first), c = summarize(resized);
            worst = std::max({worst, a.max, b.max, c.max});
            std::printf("| %d × %d | %d×%d (cells %d×%d) | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", grid.rows, grid.cols, size.width(),
                        size.height(), view.cellArea().width(), view.cellArea().height(), a.median, a.p95, b.median, b.p95, c.median, c.p95);
        }
    }
    std::printf("\nworst single frame %.2f ms (%s the 16 ms target)\n", worst, worst < 16.0 ? "meets" : "MISSES");
    return 0;
}
