#include "widgets/distribution_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetrics>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace dlab::widgets {

namespace {

bool isDark(const QPalette& pal) { return pal.color(QPalette::Window).lightness() < 128; }

struct ChartColours {
    QColor before, after, beforeRemoved, afterRemoved;
    QColor cumulative;   // the line and the top-p marks: one colour, they belong together
    QColor topK;
    QColor labelBacking;  // roughly the theme's plot background, so labels read over line and bars
};

ChartColours coloursFor(const QPalette& pal) {
    if (isDark(pal))
        return {QColor(0x4f, 0x6d, 0x92), QColor(0x5d, 0xad, 0xe2), QColor(0x4a, 0x4a, 0x4a),
                QColor(0x6a, 0x6a, 0x6a), QColor(0xff, 0xa0, 0x40), QColor(0xc8, 0xa8, 0xff),
                QColor(0x26, 0x28, 0x30, 220)};
    return {QColor(0x9c, 0xb8, 0xd9), QColor(0x1f, 0x5f, 0xa8), QColor(0xd0, 0xd0, 0xd0),
            QColor(0xa0, 0xa0, 0xa0), QColor(0xd9, 0x5f, 0x0e), QColor(0x6a, 0x3d, 0x9a),
            QColor(0xff, 0xff, 0xff, 220)};
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

QLineSeries* DistributionChart::makeOverlaySeries() {
    auto* s = new QLineSeries;
    s->setPointsVisible(false);
    return s;
}

DistributionChart::DistributionChart(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart;
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);

    beforeSet_ = new QBarSet(QString());
    afterSet_ = new QBarSet(QString());
    series_ = new QBarSeries;
    series_->append(beforeSet_);
    series_->append(afterSet_);
    chart->addSeries(series_);

    axisX_ = new QBarCategoryAxis;
    axisX_->setLabelsAngle(-90);
    // Whole token texts: rotated labels have the room, and "␣s…" teaches nothing.
    axisX_->setTruncateLabels(false);
    axisY_ = new QValueAxis;
    axisY_->setRange(0.0, 1.0);
    axisY_->setLabelFormat("%.2f");
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
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
    // Markers with no points draw nothing; they stay "visible" because hiding a series re-shows
    // its legend entry when it comes back, and markers have no legend entry.
    for (QLineSeries* s : {cumulative_, topKMarker_, topPMarker_, topPLevelLine_}) {
        chart->addSeries(s);
        s->attachAxis(overlayX_);
        s->attachAxis(cumulativeAxis_);
    }
    cumulative_->setVisible(false);
    cumulative_->setPointsVisible(true);

    topKLabel_ = new MarkerLabel(chart);
    topPLabel_ = new MarkerLabel(chart);
    // The "beyond the bars shown" note is a plain text item above the plot's right end, not part
    // of the title: changing a chart title re-lays out the whole chart (~4 ms per slider move).
    captionLabel_ = new MarkerLabel(chart);
    captionLabel_->setZValue(1e6);
    captionLabel_->hide();
    // A line of room between the title and the plot for it, reserved once (no relayout per note).
    QMargins margins = chart->margins();
    margins.setTop(margins.top() + QFontMetrics(captionLabel_->font()).height() + 2);
    chart->setMargins(margins);
    topKLabel_->setZValue(1e6);  // above the series' items, whose z values Qt Charts picks
    topPLabel_->setZValue(1e6);
    topKLabel_->hide();
    topPLabel_->hide();
    // Labels live in scene coordinates, so they follow the plot area whenever the chart re-lays out.
    connect(chart, &QChart::plotAreaChanged, this, [this] { placeMarkerLabels(); });

    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(260);
    applyTheme();
    applyTexts();
}

void DistributionChart::setBars(const QList<DistributionBar>& bars, const DistributionCutoffs& cutoffs) {
    bars_ = bars;
    cutoffs_ = cutoffs;
    QList<qreal> before, after;
    QStringList categories;
    double top = 0.0;
    for (const auto& b : bars) {
        before << b.before;
        after << b.after;
        // Categories must be unique: two tokens may print alike ("\n" pieces, byte tokens).
        QString label = b.label;
        while (categories.contains(label)) label += QChar(0x200B);
        categories << label;
        top = std::max({top, b.before, b.after});
    }
    // A slider move re-samples the same step: same tokens, new "after" values. Then only the
    // values change: the category labels (rich-text items, the costly part of a chart update)
    // stay, and the axis keeps its scale unless the tallest bar leaves it.
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
        axisX_->setCategories(categories);
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
    // A few fixed scales: a new range re-lays out the axis and its labels, the costly part.
    double yMax = 1.0;
    for (double scale : {0.05, 0.1, 0.2, 0.3, 0.5, 0.75})
        if (top > 0.0 && top * 1.05 <= scale) { yMax = scale; break; }
    if (axisY_->max() != yMax || axisY_->min() != 0.0) {
        axisY_->setRange(0.0, yMax);
        // Round tick values for each scale (0.3 -> 0, 0.1, 0.2, 0.3; not 0.075 steps).
        const int ticks = yMax == 0.05 ? 6 : yMax == 0.3 || yMax == 0.75 ? 4 : yMax == 0.5 ? 6 : 5;
        axisY_->setTickCount(ticks);
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

    // A marker sits between the last kept bar and the first cut one; kept == n puts it on the
    // right edge (everything shown survived), kept > n is reported in the caption instead.
    QStringList beyond;
    auto placeMarker = [&](QLineSeries* marker, bool active, int kept, const QString& beyondNote) -> qreal {
        const bool inside = active && kept >= 1 && kept <= n;
        if (active && kept > n && n > 0) beyond << beyondNote;
        marker->replace(inside ? QList<QPointF>{{kept - 0.5, 0.0}, {kept - 0.5, 1.0}} : QList<QPointF>{});
        return inside ? kept - 0.5 : -1.0;
    };
    topKX_ = placeMarker(topKMarker_, c.topK > 0 && c.topKKept >= 0, c.topKKept,
                         tr("top-k keeps %n tokens (beyond the %1 shown)", "", c.topKKept).arg(n));
    topPX_ = placeMarker(topPMarker_, c.topP < 1.0 && c.topPKept >= 0, c.topPKept,
                         tr("top-p keeps %n tokens (beyond the %1 shown)", "", c.topPKept).arg(n));

    // The level only reads against the cumulative line: where the line crosses it, top-p cuts.
    const bool level = c.topP < 1.0 && !points.isEmpty();
    topPLevel_ = level ? c.topP : -1.0;
    topPLevelLine_->replace(level ? QList<QPointF>{{-0.5, c.topP}, {std::max(n, 1) - 0.5, c.topP}}
                                  : QList<QPointF>{});

    caption_ = beyond.join(QStringLiteral("; "));
    applyTexts();
    placeMarkerLabels();
}

void DistributionChart::placeMarkerLabels() {
    QChart* chart = this->chart();
    const QRectF plot = chart->plotArea();
    auto place = [&](MarkerLabel* label, QLineSeries* marker, qreal x, int row) {
        if (x < 0.0 || plot.isEmpty()) {
            label->hide();
            return;
        }
        const QPointF top = chart->mapToPosition(QPointF(x, 1.0), marker);
        const QRectF box = label->boundingRect();
        // Right of the line unless that leaves the plot; the two labels stack when markers coincide.
        qreal left = top.x() + 4;
        if (left + box.width() > plot.right()) left = top.x() - 4 - box.width();
        label->setPos(left, plot.top() + 3 + row * (box.height() + 1));
        label->show();
    };
    place(topKLabel_, topKMarker_, topKX_, 0);
    place(topPLabel_, topPMarker_, topPX_, 1);
    if (caption_.isEmpty() || plot.isEmpty()) {
        captionLabel_->hide();
    } else {
        const QRectF box = captionLabel_->boundingRect();
        // In the line reserved above the title (see the constructor), right-aligned with the plot.
        captionLabel_->setPos(plot.right() - box.width(),
                              plot.top() - QFontMetrics(chart->titleFont()).height() - 2 * box.height() - 4);
        captionLabel_->show();
    }
}

void DistributionChart::applyTexts() {
    // Setting a text re-lays out its item (and the chart's margins) even when it is unchanged,
    // so each is set only when it differs.
    const auto set = [](auto* item, auto getter, auto setter, const QString& text) {
        if ((item->*getter)() != text) (item->*setter)(text);
    };
    set(chart(), &QChart::title, &QChart::setTitle, tr("Next-token distribution"));
    if (captionLabel_->text() != caption_) captionLabel_->setText(caption_);
    set(beforeSet_, &QBarSet::label, &QBarSet::setLabel, tr("before the chain"));
    set(afterSet_, &QBarSet::label, &QBarSet::setLabel, tr("after the chain"));
    set(cumulative_, &QLineSeries::name, &QLineSeries::setName, tr("cumulative"));
    set(axisY_, &QValueAxis::titleText, &QValueAxis::setTitleText, tr("probability"));
    set(cumulativeAxis_, &QValueAxis::titleText, &QValueAxis::setTitleText, tr("cumulative"));
    const QString topK = tr("top-k = %1").arg(cutoffs_.topK);
    const QString topP = tr("top-p = %1").arg(locale().toString(cutoffs_.topP, 'g', 3));
    if (topKLabel_->text() != topK) topKLabel_->setText(topK);
    if (topPLabel_->text() != topP) topPLabel_->setText(topP);
}

void DistributionChart::applyTheme() {
    QChart* chart = this->chart();
    const QPalette& pal = palette();
    // setTheme resets every series' colours, so the custom ones go on afterwards.
    chart->setTheme(isDark(pal) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const ChartColours c = coloursFor(pal);
    beforeSet_->setColor(c.before);
    beforeSet_->setBorderColor(c.before);
    afterSet_->setColor(c.after);
    afterSet_->setBorderColor(c.after);
    // Removed tokens are "selected" bars: Qt Charts colours a selected bar per bar, not per set.
    beforeSet_->setSelectedColor(c.beforeRemoved);
    afterSet_->setSelectedColor(c.afterRemoved);
    cumulative_->setPen(QPen(c.cumulative, 2.0));
    cumulative_->setBrush(c.cumulative);  // the point dots
    cumulative_->setMarkerSize(5.0);
    topPMarker_->setPen(QPen(c.cumulative, 1.5, Qt::DashLine));
    topPLevelLine_->setPen(QPen(c.cumulative, 1.0, Qt::DashLine));
    topKMarker_->setPen(QPen(c.topK, 1.5, Qt::DashLine));
    topKLabel_->setBrush(c.topK);
    topPLabel_->setBrush(c.cumulative);
    topKLabel_->backing = c.labelBacking;
    topPLabel_->backing = c.labelBacking;
    captionLabel_->setBrush(pal.color(QPalette::WindowText));
    captionLabel_->backing = Qt::transparent;
    topKLabel_->update();
    topPLabel_->update();
    captionLabel_->update();
    // Markers explain themselves with their labels; only the cumulative line earns a legend entry.
    for (QLineSeries* s : {topKMarker_, topPMarker_, topPLevelLine_})
        for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);
}

void DistributionChart::changeEvent(QEvent* e) {
    QChartView::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyTheme();
    } else if (e->type() == QEvent::LanguageChange) {
        updateCutoffs();  // rebuilds the caption in the new language too
    }
}

}  // namespace dlab::widgets
