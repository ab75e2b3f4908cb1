#pragma once
// Where each node of a beam-search tree goes: pure geometry, no painting, so it is unit-testable
// and computed once per tree (revealing a depth, zooming or selecting never re-lays out).
//
// Columns by depth (the root at x = 0, one column per expansion step). Vertically a tidy tree
// (Reingold-Tilford): a node's children are ordered by their candidate rank and their subtrees
// stacked top to bottom, each moved up until its contour (its boxes' extent at each depth) meets
// its elder siblings' contour at some depth, rowGap apart; so leaves come in order of their
// parent's slot, then their rank, and a parent sits centred over its first and last child. Boxes
// at one depth never overlap (the contours keep them apart), and columns are columnGap apart.
// Stacking whole bands instead would let every pruned leaf block a strip across all deeper
// columns: a width-8, 64-step tree came out ~8,000 px tall that way.
// O(n · depth): a width-8, 64-step search (~1,000 nodes) lays out in about a millisecond.
#include <QList>
#include <QRectF>

#include "widgets/beam_tree_types.h"

namespace dlab::widgets {

struct BeamTreeLayoutOptions {
    double nodeWidth = 140.0;     // a node's box (all columns alike)
    double nodeHeight = 36.0;     // a full node: token line + numbers line
    double compactHeight = 18.0;  // a collapsed pruned leaf: one small line
    double columnGap = 40.0;      // between a column's right edge and the next one's left: room for edges
    double rowGap = 6.0;          // between stacked sibling subtrees
    bool collapsePruned = true;   // pruned leaves drawn compact
};

struct BeamTreeLayout {
    QList<QRectF> rects;        // per node (index = id): its box; a null rect for a node with an invalid parent
    QList<bool> compact;        // per node: drawn as a collapsed pruned leaf
    QList<QList<int>> columns;  // per depth: the ids laid out there, top to bottom
    QRectF bounds;              // union of every box
    double columnPitch = 0.0;   // nodeWidth + columnGap: x of depth d is d * columnPitch
};

// nodes[i].id is taken to be i and parents must come before children (the engine's order).
BeamTreeLayout layoutBeamTree(const BeamTreeData& tree, const BeamTreeLayoutOptions& options = {});

}  // namespace dlab::widgets
