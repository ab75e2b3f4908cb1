#pragma once
// The beam search drawn as a tree, from the engine's own node trace (BeamTreeData, converted by
// ui/ field by field from dlab::BeamTree): one box per node with its token, log-probability and
// the engine's length-penalised score; kept, pruned, finished and evicted nodes styled apart
// (BeamTreeLegend explains them, with the same colours); the n-best paths drawn thick; beam
// groups striped and tinted; a KV badge per node with the blocks it holds and how many of them
// it shares with another live node of its depth (copy-on-write).
//
// Interaction: Ctrl+wheel / zoomIn() / zoomOut() / fitToView(); drag or scroll bars to pan;
// clicking a node selects it and emits nodeClicked(id) (the page shows the distribution it was
// expanded from); setRevealedDepth(d) shows only depths <= d, and stepForward() / play() walk
// the search one expansion at a time, keeping the newest best beam in view.
//
// Fast by construction: the layout (BeamTreeLayout) is computed once per tree; the scene holds
// one painter item per depth for the nodes and one for the edges into that depth, each painting
// only its exposed nodes from cached QStaticText, and drawing plain boxes when zoomed far out.
// Revealing a depth toggles two items' visibility: no relayout, no new items.
#include <QGraphicsView>
#include <QList>
#include <QRectF>
#include <memory>

#include "widgets/beam_tree_types.h"

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace dlab::widgets {

class BeamTreeView : public QGraphicsView {
    Q_OBJECT
public:
    explicit BeamTreeView(QWidget* parent = nullptr);
    ~BeamTreeView() override;

    // Replaces the tree: every depth revealed, no selection, zoom 1 with the root in view.
    void setTree(const BeamTreeData& tree);
    const BeamTreeData& tree() const;
    void clear() { setTree({}); }

    // Pruned leaves as compact one-line boxes (default on; a width-8 tree is half pruned leaves).
    void setCollapsePruned(bool on);
    bool collapsePruned() const;

    // Shows only nodes with depth <= depth (clamped to 0..steps); steps shows the whole tree.
    void setRevealedDepth(int depth);
    int revealedDepth() const;
    int maxDepth() const;  // the tree's steps (its deepest depth)

    void setSelectedNode(int id);  // -1 = none; no signal
    int selectedNode() const;

    void setPlayInterval(int ms);  // between revealed depths while playing (default 400)
    int playInterval() const;
    bool isPlaying() const;

    double zoomFactor() const;     // the view's scale (1 = one scene unit per pixel)

    // --- what is drawn, for tests and the page ---
    int nodeAt(const QPoint& viewportPos) const;  // a revealed node under the point, else -1
    int nodeCount() const;                        // nodes in the scene (revealed or not)
    BeamTreeNode::State nodeState(int id) const;  // as drawn; Root for an unknown id
    bool isNodeVisible(int id) const;             // in the scene and revealed
    QRectF nodeRect(int id) const;                // its box in scene coordinates; null if not in the scene
    QList<int> emphasisedNodes() const;           // ids on the n-best paths (root excluded), ascending
    int kvBlocksShared(int id) const;             // of its kvBlocks, how many another live node of its depth holds
    QString nodeLabel(int id) const;              // its token text as drawn (before eliding)
    QString nodeNumbers(int id) const;            // its second line as drawn ("lp −0.37 · s −0.37")
    QString nodeToolTip(int id) const;

public slots:
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void fitToView();  // the revealed part of the tree fills the view (never above 150 %)
    void stepForward();
    void stepBack();
    void play();       // from depth 0 when already at the end
    void pause();

signals:
    void nodeClicked(int id);
    void revealedDepthChanged(int depth);
    void playingChanged(bool playing);

protected:
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool viewportEvent(QEvent* e) override;
    void changeEvent(QEvent* e) override;

public:
    struct Drawing;  // the tree, its layout and its cached texts and colours (beam_tree_view.cpp)

private:
    void rebuild();               // layout, texts, items; keeps revealed depth and selection
    void applyStyle();            // colours from the palette
    void scaleBy(double factor);
    void revealFrontier();        // scroll the newest best beam into view

    std::unique_ptr<Drawing> d_;
    QTimer* playTimer_ = nullptr;
    QPoint pressPos_;
    bool pressed_ = false;
};

}  // namespace dlab::widgets
