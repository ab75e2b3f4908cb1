#include "widgets/kv_block_table_view.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "widgets/palette_colors.h"
#include "widgets/tooltip_event.h"
#include "widgets/recorded_text.h"

namespace dlab::widgets {

namespace {

constexpr int kCellGap = 2;        // between cells: room for the hover outline around one
constexpr int kMaxPoolLines = 6;   // beyond this the pool strip switches to small squares

int marginFor(const QFontMetrics& fm) { return std::max(2, lineHeight(fm) / 4); }

// Where `count` cells of `size` flow from `origin` in lines of `perLine`.
std::vector<QRect> flowCells(int count, QPoint origin, QSize size, int perLine) {
    std::vector<QRect> cells;
    cells.reserve(size_t(std::max(0, count)));
    for (int i = 0; i < count; ++i)
        cells.emplace_back(QPoint(origin.x() + (i % perLine) * (size.width() + kCellGap),
                                  origin.y() + (i / perLine) * (size.height() + kCellGap)),
                           size);
    return cells;
}

int linesFor(int count, int perLine) { return std::max(1, (count + perLine - 1) / perLine); }

}  // namespace

KvBlockTableView::KvBlockTableView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);   // QScrollArea (widgetResizable) asks heightForWidth only then
    setSizePolicy(policy);
}

void KvBlockTableView::setData(BlockTableData data) {
    validateBlockTable(data);   // throws before anything changes
    data_ = std::move(data);
    users_.assign(size_t(data_.nBlocks), {});
    for (size_t s = 0; s < data_.sequences.size(); ++s)
        for (size_t l = 0; l < data_.sequences[s].blocks.size(); ++l)
            users_[size_t(data_.sequences[s].blocks[l])].emplace_back(int(s), int(l));
    hovered_ = -1;
    layout_.reset();
    updateGeometry();
    update();
}

// --- colours --------------------------------------------------------------------------------------

QColor KvBlockTableView::usedColor() const { return mix(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.22); }
QColor KvBlockTableView::freeColor() const { return palette().color(QPalette::Base); }
QColor KvBlockTableView::hatchColor() const { return mix(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.45); }

// Golden-angle hues: neighbouring block numbers get far-apart hues, the same block always the same;
// block 0 (a shared prompt's first block, the commonest case) starts at green, not at warning red.
// Pastel on a light base (black numbers read on it), deeper on a dark one (white numbers).
QColor KvBlockTableView::sharedColor(int block) const {
    const int hue = int(std::fmod(150.0 + std::max(0, block) * 137.508, 360.0));
    return hasDarkBase(palette()) ? QColor::fromHsv(hue, 170, 165) : QColor::fromHsv(hue, 115, 240);
}

QColor KvBlockTableView::sharedBorderColor(int block) const {
    return hasDarkBase(palette()) ? sharedColor(block).lighter(165) : sharedColor(block).darker(190);
}

// --- layout ---------------------------------------------------------------------------------------

QFont KvBlockTableView::headingFont() const {
    QFont f = font();
    f.setBold(true);
    return f;
}

QString KvBlockTableView::tableHeadingText() const {
    return tr("Paged cache: each sequence's block table (logical block \u2192 pool block, %n position(s) per block)", nullptr,
              int(data_.blockSize));
}

QString KvBlockTableView::poolHeadingText() const { return tr("The pool: %n block(s)", nullptr, int(data_.nBlocks)); }

QString KvBlockTableView::contiguousHeadingText() const {
    return tr("Contiguous allocator, for comparison: each sequence reserves the whole context (%1 positions)")
        .arg(locale().toString(qlonglong(data_.contextLength)));
}

KvBlockTableView::Layout KvBlockTableView::layoutFor(int W) const {
    Layout l;
    l.width = W;
    const QFontMetrics fm = fontMetrics(), hfm(headingFont());
    const int h = lineHeight(fm), m = marginFor(fm), gap = fm.averageCharWidth();
    const int textW = std::max(1, W - 2 * m);
    // A heading wraps rather than elides: it says what the section shows.
    auto heading = [&](int y, const QString& text) {
        return QRect(m, y, textW, hfm.boundingRect(QRect(0, 0, textW, 100000), Qt::TextWordWrap, text).height());
    };
    const QSize cell(textWidth(fm, locale().toString(qlonglong(std::max<int64_t>(0, data_.nBlocks - 1)))) +
                         2 * std::max(2, gap / 2) + 2,
                     h + 4);
    int labelW = 0;
    for (const BlockTableSequence& s : data_.sequences) labelW = std::max(labelW, textWidth(fm, sequenceLabel(s)));
    labelW = std::min(labelW, W / 4);
    const int x0 = m + labelW + gap;
    const int perLine = std::max(1, (W - m - x0 + kCellGap) / (cell.width() + kCellGap));

    int y = m;
    l.tableHeading = heading(y, tableHeadingText());
    y = l.tableHeading.bottom() + 1 + h / 3;
    // The legend flows like text.
    const int swatch = std::max(6, h - 4);
    int x = m, rowH = h;
    for (const auto& [kind, label] : {std::pair{Swatch::Used, tr("in use by one sequence")},
                                      std::pair{Swatch::Shared, tr("shared (copy-on-write), one colour per pool block")},
                                      std::pair{Swatch::Free, tr("free")}, std::pair{Swatch::Unfilled, tr("reserved, not filled")}}) {
        const int swatchW = kind == Swatch::Shared ? swatch * 3 / 2 : swatch;   // three hues side by side
        const int w = swatchW + gap / 2 + textWidth(fm, label);
        if (x > m && x + w > W - m) {
            x = m;
            y += rowH + 2;
            rowH = h;
        }
        // A label wider than the line wraps under itself (a narrow panel, a presentation font).
        QRect text(x + swatchW + gap / 2, y, w - swatchW - gap / 2, h);
        if (text.right() > W - m) {
            text.setWidth(std::max(1, W - m - text.left()));
            text.setHeight(std::max(h, fm.boundingRect(QRect(0, 0, text.width(), 100000), Qt::TextWordWrap, label).height()));
        }
        l.legend.push_back({QRect(x, y + (h - swatch) / 2, swatchW, swatch), text, kind, label});
        rowH = std::max(rowH, text.height());
        x = text.right() + 1 + 2 * gap;
    }
    y += rowH + h / 2;
    for (const BlockTableSequence& s : data_.sequences) {
        Row row;
        row.label = QRect(m, y + (cell.height() - h) / 2, labelW, h);
        row.cells = flowCells(int(s.blocks.size()), QPoint(x0, y), cell, perLine);
        y += linesFor(int(s.blocks.size()), perLine) * (cell.height() + kCellGap) + 2;
        l.table.push_back(std::move(row));
    }
    y += h / 2;
    l.poolHeading = heading(y, poolHeadingText());
    y = l.poolHeading.bottom() + 1 + h / 3;
    QSize poolCell = cell;
    int poolPerLine = std::max(1, (textW + kCellGap) / (poolCell.width() + kCellGap));
    if (linesFor(int(data_.nBlocks), poolPerLine) > kMaxPoolLines) {
        poolCell = QSize(std::max(6, h / 2 + 2), std::max(6, h / 2 + 2));
        poolPerLine = std::max(1, (textW + kCellGap) / (poolCell.width() + kCellGap));
    }
    l.pool = flowCells(int(data_.nBlocks), QPoint(m, y), poolCell, poolPerLine);
    y += (data_.nBlocks > 0 ? linesFor(int(data_.nBlocks), poolPerLine) * (poolCell.height() + kCellGap) : 0) + h / 2;
    if (data_.contextLength > 0) {
        l.contiguousHeading = heading(y, contiguousHeadingText());
        y = l.contiguousHeading.bottom() + 1 + h / 3;
        for (size_t i = 0; i < data_.sequences.size(); ++i) {
            Row row;
            row.label = QRect(m, y + (cell.height() - h) / 2, labelW, h);
            row.cells.emplace_back(x0, y, std::max(1, W - m - x0), cell.height());
            y += cell.height() + kCellGap + 2;
            l.contiguous.push_back(std::move(row));
        }
    }
    l.height = y + m;
    return l;
}

const KvBlockTableView::Layout& KvBlockTableView::layout() const {
    if (!layout_ || layout_->width != width()) layout_ = layoutFor(width());
    return *layout_;
}

int KvBlockTableView::heightForWidth(int w) const { return w == width() ? layout().height : layoutFor(w).height; }

QSize KvBlockTableView::sizeHint() const {
    const int w = fontMetrics().averageCharWidth() * 100;
    return {w, heightForWidth(w)};
}

QSize KvBlockTableView::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 30, lineHeight(fm) * 4};
}

QRect KvBlockTableView::blockCellRect(int s, int logical) const {
    const Layout& l = layout();
    if (s < 0 || s >= int(l.table.size()) || logical < 0 || logical >= int(l.table[size_t(s)].cells.size())) return {};
    return l.table[size_t(s)].cells[size_t(logical)];
}

QRect KvBlockTableView::poolCellRect(int block) const {
    const Layout& l = layout();
    return block >= 0 && block < int(l.pool.size()) ? l.pool[size_t(block)] : QRect();
}

QRect KvBlockTableView::contiguousBarRect(int s) const {
    const Layout& l = layout();
    return s >= 0 && s < int(l.contiguous.size()) ? l.contiguous[size_t(s)].cells.front() : QRect();
}

// --- hit-testing and tooltips --------------------------------------------------------------------

std::optional<int> KvBlockTableView::poolBlockAt(QPoint pos) const {
    const Layout& l = layout();
    for (size_t s = 0; s < l.table.size(); ++s)
        for (size_t b = 0; b < l.table[s].cells.size(); ++b)
            if (l.table[s].cells[b].contains(pos)) return data_.sequences[s].blocks[b];
    for (size_t b = 0; b < l.pool.size(); ++b)
        if (l.pool[b].contains(pos)) return int(b);
    return std::nullopt;
}

QString KvBlockTableView::usersText(int block) const {
    QStringList names;
    for (const auto& [s, logical] : users_[size_t(block)]) {
        const BlockTableSequence& seq = data_.sequences[size_t(s)];
        const qlonglong used = std::clamp<qlonglong>(seq.positions - qlonglong(logical) * data_.blockSize, 0, data_.blockSize);
        names << tr("%1 (its block %2, %3 of %4 slots)").arg(sequenceLabel(seq)).arg(logical).arg(used).arg(data_.blockSize);
    }
    return names.join(QStringLiteral(", "));
}

QString KvBlockTableView::tooltipAt(QPoint pos) const {
    const Layout& l = layout();
    const QLocale loc = locale();
    auto blockLines = [&](int block) {
        QStringList lines;
        const int refs = data_.refCount[size_t(block)];
        lines << (refs == 0 ? tr("Pool block %1: free").arg(block)
                            : refs == 1 ? tr("Pool block %1: refcount 1").arg(block)
                                        : tr("Pool block %1: refcount %2, shared (a write copies it first)").arg(block).arg(refs));
        if (!users_[size_t(block)].empty()) lines << tr("Used by %1").arg(usersText(block));
        if (data_.bytesPerBlock > 0) lines << tr("%1 per block (K and V, all layers)").arg(loc.formattedDataSize(data_.bytesPerBlock));
        return lines;
    };
    for (size_t s = 0; s < l.table.size(); ++s) {
        const BlockTableSequence& seq = data_.sequences[s];
        for (size_t b = 0; b < l.table[s].cells.size(); ++b) {
            if (!l.table[s].cells[b].contains(pos)) continue;
            const qlonglong first = qlonglong(b) * data_.blockSize;
            const qlonglong used = std::clamp<qlonglong>(seq.positions - first, 0, data_.blockSize);
            QStringList lines{tr("%1, logical block %2 \u2192 pool block %3").arg(sequenceLabel(seq)).arg(b).arg(seq.blocks[b])};
            lines << (used > 0 ? tr("%1 of %2 slots used (positions %3\u2013%4)").arg(used).arg(data_.blockSize).arg(first).arg(first + used - 1)
                               : tr("0 of %1 slots used").arg(data_.blockSize));
            return (lines + blockLines(seq.blocks[b])).join(u'\n');
        }
        if (l.table[s].label.contains(pos))
            return tr("%1: %n position(s)", nullptr, int(seq.positions)).arg(sequenceLabel(seq)) + u'\n' +
                   tr("%n block(s) in its table", nullptr, int(seq.blocks.size()));
    }
    for (size_t b = 0; b < l.pool.size(); ++b)
        if (l.pool[b].contains(pos)) return blockLines(int(b)).join(u'\n');
    for (size_t s = 0; s < l.contiguous.size(); ++s)
        if (l.contiguous[s].cells.front().contains(pos) || l.contiguous[s].label.contains(pos)) {
            const BlockTableSequence& seq = data_.sequences[s];
            return tr("%1: %2 of %3 reserved slots hold positions; the rest stays reserved, unused")
                .arg(sequenceLabel(seq), loc.toString(qlonglong(seq.positions)), loc.toString(qlonglong(data_.contextLength)));
        }
    return {};
}

// --- painting -------------------------------------------------------------------------------------

void KvBlockTableView::paintUnfilled(QPainter& p, const QRect& r) {
    if (r.width() <= 0) return;
    p.fillRect(r, freeColor());
    p.fillRect(r, QBrush(hatchColor(), Qt::BDiagPattern));
}

void KvBlockTableView::paintBlock(QPainter& p, const QRect& r, int block, double filled, bool number) {
    const bool shared = data_.refCount[size_t(block)] > 1;
    const QColor fill = shared ? sharedColor(block) : usedColor();
    const int w = int(std::lround(r.width() * std::clamp(filled, 0.0, 1.0)));
    p.fillRect(QRect(r.left(), r.top(), w, r.height()), fill);
    paintUnfilled(p, QRect(r.left() + w, r.top(), r.width() - w, r.height()));
    const QString text = locale().toString(block);
    if (number && w < r.width()) {
        // The number on a plain patch of the colour its pen is chosen for: drawn over the
        // hatching, "10" read as "1/0".
        const QFontMetrics fm = fontMetrics();
        const int pw = std::min(r.width() - 4, textWidth(fm, text) + fm.averageCharWidth()), ph = std::min(r.height() - 4, fm.height());
        const QRect patch(r.center().x() - pw / 2 + (r.width() + 1) % 2, r.center().y() - ph / 2 + (r.height() + 1) % 2, pw, ph);
        p.fillRect(patch.intersected(QRect(r.left() + w, r.top(), r.width() - w, r.height())), filled >= 0.5 ? fill : freeColor());
    }
    if (shared) {   // two pixels: a shared block reads as one at a glance
        p.setPen(sharedBorderColor(block));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        p.drawRect(r.adjusted(1, 1, -2, -2));
    } else {
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
    if (number) {
        p.setPen(filled >= 0.5 ? readableTextOn(fill) : palette().color(QPalette::Text));
        drawRecordedText(p, r, Qt::AlignCenter, text, &textRects_);
    }
}

void KvBlockTableView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    textRects_.clear();
    const Layout& l = layout();
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const int line = lineHeight(fm);
    auto headingAt = [&](const QRect& r, const QString& text) {
        p.setFont(headingFont());
        p.setPen(pal.color(QPalette::WindowText));
        drawRecordedText(p, r, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text, &textRects_);
        p.setFont(font());
    };
    auto labelAt = [&](const QRect& r, const QString& text) {
        p.setPen(pal.color(QPalette::WindowText));
        drawRecordedText(p, r, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(text, Qt::ElideRight, r.width()), &textRects_);
    };
    auto outlineHovered = [&](const QRect& r, int block) {
        if (block != hovered_) return;
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.drawRect(r.adjusted(-1, -1, 0, 0));
    };

    headingAt(l.tableHeading, tableHeadingText());
    for (const LegendItem& item : l.legend) {
        switch (item.kind) {
        case Swatch::Used: p.fillRect(item.swatch, usedColor()); break;
        case Swatch::Shared: {
            // Three blocks' hues side by side: the colour names the block, it is not a state.
            const QRect r = item.swatch;
            for (int i = 0; i < 3; ++i)
                p.fillRect(QRect(r.left() + i * r.width() / 3, r.top(), (i + 1) * r.width() / 3 - i * r.width() / 3, r.height()),
                           sharedColor(i));
            p.setPen(sharedBorderColor(0));
            p.drawRect(r.adjusted(0, 0, -1, -1));
            break;
        }
        case Swatch::Free: p.fillRect(item.swatch, freeColor()); break;
        case Swatch::Unfilled: paintUnfilled(p, item.swatch); break;
        }
        if (item.kind != Swatch::Shared) {
            p.setPen(pal.color(QPalette::Mid));
            p.drawRect(item.swatch.adjusted(0, 0, -1, -1));
        }
        if (item.text.height() > line) {
            p.setPen(pal.color(QPalette::WindowText));
            drawRecordedText(p, item.text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, item.label, &textRects_);
        } else {
            labelAt(item.text, item.label);
        }
    }
    for (size_t s = 0; s < l.table.size(); ++s) {
        const BlockTableSequence& seq = data_.sequences[s];
        labelAt(l.table[s].label, sequenceLabel(seq));
        for (size_t b = 0; b < l.table[s].cells.size(); ++b) {
            const double used = std::clamp(double(seq.positions - int64_t(b) * data_.blockSize), 0.0, double(data_.blockSize));
            paintBlock(p, l.table[s].cells[b], seq.blocks[b], used / double(data_.blockSize), true);
            outlineHovered(l.table[s].cells[b], seq.blocks[b]);
        }
    }
    headingAt(l.poolHeading, poolHeadingText());
    for (size_t b = 0; b < l.pool.size(); ++b) {
        const QRect& r = l.pool[b];
        const bool number = r.height() >= line && r.width() >= textWidth(fm, locale().toString(int(b))) + 2;
        if (data_.refCount[b] == 0) {
            p.fillRect(r, freeColor());
            p.setPen(pal.color(QPalette::Mid));
            p.drawRect(r.adjusted(0, 0, -1, -1));
            if (number) {
                p.setPen(pal.color(QPalette::PlaceholderText));
                drawRecordedText(p, r, Qt::AlignCenter, locale().toString(int(b)), &textRects_);
            }
        } else {
            paintBlock(p, r, int(b), 1.0, number);
        }
        outlineHovered(r, int(b));
    }
    if (l.contiguous.empty()) return;
    headingAt(l.contiguousHeading, contiguousHeadingText());
    for (size_t s = 0; s < l.contiguous.size(); ++s) {
        const BlockTableSequence& seq = data_.sequences[s];
        labelAt(l.contiguous[s].label, sequenceLabel(seq));
        const QRect bar = l.contiguous[s].cells.front();
        const int w = int(std::lround(bar.width() * double(seq.positions) / double(data_.contextLength)));
        p.fillRect(QRect(bar.left(), bar.top(), w, bar.height()), usedColor());
        paintUnfilled(p, QRect(bar.left() + w, bar.top(), bar.width() - w, bar.height()));
        p.setPen(pal.color(QPalette::Mid));
        p.drawRect(bar.adjusted(0, 0, -1, -1));
        // "40 of 4,096" at the bar's right end, on a plain patch over the hatching, where it fits.
        const QString text = tr("%1 of %2").arg(locale().toString(qlonglong(seq.positions)), locale().toString(qlonglong(data_.contextLength)));
        const int tw = textWidth(fm, text) + fm.averageCharWidth();
        if (bar.width() - w >= tw + 4 && bar.height() >= line) {
            const QRect patch(bar.right() - 1 - tw, bar.top() + 1, tw, bar.height() - 2);
            p.fillRect(patch, freeColor());
            p.setPen(pal.color(QPalette::Text));
            drawRecordedText(p, patch, Qt::AlignCenter, text, &textRects_);
        }
    }
}

// --- events ---------------------------------------------------------------------------------------

void KvBlockTableView::setHovered(int block) {
    if (block == hovered_) return;
    hovered_ = block;
    update();
    emit blockHovered(block);
}

bool KvBlockTableView::event(QEvent* e) {
    if (handleTooltipEvent(this, e, [this](QPoint pos) { return tooltipAt(pos); })) return true;
    return QWidget::event(e);
}

void KvBlockTableView::mouseMoveEvent(QMouseEvent* e) {
    setHovered(poolBlockAt(e->position().toPoint()).value_or(-1));
    QWidget::mouseMoveEvent(e);
}

void KvBlockTableView::leaveEvent(QEvent* e) {
    setHovered(-1);
    QWidget::leaveEvent(e);
}

void KvBlockTableView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) {
        layout_.reset();
        updateGeometry();
    }
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) update();
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
