#pragma once
// The engine's beam-search tree (dlab::BeamResult) as the tree view takes it
// (widgets::BeamTreeData): field by field, nothing recomputed. The strategies page, the view's
// tests and its benchmark all convert through here.
#include <QString>

#include <functional>

#include "generate/beam_search.h"
#include "widgets/beam_tree_types.h"

namespace dlab::ui {

// `text(node)` gives each node's label (the root's: the prompt, or "").
widgets::BeamTreeData beamTreeData(const BeamResult& result, const BeamOptions& options,
                                   const std::function<QString(const BeamNode&)>& text);

}  // namespace dlab::ui
