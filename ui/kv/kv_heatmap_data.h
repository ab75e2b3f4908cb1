#pragma once
// The KV heatmap's grid from a run (KvRunView), for one quantity: layers (or layers × KV heads)
// down, positions (or blocks) across. Every cell is one of the engine's numbers, converted only
// in unit (weights to %, errors to %); nothing is estimated.
//   attention   the weight sequence 0's newest token gave each cached position at a recorded step
//               (per KV head: the mean over the query heads that read it; per layer: over all heads)
//   bytes       K and V bytes the block holds in that layer (filled slots × bytes per slot)
//   sharing     how many sequences reference the block (copy-on-write sharing)
//   key / value norm        L2 norm of the cached row (per layer: over all KV heads)
//   key / value error       ‖stored − f32‖ / ‖f32‖ of the cell against an f32 run of the same tokens
#include <QCoreApplication>

#include "ui/kv/kv_types.h"
#include "widgets/kv_heatmap_types.h"

namespace dlab::ui {

enum class KvCellQuantity { Attention, Bytes, Sharing, KeyNorm, ValueNorm, KeyError, ValueError };
enum class KvHeatmapRows { Layers, KvHeads };

// attentionIndex: which of v.attention (ignored for other quantities). An empty grid when the run
// has no such numbers (no recorded attention, an f32 cache's errors).
// logScale: colours on a log scale; for attention its floor is 1 % of the uniform weight (100 / slots %),
// so the many near-zero weights do not stretch the scale over twenty decades.
widgets::HeatmapGrid kvHeatmapGrid(const KvRunView& v, KvCellQuantity q, KvHeatmapRows rows, int attentionIndex,
                                   bool logScale = false);

// The translated name of a quantity, for the selector and the legend.
QString kvCellQuantityName(KvCellQuantity q);

}  // namespace dlab::ui
