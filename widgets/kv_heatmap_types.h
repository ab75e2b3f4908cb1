#pragma once
// What KvHeatmapView draws: a (rows, cols) grid of numbers with its labels, a plain value the page
// fills from the engine's own numbers (attention received per layer and position, bytes per layer
// and block, which sequence owns a block…). No engine types: the widgets library stays Qt-only.
#include <QColor>
#include <QString>
#include <QStringList>

#include <vector>

namespace dlab::widgets {

struct HeatmapGrid {
    int rows = 0, cols = 0;
    std::vector<float> values;       // (rows, cols) row-major; NaN = no data (drawn as the background)
    QStringList rowLabels;           // one per row ("L0", "L3 kv1"), or empty for none
    QStringList colLabels;           // one per column (the token at that position), or empty
    std::vector<int> groupStarts;    // rows where a new group starts (a separator is drawn), e.g. each layer
    QString quantity;                // legend title, e.g. "attention received"
    QString unit;                    // "%" (values already in percent), "B" (bytes, shown as KiB/MiB), "" or any word
    enum class Scale { Linear, Log } scale = Scale::Linear;
    float minValue = 0, maxValue = 0; // colour range; min == max -> from the finite values (Log: the positive ones)
    QStringList categories;          // non-empty -> categorical mode: values are indices 0..n-1
    std::vector<QColor> categoryColors;  // one per category, or empty for the view's own distinct hues
    int colsPerLabel = 1;            // positions per column (1 = positions, 16 = KV blocks of 16)

    bool isEmpty() const { return rows <= 0 || cols <= 0; }
    bool isCategorical() const { return !categories.isEmpty(); }
    float at(int row, int col) const { return values[size_t(row) * size_t(cols) + size_t(col)]; }
};

// The colour range a grid is drawn with: its own minValue/maxValue, or the finite values' range
// (a Log scale takes the smallest positive value). lo == hi when all values are equal; both NaN
// when there is nothing to draw.
struct HeatmapRange {
    float lo = 0, hi = 0;
};
HeatmapRange colourRange(const HeatmapGrid& grid);

// Throws std::invalid_argument with one sentence naming what does not match ("the heatmap has 3 rows
// × 4 columns = 12 cells, but 11 values were given"). Checks sizes, labels, group starts, the range,
// a Log scale's positive minimum and, in categorical mode, that every value is a category index.
void validateHeatmapGrid(const HeatmapGrid& grid);

}  // namespace dlab::widgets
