// The beam-tree view (widgets/beam_tree_view.h), offscreen, fed the engine's own search trees
// (dlab::beamSearch over a fake scorer, converted field by field as ui/ does) for widths 1-8 and
// several length penalties, and hand-made trees for the details:
//  * the scene holds exactly the engine's nodes with their states; parents left of children; no
//    two boxes overlap (collapsed and not); the n-best paths are emphasised along the returned
//    hypotheses' parent chains and nowhere else;
//  * revealing a depth hides deeper nodes (also in the pixels); a click emits the node's id, a
//    drag pans instead; zoom and fitToView; labels escape controls and show ␣ for edge spaces;
//  * pruned nodes tell their rank and p when cut; KV badges count blocks shared with another
//    live node of the same depth; groups and states are painted in distinct colours, light and dark;
//  * export: a PNG of the right size, an SVG that parses and holds the node texts, and a clear
//    error naming the path when it cannot be written.
#include <QtTest>
#include <QtWidgets>

#include <QSvgRenderer>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "core/error.h"
#include "generate/beam_search.h"
#include "table_beam_scorer.h"
#include "widgets/beam_tree_layout.h"
#include "widgets/beam_tree_legend.h"
#include "ui/app/theme.h"
#include "ui/strategies/beam_tree_data.h"
#include "ui/app/language_manager.h"
#include "ui/strategies/beam_tree_panel.h"
#include "ui/strategies/strategy_types.h"
#include "widgets/beam_tree_types.h"
#include "widgets/beam_tree_view.h"
#include "widgets/image_export.h"

using namespace dlab::widgets;
using State = BeamTreeNode::State;

namespace {

QString tokenText(int token) {
    static const QStringList words{"the", "cat", "sat", "on", "a", "mat", "and", "then", "slept", "well"};
    if (token == 0) return QStringLiteral("</s>");
    return (token % 2 ? QStringLiteral(" ") : QString()) + words[token % words.size()] + QString::number(token / 10);
}

State stateOf(dlab::BeamNodeStatus s) {
    switch (s) {
        case dlab::BeamNodeStatus::Kept: return State::Kept;
        case dlab::BeamNodeStatus::Pruned: return State::Pruned;
        case dlab::BeamNodeStatus::Finished: return State::Finished;
        case dlab::BeamNodeStatus::Evicted: return State::Evicted;
    }
    return State::Kept;
}

// The engine's tree through the strategies page's own conversion (ui/strategies/beam_tree_data.h).
BeamTreeData fromEngine(const dlab::BeamResult& r, const dlab::BeamOptions& o) {
    return dlab::ui::beamTreeData(r, o, [](const dlab::BeamNode& n) {
        return n.parent < 0 ? QStringLiteral("Once upon a time") : tokenText(n.token);
    });
}

struct Search {
    dlab::BeamResult result;
    BeamTreeData data;
};

Search runSearch(int width, double alpha, int maxNew, uint64_t seed = 7) {
    dlab::BeamOptions o;
    o.width = width;
    o.maxNewTokens = maxNew;
    o.lengthPenalty = alpha;
    o.endTokens = {0};
    o.earlyStopping = dlab::EarlyStopping::Never;
    // Logits hashed from the whole sequence (as in test_beam_search.cpp), the end token a little
    // less likely so that hypotheses finish mid-search.
    dlab::test::TableBeamScorer scorer(dlab::test::hashedTable(40, seed, -1.5f));
    Search s;
    s.result = dlab::beamSearch(scorer, {5, 9, 2}, o);
    s.data = fromEngine(s.result, o);
    return s;
}

BeamTreeNode node(int id, int parent, int depth, const QString& text, State state, int rank, double lp, double score) {
    BeamTreeNode n;
    n.id = id;
    n.parent = parent;
    n.depth = depth;
    n.tokenId = parent < 0 ? -1 : 100 + id;
    n.text = text;
    n.logProb = lp;
    n.cumLogProb = lp;
    n.score = score;
    n.state = state;
    n.candidateRank = rank;
    return n;
}

// A two-step width-2 search by hand: every state, an end token, edge spaces and a newline.
BeamTreeData handTree() {
    BeamTreeData t;
    t.width = 2;
    t.steps = 2;
    t.lengthPenalty = 1.0;
    t.nodes << node(0, -1, 0, "Once upon", State::Root, -1, 0, 0);
    t.nodes << node(1, 0, 1, " alpha", State::Kept, 0, -0.4, -0.4);        // ␣alpha
    t.nodes << node(2, 0, 1, "beta", State::Kept, 1, -1.1, -1.1);
    t.nodes << node(3, 0, 1, "gamma", State::Pruned, 2, std::log(0.08), -2.5);
    t.nodes << node(4, 0, 1, "\n", State::Pruned, 3, std::log(0.05), -3.0);  // ↵
    t.nodes << node(5, 1, 2, "delta", State::Finished, 0, -0.2, -0.3);
    t.nodes << node(6, 2, 2, "</s>", State::Finished, 1, -0.3, -0.7);
    t.nodes << node(7, 1, 2, "epsilon ", State::Evicted, 2, -0.9, -0.65);  // epsilon␣
    t.nodes << node(8, 2, 2, "zeta", State::Pruned, 3, std::log(0.02), -2.0);
    t.nodes[5].nBestRank = 0;
    t.nodes[6].nBestRank = 1;
    t.nodes[6].endToken = true;
    t.nodes[7].endToken = true;
    t.nodes[1].beamSlot = 0;
    t.nodes[2].beamSlot = 1;
    return t;
}

void checkNoOverlap(const BeamTreeView& view, const BeamTreeData& t) {
    const int n = int(t.nodes.size());
    for (int i = 1; i < n; ++i) {
        const QRectF r = view.nodeRect(i), pr = view.nodeRect(t.nodes[i].parent);
        QVERIFY2(pr.right() < r.left(), qPrintable(QString("node %1 is not right of its parent").arg(i)));
    }
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (view.nodeRect(i).intersects(view.nodeRect(j)))
                QFAIL(qPrintable(QString("nodes %1 and %2 overlap").arg(i).arg(j)));
}

// The colour most pixels of `r` (inset) have in `img`: a box's fill.
QRgb dominantColour(const QImage& img, const QRect& r) {
    std::map<QRgb, int> counts;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) ++counts[img.pixel(x, y)];
    return std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
}

QString svgText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QXmlStreamReader xml(&f);
    QString text;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isCharacters()) { text += xml.text(); text += u'\n'; }
    }
    return xml.hasError() ? QStringLiteral("XML ERROR: ") + xml.errorString() : text;
}

}  // namespace

class TestGuiBeamTree : public QObject {
    Q_OBJECT
private slots:
    void engineTree_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<int>("steps");
        QTest::addColumn<bool>("collapse");
        for (int w : {1, 2, 4, 8})
            for (double a : {0.0, 1.0, 2.0, -1.0})
                for (bool c : {true, false})
                    QTest::newRow(qPrintable(QString("w%1-a%2-%3").arg(w).arg(a).arg(c ? "collapsed" : "full")))
                        << w << a << (w == 8 ? 24 : 12) << c;
    }
    // The scene holds exactly the engine's nodes and states, laid out as a tree without overlap;
    // the emphasised nodes are exactly the returned hypotheses' parent chains.
    void engineTree() {
        QFETCH(int, width);
        QFETCH(double, alpha);
        QFETCH(int, steps);
        QFETCH(bool, collapse);
        const Search s = runSearch(width, alpha, steps);
        BeamTreeView view;
        view.setCollapsePruned(collapse);
        view.setTree(s.data);
        const auto& nodes = s.result.tree.nodes;
        QCOMPARE(view.nodeCount(), int(nodes.size()));
        QCOMPARE(view.maxDepth(), s.result.steps);
        QCOMPARE(view.nodeState(0), State::Root);
        for (size_t i = 1; i < nodes.size(); ++i) QCOMPARE(view.nodeState(int(i)), stateOf(nodes[i].status));
        checkNoOverlap(view, s.data);

        std::set<int> expected;
        for (const dlab::BeamHypothesis& h : s.result.hypotheses)
            for (int at = h.node; at > 0; at = nodes[at].parent) expected.insert(at);
        QVERIFY(!expected.empty());
        const QList<int> got = view.emphasisedNodes();
        QCOMPARE(std::set<int>(got.begin(), got.end()), expected);
        if (collapse)
            for (size_t i = 1; i < nodes.size(); ++i)
                if (nodes[i].status == dlab::BeamNodeStatus::Pruned)
                    QVERIFY(view.nodeRect(int(i)).height() < view.nodeRect(0).height());
    }

    // Leaves in consecutive slots ordered by parent then rank; a parent centred over its children.
    void layoutIsTidy() {
        const Search s = runSearch(4, 1.0, 10);
        BeamTreeLayoutOptions o;
        o.collapsePruned = false;
        const BeamTreeLayout l = layoutBeamTree(s.data, o);
        std::map<int, std::vector<int>> children;
        for (const BeamTreeNode& n : s.data.nodes)
            if (n.parent >= 0) children[n.parent].push_back(n.id);
        for (auto& [parent, kids] : children) {
            std::sort(kids.begin(), kids.end(), [&](int a, int b) { return s.data.nodes[a].candidateRank < s.data.nodes[b].candidateRank; });
            for (size_t i = 1; i < kids.size(); ++i) QVERIFY(l.rects[kids[i - 1]].bottom() < l.rects[kids[i]].top());
            const double mid = (l.rects[kids.front()].center().y() + l.rects[kids.back()].center().y()) / 2;
            QVERIFY(std::abs(l.rects[parent].center().y() - mid) < 1e-6);
        }
        QVERIFY(l.bounds.contains(l.rects[0]));
        QCOMPARE(l.rects[0].left(), 0.0);
    }

    void revealedDepthHidesDeeper() {
        const Search s = runSearch(4, 1.0, 8);
        BeamTreeView view;
        view.resize(900, 600);
        view.setTree(s.data);
        QSignalSpy changed(&view, &BeamTreeView::revealedDepthChanged);
        for (int d = 0; d <= s.result.steps; ++d) {
            view.setRevealedDepth(d);
            QCOMPARE(view.revealedDepth(), d);
            for (const BeamTreeNode& n : s.data.nodes) QCOMPARE(view.isNodeVisible(n.id), n.depth <= d);
        }
        QCOMPARE(changed.size(), s.result.steps + 1);
        view.setRevealedDepth(99);
        QCOMPARE(view.revealedDepth(), s.result.steps);

        // In the pixels: at depth 1, the columns beyond stay background.
        view.show();
        view.fitToView();
        view.setRevealedDepth(1);
        const QImage img = view.viewport()->grab().toImage();
        const QColor bg = view.palette().color(QPalette::Base);
        int deeper = -1;
        for (const BeamTreeNode& n : s.data.nodes)
            if (n.depth == 3) { deeper = n.id; break; }
        QVERIFY(deeper > 0);
        const QRect hidden = view.mapFromScene(view.nodeRect(deeper)).boundingRect().adjusted(1, 1, -1, -1) &
                             img.rect();
        QVERIFY(!hidden.isEmpty());
        QCOMPARE(QColor(dominantColour(img, hidden)), bg);
        view.setRevealedDepth(3);
        const QImage shown = view.viewport()->grab().toImage();
        QVERIFY(QColor(dominantColour(shown, hidden)) != bg);
    }

    void clickEmitsNodeId() {
        const Search s = runSearch(4, 1.0, 6);
        BeamTreeView view;
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTree(s.data);
        QSignalSpy clicked(&view, &BeamTreeView::nodeClicked);
        for (int id : {1, 2, int(s.data.nodes.size()) - 1}) {
            view.centerOn(view.nodeRect(id).center());
            const QPoint at = view.mapFromScene(view.nodeRect(id).center());
            QCOMPARE(view.nodeAt(at), id);
            QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
            QCOMPARE(clicked.size(), 1);
            QCOMPARE(clicked.takeFirst().at(0).toInt(), id);
            QCOMPARE(view.selectedNode(), id);
        }
        // A node beyond the revealed depth is not there to click; neither is the empty space.
        const int last = int(s.data.nodes.size()) - 1;
        view.setRevealedDepth(s.data.nodes[last].depth - 1);
        view.centerOn(view.nodeRect(last).center());
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(view.nodeRect(last).center()));
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {},
                          view.mapFromScene(view.nodeRect(0).topLeft() - QPointF(10, 10)));
        QCOMPARE(clicked.size(), 0);
    }

    void dragPansInsteadOfClicking() {
        const Search s = runSearch(8, 1.0, 16);
        BeamTreeView view;
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTree(s.data);
        QSignalSpy clicked(&view, &BeamTreeView::nodeClicked);
        const QPoint start = view.mapFromScene(view.nodeRect(1).center());
        const int h0 = view.horizontalScrollBar()->value();
        auto send = [&](QEvent::Type type, QPoint pos, Qt::MouseButtons buttons) {
            QMouseEvent e(type, pos, view.viewport()->mapToGlobal(pos), Qt::LeftButton, buttons, Qt::NoModifier);
            QApplication::sendEvent(view.viewport(), &e);
        };
        send(QEvent::MouseButtonPress, start, Qt::LeftButton);
        for (int i = 1; i <= 5; ++i) send(QEvent::MouseMove, start - QPoint(30 * i, 0), Qt::LeftButton);
        send(QEvent::MouseButtonRelease, start - QPoint(150, 0), Qt::NoButton);
        QVERIFY(view.horizontalScrollBar()->value() > h0);
        QCOMPARE(clicked.size(), 0);
    }

    void zoomAndFit() {
        const Search s = runSearch(8, 1.0, 24);
        BeamTreeView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTree(s.data);
        QCOMPARE(view.zoomFactor(), 1.0);
        view.zoomIn();
        QVERIFY(std::abs(view.zoomFactor() - 1.25) < 1e-9);
        view.zoomOut();
        QVERIFY(std::abs(view.zoomFactor() - 1.0) < 1e-9);
        const QPoint mid = view.viewport()->rect().center();
        QWheelEvent wheel(mid, view.viewport()->mapToGlobal(mid), {}, QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &wheel);
        QVERIFY(view.zoomFactor() > 1.1);

        view.fitToView();
        const QRect vp = view.viewport()->rect();
        for (const BeamTreeNode& n : s.data.nodes)
            QVERIFY2(vp.contains(view.mapFromScene(view.nodeRect(n.id)).boundingRect()),
                     qPrintable(QString("node %1 outside the view after fitToView").arg(n.id)));
        QVERIFY(view.zoomFactor() < 1.0);
        // A tiny tree is not blown up beyond 150 %.
        view.setTree(handTree());
        view.fitToView();
        QVERIFY(view.zoomFactor() <= 1.5 + 1e-9);
        for (const BeamTreeNode& n : handTree().nodes) QVERIFY(vp.contains(view.mapFromScene(view.nodeRect(n.id)).boundingRect()));
    }

    // A tree too big to read whole opens readable with its root in view (a search is read from
    // the root), and the view does not scroll past the scene's left edge.
    void panelOpensAtTheRoot_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QSize>("size");
        QTest::newRow("k=4, 24 steps, 700x450") << 4 << 24 << QSize(700, 450);
        QTest::newRow("k=8, 64 steps, 700x450") << 8 << 64 << QSize(700, 450);
        QTest::newRow("k=8, 64 steps, 1500x900") << 8 << 64 << QSize(1500, 900);
        QTest::newRow("k=2, 4 steps, 700x450 (fits whole)") << 2 << 4 << QSize(700, 450);
    }
    void panelOpensAtTheRoot() {
        QFETCH(int, width);
        QFETCH(int, steps);
        QFETCH(QSize, size);
        const Search s = runSearch(width, 1.0, steps, 3);
        dlab::ui::BeamTreePanel panel;
        panel.resize(size);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        dlab::ui::TreeResult plain;
        plain.tree = s.data;
        panel.showTrees(plain, {});
        QApplication::processEvents();
        BeamTreeView* view = panel.view();
        const QRect vp = view->viewport()->rect();
        const QRect root = view->mapFromScene(view->nodeRect(0)).boundingRect();
        QVERIFY2(vp.contains(root), qPrintable(QString("root at %1,%2 %3x%4, viewport %5x%6")
                                                    .arg(root.x()).arg(root.y()).arg(root.width()).arg(root.height())
                                                    .arg(vp.width()).arg(vp.height())));
        QVERIFY2(root.left() < vp.width() / 4, qPrintable(QString("root %1 px from the left edge").arg(root.left())));
        QVERIFY(view->zoomFactor() >= 0.5);   // text is drawn
    }

    void labelsAndToolTips() {
        BeamTreeView view;
        view.setTree(handTree());
        QCOMPARE(view.nodeLabel(1), QString("\u2423alpha"));
        QCOMPARE(view.nodeLabel(4), QString("\u21b5"));
        QCOMPARE(view.nodeLabel(7), QString("epsilon\u2423"));
        const QString pruned = view.nodeToolTip(3);
        QVERIFY2(pruned.contains("#3") && pruned.contains("8.0%"), qPrintable(pruned));
        QVERIFY(view.nodeToolTip(5).contains("#1"));
        QVERIFY(view.nodeToolTip(7).contains("Evicted"));
        QVERIFY(view.nodeToolTip(6).contains("end token"));
        QVERIFY(view.nodeToolTip(0).contains("prompt"));
    }

    // A language switch redraws the nodes and the clicked node's sentence (both stayed German
    // after switching to Chinese and English).
    void aLanguageSwitchRedrawsTheTree() {
        const Search s = runSearch(2, 1.0, 3, 3);
        dlab::ui::BeamTreePanel panel;
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        dlab::ui::TreeResult plain;
        plain.tree = s.data;
        panel.showTrees(plain, {});
        emit panel.view()->nodeClicked(1);
        const QString englishNumbers = panel.view()->nodeNumbers(0), englishInfo = panel.nodeLabel()->text();
        QVERIFY2(englishNumbers.startsWith(QStringLiteral("width")), qPrintable(englishNumbers));
        QVERIFY(dlab::ui::LanguageManager::instance().setLanguage(QStringLiteral("de")));
        QTRY_VERIFY2(panel.view()->nodeNumbers(0).startsWith(QStringLiteral("Breite")), qPrintable(panel.view()->nodeNumbers(0)));
        QVERIFY2(panel.nodeLabel()->text() != englishInfo, qPrintable(panel.nodeLabel()->text()));
        QVERIFY(dlab::ui::LanguageManager::instance().setLanguage(QStringLiteral("en")));
        QTRY_COMPARE(panel.view()->nodeNumbers(0), englishNumbers);
        QTRY_COMPARE(panel.nodeLabel()->text(), englishInfo);
    }

    void kvBadgesCountSharedBlocks() {
        BeamTreeData t = handTree();
        t.nodes[0].kvBlocks = {0};
        t.nodes[1].kvBlocks = {0, 1};   // shares 0 with node 2
        t.nodes[2].kvBlocks = {0, 2};
        t.nodes[3].kvBlocks = {0};      // pruned: not live, but its block 0 is held by 1 and 2
        t.nodes[5].kvBlocks = {0, 1, 3};
        t.nodes[7].kvBlocks = {0, 1, 4};  // shares 0 and 1 with 5 (and 0 with 6)
        t.nodes[6].kvBlocks = {0, 2, 5};
        BeamTreeView view;
        view.setTree(t);
        QCOMPARE(view.kvBlocksShared(0), 0);
        QCOMPARE(view.kvBlocksShared(1), 1);
        QCOMPARE(view.kvBlocksShared(2), 1);
        QCOMPARE(view.kvBlocksShared(3), 1);
        QCOMPARE(view.kvBlocksShared(5), 2);
        QCOMPARE(view.kvBlocksShared(6), 1);
        QCOMPARE(view.kvBlocksShared(7), 2);
        QCOMPARE(view.kvBlocksShared(8), 0);
        QVERIFY2(view.nodeToolTip(7).contains("0, 1, 4"), qPrintable(view.nodeToolTip(7)));
        // The badge is painted: the node's right part holds the badge colour.
        view.resize(700, 400);
        view.show();
        view.fitToView();
        const QImage img = view.viewport()->grab().toImage();
        const QRect box = view.mapFromScene(view.nodeRect(5)).boundingRect();
        const QColor kv = kvBadgeColour(view.palette());
        int hits = 0;
        for (int y = box.top(); y <= box.bottom(); ++y)
            for (int x = box.center().x(); x <= box.right(); ++x)
                if (QColor(img.pixel(x, y)) == kv) ++hits;
        QVERIFY(hits > 10);
    }

    void statesAndGroupsDrawnDistinctly_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void statesAndGroupsDrawnDistinctly() {
        QFETCH(bool, dark);
        BeamTreeView view;
        if (dark) view.setPalette(dlab::ui::darkPalette());   // the app's own dark palette
        view.setCollapsePruned(false);
        view.setTree(handTree());
        const QRectF sr = view.scene()->sceneRect();
        QImage img(sr.size().toSize(), QImage::Format_ARGB32);
        {
            QPainter p(&img);
            view.scene()->render(&p, QRectF(QPointF(0, 0), sr.size()), sr);
        }
        auto fillOf = [&](int id) {
            const QRect r = view.nodeRect(id).translated(-sr.topLeft()).toRect().adjusted(4, 4, -4, -4);
            return dominantColour(img, r);
        };
        const std::set<QRgb> fills{fillOf(0), fillOf(1), fillOf(3), fillOf(5), fillOf(7)};  // root kept pruned finished evicted
        QCOMPARE(fills.size(), size_t(5));
        QCOMPARE(fillOf(1), beamNodeStyle(State::Kept, view.palette()).fill.rgb());

        BeamTreeData g = handTree();
        g.groups = 2;
        for (BeamTreeNode& n : g.nodes) n.group = n.id == 0 ? -1 : n.id % 2;
        view.setTree(g);
        {
            QPainter p(&img);
            view.scene()->render(&p, QRectF(QPointF(0, 0), sr.size()), sr);
        }
        QVERIFY(fillOf(1) != fillOf(2));  // both kept, different groups
        QVERIFY(view.nodeToolTip(1).contains("Group 2"));
        BeamTreeLegend legend;
        legend.setGroupCount(2);
        QCOMPARE(legend.labels().size(), 8);
        QVERIFY(legend.heightForWidth(200) > legend.heightForWidth(2000));
        // In a layout a narrow legend gets the rows it flows onto (a Fixed policy kept it at one).
        QWidget box;
        auto* lay = new QVBoxLayout(&box);
        auto* inLayout = new BeamTreeLegend;
        inLayout->setGroupCount(2);
        lay->addWidget(inLayout);
        lay->addWidget(new QWidget, 1);
        box.resize(420, 400);
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));
        QCOMPARE(inLayout->height(), inLayout->heightForWidth(inLayout->width()));
        QVERIFY(inLayout->height() >= 3 * inLayout->sizeHint().height());
    }

    void exportsPngAndSvg() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        BeamTreeView view;
        view.resize(500, 300);
        view.setTree(handTree());
        const QString png = dir.filePath("tree.png"), svg = dir.filePath("tree.svg");
        exportScenePng(view.scene(), png);
        const QImage img(png);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), view.scene()->sceneRect().size().toSize());
        exportSceneSvg(view.scene(), svg, "Beam tree");
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        const QString text = svgText(svg);
        for (const char* s : {"\u2423alpha", "beta", "gamma", "delta", "zeta", "Beam tree"})
            QVERIFY2(text.contains(QString::fromUtf8(s)), s);

        const QString wpng = dir.filePath("widget.png"), wsvg = dir.filePath("widget.svg");
        exportWidgetPng(&view, wpng);
        QCOMPARE(QImage(wpng).size(), view.size() * view.devicePixelRatio());
        exportWidgetSvg(&view, wsvg, "view");
        QVERIFY(QSvgRenderer(wsvg).isValid());
    }

    void exportToUnwritablePathSaysWhere_data() {
        QTest::addColumn<int>("kind");
        for (int k = 0; k < 4; ++k) QTest::newRow(qPrintable(QString::number(k))) << k;
    }
    void exportToUnwritablePathSaysWhere() {
        QFETCH(int, kind);
        BeamTreeView view;
        view.setTree(handTree());
        const QString path = "/nonexistent-dir-for-dlab/tree.out";
        QString message;
        try {
            switch (kind) {
                case 0: exportScenePng(view.scene(), path); break;
                case 1: exportSceneSvg(view.scene(), path, "t"); break;
                case 2: exportWidgetPng(&view, path); break;
                case 3: exportWidgetSvg(&view, path, "t"); break;
            }
        } catch (const std::runtime_error& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.contains(path) && message.contains("cannot write"), qPrintable(message));
        QVERIFY(!QFile::exists(path));
    }

    void stepAndPlay() {
        const Search s = runSearch(2, 1.0, 6);
        BeamTreeView view;
        view.setTree(s.data);
        view.setRevealedDepth(0);
        view.stepForward();
        QCOMPARE(view.revealedDepth(), 1);
        view.stepBack();
        QCOMPARE(view.revealedDepth(), 0);
        view.setPlayInterval(20);
        view.play();
        QVERIFY(view.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!view.isPlaying(), 5000);
        QCOMPARE(view.revealedDepth(), s.result.steps);
    }

    // An empty tree and a node whose parent comes after it: nothing drawn for them, no crash.
    void emptyAndMalformedTrees() {
        BeamTreeView view;
        view.resize(400, 300);
        view.setTree({});
        QCOMPARE(view.nodeCount(), 0);
        QCOMPARE(view.maxDepth(), 0);
        view.fitToView();
        view.stepForward();
        QCOMPARE(view.nodeAt(QPoint(10, 10)), -1);
        view.viewport()->grab();
        BeamTreeData t = handTree();
        t.nodes[2].parent = 7;  // after itself: 2 and its children 6 and 8 cannot be placed
        view.setTree(t);
        QCOMPARE(view.nodeCount(), 6);
        QVERIFY(view.nodeRect(2).isNull() && view.nodeRect(6).isNull() && view.nodeRect(8).isNull());
        QVERIFY(!view.isNodeVisible(2));
        view.fitToView();
        view.viewport()->grab();
    }

    void goesThroughQueuedSignals() {
        const BeamTreeData t = handTree();
        const QVariant v = QVariant::fromValue(t);
        QCOMPARE(v.value<BeamTreeData>().nodes.size(), t.nodes.size());
        QVERIFY(QMetaType::fromType<BeamTreeData>().isValid());
    }

    // A width-8, 64-step search lays out and paints in well under a second (bench_beam_tree has the figures).
    void bigTreeIsCheap() {
        const Search s = runSearch(8, 1.0, 64, 3);
        QVERIFY(s.data.nodes.size() > 500);
        BeamTreeView view;
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QElapsedTimer timer;
        timer.start();
        view.setTree(s.data);
        view.viewport()->repaint();
        view.fitToView();
        view.viewport()->repaint();
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
        checkNoOverlap(view, s.data);
    }
};

QTEST_MAIN(TestGuiBeamTree)
#include "test_gui_beam_tree.moc"
