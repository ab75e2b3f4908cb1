#include "widgets/memory_bars_view.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "widgets/palette_colors.h"
#include "widgets/tooltip_event.h"
#include "widgets/recorded_text.h"

namespace dlab::widgets {

namespace {

int marginFor(const QFontMetrics& fm) { return std::max(2, lineHeight(fm) / 4); }
int barHeight(const QFontMetrics& fm) { return lineHeight(fm) + 6; }
int rowPitch(const QFontMetrics& fm) { return barHeight(fm) + lineHeight(fm) / 2; }
constexpr int kMinSegment = 3;   // px: the narrowest a non-empty segment is drawn

}  // namespace

MemoryBarsView::MemoryBarsView(QWidget* parent) : QWidget(parent) {
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void MemoryBarsView::setBars(std::vector<MemoryBar> bars) {
    for (const MemoryBar& b : bars)
        for (const auto& [what, v] : {std::pair{"capacity", b.capacityBytes}, std::pair{"weights", b.weightsBytes}, std::pair{"KV cache", b.kvBytes}})
            if (!std::isfinite(v) || v < 0)
                throw std::invalid_argument("memory bar '" + b.label.toStdString() + "': the " + what + " size " + std::to_string(v) +
                                            " is not a byte count (give a finite number, 0 or more)");
    bars_ = std::move(bars);
    layout_.reset();
    updateGeometry();
    update();
}

QColor MemoryBarsView::weightsColor() const { return mix(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.40); }
QColor MemoryBarsView::kvColor() const { return probabilityAccent(palette()); }
QColor MemoryBarsView::overflowColor() const { return hasDarkBase(palette()) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28); }

QString MemoryBarsView::gigabytes(double bytes) const {
    const double gib = bytes / double(1LL << 30);
    const int decimals = gib >= 10 ? 0 : gib >= 1 ? 1 : 2;
    return tr("%1 GiB").arg(locale().toString(gib, 'f', decimals));
}

// --- layout ---------------------------------------------------------------------------------------

int MemoryBarsView::legendBottom(int width, std::vector<LegendItem>* items) const {
    const QFontMetrics fm = fontMetrics();
    const int h = lineHeight(fm), m = marginFor(fm), gap = fm.averageCharWidth(), swatch = std::max(6, h - 4);
    int x = m, y = m;
    const QStringList labels{tr("memory"), tr("weights"), tr("KV cache"), tr("over capacity")};
    for (int kind = 0; kind < labels.size(); ++kind) {
        const int w = swatch + gap / 2 + textWidth(fm, labels[kind]);
        if (x > m && x + w > width - m) {
            x = m;
            y += h + 2;
        }
        if (items) items->push_back({QRect(x, y + (h - swatch) / 2, swatch, swatch), QRect(x + swatch + gap / 2, y, w - swatch - gap / 2, h), kind, labels[kind]});
        x += w + 2 * gap;
    }
    return y + h + h / 2;
}

const MemoryBarsView::Layout& MemoryBarsView::layout() const {
    if (layout_ && layout_->size == size()) return *layout_;
    Layout l;
    l.size = size();
    const QFontMetrics fm = fontMetrics();
    const int W = width(), m = marginFor(fm), gap = fm.averageCharWidth();
    int y = legendBottom(W, &l.legend);
    int labelW = 0, noteW = 0;
    double scaleMax = 0;
    for (const MemoryBar& b : bars_) {
        labelW = std::max(labelW, textWidth(fm, b.label));
        noteW = std::max(noteW, textWidth(fm, b.note));
        scaleMax = std::max({scaleMax, b.capacityBytes, b.weightsBytes + b.kvBytes});
    }
    labelW = std::min(labelW, W / 5);
    // The note whole where it can be ("5 passen (nur KV: 11) · 62 % belegt" beside the Lessons
    // panel at 1024 px): up to 45 % of the width; the bars share one scale in what is left.
    noteW = std::min(noteW, W * 45 / 100);
    const int x0 = m + labelW + gap, x1 = W - m - (noteW > 0 ? noteW + gap : 0);
    const double k = scaleMax > 0 ? std::max(0, x1 - x0) / scaleMax : 0.0;
    auto px = [&](double bytes) { return int(std::lround(bytes * k)); };
    const int bh = barHeight(fm);
    for (const MemoryBar& b : bars_) {
        BarGeometry g;
        g.label = QRect(m, y, labelW, bh);
        g.note = QRect(x1 + gap, y, noteW, bh);
        g.capacity = QRect(x0, y, std::max(1, px(b.capacityBytes)), bh);
        // Segments sit inside the outline's one-pixel line; what exceeds the capacity goes past it.
        // A segment is at least kMinSegment wide, so a small model's weights and cache stay visible
        // beside 141 GiB (its note gives the share).
        const int inner = y + 1, innerH = bh - 2;
        const int cap = g.capacity.width() - 1;
        const int wEnd = b.weightsBytes > 0 ? std::min(std::max(px(b.weightsBytes), 1 + kMinSegment), cap) : 1;
        // The cache keeps its own true length after the weights' (a widened weights segment moves it
        // right by at most kMinSegment px rather than shortening it).
        const int kvLength = std::max(kMinSegment, px(b.weightsBytes + b.kvBytes) - px(b.weightsBytes));
        const int kvEnd = b.kvBytes > 0 ? std::min(wEnd + kvLength, cap) : wEnd;
        if (b.weightsBytes > 0) g.weights = QRect(x0 + 1, inner, std::max(1, wEnd - 1), innerH);
        if (b.kvBytes > 0 && kvEnd > wEnd) g.kv = QRect(x0 + wEnd, inner, kvEnd - wEnd, innerH);
        if (b.weightsBytes + b.kvBytes > b.capacityBytes)
            g.overflow = QRect(x0 + g.capacity.width(), inner, std::max(1, px(b.weightsBytes + b.kvBytes) - g.capacity.width()), innerH);
        l.bars.push_back(g);
        y += rowPitch(fm);
    }
    layout_ = std::move(l);
    return *layout_;
}

MemoryBarsView::BarGeometry MemoryBarsView::barGeometry(int i) const {
    const Layout& l = layout();
    return i >= 0 && i < int(l.bars.size()) ? l.bars[size_t(i)] : BarGeometry();
}

int MemoryBarsView::heightForWidth(int width) const {
    const QFontMetrics fm = fontMetrics();
    return legendBottom(width, nullptr) + int(bars_.size()) * rowPitch(fm) + marginFor(fm);
}

QSize MemoryBarsView::sizeHint() const {
    const int w = fontMetrics().averageCharWidth() * 90;
    return {w, heightForWidth(w)};
}

QSize MemoryBarsView::minimumSizeHint() const {
    const int w = fontMetrics().averageCharWidth() * 36;
    return {w, heightForWidth(w)};
}

QString MemoryBarsView::tooltipAt(QPoint pos) const {
    const Layout& l = layout();
    for (size_t i = 0; i < l.bars.size(); ++i) {
        const BarGeometry& g = l.bars[i];
        const QRect row(0, g.capacity.top(), width(), g.capacity.height());
        if (!row.contains(pos)) continue;
        const MemoryBar& b = bars_[i];
        QStringList lines{tr("%1: capacity %2").arg(b.label, gigabytes(b.capacityBytes)),
                          tr("weights %1, KV cache %2").arg(gigabytes(b.weightsBytes), gigabytes(b.kvBytes))};
        if (!g.overflow.isNull()) lines << tr("Weights and KV cache together do not fit: the red part is over capacity.");
        if (!b.note.isEmpty()) lines << b.note;
        return lines.join(u'\n');
    }
    return {};
}

// --- painting -------------------------------------------------------------------------------------

void MemoryBarsView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    textRects_.clear();
    elided_.clear();
    const Layout& l = layout();
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const QColor outline = pal.color(QPalette::Text);
    auto text = [&](const QRect& r, int flags, const QString& s, const QColor& ink) {
        p.setPen(ink);
        const QString shown = fm.elidedText(s, Qt::ElideRight, r.width());
        if (shown != s) elided_ << s;
        drawRecordedText(p, r, flags, shown, &textRects_);
    };
    for (const LegendItem& item : l.legend) {
        const QColor fills[] = {pal.color(QPalette::Base), weightsColor(), kvColor(), overflowColor()};
        p.fillRect(item.swatch, fills[item.kind]);
        p.setPen(item.kind == 0 ? outline : pal.color(QPalette::Mid));
        p.drawRect(item.swatch.adjusted(0, 0, -1, -1));
        text(item.text, Qt::AlignLeft | Qt::AlignVCenter, item.label, pal.color(QPalette::WindowText));
    }
    // A segment's GiB inside it: "weights 0.27 GB", else "0.27 GB", else nothing (the tooltip has it).
    auto segmentText = [&](const QRect& r, const QString& name, double bytes, const QColor& fill) {
        for (const QString& s : {tr("%1 %2", "segment name and size").arg(name, gigabytes(bytes)), gigabytes(bytes)})
            if (textWidth(fm, s) + fm.averageCharWidth() <= r.width() && lineHeight(fm) <= r.height()) {
                p.setPen(readableTextOn(fill));
                drawRecordedText(p, r, Qt::AlignCenter, s, &textRects_);
                return;
            }
    };
    for (size_t i = 0; i < l.bars.size(); ++i) {
        const BarGeometry& g = l.bars[i];
        const MemoryBar& b = bars_[i];
        text(g.label, Qt::AlignLeft | Qt::AlignVCenter, b.label, pal.color(QPalette::WindowText));
        p.fillRect(g.capacity.adjusted(1, 1, -1, -1), pal.color(QPalette::Base));
        if (!g.weights.isNull()) p.fillRect(g.weights, weightsColor());
        if (!g.kv.isNull()) p.fillRect(g.kv, kvColor());
        if (!g.overflow.isNull()) p.fillRect(g.overflow, overflowColor());
        p.setPen(outline);
        p.drawRect(g.capacity.adjusted(0, 0, -1, -1));
        if (!g.weights.isNull()) segmentText(g.weights, tr("weights"), b.weightsBytes, weightsColor());
        if (!g.kv.isNull()) segmentText(g.kv, tr("KV"), b.kvBytes, kvColor());
        if (!g.overflow.isNull() && textWidth(fm, tr("over")) + fm.averageCharWidth() <= g.overflow.width()) {
            p.setPen(readableTextOn(overflowColor()));
            drawRecordedText(p, g.overflow, Qt::AlignCenter, tr("over"), &textRects_);
        }
        if (g.note.width() > 0) text(g.note, Qt::AlignLeft | Qt::AlignVCenter, b.note, pal.color(QPalette::WindowText));
    }
}

bool MemoryBarsView::event(QEvent* e) {
    if (handleTooltipEvent(this, e, [this](QPoint pos) { return tooltipAt(pos); })) return true;
    return QWidget::event(e);
}

void MemoryBarsView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) {
        layout_.reset();
        updateGeometry();
    }
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange) update();
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
