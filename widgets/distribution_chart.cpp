#include "widgets/distribution_chart.h"
#include "widgets/number_text.h"
#include "widgets/token_axis_labels.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetrics>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineF>
#include <QLineSeries>
#include <QCategoryAxis>
#include <QResizeEvent>
#include <QTextLayout>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLocale>
#include <QPainter>
#include <QValueAxis>
#include <QCursor>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace dlab::widgets {

namespace {

bool isDark(const QPalette& pal) { return pal.color(QPalette::Window).lightness() < 128; }

struct ChartColours {
    QColor before, after, beforeRemoved, afterRemoved;
    QColor cumulative;   // the line and the top-p marks: one colour, they belong together
    QColor topK;
    QColor minP;
    QColor labelBacking;  // roughly the theme's plot background, so labels read over line and bars
    QColor forbidden;     // a constraint's mark: hatching and the band under the bars
};

ChartColours coloursFor(const QPalette& pal) {
    if (isDark(pal))
        return {QColor(0x4f, 0x6d, 0x92), QColor(0x5d, 0xad, 0xe2), QColor(0x4a, 0x4a, 0x4a),
                QColor(0x6a, 0x6a, 0x6a), QColor(0xff, 0xa0, 0x40), QColor(0xc8, 0xa8, 0xff),
                QColor(0x7c, 0xd9, 0x8a), QColor(0x26, 0x28, 0x30, 220), QColor(0xff, 0x6b, 0x6b)};
    return {QColor(0x9c, 0xb8, 0xd9), QColor(0x1f, 0x5f, 0xa8), QColor(0xd0, 0xd0, 0xd0),
            QColor(0xa0, 0xa0, 0xa0), QColor(0xd9, 0x5f, 0x0e), QColor(0x6a, 0x3d, 0x9a),
            QColor(0x1b, 0x7f, 0x3b), QColor(0xff, 0xff, 0xff, 220), QColor(0xc0, 0x1c, 0x28)};
}

// Text Qt Charts (or a font fallback) shortened: it marks truncation with an ellipsis.
bool looksElided(const QString& text) {
    return text.contains(QChar(0x2026)) || text.contains(QLatin1String("..."));
}

constexpr double kLogFloorMin = 1e-8;

// Whether the polyline enters the rectangle (a vertex inside or a segment crossing an edge).
bool curveCrosses(const QPolygonF& curve, const QRectF& r) {
    for (int i = 0; i < curve.size(); ++i) {
        if (r.contains(curve[i])) return true;
        if (i == 0) continue;
        const QLineF seg(curve[i - 1], curve[i]);
        for (const QLineF& edge : {QLineF(r.topLeft(), r.topRight()), QLineF(r.bottomLeft(), r.bottomRight()),
                                   QLineF(r.topLeft(), r.bottomLeft()), QLineF(r.topRight(), r.bottomRight())})
            if (seg.intersects(edge, nullptr) == QLineF::BoundedIntersection) return true;
    }
    return false;
}

}  // namespace

// A marker's label on a backing box: the cumulative line's dots share the top-p colour and would
// swallow the text where they cross it.
class MarkerLabel : public QGraphicsSimpleTextItem {
public:
    using QGraphicsSimpleTextItem::QGraphicsSimpleTextItem;
    QColor backing;

    QRectF boundingRect() const override { return QGraphicsSimpleTextItem::boundingRect().adjusted(-2, -1, 2, 1); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override {
        painter->fillRect(boundingRect(), backing);
        QGraphicsSimpleTextItem::paint(painter, option, widget);
    }
};

// A bar a constraint forbade: its "before" bar hatched (p it had before the chain) and a solid
// band along the axis under the bar pair, visible even where p is too small for a bar.
class ForbiddenMark : public QGraphicsItem {
public:
    using QGraphicsItem::QGraphicsItem;
    QRectF bar, band;
    QColor colour;
    double lineScale = 1.0;

    QRectF boundingRect() const override { return bar.united(band).adjusted(-2, -2, 2, 2); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        painter->save();
        if (bar.height() >= 1.0) {
            painter->setPen(QPen(colour, 1.0 * lineScale));
            painter->setBrush(QBrush(colour, Qt::BDiagPattern));
            painter->drawRect(bar);
        }
        painter->fillRect(band, colour);
        painter->restore();
    }
    void setGeometry(const QRectF& b, const QRectF& under) {
        if (b == bar && under == band) return;
        prepareGeometryChange();
        bar = b;
        band = under;
    }
};

QLineSeries* DistributionChart::makeOverlaySeries() {
    auto* s = new QLineSeries;
    s->setPointsVisible(false);
    return s;
}

DistributionChart::DistributionChart(QWidget* parent) : QChartView(parent) {
    // The chart QChartView made for itself: replacing it with setChart() would orphan it (leak).
    QChart* chart = this->chart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    localizeChartNumbers(chart, locale());
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);   // no stale bars or labels (see LineChartView)

    beforeSet_ = new QBarSet(QString());
    afterSet_ = new QBarSet(QString());
    series_ = new QBarSeries;
    series_->append(beforeSet_);
    series_->append(afterSet_);
    series_->setBarWidth(0.8);  // 50 bars at 1024 px still get a few pixels each
    chart->addSeries(series_);
    connect(series_, &QBarSeries::hovered, this, [this](bool entered, int index, QBarSet*) { showBarToolTip(entered, index); });

    // The category axis places the bars; its categories are bar numbers and it draws no labels.
    // The tokens are drawn by tokenLabels_ in room reserved for exactly their length.
    axisX_ = new QBarCategoryAxis;
    axisX_->setLabelsVisible(false);
    axisY_ = new QValueAxis;
    axisY_->setRange(0.0, 1.0);
    axisY_->setLabelFormat("%.2f");
    logAxisY_ = new QCategoryAxis;
    logAxisY_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    logAxisY_->setVisible(false);
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    chart->addAxis(logAxisY_, Qt::AlignLeft);
    series_->attachAxis(axisX_);
    series_->attachAxis(axisY_);

    overlayX_ = new QValueAxis;
    overlayX_->setRange(-0.5, 0.5);
    overlayX_->setVisible(false);
    cumulativeAxis_ = new QValueAxis;
    cumulativeAxis_->setRange(0.0, 1.0);
    cumulativeAxis_->setLabelFormat("%.1f");
    cumulativeAxis_->setTickCount(6);           // 0, 0.2, ... 1: round labels at %.1f
    cumulativeAxis_->setGridLineVisible(false);  // one grid (the probability axis') is enough
    cumulativeAxis_->setVisible(false);
    chart->addAxis(overlayX_, Qt::AlignBottom);
    chart->addAxis(cumulativeAxis_, Qt::AlignRight);

    cumulative_ = makeOverlaySeries();
    topKMarker_ = makeOverlaySeries();
    topPMarker_ = makeOverlaySeries();
    topPLevelLine_ = makeOverlaySeries();
    minPMarker_ = makeOverlaySeries();
    // Markers with no points draw nothing; they stay "visible" because hiding a series re-shows
    // its legend entry when it comes back, and markers have no legend entry.
    for (QLineSeries* s : {cumulative_, topKMarker_, topPMarker_, topPLevelLine_, minPMarker_}) {
        chart->addSeries(s);
        s->attachAxis(overlayX_);
        s->attachAxis(cumulativeAxis_);
    }
    cumulative_->setVisible(false);
    cumulative_->setPointsVisible(true);
    // The constraint's legend entry: an area series with no points draws nothing but its marker.
    forbiddenLegend_ = new QAreaSeries(new QLineSeries(this));
    chart->addSeries(forbiddenLegend_);
    forbiddenLegend_->attachAxis(overlayX_);
    forbiddenLegend_->attachAxis(cumulativeAxis_);
    forbiddenLegend_->setVisible(false);

    // Tight margins: in a 200 px chart (the Playground at 1024 × 700) Qt Charts' defaults (20 px
    // each side, 9 px around the background) left the bars a quarter of the height.
    chart->setMargins(QMargins(8, 6, 8, 2));
    chart->layout()->setContentsMargins(4, 4, 4, 4);
    tokenLabels_ = std::make_unique<TokenAxisLabels>(chart);
    {
        qreal left, top, right, bottom;
        chart->legend()->getContentsMargins(&left, &top, &right, &bottom);
        legendBaseTop_ = top;
    }
    baseBottomMargin_ = chart->margins().bottom();
    topKLabel_ = new MarkerLabel(chart);
    topPLabel_ = new MarkerLabel(chart);
    minPLabel_ = new MarkerLabel(chart);
    // The caption (notes on cuts beyond the bars shown, stages that removed nothing) is a plain
    // text item in room reserved above the title, not part of the title: changing a chart title
    // re-lays out the whole chart (~4 ms per slider move).
    captionLabel_ = new MarkerLabel(chart);
    captionLabel_->setZValue(1e6);
    captionLabel_->hide();
    baseTopMargin_ = chart->margins().top();
    for (MarkerLabel* l : {topKLabel_, topPLabel_, minPLabel_}) {
        l->setZValue(1e6);  // above the series' items, whose z values Qt Charts picks
        l->hide();
    }
    // Labels live in chart coordinates, so they follow the plot area whenever the chart re-lays out.
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        fitCumulativeTicks();
        applyAxisTitles();
        fitTokenLabels();
        placeLabels();
    });

    setRenderHint(QPainter::Antialiasing);
    // Room for the caption, a plot of a few lines and the axis labels, from the font (a fixed
    // 260 px made the window taller than 700 px and left presentation mode no room).
    setMinimumHeight(fontMetrics().height() * 11);
    applyTheme();
    applyTexts();
}

DistributionChart::~DistributionChart() = default;

void DistributionChart::setLogScale(bool on) {
    if (on == log_) return;
    log_ = on;
    series_->detachAxis(on ? static_cast<QAbstractAxis*>(axisY_) : static_cast<QAbstractAxis*>(logAxisY_));
    series_->attachAxis(on ? static_cast<QAbstractAxis*>(logAxisY_) : static_cast<QAbstractAxis*>(axisY_));
    axisY_->setVisible(!on);
    logAxisY_->setVisible(on);
    const QList<DistributionBar> bars = bars_;
    const DistributionCutoffs cutoffs = cutoffs_;
    beforeSet_->remove(0, beforeSet_->count());  // values are transformed per scale: set them anew
    afterSet_->remove(0, afterSet_->count());
    setBars(bars, cutoffs);
}

void DistributionChart::setLineScale(double scale) {
    scale = std::clamp(scale, 0.5, 6.0);
    if (scale == lineScale_) return;
    lineScale_ = scale;
    applyPens();
    placeForbiddenMarks();
}

void DistributionChart::setBars(const QList<DistributionBar>& bars, const DistributionCutoffs& cutoffs) {
    bars_ = bars;
    cutoffs_ = cutoffs;
    double top = 0.0, smallest = 1.0;
    for (const auto& b : bars) {
        top = std::max({top, b.before, b.after});
        for (double p : {b.before, b.after})
            if (p > 0.0) smallest = std::min(smallest, p);
    }
    // Log scale: a floor at the power of ten below the smallest p shown; p = 0 (removed) sits on it.
    const double floor =
        std::max(kLogFloorMin, std::pow(10.0, std::floor(std::log10(std::max(smallest, kLogFloorMin)))));
    const auto value = [&](double p) { return log_ ? std::log10(std::max(p, floor) / floor) : p; };
    QList<qreal> before, after;
    for (const auto& b : bars) {
        before << value(b.before);
        after << value(b.after);
    }
    // The axis's categories are the bar numbers: a new step with as many bars as the last (and
    // every slider move) changes only the bar values and the token labels' texts, never the axis
    // (re-laying out category labels was the costly part of a chart update).
    QStringList categories;
    for (int i = 0; i < bars.size(); ++i) categories << QString::number(i + 1);
    QStringList tokens, tips;
    for (int i = 0; i < bars.size(); ++i) {
        tokens << bars[i].label;
        tips << barToolTip(i);
    }
    tokenLabels_->setLengthCap(labelCapPx());
    tokenLabels_->setTokens(tokens, tips);
    const bool sameTokens = categories == axisX_->categories() && beforeSet_->count() == before.size();
    if (sameTokens) {
        for (int i = 0; i < before.size(); ++i) {
            if (beforeSet_->at(i) != before[i]) beforeSet_->replace(i, before[i]);
            if (afterSet_->at(i) != after[i]) afterSet_->replace(i, after[i]);
        }
    } else {
        beforeSet_->remove(0, beforeSet_->count());
        afterSet_->remove(0, afterSet_->count());
        beforeSet_->append(before);
        afterSet_->append(after);
        // setCategories({}) appends nothing and signals nothing: the old labels would stay drawn.
        // Qt Charts also keeps the old label items of an emptied axis on screen: hide them.
        if (categories.isEmpty()) axisX_->clear();
        else axisX_->setCategories(categories);
        // ... and its grid lines and axis line where they were: with no bar there is nothing to mark.
        axisX_->setGridLineVisible(!categories.isEmpty());
        axisX_->setLineVisible(!categories.isEmpty());
    }
    QList<int> removed;
    for (int i = 0; i < bars.size(); ++i)
        if (bars[i].removed) removed << i;
    if (!sameTokens || removed != removed_) {
        beforeSet_->deselectAllBars();
        afterSet_->deselectAllBars();
        beforeSet_->selectBars(removed);
        afterSet_->selectBars(removed);
        removed_ = removed;
    }
    if (log_) {
        const int decades = int(std::lround(-std::log10(floor)));
        if (floor != logFloor_ || logAxisY_->count() != decades + 1) {
            logFloor_ = floor;
            for (const QString& label : logAxisY_->categoriesLabels()) logAxisY_->remove(label);
            for (int d = 0; d <= decades; ++d)
                logAxisY_->append(locale().toString(floor * std::pow(10.0, d), 'g', 1), d);
            logAxisY_->setRange(0.0, std::max(1, decades));
        }
    } else {
        // A few fixed scales: a new range re-lays out the axis and its labels, the costly part.
        double yMax = 1.0;
        for (double scale : {0.05, 0.1, 0.2, 0.3, 0.5, 0.75})
            if (top > 0.0 && top * 1.05 <= scale) { yMax = scale; break; }
        if (axisY_->max() != yMax || axisY_->min() != 0.0) {
            axisY_->setRange(0.0, yMax);
            // Round tick values for each scale (0.3 -> 0, 0.1, 0.2, 0.3; not 0.075 steps).
            // (0.1 in 6 ticks: 0.02 steps; in 5 they were 0.025, printed "0.03".)
            valueTicks_ = yMax == 0.05 || yMax == 0.1 ? 6 : yMax == 0.3 || yMax == 0.75 ? 4 : yMax == 0.5 ? 6 : 5;
            fitCumulativeTicks();
        }
    }
    updateCutoffs();
}

void DistributionChart::updateCutoffs() {
    const int n = int(bars_.size());
    const DistributionCutoffs& c = cutoffs_;
    // The category axis puts bar i's centre at i over -0.5 .. n - 0.5; match it exactly.
    overlayX_->setRange(-0.5, std::max(n, 1) - 0.5);

    QList<QPointF> points;
    for (int i = 0; i < std::min<int>(n, int(c.cumulative.size())); ++i)
        points << QPointF(i, std::clamp(c.cumulative[i], 0.0, 1.0));
    cumulative_->replace(points);
    cumulative_->setVisible(!points.isEmpty());
    cumulativeAxis_->setVisible(!points.isEmpty());

    // A marker sits between the last kept bar and the first cut one, and only where the stage
    // removed tokens: at T = 0 top-k is handed one token and keeps it, which is no cut at bar 1.
    // kept == n puts it on the right edge, kept > n is reported in the caption instead.
    QStringList notes;
    auto placeMarker = [&](QLineSeries* marker, bool active, bool cut, int kept, const QString& setting,
                           const QString& beyondNote) -> qreal {
        const bool inside = active && cut && kept >= 1 && kept <= n && n > 0;
        if (active && !cut && n > 0) notes << tr("%1 removed nothing").arg(setting);
        else if (active && kept > n && n > 0) notes << beyondNote;
        marker->replace(inside ? QList<QPointF>{{kept - 0.5, 0.0}, {kept - 0.5, 1.0}} : QList<QPointF>{});
        return inside ? kept - 0.5 : -1.0;
    };
    bool anyForbidden = false;
    for (const auto& b : bars_) anyForbidden = anyForbidden || b.forbidden;
    if (forbiddenLegend_->isVisible() != anyForbidden) forbiddenLegend_->setVisible(anyForbidden);
    topKX_ = placeMarker(topKMarker_, c.topK > 0 && c.topKKept >= 0, c.topKCut, c.topKKept,
                         tr("top-k = %1").arg(c.topK),
                         tr("top-k keeps %n tokens (beyond the %1 shown)", "", c.topKKept).arg(n));
    topPX_ = placeMarker(topPMarker_, c.topP < 1.0 && c.topPKept >= 0, c.topPCut, c.topPKept,
                         tr("top-p = %1").arg(locale().toString(c.topP, 'g', 3)),
                         tr("top-p keeps %n tokens (beyond the %1 shown)", "", c.topPKept).arg(n));
    minPX_ = placeMarker(minPMarker_, c.minP > 0.0 && c.minPKept >= 0, c.minPCut, c.minPKept,
                         tr("min-p = %1").arg(locale().toString(c.minP, 'g', 3)),
                         tr("min-p keeps %n tokens (beyond the %1 shown)", "", c.minPKept).arg(n));

    // The level only reads against the cumulative line: where the line crosses it, top-p cuts.
    const bool level = c.topP < 1.0 && !points.isEmpty();
    topPLevel_ = level ? c.topP : -1.0;
    topPLevelLine_->replace(level ? QList<QPointF>{{-0.5, c.topP}, {std::max(n, 1) - 0.5, c.topP}}
                                  : QList<QPointF>{});

    notes_ = notes;
    caption_ = notes.join(QStringLiteral("; "));
    fitTokenLabels();
    applyTexts();
    layoutCaption();
    reserveLabelRoom();
    placeLabels();
}

QList<QRectF> DistributionChart::markerLabelRects() const {
    QList<QRectF> rects;
    for (const MarkerLabel* l : {topKLabel_, topPLabel_, minPLabel_})
        if (l->isVisible()) rects << l->sceneBoundingRect();
    return rects;
}

QPolygonF DistributionChart::cumulativeLine() const {
    QPolygonF line;
    if (cumulative_->isVisible())
        for (const QPointF& pt : cumulative_->points()) line << chart()->mapToPosition(pt, cumulative_);
    return line;
}

QString DistributionChart::topKLabelText() const { return topKLabel_->isVisible() ? topKLabel_->text() : QString(); }
QString DistributionChart::topPLabelText() const { return topPLabel_->isVisible() ? topPLabel_->text() : QString(); }
QString DistributionChart::minPLabelText() const { return minPLabel_->isVisible() ? minPLabel_->text() : QString(); }

void DistributionChart::layoutCaption() {
    // The notes packed into lines no wider than the chart (each note whole, " · " between); a
    // note wider than the chart alone is broken into lines of its own. The lines reserved above
    // the title follow the count, which changes rarely (a relayout only then).
    QChart* chart = this->chart();
    const QFontMetrics fm(captionLabel_->font());
    const QMargins margins = chart->margins();
    const int width = std::max(40, int(chart->size().width()) - margins.left() - margins.right() - 8);
    ownElided_.clear();
    QStringList lines;
    const QString sep = QStringLiteral(" \u00b7 ");
    for (const QString& note : notes_) {
        if (fm.horizontalAdvance(note) > width) {
            // Wider than the chart (beside the Lessons panel at 1024 px): its own lines, broken
            // where the language breaks lines; only a single word wider than the chart is elided.
            QTextLayout layout(note, captionLabel_->font());
            layout.beginLayout();
            for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
                line.setLineWidth(width);
                QString part = note.mid(line.textStart(), line.textLength()).trimmed();
                if (fm.horizontalAdvance(part) > width) {
                    ownElided_ << part;
                    part = fm.elidedText(part, Qt::ElideRight, width);
                }
                lines << part;
            }
            layout.endLayout();
            continue;
        }
        if (!lines.isEmpty() && fm.horizontalAdvance(lines.last() + sep + note) <= width) lines.last() += sep + note;
        else lines << note;
    }
    const QString text = lines.join(u'\n');
    if (captionLabel_->text() != text) captionLabel_->setText(text);
    const int wanted = std::max<int>(1, int(lines.size()));
    const int reserve = wanted * fm.lineSpacing() + 2;
    if (margins.top() != baseTopMargin_ + reserve) {
        captionLines_ = wanted;
        QMargins m = margins;
        m.setTop(baseTopMargin_ + reserve);
        chart->setMargins(m);
    }
}

void DistributionChart::placeLabels() {
    QChart* chart = this->chart();
    const QRectF plot = chart->plotArea();
    tokenLabels_->place(plot);
    // The cumulative line as drawn (scene positions): a label goes where the line is not.
    const QPolygonF curve = cumulativeLine();
    QList<QRectF> placed;
    auto place = [&](MarkerLabel* label, QLineSeries* marker, qreal x) {
        if (x < 0.0 || plot.isEmpty()) {
            label->hide();
            return;
        }
        const QPointF top = chart->mapToPosition(QPointF(x, 1.0), marker);
        const QRectF box = label->boundingRect();
        // Right of the line unless that leaves the plot.
        qreal left = top.x() + 4;
        if (left + box.width() > plot.right()) left = top.x() - 4 - box.width();
        left = std::max(plot.left(), left);
        // The highest row from the plot's top that crosses neither the cumulative line nor a label
        // placed before (markers can coincide); the top row when none does.
        const qreal step = box.height() + 1;
        QRectF at(QPointF(left, plot.top() + 3), box.size());
        for (QRectF tryAt = at; tryAt.bottom() <= plot.bottom(); tryAt.translate(0, step)) {
            bool clear = !curveCrosses(curve, tryAt.adjusted(-1, -1, 1, 1));
            for (const QRectF& other : placed) clear = clear && !other.intersects(tryAt);
            if (clear) {
                at = tryAt;
                break;
            }
        }
        label->setPos(at.topLeft() - box.topLeft());
        placed << at;
        label->show();
    };
    placeForbiddenMarks();
    place(topKLabel_, topKMarker_, topKX_);
    place(topPLabel_, topPMarker_, topPX_);
    place(minPLabel_, minPMarker_, minPX_);
    // A top-p cut beyond the bars (or none at all) still draws its level line: label it there.
    if (topPX_ < 0.0 && topPLevel_ >= 0.0 && !plot.isEmpty()) {
        const QPointF end = chart->mapToPosition(QPointF(std::max<qsizetype>(bars_.size(), 1) - 0.5, topPLevel_),
                                                 topPLevelLine_);
        const QRectF box = topPLabel_->boundingRect();
        topPLabel_->setPos(end.x() - box.width() - 2, std::max(plot.top(), end.y() - box.height() - 1));
        topPLabel_->show();
    }
    if (caption_.isEmpty() || plot.isEmpty()) {
        captionLabel_->hide();
    } else {
        // In the lines reserved above the title (layoutCaption), left-aligned: never clipped.
        captionLabel_->setPos(chart->margins().left() + 4, baseTopMargin_);
        captionLabel_->show();
    }
}

void DistributionChart::placeForbiddenMarks() {
    QChart* chart = this->chart();
    const QRectF plot = chart->plotArea();
    const int n = int(bars_.size());
    while (forbiddenMarks_.size() < n) {
        auto* m = new ForbiddenMark(chart);
        m->setZValue(1e5);   // over the bars, under the marker labels
        m->hide();
        forbiddenMarks_ << m;
    }
    // Bar i's pair spans i - w/2 .. i + w/2 of the category axis (-0.5 .. n - 0.5); the "before"
    // bar is the first of the sets in it.
    const double w = series_->barWidth();
    const int sets = std::max(1, int(series_->count()));
    const double yMin = log_ ? logAxisY_->min() : axisY_->min(), yMax = log_ ? logAxisY_->max() : axisY_->max();
    const auto xPx = [&](double x) { return plot.left() + plot.width() * (x + 0.5) / std::max(n, 1); };
    const auto yPx = [&](double v) {
        const double f = yMax > yMin ? std::clamp((v - yMin) / (yMax - yMin), 0.0, 1.0) : 0.0;
        return plot.bottom() - f * plot.height();
    };
    const ChartColours colours = coloursFor(palette());
    const double band = std::max(3.0, 3.0 * lineScale_);
    for (int i = 0; i < forbiddenMarks_.size(); ++i) {
        ForbiddenMark* m = forbiddenMarks_[i];
        if (i >= n || !bars_[i].forbidden || plot.isEmpty()) {
            m->hide();
            continue;
        }
        const double left = xPx(i - w / 2.0), right = xPx(i - w / 2.0 + w / sets);
        const double top = i < beforeSet_->count() ? yPx(beforeSet_->at(i)) : plot.bottom();
        m->colour = colours.forbidden;
        m->lineScale = lineScale_;
        m->setGeometry(QRectF(QPointF(left, top), QPointF(right, plot.bottom())),
                       QRectF(QPointF(xPx(i - w / 2.0), plot.bottom() - band), QPointF(xPx(i + w / 2.0), plot.bottom())));
        m->show();
        m->update();
    }
}

QList<int> DistributionChart::forbiddenMarks() const {
    QList<int> out;
    for (int i = 0; i < forbiddenMarks_.size(); ++i)
        if (forbiddenMarks_[i]->isVisible()) out << i;
    return out;
}

QRectF DistributionChart::forbiddenMarkRect(int index) const {
    if (index < 0 || index >= forbiddenMarks_.size() || !forbiddenMarks_[index]->isVisible()) return {};
    const ForbiddenMark* m = forbiddenMarks_[index];
    return mapFromScene(m->mapToScene(m->bar.united(m->band))).boundingRect();
}

bool DistributionChart::forbiddenLegendShown() const { return forbiddenLegend_->isVisible(); }

int DistributionChart::labelCapPx() const {
    // Rotated token labels take their length from the chart's height: whole tokens up to a third
    // of it, and no longer than leaves the plot 55 % of what the caption, title, axis and legend
    // leave (measured from the last layout); longer tokens are shortened, whole on hover. A long
    // token ("␣metropolitan") in a 200 px chart would otherwise leave a plot a few pixels tall.
    const QRectF plot = chart()->plotArea();
    const int others = std::max(0, height() - int(plot.height()) - reservedExtent_);
    const int share = int(0.45 * (height() - others));
    const int floor = fontMetrics().averageCharWidth() * 5;
    return std::max(floor, std::min(height() / 3, share));
}

void DistributionChart::fitTokenLabels() {
    // Many bars on a narrow plot: the rotated token labels get a smaller font (down to 3/4 of the
    // widget's) so each still fits its bar's slot; beyond that every k-th label is drawn.
    const QRectF plot = chart()->plotArea();
    QFont f = font();
    const int n = std::max<int>(1, int(bars_.size()));
    if (!plot.isEmpty() && f.pointSizeF() > 0) {
        const double slot = plot.width() / n;
        const double need = QFontMetricsF(f).height();
        if (need > slot) f.setPointSizeF(std::max(f.pointSizeF() * 0.75, f.pointSizeF() * slot / need));
    }
    tokenLabels_->setFont(f);
    tokenLabels_->setLengthCap(labelCapPx());
    reserveLabelRoom();
}

void DistributionChart::reserveLabelRoom() {
    // The labels' room lies between the axis and the legend: the legend's top contents margin
    // (the chart's own margins lie outside the legend). With no legend, the chart's bottom margin.
    QChart* chart = this->chart();
    QLegend* legend = chart->legend();
    const int extent = tokenLabels_->extent();
    reservedExtent_ = extent;
    const bool inLegend = legend->isVisible();
    qreal left, top, right, bottom;
    legend->getContentsMargins(&left, &top, &right, &bottom);
    // Qt's legend leaves padding above its entries (about 11 px at 9 pt): the labels may use it.
    const qreal entries = legendEntriesTop();
    const qreal pad = entries >= 0.0 ? std::max(0.0, entries - legend->mapToScene(legend->contentsRect().topLeft()).y()) : 0.0;
    const qreal legendTop = legendBaseTop_ + (inLegend ? std::max(0.0, std::floor(extent - pad)) : 0);
    if (top != legendTop) legend->setContentsMargins(left, legendTop, right, bottom);
    QMargins m = chart->margins();
    const int chartBottom = baseBottomMargin_ + (inLegend ? 0 : extent);
    if (m.bottom() != chartBottom) {
        m.setBottom(chartBottom);
        chart->setMargins(m);
    }
}

QList<QRectF> DistributionChart::tokenLabelRects() const { return tokenLabels_->shownRects(); }

qreal DistributionChart::legendEntriesTop() const {
    const QLegend* legend = chart()->legend();
    if (!legend->isVisible()) return -1.0;
    // The highest of the entries' texts and markers as laid out.
    qreal top = -1.0;
    QList<QGraphicsItem*> items = legend->childItems();
    while (!items.isEmpty()) {
        QGraphicsItem* item = items.takeLast();
        items << item->childItems();
        if (!item->isVisible() || item->childItems().size() > 0) continue;   // leaves only
        const qreal y = item->sceneBoundingRect().top();
        if (top < 0.0 || y < top) top = y;
    }
    return top;
}

QString DistributionChart::barToolTip(int index) const {
    const DistributionBar& b = bars_[index];
    const QLocale loc;
    // Rich text with the token escaped: "<|im_end|>" would otherwise read as a tag and vanish.
    QString html = QStringLiteral("<p>%1</p>").arg(tr("\"%1\" (id %2): p %3 before the chain, %4 after")
                                                        .arg(b.label.toHtmlEscaped())
                                                        .arg(b.id)
                                                        .arg(loc.toString(b.before, 'f', 4), loc.toString(b.after, 'f', 4)));
    if (b.forbidden) html += QStringLiteral("<p>%1</p>").arg(tr("Forbidden by the grammar: this token cannot continue the text as the constraint requires."));
    return html;
}

void DistributionChart::showBarToolTip(bool entered, int index) {
    if (!entered || index < 0 || index >= bars_.size()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(QCursor::pos(), barToolTip(index), this);
}

void DistributionChart::fitCumulativeTicks() {
    // 0, 0.2, … 1 where the plot is tall enough for six labels; in a short plot (a 1024×700
    // window) Qt Charts would write "..." for labels that overlap: 0, 0.5, 1 or 0, 1 instead.
    const qreal h = chart()->plotArea().height();
    const qreal line = QFontMetricsF(font()).height();
    const int ticks = h >= 6 * 1.5 * line ? 6 : h >= 3 * 1.5 * line ? 3 : 2;
    if (cumulativeAxis_->tickCount() != ticks) cumulativeAxis_->setTickCount(ticks);
    // The probability axis likewise: its round ticks where they fit, else only 0 and the top.
    const int valueTicks = h >= valueTicks_ * 1.5 * line ? valueTicks_ : 2;
    if (axisY_->tickCount() != valueTicks) axisY_->setTickCount(valueTicks);
}

void DistributionChart::applyAxisTitles() {
    // A rotated title longer than the plot is tall gets cut by Qt Charts ("probabi…"): then the
    // short form, whose meaning the legend and the tooltip carry.
    const QRectF plot = chart()->plotArea();
    const QFontMetrics fm(font());
    const auto pick = [&](const QString& full, const QString& brief) {
        if (plot.isEmpty() || fm.horizontalAdvance(full) + 8 <= plot.height()) return full;
        // In a plot too short even for the short form, no title: the legend names the series.
        return fm.horizontalAdvance(brief) + 8 <= plot.height() ? brief : QString();
    };
    const QString p = pick(log_ ? tr("probability (log scale)") : tr("probability"), log_ ? tr("p (log)") : tr("p"));
    const QString cum = pick(tr("cumulative"), tr("cum."));
    if (axisY_->titleText() != p) axisY_->setTitleText(p);
    if (logAxisY_->titleText() != p) logAxisY_->setTitleText(p);
    if (cumulativeAxis_->titleText() != cum) cumulativeAxis_->setTitleText(cum);
}

void DistributionChart::applyTexts() {
    // Setting a text re-lays out its item (and the chart's margins) even when it is unchanged,
    // so each is set only when it differs.
    const auto set = [](auto* item, auto getter, auto setter, const QString& text) {
        if ((item->*getter)() != text) (item->*setter)(text);
    };
    // The title only where there is room for it: in a short chart (a 1024×700 window) the plot
    // needs the lines, and the tab above already says what the chart is.
    const bool roomForTitle = height() >= kTitleLines * fontMetrics().height();
    set(chart(), &QChart::title, &QChart::setTitle, roomForTitle ? tr("Next-token distribution") : QString());
    // The legend's entries in full where one row holds them, else their short forms (Qt Charts
    // would cut each to "before t..."): a narrow chart beside the Lessons panel at 1024 px.
    const QStringList full{single_ ? tr("model probability") : tr("before the chain"), tr("after the chain"), tr("cumulative"),
                           tr("forbidden by the grammar")};
    const QStringList brief{single_ ? tr("model p") : tr("before"), tr("after"), tr("cumulative"), tr("forbidden")};
    const QFontMetrics lm(chart()->legend()->font());
    const auto rowWidth = [&](const QStringList& names) {
        int w = 0;
        const bool shown[] = {true, !single_, cumulative_->isVisible(), forbiddenLegend_->isVisible()};
        for (int i = 0; i < names.size(); ++i)
            if (shown[i]) w += lm.horizontalAdvance(names[i]) + lm.height() + 3 * lm.averageCharWidth();   // marker, gaps
        return w;
    };
    const QMargins margins = chart()->margins();
    const int room = width() - margins.left() - margins.right() - 24;
    const QStringList& names = rowWidth(full) <= room ? full : brief;
    set(beforeSet_, &QBarSet::label, &QBarSet::setLabel, names[0]);
    set(afterSet_, &QBarSet::label, &QBarSet::setLabel, names[1]);
    set(cumulative_, &QLineSeries::name, &QLineSeries::setName, names[2]);
    set(forbiddenLegend_, &QAreaSeries::name, &QAreaSeries::setName, names[3]);
    applyAxisTitles();
    const QString topK = tr("top-k = %1").arg(cutoffs_.topK);
    const QString topP = tr("top-p = %1").arg(locale().toString(cutoffs_.topP, 'g', 3));
    const QString minP = tr("min-p = %1").arg(locale().toString(cutoffs_.minP, 'g', 3));
    if (topKLabel_->text() != topK) topKLabel_->setText(topK);
    if (topPLabel_->text() != topP) topPLabel_->setText(topP);
    if (minPLabel_->text() != minP) minPLabel_->setText(minP);
}

void DistributionChart::setSingleDistribution(bool on) {
    if (on == single_) return;
    single_ = on;
    if (on) series_->take(afterSet_);
    else series_->append(afterSet_);
    // One series needs no legend (its caption says what it is); in a short chart the legend sat on
    // the rotated token labels (the beam tree's node chart at 1024 × 700).
    chart()->legend()->setVisible(!on);
    reserveLabelRoom();   // the labels' room moves between the legend and the chart's margin
    applyTexts();
}

QStringList DistributionChart::elidedTexts() const {
    QStringList out = ownElided_;
    for (QGraphicsItem* item : scene()->items()) {
        if (!item->isVisible() || tokenLabels_->owns(item)) continue;
        QString text;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) text = t->toPlainText();
        else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = st->text();
        else continue;
        if (looksElided(text) && !out.contains(text)) out << text;
    }
    // Token labels left out: the bars are narrower than a line of text.
    for (const QString& token : tokenLabels_->hiddenTokens()) out << tr("token label %1 hidden").arg(token);
    // Marker labels must stay inside the plot's width.
    const QRectF plot = chart()->plotArea();
    for (MarkerLabel* l : {topKLabel_, topPLabel_, minPLabel_})
        if (l->isVisible() && l->boundingRect().width() > plot.width()) out << l->text();
    return out;
}

void DistributionChart::applyFonts() {
    // Everything from the widget's font: presentation mode enlarges the application font only.
    QChart* chart = this->chart();
    const QFont base = font();
    QFont title = base;
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(base);
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(axisY_),
                                static_cast<QAbstractAxis*>(logAxisY_), static_cast<QAbstractAxis*>(cumulativeAxis_)}) {
        axis->setLabelsFont(base);
        axis->setTitleFont(base);
    }
    for (MarkerLabel* l : {topKLabel_, topPLabel_, minPLabel_, captionLabel_}) l->setFont(base);
    layoutCaption();
    applyAxisTitles();
    fitTokenLabels();
    placeLabels();
}

void DistributionChart::applyPens() {
    const ChartColours c = coloursFor(palette());
    const double s = lineScale_;
    cumulative_->setPen(QPen(c.cumulative, 2.0 * s));
    cumulative_->setBrush(c.cumulative);  // the point dots
    cumulative_->setMarkerSize(5.0 * s);
    topPMarker_->setPen(QPen(c.cumulative, 1.5 * s, Qt::DashLine));
    topPLevelLine_->setPen(QPen(c.cumulative, 1.0 * s, Qt::DashLine));
    topKMarker_->setPen(QPen(c.topK, 1.5 * s, Qt::DashLine));
    minPMarker_->setPen(QPen(c.minP, 1.5 * s, Qt::DashLine));
    for (QBarSet* set : {beforeSet_, afterSet_}) {
        QPen outline(set->color(), 1.0 * s);
        set->setPen(outline);
    }
}

void DistributionChart::applyTheme() {
    QChart* chart = this->chart();
    const QPalette& pal = palette();
    // setTheme resets every series' colours and every font, so the custom ones go on afterwards.
    chart->setTheme(isDark(pal) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const ChartColours c = coloursFor(pal);
    beforeSet_->setColor(c.before);
    beforeSet_->setBorderColor(c.before);
    afterSet_->setColor(c.after);
    afterSet_->setBorderColor(c.after);
    // Removed tokens are "selected" bars: Qt Charts colours a selected bar per bar, not per set.
    beforeSet_->setSelectedColor(c.beforeRemoved);
    afterSet_->setSelectedColor(c.afterRemoved);
    applyPens();
    topKLabel_->setBrush(c.topK);
    topPLabel_->setBrush(c.cumulative);
    minPLabel_->setBrush(c.minP);
    forbiddenLegend_->setPen(QPen(c.forbidden, 1.0));
    forbiddenLegend_->setBrush(QBrush(c.forbidden, Qt::BDiagPattern));
    for (QLegendMarker* m : chart->legend()->markers(forbiddenLegend_)) {
        m->setBrush(QBrush(c.forbidden, Qt::BDiagPattern));
        m->setPen(QPen(c.forbidden, 1.0));
    }
    for (MarkerLabel* l : {topKLabel_, topPLabel_, minPLabel_}) {
        l->backing = c.labelBacking;
        l->update();
    }
    tokenLabels_->setColor(axisY_->labelsBrush().color());   // as the theme colours axis labels
    captionLabel_->setBrush(pal.color(QPalette::WindowText));
    captionLabel_->backing = Qt::transparent;
    captionLabel_->update();
    // Markers explain themselves with their labels; only the cumulative line earns a legend entry.
    for (QLineSeries* s : {topKMarker_, topPMarker_, topPLevelLine_, minPMarker_})
        for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);
    applyFonts();
}

void DistributionChart::resizeEvent(QResizeEvent* e) {
    QChartView::resizeEvent(e);
    applyTexts();   // the title comes or goes with the height (sets only what changed)
    layoutCaption();  // the caption wraps to the new width
    fitTokenLabels();   // their length cap follows the height
    placeLabels();
}

void DistributionChart::changeEvent(QEvent* e) {
    QChartView::changeEvent(e);
    if (e->type() == QEvent::LocaleChange) localizeChartNumbers(chart(), locale());
    if (e->type() == QEvent::PaletteChange) {
        applyTheme();
    } else if (e->type() == QEvent::FontChange) {
        setMinimumHeight(fontMetrics().height() * 11);
        applyFonts();
    } else if (e->type() == QEvent::LanguageChange) {
        updateCutoffs();  // rebuilds the caption in the new language too
    }
}

}  // namespace dlab::widgets
