// Slider-to-repaint latency of the playground: from a slider's setValue() (what a drag does) to
// the moment the distribution chart, the waterfall, the candidate table and the token strip have
// been repainted with the re-sampled step. The re-sample runs on the worker thread from the cached
// logits (no forward pass); the chart update and painting run on the GUI thread.
//
// usage: bench_gui_repaint [--model PATH] [--moves N] [--steps S]
//   QT_QPA_PLATFORM=offscreen or under Xvfb (xvfb-run -a). Prints one line per slider and a summary.
#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QSlider>
#include <QTableView>
#include <QtTest/QTest>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "test_paths.h"
#include "ui/app/main_window.h"
#include "ui/playground/playground_page.h"
#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

using dlab::ui::MainWindow;
using dlab::ui::PlaygroundPage;

namespace {

struct Stats {
    double median, p95, max;
};

Stats summarize(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back()};
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QString model = QString::fromStdString(dlab::test::defaultModelPath());
    int moves = 60, steps = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QLatin1String("--model")) model = QString::fromLocal8Bit(argv[i + 1]);
        else if (a == QLatin1String("--moves")) moves = QString::fromLocal8Bit(argv[i + 1]).toInt();
        else if (a == QLatin1String("--steps")) steps = QString::fromLocal8Bit(argv[i + 1]).toInt();
    }
    MainWindow w(model);
    w.setErrorReporter([](const QString& m) { std::fprintf(stderr, "error: %s\n", qPrintable(m)); });
    w.resize(1280, 820);
    w.show();
    if (!QTest::qWaitFor([&] { return w.hasModel(); }, 60000)) return 1;
    PlaygroundPage* page = w.page<dlab::ui::PlaygroundPage>();
    for (int i = 0; i < steps; ++i) {
        page->step();
        if (!QTest::qWaitFor([&] { return page->currentStep() == i && !page->busy(); }, 60000)) return 1;
    }

    std::printf("model %s, %s, step %d, window %dx%d, platform %s\n", qPrintable(w.model().name), qPrintable(w.model().backend),
                page->currentStep(), w.width(), w.height(), qPrintable(QGuiApplication::platformName()));
    std::vector<double> all;
    struct Knob {
        const char* name;
        QSlider* slider;
        int low, high;
    };
    const Knob knobs[] = {{"temperature", page->temperatureSlider(), 30, 150},
                          {"top-k", page->topKSlider(), 5, 120},
                          {"top-p", page->topPSlider(), 40, 99},
                          {"min-p", page->minPSlider(), 0, 20},
                          {"repetition", page->repeatPenaltySlider(), 100, 150}};
    for (const Knob& k : knobs) {
        std::vector<double> ms, untilUpdated;
        for (int m = 0; m < moves; ++m) {
            bool updated = false;
            auto conn = QObject::connect(page, &PlaygroundPage::viewsUpdated, [&] { updated = true; });
            QElapsedTimer t;
            t.start();
            int value = k.low + (k.high - k.low) * (m % 7) / 6;
            if (value == k.slider->value()) value = value == k.high ? k.low : value + 1;   // a move, never a no-op
            k.slider->setValue(value);
            while (!updated) QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
            const double updatedMs = t.nsecsElapsed() / 1e6;
            // Paint now, as the next frame would: every view that shows the step.
            page->chart()->viewport()->repaint();
            page->waterfall()->repaint();
            page->strip()->repaint();
            page->findChild<QTableView*>()->viewport()->repaint();
            ms.push_back(t.nsecsElapsed() / 1e6);
            untilUpdated.push_back(updatedMs);
            QObject::disconnect(conn);
            while (page->busy()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        const Stats s = summarize(ms);
        all.insert(all.end(), ms.begin(), ms.end());
        std::printf("%-12s moves %3d  median %6.2f ms  p95 %6.2f ms  max %6.2f ms   (views updated, before painting: median %5.2f ms)\n",
                    k.name, moves, s.median, s.p95, s.max, summarize(untilUpdated).median);
    }
    const Stats s = summarize(all);
    std::printf("%-12s moves %3zu  median %6.2f ms  p95 %6.2f ms  max %6.2f ms  (budget: 16 ms, one frame at 60 Hz)\n", "all",
                all.size(), s.median, s.p95, s.max);
    return 0;
}
