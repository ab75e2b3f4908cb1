#include "widgets/kv_heatmap_view.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <utility>
#include <cmath>
#include <cstring>

#include "widgets/nice_ticks.h"
#include "widgets/recorded_text.h"

namespace dlab::widgets {

namespace {

// Pixel x of w covers cells [binLo, binHi) of n: floor(x·n/w) up to floor((x+1)·n/w), at least one.
// For n <= w that is one cell (several pixels share it); for n > w the bins partition the cells.
int binLo(int x, int n, int w) { return int(int64_t(x) * n / w); }
int binHi(int x, int n, int w) { return std::max(binLo(x, n, w) + 1, int(int64_t(x + 1) * n / w)); }
// The pixels [first, last] that show cell c (the inverse of the bins above); a binned cell that does
// not start its bin gets the one pixel of its bin.
std::pair<int, int> pixelsOf(int c, int n, int w) {
    const int last = int((int64_t(c + 1) * w - 1) / n);
    const int first = int((int64_t(c) * w + n - 1) / n);
    return {std::min(first, last), last};
}

bool greater(float v, float than) { return !std::isnan(v) && (std::isnan(than) || v > than); }

// Token text as the tooltip writes it: quoted, so edge spaces show, and line breaks as glyphs.
QString quotedToken(QString text) {
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\u21b5")).replace(u'\n', u'\u21b5').replace(u'\t', u'\u21e5');
    return QStringLiteral("\u201c%1\u201d").arg(text);
}

// text in lines of at most width pixels, broken between words; at most maxLines, each elided
// where its words still do not fit.
QStringList wrapped(const QFontMetrics& fm, const QString& text, int width, int maxLines) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(u' ', Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + u' ' + word;
        if (line.isEmpty() || textWidth(fm, longer) <= width || int(lines.size()) == maxLines - 1) line = longer;
        else lines << std::exchange(line, word);
    }
    if (!line.isEmpty() || lines.isEmpty()) lines << line;
    for (QString& l : lines) l = fm.elidedText(l, Qt::ElideRight, width);   // a word wider than the legend
    return lines;
}

int marginFor(const QFontMetrics& fm) { return std::max(2, lineHeight(fm) / 4); }
int tickLength(const QFontMetrics& fm) { return std::max(3, lineHeight(fm) / 4); }

}  // namespace

KvHeatmapView::KvHeatmapView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);  // hover and tooltips without a pressed button
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    placeholder_ = tr("Nothing to show yet.");
    rebuildColours();
}

// --- content ------------------------------------------------------------------------------------

void KvHeatmapView::setGrid(HeatmapGrid grid) {
    validateHeatmapGrid(grid);   // throws before anything changes
    grid_ = std::move(grid);
    const HeatmapRange range = colourRange(grid_);
    scale_ = std::isnan(range.lo) ? HeatScale() : HeatScale(range.lo, range.hi, grid_.scale == HeatmapGrid::Scale::Log);
    rowLabelWidth_ = -1;
    hovered_.reset();
    rebuildColours();
    invalidateLayout();
    updateGeometry();
    update();
}

void KvHeatmapView::clear() { setGrid({}); }

void KvHeatmapView::setPlaceholderText(const QString& text) {
    placeholder_ = text;
    if (grid_.isEmpty()) update();
}

void KvHeatmapView::setTooltipProvider(std::function<QString(int, int)> provider) { provider_ = std::move(provider); }

void KvHeatmapView::rebuildColours() {
    const QPalette& pal = palette();
    ramp_.resize(256);
    for (int i = 0; i < 256; ++i) ramp_[size_t(i)] = heatRampColor(i / 255.0, pal).rgb();
    categories_.clear();
    for (int i = 0; i < grid_.categories.size(); ++i)
        categories_.push_back((grid_.categoryColors.empty() ? defaultCategoryColor(i) : grid_.categoryColors[size_t(i)]).rgb());
    base_ = pal.color(QPalette::Base).rgb();
    imageValid_ = false;
}

QColor KvHeatmapView::colorFor(float v) const {
    if (std::isnan(v)) return QColor::fromRgb(base_);
    if (grid_.isCategorical()) {
        const int i = std::clamp(int(v), 0, int(categories_.size()) - 1);
        return categories_.empty() ? QColor::fromRgb(base_) : QColor::fromRgb(categories_[size_t(i)]);
    }
    return QColor::fromRgb(ramp_[size_t(std::lround(scale_.position(v) * 255.0))]);
}

QString KvHeatmapView::formatValue(double v) const {
    if (std::isnan(v)) return tr("no data");
    const QLocale loc = locale();
    if (grid_.unit == QLatin1String("B")) return loc.formattedDataSize(qint64(std::llround(v)), 1, QLocale::DataSizeIecFormat);
    // Three significant digits ("25", "12.5", "0.707"); whole numbers from 1,000 up.
    const QString n = std::abs(v) >= 1000 ? loc.toString(qlonglong(std::llround(v))) : loc.toString(v, 'g', 3);
    if (grid_.unit.isEmpty()) return n;
    return tr("%1 %2", "value and unit").arg(n, grid_.unit);
}

// --- layout -------------------------------------------------------------------------------------

void KvHeatmapView::invalidateLayout() {
    layout_.reset();
    update();
}

QString KvHeatmapView::legendTitle() const {
    QStringList lines;
    if (!grid_.quantity.isEmpty()) lines << grid_.quantity;
    if (!grid_.isCategorical() && grid_.scale == HeatmapGrid::Scale::Log) lines << tr("log scale");
    return lines.join(u'\n');
}

QStringList KvHeatmapView::legendValueTexts() const {
    return {formatValue(scale_.valueAt(1.0)), formatValue(scale_.valueAt(0.5)), formatValue(scale_.valueAt(0.0))};
}

int KvHeatmapView::legendWidth(int available) const {
    const QFontMetrics fm = fontMetrics();
    const int gap = fm.averageCharWidth();
    int need = 0;
    if (grid_.isCategorical()) {
        for (const QString& name : grid_.categories) need = std::max(need, textWidth(fm, name));
        need += lineHeight(fm) + gap;  // the swatch and its gap
    } else {
        for (const QString& t : legendValueTexts()) need = std::max(need, textWidth(fm, t));
        need += std::max(6, gap * 3 / 2) + gap;  // the ramp bar and its gap
    }
    int title = 0;
    for (const QString& line : legendTitle().split(u'\n')) title = std::max(title, textWidth(fm, line));
    return std::min(available, std::max(need, title));
}

const KvHeatmapView::Layout& KvHeatmapView::layout() const {
    if (layout_) return *layout_;
    Layout l;
    const QFontMetrics fm = fontMetrics();
    const int m = marginFor(fm);
    l.gap = fm.averageCharWidth();
    if (rowLabelWidth_ < 0) {
        int w = 0;
        for (const QString& label : grid_.rowLabels) w = std::max(w, textWidth(fm, label));
        rowLabelWidth_ = w;
    }
    // The axis caption ("position") goes under the labels only where it fits: it never widens them.
    const int labelW = std::min(rowLabelWidth_, width() / 4);
    const int legendW = legendWidth(width() / 4);
    const int axisH = tickLength(fm) + lineHeight(fm);
    const int left = m + labelW + l.gap, right = width() - m - legendW - l.gap * 3 / 2;
    const int bottom = height() - m - axisH;
    if (!grid_.isEmpty() && right > left && bottom > m) l.cells = QRect(QPoint(left, m), QPoint(right - 1, bottom - 1));
    l.labels = QRect(m, m, labelW, std::max(0, bottom - m));
    l.legend = QRect(width() - m - legendW, m, legendW, std::max(0, height() - 2 * m));
    l.axisTop = bottom;
    layout_ = l;
    return *layout_;
}

KvHeatmapView::Bins KvHeatmapView::bins() const {
    const QRect& c = layout().cells;
    Bins b;
    b.dpr = devicePixelRatioF();
    if (c.isEmpty()) return b;
    b.w = std::max(1, int(std::lround(c.width() * b.dpr)));
    b.h = std::max(1, int(std::lround(c.height() * b.dpr)));
    return b;
}

QRect KvHeatmapView::cellArea() const { return layout().cells; }

QSize KvHeatmapView::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const int body = std::clamp(grid_.rows * 6, 8 * lineHeight(fm), 20 * lineHeight(fm));
    return {fm.averageCharWidth() * 100, body + tickLength(fm) + lineHeight(fm) + 2 * marginFor(fm)};
}

QSize KvHeatmapView::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const int titleLines = legendTitle().isEmpty() ? 0 : int(legendTitle().count(u'\n')) + 1;
    // The legend's title, then a ramp with its top and bottom labels; below, the axis.
    const int h = (titleLines + 2) * lineHeight(fm) + tickLength(fm) + lineHeight(fm) + 2 * marginFor(fm);
    return {fm.averageCharWidth() * 30, h};
}

// --- hit-testing --------------------------------------------------------------------------------

std::optional<QPoint> KvHeatmapView::cellAt(QPoint pos) const {
    const QRect& c = layout().cells;
    if (grid_.isEmpty() || !c.contains(pos)) return std::nullopt;
    const Bins b = bins();
    const int x = std::clamp(int((pos.x() - c.left()) * b.dpr), 0, b.w - 1);
    const int y = std::clamp(int((pos.y() - c.top()) * b.dpr), 0, b.h - 1);
    const int c0 = binLo(x, grid_.cols, b.w), c1 = binHi(x, grid_.cols, b.w);
    const int r0 = binLo(y, grid_.rows, b.h), r1 = binHi(y, grid_.rows, b.h);
    QPoint best(c0, r0);
    float top = std::nanf("");
    for (int r = r0; r < r1; ++r)
        for (int col = c0; col < c1; ++col)
            if (greater(grid_.at(r, col), top)) {
                top = grid_.at(r, col);
                best = QPoint(col, r);
            }
    return best;
}

std::pair<int, int> KvHeatmapView::columnsAtX(int x) const {
    const QRect& c = layout().cells;
    if (grid_.isEmpty() || x < c.left() || x > c.right()) return {-1, -1};
    const Bins b = bins();
    const int px = std::clamp(int((x - c.left()) * b.dpr), 0, b.w - 1);
    return {binLo(px, grid_.cols, b.w), binHi(px, grid_.cols, b.w) - 1};
}

QRect KvHeatmapView::cellRect(int row, int col) const {
    const QRect& c = layout().cells;
    if (c.isEmpty() || row < 0 || row >= grid_.rows || col < 0 || col >= grid_.cols) return {};
    const Bins b = bins();
    const auto [x0, x1] = pixelsOf(col, grid_.cols, b.w);
    const auto [y0, y1] = pixelsOf(row, grid_.rows, b.h);
    auto logical = [&](int device) { return int(std::floor(device / b.dpr)); };
    return QRect(QPoint(c.left() + logical(x0), c.top() + logical(y0)),
                 QPoint(c.left() + int(std::ceil((x1 + 1) / b.dpr)) - 1, c.top() + int(std::ceil((y1 + 1) / b.dpr)) - 1));
}

QString KvHeatmapView::tooltipText(int row, int col) const {
    if (row < 0 || row >= grid_.rows || col < 0 || col >= grid_.cols) return {};
    QStringList lines;
    lines << (grid_.rowLabels.isEmpty() ? tr("row %1").arg(row) : grid_.rowLabels[row]);
    const int cpl = grid_.colsPerLabel;
    QString where = cpl == 1 ? tr("position %1").arg(col)
                             : tr("positions %1\u2013%2").arg(qlonglong(col) * cpl).arg(qlonglong(col) * cpl + cpl - 1);
    if (!grid_.colLabels.isEmpty()) where = tr("%1 \u00b7 %2", "position and token").arg(where, quotedToken(grid_.colLabels[col]));
    lines << where;
    const float v = grid_.at(row, col);
    const QString value = std::isnan(v) ? tr("no data") : grid_.isCategorical() ? grid_.categories[int(v)] : formatValue(v);
    lines << (grid_.quantity.isEmpty() ? value : tr("%1: %2", "quantity: value").arg(grid_.quantity, value));
    if (provider_) {
        const QString extra = provider_(row, col);
        if (!extra.isEmpty()) lines << extra;
    }
    return lines.join(u'\n');
}

// --- the cell image -----------------------------------------------------------------------------

void KvHeatmapView::ensureImage() {
    const Bins b = bins();
    if (imageValid_ && image_.width() == b.w && image_.height() == b.h && image_.devicePixelRatio() == b.dpr) return;
    ++imageBuilds_;
    imageValid_ = true;
    if (b.w <= 0 || b.h <= 0) {
        image_ = QImage();
        return;
    }
    image_ = QImage(b.w, b.h, QImage::Format_RGB32);
    image_.setDevicePixelRatio(b.dpr);
    const int cols = grid_.cols, rows = grid_.rows;
    std::vector<int> lo(size_t(b.w)), hi(size_t(b.w));
    for (int x = 0; x < b.w; ++x) {
        lo[size_t(x)] = binLo(x, cols, b.w);
        hi[size_t(x)] = binHi(x, cols, b.w);
    }
    const bool categorical = grid_.isCategorical();
    auto rgb = [&](float v) -> QRgb {
        if (std::isnan(v)) return base_;
        if (categorical) return categories_[size_t(v)];
        return ramp_[size_t(std::lround(scale_.position(v) * 255.0))];
    };
    // Pixel rows that show the same cell rows (a 30-row grid 300 px high: ten each) copy the line.
    int prevLo = -1, prevHi = -1;
    for (int y = 0; y < b.h; ++y) {
        auto* out = reinterpret_cast<QRgb*>(image_.scanLine(y));
        const int r0 = binLo(y, rows, b.h), r1 = binHi(y, rows, b.h);
        if (r0 == prevLo && r1 == prevHi) {
            std::memcpy(out, image_.constScanLine(y - 1), size_t(b.w) * sizeof(QRgb));
            continue;
        }
        prevLo = r0;
        prevHi = r1;
        for (int x = 0; x < b.w; ++x) {
            // MAX of the bin: the mapping is monotonic, so the brightest cell wins (NaN only if all are).
            float top = std::nanf("");
            for (int r = r0; r < r1; ++r) {
                const float* row = grid_.values.data() + size_t(r) * size_t(cols);
                for (int c = lo[size_t(x)]; c < hi[size_t(x)]; ++c)
                    if (greater(row[c], top)) top = row[c];
            }
            out[x] = rgb(top);
        }
    }
}

// --- painting -----------------------------------------------------------------------------------

void KvHeatmapView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    textRects_.clear();
    legendLines_.clear();
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    if (grid_.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        const int m = marginFor(fm);
        drawRecordedText(p, rect().adjusted(m, m, -m, -m), Qt::AlignCenter | Qt::TextWordWrap, placeholder_, &textRects_);
        return;
    }
    const Layout& l = layout();
    if (!l.cells.isEmpty()) {
        ensureImage();
        p.drawImage(l.cells.topLeft(), image_);
        p.setPen(pal.color(QPalette::Mid));
        p.drawRect(l.cells.adjusted(-1, -1, 0, 0));  // a frame just outside the cells
        // Group separators: a gap across the cells where rows are tall enough to spare a pixel,
        // and always a tick in the gutter.
        const Bins b = bins();
        const bool gaps = b.h >= 3 * grid_.rows;
        for (int g : grid_.groupStarts) {
            if (g <= 0) continue;
            const int y = cellRect(g, 0).top();
            if (gaps) p.fillRect(QRect(l.cells.left(), y, l.cells.width(), 1), pal.color(QPalette::Window));
            p.fillRect(QRect(l.cells.left() - l.gap, y, l.gap - 2, 1), pal.color(QPalette::Mid));
        }
        if (hovered_) {
            p.setPen(pal.color(QPalette::Highlight));
            p.drawRect(cellRect(hovered_->y(), hovered_->x()).adjusted(-1, -1, 0, 0));
        }
    }
    p.setPen(pal.color(QPalette::WindowText));
    paintRowLabels(p, l);
    paintAxis(p, l);
    paintLegend(p, l);
}

void KvHeatmapView::paintRowLabels(QPainter& p, const Layout& l) {
    if (grid_.rowLabels.isEmpty() || l.cells.isEmpty()) return;
    const QFontMetrics fm = fontMetrics();
    const int h = lineHeight(fm);
    const int lowest = l.axisTop + tickLength(fm) - 1;   // the axis caption's row starts below
    std::vector<char> taken(size_t(std::max(1, height())), 0);
    auto boxFor = [&](int row) {
        const QRect cell = cellRect(row, 0);
        // One pixel of slack above and below: a line's landed rectangle can be a pixel taller than height().
        QRect box(l.labels.left(), (cell.top() + cell.bottom() + 1) / 2 - h / 2 - 1, l.labels.width(), h + 2);
        if (box.top() < 0) box.moveTop(0);
        if (box.bottom() > lowest) box.moveBottom(lowest);
        return box;
    };
    auto place = [&](int row) {
        const QRect box = boxFor(row);
        for (int y = std::max(0, box.top()); y <= std::min(height() - 1, box.bottom()); ++y)
            if (taken[size_t(y)]) return;
        for (int y = std::max(0, box.top()); y <= std::min(height() - 1, box.bottom()); ++y) taken[size_t(y)] = 1;
        drawRecordedText(p, box, Qt::AlignRight | Qt::AlignVCenter,
                         fm.elidedText(grid_.rowLabels[row], Qt::ElideRight, l.labels.width()), &textRects_);
    };
    // Evenly spaced, never overlapping: every group's first row (they name the layer) where the
    // groups are a line apart, else every k-th group's; the rows in between only where all groups
    // kept their label, every k-th row where rows are lower than a line.
    // A box is h + 2 high and its centre rounds by a pixel; the first row's box can be pushed down
    // by the widget's top edge (the growth view's "step 0"), which the next label must clear too,
    // or it is dropped and the spacing breaks (de and zh lost "step 6").
    const QRect first = boxFor(0);
    const int pushedDown = std::max(0, first.center().y() - cellRect(0, 0).center().y());
    const int pitchNeeded = h + 3 + pushedDown;
    std::vector<int> firsts = grid_.groupStarts;
    std::sort(firsts.begin(), firsts.end());
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    if (firsts.empty() || firsts.front() != 0) firsts.insert(firsts.begin(), 0);
    const double groupPitch = double(l.cells.height()) / double(firsts.size());
    const size_t groupStride = size_t(std::max(1.0, std::ceil(pitchNeeded / std::max(groupPitch, 1e-9))));
    for (size_t i = 0; i < firsts.size(); i += groupStride) place(firsts[i]);
    if (groupStride > 1) return;
    const double rowPitch = double(l.cells.height()) / double(grid_.rows);
    const int stride = int(std::max(1.0, std::ceil(pitchNeeded / std::max(rowPitch, 1e-9))));
    for (size_t i = 0; i < firsts.size(); ++i) {
        const int end = i + 1 < firsts.size() ? firsts[i + 1] : grid_.rows;
        for (int r = firsts[i] + stride; r < end; r += stride) place(r);
    }
}

void KvHeatmapView::paintAxis(QPainter& p, const Layout& l) {
    if (l.cells.isEmpty()) return;
    const QFontMetrics fm = fontMetrics();
    const int tick = tickLength(fm), textTop = l.axisTop + tick;
    const int64_t positions = int64_t(grid_.cols) * grid_.colsPerLabel;
    const QLocale loc = locale();
    const int widest = textWidth(fm, loc.toString(qlonglong(positions - 1)));
    const int maxTicks = std::max(1, l.cells.width() / (widest + 2 * l.gap));
    const QColor tickColour = palette().color(QPalette::Mid);
    int lastRight = l.cells.left() - l.gap;
    for (int64_t pos : niceTicks(positions, maxTicks)) {
        const int x = l.cells.left() + int((double(pos) + 0.5) * l.cells.width() / double(positions));
        const QString text = loc.toString(qlonglong(pos));
        const int w = textWidth(fm, text);
        QRect box(x - w / 2, textTop, w, lineHeight(fm));
        if (box.left() < l.cells.left()) box.moveLeft(l.cells.left());
        if (box.right() > l.cells.right()) box.moveRight(l.cells.right());
        p.fillRect(QRect(x, l.axisTop, 1, tick), tickColour);
        if (box.left() < lastRight + l.gap) continue;
        drawRecordedText(p, box, Qt::AlignLeft | Qt::AlignTop, text, &textRects_);
        lastRight = box.right();
    }
    const QRect caption(l.labels.left(), textTop, l.labels.width(), lineHeight(fm));
    if (textWidth(fm, tr("position")) <= caption.width())
        drawRecordedText(p, caption, Qt::AlignRight | Qt::AlignTop, tr("position"), &textRects_);
}

void KvHeatmapView::paintLegend(QPainter& p, const Layout& l) {
    if (l.legend.width() <= 0) return;
    const QFontMetrics fm = fontMetrics();
    const int h = lineHeight(fm);
    int y = l.legend.top();
    // The title on a second line where the legend is narrower than it ("K/V-Zeilen mit" / "Cache").
    for (const QString& titleLine : legendTitle().split(u'\n', Qt::SkipEmptyParts))
        for (const QString& line : wrapped(fm, titleLine, l.legend.width(), 2)) {
            drawRecordedText(p, QRect(l.legend.left(), y, l.legend.width(), h), Qt::AlignLeft | Qt::AlignTop, line, &textRects_);
            legendLines_ << line;
            y += h;
        }
    const int bottomLimit = height() - marginFor(fm);
    if (grid_.isCategorical()) {
        // A name too long for the legend's width takes more lines ("reused from the" / "cache";
        // beside the Lessons panel "reused" / "from the" / "cache").
        const int swatch = std::max(6, h - 4);
        const int n = int(grid_.categories.size());
        const int textLeft = l.legend.left() + swatch + l.gap, textW = l.legend.right() + 1 - textLeft;
        std::vector<QStringList> names;
        for (const QString& c : grid_.categories) names.push_back(wrapped(fm, c, textW, 3));
        int shown = 0, fit = 0;
        for (int i = 0, at = y; i < n; ++i) {
            at += int(names[size_t(i)].size()) * h + 2;
            if (at > bottomLimit) break;
            fit = i + 1;
        }
        shown = fit >= n ? n : std::max(0, fit - 1);
        for (int i = 0; i < shown; ++i) {
            const QRect sw(l.legend.left(), y + 2 + (h - swatch) / 2, swatch, swatch);
            p.fillRect(sw, QColor::fromRgb(categories_[size_t(i)]));
            p.setPen(palette().color(QPalette::Mid));
            p.drawRect(sw.adjusted(0, 0, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
            for (const QString& line : names[size_t(i)]) {
                drawRecordedText(p, QRect(textLeft, y + 2, textW, h), Qt::AlignLeft | Qt::AlignVCenter, line, &textRects_);
                legendLines_ << line;
                y += h;
            }
            y += 2;
        }
        if (shown < n && fit > 0)
            drawRecordedText(p, QRect(l.legend.left(), y + 2, l.legend.width(), h), Qt::AlignLeft | Qt::AlignVCenter,
                             fm.elidedText(tr("+%1 more").arg(n - shown), Qt::ElideRight, l.legend.width()), &textRects_);
        return;
    }
    if (l.cells.isEmpty()) return;
    // The ramp, top = the maximum, drawn from the same 256 colours as the cells.
    const int barW = std::max(6, l.gap * 3 / 2);
    int top = y + h / 2 + 2;
    const int bottom = l.cells.bottom();
    if (bottom - top + 1 < h) top = bottom - h + 1;
    if (bottom < top) return;
    const QRect bar(l.legend.left(), top, barW, bottom - top + 1);
    QImage ramp(1, bar.height(), QImage::Format_RGB32);
    for (int i = 0; i < bar.height(); ++i)
        ramp.setPixel(0, i, ramp_[size_t(std::lround(255.0 * (bar.height() - 1 - i) / std::max(1, bar.height() - 1)))]);
    p.drawImage(bar, ramp);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(bar.adjusted(-1, -1, 0, 0));
    p.setPen(palette().color(QPalette::WindowText));
    const QStringList texts = legendValueTexts();
    const int textLeft = bar.right() + 1 + l.gap, textW = l.legend.right() - textLeft + 1;
    auto label = [&](int centre, const QString& text) {
        QRect box(textLeft, centre - h / 2, textW, h);
        if (box.bottom() > bottomLimit) box.moveBottom(bottomLimit);
        drawRecordedText(p, box, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(text, Qt::ElideRight, textW), &textRects_);
    };
    label(bar.top(), texts[0]);
    if (bar.height() >= 3 * h) label((bar.top() + bar.bottom()) / 2, texts[1]);  // the log scale's midpoint is telling
    if (bar.height() >= h) label(bar.bottom(), texts[2]);
}

// --- events -------------------------------------------------------------------------------------

void KvHeatmapView::setHovered(std::optional<QPoint> cell) {
    if (cell == hovered_) return;
    if (hovered_) update(cellRect(hovered_->y(), hovered_->x()).adjusted(-2, -2, 2, 2));
    hovered_ = cell;
    if (hovered_) update(cellRect(hovered_->y(), hovered_->x()).adjusted(-2, -2, 2, 2));
    emit cellHovered(cell ? cell->y() : -1, cell ? cell->x() : -1);
}

bool KvHeatmapView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto cell = cellAt(help->pos())) {
            QString text = tooltipText(cell->y(), cell->x());
            const auto [a, b] = columnsAtX(help->pos().x());
            const qlonglong cpl = grid_.colsPerLabel;
            if (b > a)
                text += u'\n' + tr("This pixel covers positions %1\u2013%2 and shows their largest value.").arg(a * cpl).arg((b + 1) * cpl - 1);
            QToolTip::showText(help->globalPos(), text, this, cellRect(cell->y(), cell->x()));
        } else if (layout().legend.contains(help->pos()) && !grid_.isEmpty() && !grid_.isCategorical()) {
            QToolTip::showText(help->globalPos(),
                               tr("%1 from %2 (pale) to %3 (strongest)")
                                   .arg(legendTitle().replace(u'\n', QStringLiteral(", ")), legendValueTexts()[2], legendValueTexts()[0]),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

void KvHeatmapView::mouseMoveEvent(QMouseEvent* e) {
    setHovered(cellAt(e->position().toPoint()));
    QWidget::mouseMoveEvent(e);
}

void KvHeatmapView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton)
        if (const auto cell = cellAt(e->position().toPoint())) {
            emit cellClicked(cell->y(), cell->x());
            e->accept();
            return;
        }
    QWidget::mousePressEvent(e);
}

void KvHeatmapView::leaveEvent(QEvent* e) {
    setHovered(std::nullopt);
    QWidget::leaveEvent(e);
}

void KvHeatmapView::resizeEvent(QResizeEvent* e) {
    invalidateLayout();   // the image follows in ensureImage() when the cell area's size changed
    QWidget::resizeEvent(e);
}

void KvHeatmapView::changeEvent(QEvent* e) {
    switch (e->type()) {
    case QEvent::PaletteChange:
        rebuildColours();
        update();
        break;
    case QEvent::FontChange:
        rowLabelWidth_ = -1;
        invalidateLayout();
        updateGeometry();
        break;
    case QEvent::LanguageChange:
        invalidateLayout();   // "position", "log scale" change width
        break;
    default:
        break;
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
