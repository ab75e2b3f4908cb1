#include "widgets/beam_tree_layout.h"

#include <algorithm>
#include <vector>

namespace dlab::widgets {

BeamTreeLayout layoutBeamTree(const BeamTreeData& tree, const BeamTreeLayoutOptions& o) {
    const int n = int(tree.nodes.size());
    BeamTreeLayout out;
    out.columnPitch = o.nodeWidth + o.columnGap;
    out.rects.resize(n);
    out.compact.fill(false, n);
    if (n == 0) return out;

    // A node whose parent is missing or comes after it cannot be placed; it and its subtree are
    // left out (null rect) instead of corrupting the stack.
    std::vector<char> placed(n, 0);
    std::vector<std::vector<int>> children(n);
    placed[0] = 1;
    for (int i = 1; i < n; ++i) {
        const int p = tree.nodes[i].parent;
        if (p < 0 || p >= i || !placed[p]) continue;
        placed[i] = 1;
        children[p].push_back(i);
    }
    for (auto& c : children)
        std::sort(c.begin(), c.end(), [&](int a, int b) {
            const int ra = tree.nodes[a].candidateRank, rb = tree.nodes[b].candidateRank;
            return ra != rb ? ra < rb : a < b;
        });

    // Bottom-up (children have larger ids), Reingold-Tilford style: each subtree keeps its
    // contour, the [top, bottom] of its boxes at each depth below its root, relative to its root's
    // centre. Siblings are stacked in rank order, each as high as the contours allow at every depth
    // they share; a leaf therefore blocks only its own column, not the whole band to the right.
    struct Span {
        double top, bottom;
    };
    std::vector<std::vector<Span>> contour(n);
    std::vector<double> own(n), offset(n, 0.0);  // offset: a child's centre relative to its parent's
    for (int i = n - 1; i >= 0; --i) {
        if (!placed[i]) continue;
        const BeamTreeNode& node = tree.nodes[i];
        const bool compact = o.collapsePruned && node.state == BeamTreeNode::State::Pruned && children[i].empty();
        out.compact[i] = compact;
        own[i] = compact ? o.compactHeight : o.nodeHeight;
        std::vector<Span> acc;  // the children's joint contour, in the first child's coordinates
        for (int c : children[i]) {
            std::vector<Span>& cc = contour[c];
            if (acc.empty()) {
                acc = std::move(cc);
                offset[c] = 0.0;
                continue;
            }
            double shift = -1e300;
            for (size_t k = 0; k < std::min(acc.size(), cc.size()); ++k)
                shift = std::max(shift, acc[k].bottom - cc[k].top + o.rowGap);
            offset[c] = shift;
            for (size_t k = 0; k < cc.size(); ++k) {
                const Span moved{cc[k].top + shift, cc[k].bottom + shift};
                if (k < acc.size()) acc[k] = {std::min(acc[k].top, moved.top), std::max(acc[k].bottom, moved.bottom)};
                else acc.push_back(moved);
            }
            std::vector<Span>().swap(cc);
        }
        const double mid = children[i].empty() ? 0.0 : (offset[children[i].front()] + offset[children[i].back()]) / 2;
        for (int c : children[i]) offset[c] -= mid;
        std::vector<Span>& mine = contour[i];
        mine.reserve(acc.size() + 1);
        mine.push_back({-own[i] / 2, own[i] / 2});
        for (const Span& s : acc) mine.push_back({s.top - mid, s.bottom - mid});
    }

    // Top-down: absolute centres, then boxes, the topmost at y = 0.
    std::vector<double> centre(n, 0.0);
    for (int i = 0; i < n; ++i)
        if (placed[i])
            for (int c : children[i]) centre[c] = centre[i] + offset[c];
    const double top = contour[0].empty() ? 0.0
                                          : std::min_element(contour[0].begin(), contour[0].end(), [](const Span& a, const Span& b) {
                                                return a.top < b.top;
                                            })->top;
    int maxDepth = 0;
    for (int i = 0; i < n; ++i) {
        if (!placed[i]) continue;
        const double x = tree.nodes[i].depth * out.columnPitch;
        out.rects[i] = QRectF(x, centre[i] - own[i] / 2 - top, o.nodeWidth, own[i]);
        out.bounds = out.bounds.isNull() ? out.rects[i] : out.bounds.united(out.rects[i]);
        maxDepth = std::max(maxDepth, tree.nodes[i].depth);
    }
    out.columns.resize(maxDepth + 1);
    for (int i = 0; i < n; ++i)
        if (placed[i] && tree.nodes[i].depth >= 0) out.columns[tree.nodes[i].depth].push_back(i);
    for (auto& col : out.columns)
        std::sort(col.begin(), col.end(), [&](int a, int b) { return out.rects[a].top() < out.rects[b].top(); });
    return out;
}

}  // namespace dlab::widgets
