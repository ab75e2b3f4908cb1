#include "widgets/kv_heatmap_types.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dlab::widgets {

namespace {

[[noreturn]] void reject(const std::string& sentence) { throw std::invalid_argument(sentence); }

std::string num(double v) {
    std::string s = std::to_string(v);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

}  // namespace

HeatmapRange colourRange(const HeatmapGrid& g) {
    if (g.minValue != g.maxValue) return {g.minValue, g.maxValue};
    const bool log = g.scale == HeatmapGrid::Scale::Log;
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (float v : g.values) {
        if (!std::isfinite(v) || (log && v <= 0.0f)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo > hi) return {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};
    return {lo, hi};
}

void validateHeatmapGrid(const HeatmapGrid& g) {
    if (g.rows < 0 || g.cols < 0)
        reject("the heatmap cannot have " + std::to_string(g.rows) + " rows × " + std::to_string(g.cols) +
               " columns: both must be 0 or more");
    const size_t cells = size_t(g.rows) * size_t(g.cols);
    if (g.values.size() != cells)
        reject("the heatmap has " + std::to_string(g.rows) + " rows × " + std::to_string(g.cols) + " columns = " +
               std::to_string(cells) + " cells, but " + std::to_string(g.values.size()) + " values were given");
    if (!g.rowLabels.isEmpty() && g.rowLabels.size() != g.rows)
        reject("the heatmap has " + std::to_string(g.rows) + " rows but " + std::to_string(g.rowLabels.size()) +
               " row labels (give one per row, or none)");
    if (!g.colLabels.isEmpty() && g.colLabels.size() != g.cols)
        reject("the heatmap has " + std::to_string(g.cols) + " columns but " + std::to_string(g.colLabels.size()) +
               " column labels (give one per column, or none)");
    for (int r : g.groupStarts)
        if (r < 0 || r >= std::max(1, g.rows))
            reject("group start row " + std::to_string(r) + " is outside the heatmap's rows 0–" +
                   std::to_string(std::max(0, g.rows - 1)));
    if (g.colsPerLabel < 1)
        reject("colsPerLabel is " + std::to_string(g.colsPerLabel) + ", but a column must stand for at least one position");
    if (!std::isfinite(g.minValue) || !std::isfinite(g.maxValue) || g.minValue > g.maxValue)
        reject("the colour range " + num(g.minValue) + " … " + num(g.maxValue) +
               " is not a range: give finite values with minimum ≤ maximum (equal for an automatic range)");
    if (g.scale == HeatmapGrid::Scale::Log && g.minValue != g.maxValue && g.minValue <= 0.0f)
        reject("a log scale needs a positive minimum, but the colour range starts at " + num(g.minValue));
    if (!g.isCategorical()) return;
    if (!g.categoryColors.empty() && g.categoryColors.size() != size_t(g.categories.size()))
        reject("the heatmap has " + std::to_string(g.categories.size()) + " categories but " +
               std::to_string(g.categoryColors.size()) + " category colours (give one per category, or none)");
    const int n = int(g.categories.size());
    for (size_t i = 0; i < g.values.size(); ++i) {
        const float v = g.values[i];
        if (std::isnan(v)) continue;
        if (v != std::floor(v) || v < 0.0f || v >= float(n))
            reject("the value " + num(v) + " at row " + std::to_string(i / size_t(g.cols)) + ", column " +
                   std::to_string(i % size_t(g.cols)) + " is not a category index (0–" + std::to_string(n - 1) + ")");
    }
}

}  // namespace dlab::widgets
