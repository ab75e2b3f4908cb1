#pragma once
// A (rows, columns) heatmap for the KV cache explorer: rows are layers (or layers × KV heads),
// columns are positions (or KV blocks of colsPerLabel positions); the value is whatever the page
// passes (attention received, bytes, the owning sequence as a category). Row labels on the left
// (evenly spaced, never overlapping; every group's first kept while groups are a line apart), a
// position axis with 1-2-5 ticks below, the colour legend on the right (the ramp with its range,
// or the categories' swatches).
//
// Fast by construction: the cells live in a cached QImage with one pixel per device pixel of the
// cell area, rebuilt only when the grid, the palette or the cell area's size changes; a repaint
// blits it 1:1 and draws ~50 labels. When there are more columns (or rows) than pixels, each
// pixel shows the MAXIMUM of the cells it covers, so one hot column among 2,048 (an attention
// sink at position 0) stays visible at 300 px. NaN is "no data": drawn as the base colour.
//
// Hover: cellHovered(row, col) and a tooltip (row label, position(s), token, value with its unit,
// then the page's own lines from setTooltipProvider); a click emits cellClicked(row, col).
// Qt only: the page fills a HeatmapGrid from the engine's numbers.
#include <QImage>
#include <QList>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

#include "widgets/heatmap_color_map.h"
#include "widgets/kv_heatmap_types.h"

namespace dlab::widgets {

class KvHeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit KvHeatmapView(QWidget* parent = nullptr);

    // Replaces the grid (validateHeatmapGrid: throws std::invalid_argument, the view unchanged).
    void setGrid(HeatmapGrid grid);
    const HeatmapGrid& grid() const { return grid_; }
    void clear();

    // Shown centred while the grid is empty ("Run a prompt to see the cache").
    void setPlaceholderText(const QString& text);
    QString placeholderText() const { return placeholder_; }

    // Lines the page appends to a cell's tooltip (empty string: none). Called on hover only.
    void setTooltipProvider(std::function<QString(int row, int col)> provider);

    // --- what is drawn where (tests, and a page that wants to mark a cell) ---
    // The rectangle the cells fill, in widget coordinates (empty while the grid is empty).
    QRect cellArea() const;
    // The cell under a point: x = column, y = row; nullopt outside the cells. Where a pixel covers
    // several cells (binned), it is the cell whose value the pixel shows: the bin's maximum (the
    // first one on ties, the bin's first cell when all of it is NaN).
    std::optional<QPoint> cellAt(QPoint widgetPos) const;
    // The pixels cell (row, col) is drawn on; when binned, the pixel column (row) of its bin.
    QRect cellRect(int row, int col) const;
    // The columns the pixel column at widget x covers, [first, last]; {-1, -1} outside the cells.
    std::pair<int, int> columnsAtX(int x) const;
    // A cell's tooltip: row label, position(s), token, value; then the provider's lines.
    QString tooltipText(int row, int col) const;
    // The colour a value is drawn with (the ramp or its category; NaN: the base colour).
    QColor colorFor(float value) const;
    // A value as the legend and the tooltip write it, with the grid's unit ("12.5 %", "1.5 KiB").
    QString formatValue(double value) const;
    // The colour range in use (HeatmapRange of the grid).
    HeatScale scale() const { return scale_; }
    // Every text the last paint drew, as landed (tests: nothing clipped, nothing overlapping).
    const QList<QRect>& lastTextRects() const { return textRects_; }
    // The category legend's lines the last paint drew (tests: whole names, none elided).
    const QStringList& lastLegendLines() const { return legendLines_; }
    // How many times the cell image has been built (tests: a plain repaint reuses it).
    int imageBuilds() const { return imageBuilds_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellHovered(int row, int col);   // (-1, -1) when the pointer leaves the cells
    void cellClicked(int row, int col);

protected:
    bool event(QEvent* e) override;       // QEvent::ToolTip
    void paintEvent(QPaintEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct Layout {
        QRect cells, labels, legend;  // labels: the row-label column; legend: the right column
        int axisTop = 0;               // first y below the cells (ticks, then their labels)
        int gap = 0;                   // a character's width: between the columns
    };
    struct Bins {                      // device pixels of the cell area and the cells they cover
        int w = 0, h = 0;
        double dpr = 1.0;
    };
    const Layout& layout() const;
    Bins bins() const;
    int legendWidth(int available) const;
    QString legendTitle() const;
    QStringList legendValueTexts() const;  // max, middle, min
    void rebuildColours();
    void ensureImage();
    void paintRowLabels(QPainter& p, const Layout& l);
    void paintAxis(QPainter& p, const Layout& l);
    void paintLegend(QPainter& p, const Layout& l);
    void invalidateLayout();
    void setHovered(std::optional<QPoint> cell);

    HeatmapGrid grid_;
    HeatScale scale_;
    QString placeholder_;
    std::function<QString(int, int)> provider_;
    std::vector<QRgb> ramp_;        // 256 steps of heatRampColor for this palette
    std::vector<QRgb> categories_;  // one per category
    QRgb base_ = 0;
    QImage image_;                  // the cells, one pixel per device pixel of layout().cells
    bool imageValid_ = false;
    int imageBuilds_ = 0;
    mutable int rowLabelWidth_ = -1;  // widest row label in the current font; -1 = not measured
    mutable std::optional<Layout> layout_;
    std::optional<QPoint> hovered_;
    QList<QRect> textRects_;
    QStringList legendLines_;
};

}  // namespace dlab::widgets
