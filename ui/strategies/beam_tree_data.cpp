#include "ui/strategies/beam_tree_data.h"

namespace dlab::ui {

namespace {
widgets::BeamTreeNode::State stateOf(const BeamNode& n) {
    using State = widgets::BeamTreeNode::State;
    if (n.parent < 0) return State::Root;
    switch (n.status) {
    case BeamNodeStatus::Kept: return State::Kept;
    case BeamNodeStatus::Pruned: return State::Pruned;
    case BeamNodeStatus::Finished: return State::Finished;
    case BeamNodeStatus::Evicted: return State::Evicted;
    }
    return State::Kept;
}
}  // namespace

widgets::BeamTreeData beamTreeData(const BeamResult& r, const BeamOptions& options,
                                   const std::function<QString(const BeamNode&)>& text) {
    widgets::BeamTreeData t;
    t.width = options.width;
    t.groups = options.groups;
    t.lengthPenalty = options.lengthPenalty;
    t.steps = r.steps;
    for (const BeamNode& n : r.tree.nodes) {
        widgets::BeamTreeNode v;
        v.id = n.id;
        v.parent = n.parent;
        v.depth = n.depth;
        v.tokenId = n.token;
        v.text = text(n);
        v.logProb = n.logProb;
        v.cumLogProb = n.cumLogProb;
        v.score = n.score;
        v.state = stateOf(n);
        v.endToken = n.endToken;
        v.candidateRank = n.candidateRank;
        v.beamSlot = n.beamSlot;
        v.nBestRank = n.nBestRank;
        v.group = options.groups > 1 ? n.group : -1;
        v.diversityPenalty = n.diversityPenalty;
        for (int32_t b : n.kvBlocks) v.kvBlocks << b;
        t.nodes << v;
    }
    return t;
}

}  // namespace dlab::ui
