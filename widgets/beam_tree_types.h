#pragma once
// The beam-search tree as the beam-tree view takes it: plain Qt value structs, a field-by-field
// mirror of the engine's dlab::BeamTree (engine/generate/beam_search.h). The widgets make no
// engine calls; ui/ converts the engine's nodes, so the picture is the engine's own trace of the
// search, never a tree rebuilt afterwards from scores.
#include <QList>
#include <QMetaType>
#include <QString>

namespace dlab::widgets {

struct BeamTreeNode {
    enum class State {
        Root,      // the prompt (nodes[0])
        Kept,      // became a running beam at its depth
        Pruned,    // a candidate of its step that did not make it
        Finished,  // a finished hypothesis still among the best at the end
        Evicted,   // finished, but not (or no longer) among the best
    };
    int id = 0;                    // index in BeamTreeData::nodes
    int parent = -1;               // -1 for the root
    int depth = 0;                 // generated tokens up to and including this one; root 0
    int tokenId = -1;              // -1 for the root
    QString text;                  // the token's text as it reads in the output (root: the prompt, may be empty)
    double logProb = 0.0;          // log p(token | parent's sequence), nats
    double cumLogProb = 0.0;       // sum along the path from the root
    double score = 0.0;            // the engine's length-penalised score of the path
    State state = State::Kept;
    bool endToken = false;         // the token ends a hypothesis (eos, eot, ...)
    int candidateRank = -1;        // rank among its step's candidates (0 = best); -1 for the root
    int beamSlot = -1;             // slot among its depth's running beams when Kept, else -1
    int nBestRank = -1;            // position among the returned hypotheses (0 = best), else -1
    int group = -1;                // diverse (group) beam search: its group; -1 when not grouped
    double diversityPenalty = 0.0; // what the group penalty took off its log-probability (>= 0)
    QList<int> kvBlocks;           // ids of the KV-cache blocks its sequence holds (copy-on-write shared)
};

struct BeamTreeData {
    QList<BeamTreeNode> nodes;     // nodes[0] is the root; parents come before children
    int width = 0;                 // beams kept per step
    int groups = 1;                // beam groups (> 1: diverse beam search)
    double lengthPenalty = 1.0;    // alpha of score = cumLogProb / length^alpha (for captions)
    int steps = 0;                 // expansion steps run: the deepest depth
};

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::BeamTreeData)
