#pragma once
// A paged KV cache drawn as vLLM-style block tables: one row per sequence with its label and one
// cell per logical block naming the pool block it maps to. A cell is filled as far as the block
// holds positions; the rest of a partly filled block is hatched (internal fragmentation). Blocks
// several tables point at (refCount > 1: shared, copied on write) get a hue of their own, the
// same in every row and in the pool strip, and a strong border, so the eye follows the sharing.
// Below: the whole pool, one cell per block (free / in use / shared), wrapped into lines. Then,
// for comparison, a contiguous allocator: one bar per sequence of contextLength slots on one
// scale, the held positions filled and the reserved rest hatched.
//
// Sits in a QScrollArea (widgetResizable): rows wrap to the width and heightForWidth() gives the
// height. Hovering a cell outlines that pool block everywhere, emits blockHovered(block) and shows
// a tooltip (block, refcount, the sequences using it, slots used). Draws only what setData()
// gives; the page writes totals beside it from the engine's own statistics.
#include <QList>
#include <QWidget>

#include <optional>
#include <vector>

#include "widgets/kv_block_table_types.h"

namespace dlab::widgets {

class KvBlockTableView : public QWidget {
    Q_OBJECT
public:
    explicit KvBlockTableView(QWidget* parent = nullptr);

    // Replaces what is drawn (validateBlockTable: throws std::invalid_argument, the view unchanged).
    void setData(BlockTableData data);
    const BlockTableData& data() const { return data_; }
    void clear() { setData({}); }

    // --- what is drawn where (tests, and a page that wants to point at a block) ---
    // The pool block under a point: a table cell's block or a pool strip cell; nullopt elsewhere.
    std::optional<int> poolBlockAt(QPoint pos) const;
    // The tooltip at a point (a table cell, a pool cell or a contiguous bar); empty elsewhere.
    QString tooltipAt(QPoint pos) const;
    QRect blockCellRect(int sequenceIndex, int logicalBlock) const;  // null when there is no such cell
    QRect poolCellRect(int poolBlock) const;
    QRect contiguousBarRect(int sequenceIndex) const;                // the whole bar (contextLength slots)
    // Colours as drawn (this palette): a block one table uses, a free one, a shared one's hue and
    // border, the hatching of reserved but unfilled slots.
    QColor usedColor() const;
    QColor freeColor() const;
    QColor sharedColor(int poolBlock) const;
    QColor sharedBorderColor(int poolBlock) const;
    QColor hatchColor() const;
    // Every text the last paint drew, as landed (tests: nothing clipped, nothing overlapping).
    const QList<QRect>& lastTextRects() const { return textRects_; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void blockHovered(int poolBlock);   // -1 when the pointer leaves the blocks

protected:
    bool event(QEvent* e) override;     // QEvent::ToolTip
    void paintEvent(QPaintEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    enum class Swatch { Used, Shared, Free, Unfilled };
    struct LegendItem {
        QRect swatch, text;
        Swatch kind;
        QString label;
    };
    struct Row {
        QRect label;                    // the sequence's label
        std::vector<QRect> cells;       // (logical blocks) table cells; or the one bar (contiguous)
    };
    struct Layout {
        int width = -1, height = 0;
        QRect tableHeading, poolHeading, contiguousHeading;
        std::vector<LegendItem> legend;
        std::vector<Row> table, contiguous;
        std::vector<QRect> pool;        // (nBlocks)
    };
    Layout layoutFor(int width) const;
    const Layout& layout() const;
    QFont headingFont() const;
    QString tableHeadingText() const;
    QString poolHeadingText() const;
    QString contiguousHeadingText() const;
    QString usersText(int poolBlock) const;
    void paintBlock(QPainter& p, const QRect& r, int poolBlock, double filled, bool number);
    void paintUnfilled(QPainter& p, const QRect& r);
    void setHovered(int block);

    BlockTableData data_;
    std::vector<std::vector<std::pair<int, int>>> users_;  // (nBlocks) -> (sequence index, logical block)
    int hovered_ = -1;
    mutable std::optional<Layout> layout_;
    QList<QRect> textRects_;
};

}  // namespace dlab::widgets
