// Frame time of the beam-tree view on a real search's shape: dlab::beamSearch, width 8, 64 steps,
// over a fake scorer with pseudo-random logits (a hash of the whole sequence), shown at 1280×800.
// Measures (a) setTree + the first full paint, (b) one animation frame = setRevealedDepth(d) (or
// stepForward(), which also scrolls the newest best beam into view) + a synchronous repaint of
// the viewport, for d = 1..steps, repeated, at 100 % and with the whole tree fitted, and (c)
// fitToView + a paint of the whole tree.
//
// usage: bench_beam_tree [--reps N] [--shots DIR]
//   QT_QPA_PLATFORM=offscreen, or xvfb-run -s "-screen 0 1920x1080x24" with QT_QPA_PLATFORM=xcb.
//   --shots DIR also writes screenshots (width 4 and 8, light and dark palettes) to DIR; their KV
//   blocks and groups are made up from the tree's shape (this engine's search records neither
//   yet), to show the badges and the group stripes.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QPalette>
#include <QVBoxLayout>
#include <QtTest/QTest>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <vector>

#include "generate/beam_search.h"
#include "table_beam_scorer.h"
#include "ui/app/theme.h"
#include "ui/strategies/beam_tree_data.h"
#include "widgets/beam_tree_layout.h"
#include "widgets/beam_tree_legend.h"
#include "widgets/beam_tree_view.h"

using namespace dlab::widgets;
using State = BeamTreeNode::State;

namespace {

const QStringList kWords{" the", " cat", " sat", " on", " a", " mat", " and", " then", " slept", " well", ".", ",",
                         " dog", " ran", " far", " away", " it", " was", " very", " happy", "\n", " she", " said", " hello"};

BeamTreeData search(int width, int steps, double alpha) {
    dlab::BeamOptions o;
    o.width = width;
    o.maxNewTokens = steps;
    o.lengthPenalty = alpha;
    o.endTokens = {0};
    o.earlyStopping = dlab::EarlyStopping::Never;
    // Logits hashed from the whole sequence, seed 11; token 0 (the end token) a little likelier, so
    // hypotheses finish (and get evicted) along the way; EarlyStopping::Never keeps going.
    dlab::test::TableBeamScorer scorer(dlab::test::hashedTable(96, 11, 0.5f));
    const dlab::BeamResult r = dlab::beamSearch(scorer, {5, 9, 2}, o);
    return dlab::ui::beamTreeData(r, o, [](const dlab::BeamNode& n) {
        return n.parent < 0 ? QStringLiteral("Once upon a time") : n.token == 0 ? QStringLiteral("</s>") : kWords[n.token % kWords.size()];
    });
}

// Screenshots only: KV blocks of 4 positions (the 3 prompt tokens first), a full block named by
// the node that filled it (so siblings share their prefix's blocks), the partial last block the
// node's own (copied on write); groups by the rank of the path's token at depth 2.
void illustrate(BeamTreeData& t, int groups) {
    t.groups = groups;
    for (BeamTreeNode& n : t.nodes) {
        if (n.state == State::Pruned) continue;
        std::vector<int> chain;  // chain[d] = ancestor at depth d
        for (int at = n.id; at >= 0; at = t.nodes[at].parent) chain.push_back(at);
        std::reverse(chain.begin(), chain.end());
        const int positions = 3 + n.depth;
        for (int b = 0; b * 4 < positions; ++b) {
            const int lastPos = std::min(positions, b * 4 + 4) - 1;
            const int depthOfLast = std::max(0, lastPos - 2);
            n.kvBlocks << (lastPos == b * 4 + 3 ? chain[std::min<int>(depthOfLast, chain.size() - 1)] * 16 + b : 100000 + n.id);
        }
        if (groups > 1 && chain.size() > 1) n.group = t.nodes[chain[std::min<size_t>(2, chain.size() - 1)]].candidateRank % groups;
    }
}

struct Stats {
    double median, p95, max;
};

Stats summarize(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back()};
}

double msSince(QElapsedTimer& t) { return t.nsecsElapsed() / 1e6; }

// The GUI thread's own CPU time: a frame whose wall time is far above it waited (the X server,
// another process on the 2 cores), it did not compute.
double threadCpuMs() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void shots(const QString& dir) {
    QDir().mkpath(dir);
    struct Shot {
        int width, steps, groups;
        bool dark, fit;
        const char* name;
    };
    for (const Shot& s : {Shot{4, 16, 1, false, false, "tree-w4-light"}, Shot{4, 16, 1, true, false, "tree-w4-dark"},
                          Shot{8, 24, 1, false, false, "tree-w8-light"}, Shot{8, 24, 2, true, false, "tree-w8-dark-groups"},
                          Shot{8, 64, 1, false, true, "tree-w8-64-fit-light"}, Shot{4, 16, 2, false, false, "tree-w4-light-groups"}}) {
        QWidget w;
        if (s.dark) w.setPalette(dlab::ui::darkPalette());
        auto* lay = new QVBoxLayout(&w);
        auto* legend = new BeamTreeLegend;
        auto* view = new BeamTreeView;
        lay->addWidget(legend);
        lay->addWidget(view, 1);
        BeamTreeData t = search(s.width, s.steps, 1.0);
        illustrate(t, s.groups);
        legend->setGroupCount(t.groups);
        w.resize(1280, 800);
        w.show();
        QTest::qWaitForWindowExposed(&w);
        view->setTree(t);
        if (s.fit) view->fitToView();
        else view->setSelectedNode(t.nodes.size() > 3 ? 2 : -1);
        QApplication::processEvents();
        w.grab().save(dir + "/" + s.name + ".png");
        std::printf("wrote %s/%s.png (%lld nodes, %d steps)\n", qPrintable(dir), s.name, qlonglong(t.nodes.size()), t.steps);
    }
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int reps = 5;
    QString shotDir;
    for (int i = 1; i + 1 < argc; i += 2) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QLatin1String("--reps")) reps = std::max(1, QString::fromLocal8Bit(argv[i + 1]).toInt());
        else if (a == QLatin1String("--shots")) shotDir = QString::fromLocal8Bit(argv[i + 1]);
    }
    if (!shotDir.isEmpty()) shots(shotDir);

    QElapsedTimer timer;
    timer.start();
    const BeamTreeData tree = search(8, 64, 1.0);
    const double searchMs = msSince(timer);
    int pruned = 0, finished = 0, evicted = 0;
    for (const BeamTreeNode& n : tree.nodes) {
        pruned += n.state == State::Pruned;
        finished += n.state == State::Finished;
        evicted += n.state == State::Evicted;
    }
    std::printf("platform %s; tree: width 8, %d steps, %lld nodes (%d pruned, %d finished, %d evicted); search %.1f ms\n",
                qPrintable(QGuiApplication::platformName()), tree.steps, qlonglong(tree.nodes.size()), pruned, finished,
                evicted, searchMs);

    timer.restart();
    const BeamTreeLayout layout = layoutBeamTree(tree);
    std::printf("layoutBeamTree alone: %.2f ms (%lld boxes)\n", msSince(timer), qlonglong(layout.rects.size()));

    BeamTreeView view;
    view.resize(1280, 800);
    view.show();
    QTest::qWaitForWindowExposed(&view);
    QApplication::processEvents();

    std::vector<double> first, fit;
    for (int r = 0; r < reps; ++r) {
        timer.restart();
        view.setTree(tree);
        view.viewport()->repaint();
        first.push_back(msSince(timer));
        timer.restart();
        view.fitToView();
        view.viewport()->repaint();
        fit.push_back(msSince(timer));
    }

    // One frame per depth, `reps` times over.
    double worstCpu = 0.0;
    auto frames = [&](bool fitted, bool follow) {
        std::vector<double> ms;
        view.setTree(tree);
        if (fitted) view.fitToView();
        for (int r = 0; r < reps; ++r) {
            view.setRevealedDepth(0);
            view.viewport()->repaint();
            for (int d = 1; d <= tree.steps; ++d) {
                const double cpu0 = threadCpuMs();
                timer.restart();
                if (follow) view.stepForward();
                else view.setRevealedDepth(d);
                view.viewport()->repaint();
                ms.push_back(msSince(timer));
                worstCpu = std::max(worstCpu, threadCpuMs() - cpu0);
            }
        }
        return summarize(ms);
    };
    const Stats atRoot = frames(false, false), following = frames(false, true), fitted = frames(true, false);

    const Stats a = summarize(first), c = summarize(fit);
    std::printf("\n| measurement (ms, %d reps) | median | p95 | max |\n|---|---|---|---|\n", reps);
    std::printf("| (a) setTree + first full paint | %.2f | %.2f | %.2f |\n", a.median, a.p95, a.max);
    std::printf("| (b) frame at 100 %%, view at the root (setRevealedDepth + repaint) | %.2f | %.2f | %.2f |\n", atRoot.median, atRoot.p95, atRoot.max);
    std::printf("| (b) frame at 100 %%, following the frontier (stepForward + repaint) | %.2f | %.2f | %.2f |\n", following.median, following.p95, following.max);
    std::printf("| (b) frame with the whole tree fitted (setRevealedDepth + repaint) | %.2f | %.2f | %.2f |\n", fitted.median, fitted.p95, fitted.max);
    std::printf("| (c) fitToView + paint of the whole tree | %.2f | %.2f | %.2f |\n", c.median, c.p95, c.max);
    const double worst = std::max({atRoot.max, following.max, fitted.max});
    std::printf("\nworst frame %.2f ms wall (%s the 16 ms target); most GUI-thread CPU time in one frame %.2f ms\n", worst,
                worst < 16.0 ? "meets" : "MISSES", worstCpu);
    return 0;
}
