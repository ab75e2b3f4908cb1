#include "widgets/beam_tree_view.h"

#include <QApplication>
#include <QGraphicsItem>
#include <QHash>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStaticText>
#include <QStyleOptionGraphicsItem>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <vector>

#include "widgets/beam_tree_layout.h"
#include "widgets/beam_tree_legend.h"
#include "widgets/palette_colors.h"
#include "widgets/number_text.h"

namespace dlab::widgets {

using State = BeamTreeNode::State;

namespace {

constexpr double kPad = 3.0;          // inside a box
constexpr double kStripe = 4.0;       // a group's stripe at a box's left edge
constexpr double kEndBar = 3.0;       // the end-token marker at a finished box's right edge
constexpr double kSceneMargin = 24.0;
constexpr double kTextLod = 0.45;     // below this scale boxes are drawn without text
constexpr double kMinZoom = 0.02, kMaxZoom = 4.0, kMaxFitZoom = 1.5;

const QChar kSpaceGlyph(0x2423);      // ␣, as in the token strip
const QChar kMinus(0x2212);

// A token's text on one line: newlines, tabs and other controls as glyphs, edge spaces as ␣ (the
// token strip's rules, so a token reads the same everywhere in the app).
QString tokenLabel(const QString& text, int tokenId) {
    if (text.isEmpty()) return tokenId >= 0 ? QStringLiteral("[%1]").arg(tokenId) : QString();
    QString s;
    s.reserve(text.size());
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n') continue;
        if (c == u'\n' || c == u'\r') s += QChar(0x21B5);
        else if (c == u'\t') s += QChar(0x21E5);
        else if (c.unicode() < 0x20) s += QChar(0x2400 + c.unicode());
        else if (c.unicode() == 0x7f) s += QChar(0x2421);
        else s += c;
    }
    int lead = 0;
    while (lead < s.size() && s[lead] == u' ') s[lead++] = kSpaceGlyph;
    for (int i = s.size() - 1; i >= lead && s[i] == u' '; --i) s[i] = kSpaceGlyph;
    return s;
}

QString signedNumber(double v, int decimals = 2) {
    if (!std::isfinite(v)) return v < 0 ? QString(kMinus) + QChar(0x221E) : QString(QChar(0x221E));
    QString s = decimalText(std::abs(v), decimals);
    return v < 0 && s != decimalText(0.0, decimals) ? kMinus + s : s;
}

QString percent(double p) {
    if (!(p > 0)) return QStringLiteral("0%");
    const double pc = 100 * p;
    if (pc >= 10) return decimalText(pc, 0) + u'%';
    if (pc >= 1) return decimalText(pc, 1) + u'%';
    if (pc >= 0.01) return decimalText(pc, 2) + u'%';
    return u'<' + decimalText(0.01, 2) + u'%';
}

QStaticText staticText(const QString& s, const QFont& f) {
    QStaticText t(s);
    t.setTextFormat(Qt::PlainText);
    t.setPerformanceHint(QStaticText::AggressiveCaching);
    t.prepare(QTransform(), f);
    return t;
}

}  // namespace

// Everything the painter items read: built once per tree (texts, geometry) and per palette (colours).
struct BeamTreeView::Drawing {
    struct Texts {
        QStaticText token, numbers, nBest, kv;
        QStaticText tag;  // a compact (collapsed pruned) node's "#9 · 3.1%"
        double tokenWidth = 0, nBestWidth = 0, kvWidth = 0, tagWidth = 0;
    };
    BeamTreeData tree;
    BeamTreeLayout layout;
    bool collapsePruned = true;
    std::vector<char> onPath;     // per node: on an n-best path (the root too)
    std::vector<int> kvShared;    // per node: its blocks held by another live node of its depth
    std::vector<QString> labels;  // per node: tokenLabel()
    std::vector<Texts> texts;
    QFont font, small;
    double lineH = 0, smallH = 0;
    // colours (applyStyle)
    BeamNodeStyle styles[5];
    QColor path, edge, kv, highlight, badgeText, kvText, base;
    QList<QColor> groupColours;
    int revealed = 0;
    int selected = -1;
    QList<QGraphicsItem*> nodeItems, edgeItems;  // per depth (edgeItems[0] is null)

    bool valid(int id) const { return id >= 0 && id < int(tree.nodes.size()) && !layout.rects[id].isNull(); }
    bool grouped(const BeamTreeNode& n) const { return tree.groups > 1 && n.group >= 0; }
    const BeamNodeStyle& style(State s) const { return styles[int(s)]; }

    void paintNode(QPainter* p, int id) const;
    void paintCompact(QPainter* p, int id) const;
    void paintPlain(QPainter* p, int id) const;
    void paintBadge(QPainter* p, const QRectF& r, const QColor& fill, const QColor& text, const QStaticText& t) const;
};

namespace {

// The nodes of one depth, painted by one item (exposed ones only; plain boxes when far out).
class NodeColumnItem : public QGraphicsItem {
public:
    NodeColumnItem(const BeamTreeView::Drawing& d, int depth) : d_(d), depth_(depth) {
        setFlag(ItemUsesExtendedStyleOption);  // exposedRect: paint only what is exposed
        setAcceptedMouseButtons(Qt::NoButton);   // presses go to the view (pan, click)
        for (int id : d.layout.columns[depth]) bounds_ = bounds_.united(d.layout.rects[id]);
        bounds_.adjust(-5, -5, 5, 5);            // selection ring, thick borders
    }
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget*) override {
        const double lod = o->levelOfDetailFromTransform(p->worldTransform());
        const QRectF exposed = o->exposedRect.adjusted(-5, -5, 5, 5);
        const QList<int>& ids = d_.layout.columns[depth_];
        auto it = std::partition_point(ids.begin(), ids.end(),
                                       [&](int id) { return d_.layout.rects[id].bottom() < exposed.top(); });
        for (; it != ids.end() && d_.layout.rects[*it].top() <= exposed.bottom(); ++it) {
            if (lod < kTextLod) d_.paintPlain(p, *it);
            else if (d_.layout.compact[*it]) d_.paintCompact(p, *it);
            else d_.paintNode(p, *it);
        }
    }

private:
    const BeamTreeView::Drawing& d_;
    int depth_;
    QRectF bounds_;
};

// The edges from depth - 1 into one depth: thin curves, dashed into pruned nodes, the n-best
// paths thick on top.
class EdgeColumnItem : public QGraphicsItem {
public:
    EdgeColumnItem(const BeamTreeView::Drawing& d, int depth) : d_(d), depth_(depth) {
        setFlag(ItemUsesExtendedStyleOption);
        setAcceptedMouseButtons(Qt::NoButton);
        setZValue(-1);
        for (int id : d.layout.columns[depth]) {
            const QRectF c = d.layout.rects[id], pr = d.layout.rects[d.tree.nodes[id].parent];
            bounds_ = bounds_.united(QRectF(QPointF(pr.right(), pr.center().y()), QPointF(c.left(), c.center().y())).normalized());
        }
        bounds_.adjust(-3, -3, 3, 3);
    }
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget*) override {
        const bool curves = o->levelOfDetailFromTransform(p->worldTransform()) >= kTextLod;
        const QRectF exposed = o->exposedRect.adjusted(-3, -3, 3, 3);
        QPen plain(d_.edge, 1.2), faint(d_.edge, 1.0, Qt::DashLine), thick(d_.path, 3.5, Qt::SolidLine, Qt::RoundCap);
        if (!curves) {  // far out: pixel-wide lines (a scaled 1.2 would fade to nothing), no dashes
            plain = QPen(d_.edge, 1.0);
            faint = QPen(mix(d_.base, d_.edge, 0.5), 1.0);
            thick = QPen(d_.path, 2.5);
            for (QPen* pen : {&plain, &faint, &thick}) pen->setCosmetic(true);
        }
        for (int pass = 0; pass < 2; ++pass) {  // emphasised last, on top
            for (int id : d_.layout.columns[depth_]) {
                const bool emph = d_.onPath[id];
                if (emph != (pass == 1)) continue;
                const QRectF c = d_.layout.rects[id], pr = d_.layout.rects[d_.tree.nodes[id].parent];
                const QPointF a(pr.right(), pr.center().y()), b(c.left(), c.center().y());
                if (std::max(a.y(), b.y()) < exposed.top() || std::min(a.y(), b.y()) > exposed.bottom()) continue;
                p->setPen(emph ? thick : d_.tree.nodes[id].state == State::Pruned ? faint : plain);
                if (curves) {
                    const double mx = (a.x() + b.x()) / 2;
                    QPainterPath path(a);
                    path.cubicTo(QPointF(mx, a.y()), QPointF(mx, b.y()), b);
                    p->drawPath(path);
                } else {
                    p->drawLine(a, b);
                }
            }
        }
    }

private:
    const BeamTreeView::Drawing& d_;
    int depth_;
    QRectF bounds_;
};

}  // namespace

// --- painting one node --------------------------------------------------------------------------

void BeamTreeView::Drawing::paintBadge(QPainter* p, const QRectF& r, const QColor& fill, const QColor& text,
                                       const QStaticText& t) const {
    p->setPen(Qt::NoPen);
    p->setBrush(fill);
    p->drawRoundedRect(r, r.height() / 2, r.height() / 2);
    p->setPen(text);
    p->setFont(small);
    p->drawStaticText(QPointF(r.left() + 3, r.top() + (r.height() - smallH) / 2), t);
}

void BeamTreeView::Drawing::paintNode(QPainter* p, int id) const {
    const BeamTreeNode& n = tree.nodes[id];
    const QRectF r = layout.rects[id];
    const BeamNodeStyle& st = style(n.state);
    const Texts& t = texts[id];
    const bool group = grouped(n);
    const QColor groupColour = group ? groupColours[n.group % groupColours.size()] : QColor();

    if (id == selected) {
        p->setPen(QPen(highlight, 3));
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(r.adjusted(-3, -3, 3, 3), 6, 6);
    }
    p->setPen(QPen(st.border, st.borderWidth, st.borderStyle));
    p->setBrush(group ? mix(st.fill, groupColour, 0.22) : st.fill);
    const double inset = st.borderWidth / 2;
    p->drawRoundedRect(r.adjusted(inset, inset, -inset, -inset), 4, 4);
    if (group) p->fillRect(QRectF(r.left() + st.borderWidth, r.top() + st.borderWidth, kStripe, r.height() - 2 * st.borderWidth), groupColour);
    if (n.endToken && (n.state == State::Finished || n.state == State::Evicted))
        p->fillRect(QRectF(r.right() - kEndBar - 2.5, r.top() + 3, kEndBar, r.height() - 6), st.border);

    const double x = r.left() + kPad + (group ? kStripe + 1 : 0);
    const double rightEdge = r.right() - kPad - (n.endToken ? kEndBar + 3 : 0);
    p->setPen(st.text);
    p->setFont(font);
    p->drawStaticText(QPointF(x, r.top() + kPad), t.token);
    if (n.state == State::Evicted) {  // struck through
        const double y = r.top() + kPad + lineH * 0.55;
        p->setPen(QPen(st.text, 1.2));
        p->drawLine(QPointF(x, y), QPointF(x + t.tokenWidth, y));
    }
    p->setPen(n.state == State::Root ? st.text : mix(st.text, base, 0.15));
    p->setFont(small);
    p->drawStaticText(QPointF(x, r.top() + kPad + lineH), t.numbers);

    if (n.nBestRank >= 0) {
        const QRectF b(rightEdge - t.nBestWidth - 6, r.top() + kPad + (lineH - smallH) / 2 - 1, t.nBestWidth + 6, smallH + 2);
        paintBadge(p, b, path, badgeText, t.nBest);
    }
    if (t.kvWidth > 0) {
        const QRectF b(rightEdge - t.kvWidth - 6, r.top() + kPad + lineH, t.kvWidth + 6, smallH);
        paintBadge(p, b, kv, kvText, t.kv);
    }
}

void BeamTreeView::Drawing::paintCompact(QPainter* p, int id) const {
    const BeamTreeNode& n = tree.nodes[id];
    const QRectF r = layout.rects[id];
    const BeamNodeStyle& st = style(n.state);
    const Texts& t = texts[id];
    const bool group = grouped(n);
    if (id == selected) {
        p->setPen(QPen(highlight, 3));
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(r.adjusted(-3, -3, 3, 3), 5, 5);
    }
    p->setPen(QPen(st.border, st.borderWidth, st.borderStyle));
    p->setBrush(st.fill);
    p->drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    if (group) p->fillRect(QRectF(r.left() + 1, r.top() + 1, kStripe, r.height() - 2), groupColours[n.group % groupColours.size()]);
    const double x = r.left() + kPad + (group ? kStripe + 1 : 0);
    const double y = r.top() + (r.height() - smallH) / 2;
    p->setPen(st.text);
    p->setFont(small);
    p->drawStaticText(QPointF(x, y), t.token);
    p->drawStaticText(QPointF(r.right() - kPad - t.tagWidth, y), t.tag);
}

void BeamTreeView::Drawing::paintPlain(QPainter* p, int id) const {
    // Far out a box is a few pixels: its state's strong colour fills it (a faint fill would
    // vanish), outlines are cosmetic (pixel-wide at any zoom).
    const BeamTreeNode& n = tree.nodes[id];
    const BeamNodeStyle& st = style(n.state);
    QColor fill = n.state == State::Pruned ? mix(base, st.border, 0.55) : st.border;
    if (grouped(n)) fill = mix(fill, groupColours[n.group % groupColours.size()], 0.6);
    QPen pen(id == selected ? highlight : path, id == selected ? 3.0 : 2.0);
    pen.setCosmetic(true);
    p->setPen(id == selected || onPath[id] ? pen : QPen(Qt::NoPen));
    p->setBrush(fill);
    p->drawRect(layout.rects[id]);
}

// --- the view -----------------------------------------------------------------------------------

BeamTreeView::BeamTreeView(QWidget* parent) : QGraphicsView(parent), d_(std::make_unique<Drawing>()) {
    auto* s = new QGraphicsScene(this);
    s->setItemIndexMethod(QGraphicsScene::NoIndex);  // ~130 items that know their own extents
    setScene(s);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setMouseTracking(true);
    playTimer_ = new QTimer(this);
    playTimer_->setInterval(400);
    connect(playTimer_, &QTimer::timeout, this, [this] {
        if (d_->revealed >= maxDepth()) pause();
        else stepForward();
    });
    applyStyle();
    rebuild();
}

// The items read *d_: delete them before d_ goes (the scene, a child, would outlive it).
BeamTreeView::~BeamTreeView() { scene()->clear(); }

const BeamTreeData& BeamTreeView::tree() const { return d_->tree; }

void BeamTreeView::setTree(const BeamTreeData& tree) {
    pause();
    d_->tree = tree;
    d_->selected = -1;
    d_->revealed = tree.steps;
    rebuild();
    resetTransform();
    if (d_->valid(0)) {  // the root at the left, its row centred
        const QRectF root = d_->layout.rects[0];
        centerOn(QPointF(root.left() - kSceneMargin + viewport()->width() / 2.0, root.center().y()));
    }
    emit revealedDepthChanged(d_->revealed);
}

void BeamTreeView::setCollapsePruned(bool on) {
    if (on == d_->collapsePruned) return;
    d_->collapsePruned = on;
    rebuild();
}

bool BeamTreeView::collapsePruned() const { return d_->collapsePruned; }

void BeamTreeView::applyStyle() {
    Drawing& d = *d_;
    const QPalette pal = palette();
    for (State s : {State::Root, State::Kept, State::Pruned, State::Finished, State::Evicted})
        d.styles[int(s)] = beamNodeStyle(s, pal);
    d.path = beamPathColour(pal);
    d.edge = beamEdgeColour(pal);
    d.kv = kvBadgeColour(pal);
    d.badgeText = readableTextOn(d.path);
    d.kvText = readableTextOn(d.kv);
    d.highlight = pal.color(QPalette::Highlight);
    d.base = pal.color(QPalette::Base);
    d.groupColours.clear();
    for (int g = 0; g < 8; ++g) d.groupColours << beamGroupColour(g, pal);
    scene()->setBackgroundBrush(d.base);  // exported images get the view's background
    scene()->update();
}

void BeamTreeView::rebuild() {
    Drawing& d = *d_;
    const int n = int(d.tree.nodes.size());
    scene()->clear();
    d.nodeItems.clear();
    d.edgeItems.clear();

    // The n-best paths: each returned hypothesis' parent chain.
    d.onPath.assign(n, 0);
    for (int i = 0; i < n; ++i)
        if (d.tree.nodes[i].nBestRank >= 0)
            for (int at = i, guard = 0; at >= 0 && at < n && !d.onPath[at] && guard <= n; at = d.tree.nodes[at].parent, ++guard)
                d.onPath[at] = 1;

    // Shared KV blocks: per depth, how many live (not pruned) nodes hold each block.
    d.kvShared.assign(n, 0);
    QHash<qint64, int> holders;  // (depth << 32 | block) -> live nodes of that depth holding it
    auto key = [](int depth, int block) { return (qint64(depth) << 32) | quint32(block); };
    for (const BeamTreeNode& node : d.tree.nodes)
        if (node.state != State::Pruned)
            for (int b : node.kvBlocks) ++holders[key(node.depth, b)];
    for (int i = 0; i < n; ++i) {
        const BeamTreeNode& node = d.tree.nodes[i];
        const int self = node.state != State::Pruned ? 1 : 0;
        for (int b : node.kvBlocks) d.kvShared[i] += holders.value(key(node.depth, b)) - self > 0 ? 1 : 0;
    }

    // Texts and the box size they need.
    d.font = font();
    d.small = font();
    d.small.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF fm(d.font), sm(d.small);
    d.lineH = fm.height();
    d.smallH = sm.height();
    d.labels.assign(n, QString());
    std::vector<QString> numbers(n), tags(n), kvs(n);
    double needed = 0.0;
    const double avg = fm.averageCharWidth();
    for (int i = 0; i < n; ++i) {
        const BeamTreeNode& node = d.tree.nodes[i];
        d.labels[i] = node.state == State::Root ? (node.text.isEmpty() ? tr("prompt") : tokenLabel(node.text, -1))
                                                : tokenLabel(node.text, node.tokenId);
        switch (node.state) {
            case State::Root:
                numbers[i] = tr("width %1 \u00b7 \u03b1 %2").arg(d.tree.width).arg(shortNumberText(d.tree.lengthPenalty));
                break;
            case State::Pruned:
                numbers[i] = tr("cut #%1 \u00b7 p %2").arg(node.candidateRank + 1).arg(percent(std::exp(node.logProb)));
                tags[i] = tr("#%1 \u00b7 %2").arg(node.candidateRank + 1).arg(percent(std::exp(node.logProb)));
                break;
            case State::Evicted: numbers[i] = tr("evicted \u00b7 s %1").arg(signedNumber(node.score)); break;
            default: numbers[i] = tr("lp %1 \u00b7 s %2").arg(signedNumber(node.logProb), signedNumber(node.score)); break;
        }
        if (!node.kvBlocks.isEmpty())
            kvs[i] = d.kvShared[i] > 0 ? tr("KV %1 \u21c4%2").arg(node.kvBlocks.size()).arg(d.kvShared[i])
                                       : tr("KV %1").arg(node.kvBlocks.size());
        const double line2 = sm.horizontalAdvance(numbers[i]) + (kvs[i].isEmpty() ? 0 : sm.horizontalAdvance(kvs[i]) + 12);
        const double line1 = std::min(fm.horizontalAdvance(d.labels[i]), 12 * avg) +
                             (node.nBestRank >= 0 ? sm.horizontalAdvance(QStringLiteral("#%1").arg(node.nBestRank + 1)) + 12 : 0);
        needed = std::max({needed, line1, line2});
    }
    BeamTreeLayoutOptions opt;
    opt.nodeWidth = std::ceil(std::clamp(needed, 7 * avg, 24 * avg) + 2 * kPad + kStripe + kEndBar + 4);
    opt.nodeHeight = std::ceil(kPad + d.lineH + d.smallH + kPad);
    opt.compactHeight = std::ceil(d.smallH + 4);
    opt.columnGap = std::ceil(3 * avg + 16);
    opt.rowGap = std::ceil(d.smallH / 3);
    opt.collapsePruned = d.collapsePruned;
    d.layout = layoutBeamTree(d.tree, opt);

    d.texts.assign(n, {});
    for (int i = 0; i < n; ++i) {
        if (!d.valid(i)) continue;
        const BeamTreeNode& node = d.tree.nodes[i];
        Drawing::Texts& t = d.texts[i];
        const double inner = opt.nodeWidth - 2 * kPad - (d.grouped(node) ? kStripe + 1 : 0) - (node.endToken ? kEndBar + 3 : 0);
        if (d.layout.compact[i]) {
            t.tag = staticText(tags[i], d.small);
            t.tagWidth = sm.horizontalAdvance(tags[i]);
            const QString e = sm.elidedText(d.labels[i], Qt::ElideRight, inner - t.tagWidth - 6);
            t.token = staticText(e, d.small);
            t.tokenWidth = sm.horizontalAdvance(e);
            continue;
        }
        if (node.nBestRank >= 0) {
            const QString s = QStringLiteral("#%1").arg(node.nBestRank + 1);
            t.nBest = staticText(s, d.small);
            t.nBestWidth = sm.horizontalAdvance(s);
        }
        if (!kvs[i].isEmpty()) {
            t.kv = staticText(kvs[i], d.small);
            t.kvWidth = sm.horizontalAdvance(kvs[i]);
        }
        // The root shows the end of the prompt: that is what the first tokens continue.
        const double room = inner - (t.nBestWidth > 0 ? t.nBestWidth + 10 : 0);
        const QString e = fm.elidedText(d.labels[i], node.state == State::Root ? Qt::ElideLeft : Qt::ElideRight, room);
        t.token = staticText(e, d.font);
        t.tokenWidth = fm.horizontalAdvance(e);
        t.numbers = staticText(sm.elidedText(numbers[i], Qt::ElideRight, inner - (t.kvWidth > 0 ? t.kvWidth + 10 : 0)), d.small);
    }

    for (int depth = 0; depth < d.layout.columns.size(); ++depth) {
        auto* nodes = new NodeColumnItem(d, depth);
        scene()->addItem(nodes);
        d.nodeItems << nodes;
        QGraphicsItem* edges = nullptr;
        if (depth > 0) {
            edges = new EdgeColumnItem(d, depth);
            scene()->addItem(edges);
        }
        d.edgeItems << edges;
    }
    setSceneRect(d.layout.bounds.adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
    if (!d.valid(d.selected)) d.selected = -1;
    const int revealed = d.revealed;
    d.revealed = -1;  // force the visibility pass
    setRevealedDepth(revealed);
}

void BeamTreeView::setRevealedDepth(int depth) {
    Drawing& d = *d_;
    depth = std::clamp(depth, 0, maxDepth());
    if (depth == d.revealed) return;
    d.revealed = depth;
    for (int i = 0; i < d.nodeItems.size(); ++i) {
        d.nodeItems[i]->setVisible(i <= depth);
        if (d.edgeItems[i]) d.edgeItems[i]->setVisible(i <= depth);
    }
    emit revealedDepthChanged(depth);
}

int BeamTreeView::revealedDepth() const { return d_->revealed; }

int BeamTreeView::maxDepth() const { return std::max(0, int(d_->layout.columns.size()) - 1); }

void BeamTreeView::setSelectedNode(int id) {
    Drawing& d = *d_;
    if (!d.valid(id)) id = -1;
    if (id == d.selected) return;
    for (int old : {d.selected, id})
        if (d.valid(old)) scene()->update(d.layout.rects[old].adjusted(-5, -5, 5, 5));
    d.selected = id;
}

int BeamTreeView::selectedNode() const { return d_->selected; }

void BeamTreeView::setPlayInterval(int ms) { playTimer_->setInterval(std::max(16, ms)); }
int BeamTreeView::playInterval() const { return playTimer_->interval(); }
bool BeamTreeView::isPlaying() const { return playTimer_->isActive(); }

double BeamTreeView::zoomFactor() const { return transform().m11(); }

// --- accessors ----------------------------------------------------------------------------------

int BeamTreeView::nodeAt(const QPoint& viewportPos) const {
    const Drawing& d = *d_;
    const QPointF s = mapToScene(viewportPos);
    if (d.layout.columnPitch <= 0) return -1;
    const int depth = int(std::floor(s.x() / d.layout.columnPitch));
    if (depth < 0 || depth >= d.layout.columns.size() || depth > d.revealed) return -1;
    const QList<int>& ids = d.layout.columns[depth];
    auto it = std::partition_point(ids.begin(), ids.end(), [&](int id) { return d.layout.rects[id].bottom() < s.y(); });
    return it != ids.end() && d.layout.rects[*it].contains(s) ? *it : -1;
}

int BeamTreeView::nodeCount() const {
    int c = 0;
    for (const QList<int>& col : d_->layout.columns) c += int(col.size());
    return c;
}

BeamTreeNode::State BeamTreeView::nodeState(int id) const { return d_->valid(id) ? d_->tree.nodes[id].state : State::Root; }

bool BeamTreeView::isNodeVisible(int id) const { return d_->valid(id) && d_->tree.nodes[id].depth <= d_->revealed; }

QRectF BeamTreeView::nodeRect(int id) const { return d_->valid(id) ? d_->layout.rects[id] : QRectF(); }

QList<int> BeamTreeView::emphasisedNodes() const {
    QList<int> out;
    for (int i = 1; i < int(d_->onPath.size()); ++i)
        if (d_->onPath[i] && d_->valid(i)) out << i;
    return out;
}

int BeamTreeView::kvBlocksShared(int id) const { return d_->valid(id) ? d_->kvShared[id] : 0; }

QString BeamTreeView::nodeNumbers(int id) const {
    const Drawing& d = *d_;
    return id >= 0 && size_t(id) < d.texts.size() ? d.texts[size_t(id)].numbers.text() : QString();
}

QString BeamTreeView::nodeLabel(int id) const { return d_->valid(id) ? d_->labels[id] : QString(); }

QString BeamTreeView::nodeToolTip(int id) const {
    const Drawing& d = *d_;
    if (!d.valid(id)) return {};
    const BeamTreeNode& n = d.tree.nodes[id];
    QStringList lines;
    if (n.state == State::Root) {
        lines << tr("The prompt: every hypothesis starts here.")
              << tr("Beam width %1, length penalty \u03b1 = %2, %3 steps").arg(d.tree.width).arg(shortNumberText(d.tree.lengthPenalty)).arg(d.tree.steps);
        return lines.join(u'\n');
    }
    lines << tr("\u201c%1\u201d (token %2), step %3").arg(d.labels[id]).arg(n.tokenId).arg(n.depth);
    switch (n.state) {
        case State::Kept: lines << tr("Kept: running beam %1 of its step (candidate #%2)").arg(n.beamSlot + 1).arg(n.candidateRank + 1); break;
        case State::Pruned:
            lines << tr("Pruned: candidate #%1 of its step, p = %2 when it was cut").arg(n.candidateRank + 1).arg(percent(std::exp(n.logProb)));
            break;
        case State::Finished:
            lines << (n.nBestRank >= 0 ? tr("Finished: hypothesis #%1 of the n best").arg(n.nBestRank + 1)
                                       : tr("Finished (among the best kept, not returned)"));
            break;
        case State::Evicted: lines << tr("Evicted: it finished, but better hypotheses pushed it out of the best %1").arg(d.tree.width); break;
        case State::Root: break;
    }
    if (n.endToken) lines << tr("An end token: the hypothesis stops here.");
    lines << tr("log p %1 (p %2) \u00b7 cumulative %3 \u00b7 score %4")
                 .arg(signedNumber(n.logProb, 3), percent(std::exp(n.logProb)), signedNumber(n.cumLogProb, 3), signedNumber(n.score, 3));
    if (n.group >= 0 && d.tree.groups > 1)
        lines << tr("Group %1, diversity penalty %2").arg(n.group + 1).arg(signedNumber(-n.diversityPenalty, 3));
    if (!n.kvBlocks.isEmpty()) {
        QStringList ids;
        for (int b : n.kvBlocks) ids << QString::number(b);
        lines << tr("KV blocks %1 (%2 shared with another beam of this step)").arg(ids.join(QStringLiteral(", "))).arg(d.kvShared[id]);
    }
    return lines.join(u'\n');
}

// --- zoom, stepping -----------------------------------------------------------------------------

void BeamTreeView::scaleBy(double factor) {
    const double z = std::clamp(zoomFactor() * factor, kMinZoom, kMaxZoom);
    scale(z / zoomFactor(), z / zoomFactor());
}

void BeamTreeView::zoomIn() { scaleBy(1.25); }
void BeamTreeView::zoomOut() { scaleBy(0.8); }
void BeamTreeView::resetZoom() { scaleBy(1.0 / zoomFactor()); }

void BeamTreeView::fitToView() {
    const Drawing& d = *d_;
    QRectF r;
    for (int depth = 0; depth <= d.revealed && depth < d.nodeItems.size(); ++depth)
        r = r.united(d.nodeItems[depth]->boundingRect());
    if (r.isEmpty()) return;
    r.adjust(-8, -8, 8, 8);
    fitInView(r, Qt::KeepAspectRatio);
    if (zoomFactor() > kMaxFitZoom) {
        setTransform(QTransform::fromScale(kMaxFitZoom, kMaxFitZoom));
        centerOn(r.center());
    } else if (zoomFactor() < kMinZoom) {
        setTransform(QTransform::fromScale(kMinZoom, kMinZoom));
        centerOn(r.center());
    }
}

void BeamTreeView::revealFrontier() {
    const Drawing& d = *d_;
    if (d.revealed >= d.layout.columns.size()) return;
    const QList<int>& col = d.layout.columns[d.revealed];
    if (col.isEmpty()) return;
    int best = col.first();  // the newest step's best beam, else its best candidate
    for (int id : col) {
        const BeamTreeNode& n = d.tree.nodes[id];
        const BeamTreeNode& b = d.tree.nodes[best];
        const bool nKept = n.state == State::Kept, bKept = b.state == State::Kept;
        if (nKept != bKept ? nKept : n.candidateRank < b.candidateRank) best = id;
    }
    ensureVisible(d.layout.rects[best], 40, 40);
}

void BeamTreeView::stepForward() {
    setRevealedDepth(d_->revealed + 1);
    revealFrontier();
}

void BeamTreeView::stepBack() {
    setRevealedDepth(d_->revealed - 1);
    revealFrontier();
}

void BeamTreeView::play() {
    if (isPlaying()) return;
    if (d_->revealed >= maxDepth()) setRevealedDepth(0);
    playTimer_->start();
    emit playingChanged(true);
}

void BeamTreeView::pause() {
    if (!isPlaying()) return;
    playTimer_->stop();
    emit playingChanged(false);
}

// --- events -------------------------------------------------------------------------------------

void BeamTreeView::wheelEvent(QWheelEvent* e) {
    if (e->modifiers() & Qt::ControlModifier) {
        scaleBy(std::pow(1.0015, e->angleDelta().y()));
        e->accept();
        return;
    }
    QGraphicsView::wheelEvent(e);
}

void BeamTreeView::mousePressEvent(QMouseEvent* e) {
    pressed_ = e->button() == Qt::LeftButton;
    pressPos_ = e->position().toPoint();
    QGraphicsView::mousePressEvent(e);  // starts the hand drag
}

void BeamTreeView::mouseReleaseEvent(QMouseEvent* e) {
    QGraphicsView::mouseReleaseEvent(e);
    const QPoint pos = e->position().toPoint();
    if (!pressed_ || e->button() != Qt::LeftButton) return;
    pressed_ = false;
    if ((pos - pressPos_).manhattanLength() >= QApplication::startDragDistance()) return;  // a pan, not a click
    const int id = nodeAt(pos);
    if (id < 0) return;
    setSelectedNode(id);
    emit nodeClicked(id);
}

void BeamTreeView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoomIn(); break;
        case Qt::Key_Minus: zoomOut(); break;
        case Qt::Key_0: fitToView(); break;
        case Qt::Key_Right: stepForward(); break;
        case Qt::Key_Left: stepBack(); break;
        case Qt::Key_Space: isPlaying() ? pause() : play(); break;
        default: QGraphicsView::keyPressEvent(e); return;
    }
    e->accept();
}

bool BeamTreeView::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int id = nodeAt(help->pos());
        if (id >= 0) QToolTip::showText(help->globalPos(), nodeToolTip(id), viewport());
        else QToolTip::hideText();
        return true;
    }
    return QGraphicsView::viewportEvent(e);
}

void BeamTreeView::changeEvent(QEvent* e) {
    QGraphicsView::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) applyStyle();
    // The nodes' texts are words and numbers of the language ("width 4 · α 1", "lp −1.82"): a
    // new language draws them again, as a new font does.
    else if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) rebuild();
}

}  // namespace dlab::widgets
