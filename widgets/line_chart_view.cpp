#include "widgets/line_chart_view.h"

#include <QChart>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QTextDocument>
#include <QTextOption>
#include <QLegend>
#include <QResizeEvent>
#include <QLineSeries>
#include <QPainter>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/nice_ticks.h"
#include "widgets/palette_colors.h"
#include "widgets/number_text.h"

namespace dlab::widgets {

namespace {
// Below this the axis labels turn into "…": a title, two axes with titles and a legend need it.
constexpr int kMinimumLines = 15;
// Nor narrower than this many average characters: below it the title, the axis labels and the
// legend turn into "…" (a layout squeezed the KV growth charts to 60 px).
constexpr int kMinimumChars = 24;
}

// The empty chart's note, on the plot's background: grid lines would strike through it.
class NoteItem : public QGraphicsTextItem {
public:
    using QGraphicsTextItem::QGraphicsTextItem;
    QColor backing;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override {
        painter->fillRect(boundingRect(), backing);
        QGraphicsTextItem::paint(painter, option, widget);
    }
};

QColor seriesColour(const QPalette& pal, int index) {
    // Okabe–Ito hues (readable for colour-blind viewers), lightened on a dark base.
    static const QColor hues[] = {QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115), QColor(204, 121, 167),
                                  QColor(230, 159, 0), QColor(86, 180, 233)};
    QColor c = hues[index % 6];
    return hasDarkBase(pal) ? c.lighter(140) : c;
}

LineChartView::LineChartView(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    chart()->setAnimationOptions(QChart::NoAnimation);
    localizeChartNumbers(chart(), locale());
    // Repaint the whole view on every change: with the default minimal updates, a series redrawn
    // while its axis range moved left pieces of the old line and old labels on screen (seen on the
    // KV page's time charts during a run).
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    chart()->legend()->setVisible(false);   // placeLegend() draws one that wraps
    chart()->setMargins(QMargins(4, 4, 4, 4));
    x_ = new QValueAxis(this);
    y_ = new QValueAxis(this);
    logY_ = new QLogValueAxis(this);
    logY_->setBase(10);
    // Localized labels (localizeChartNumbers) take only "%.<precision><d|e|f|g|i|E|G>": a plain
    // "%g" or "%d" leaves every label empty.
    logY_->setLabelFormat(QStringLiteral("%.6g"));
    x_->setLabelFormat(QStringLiteral("%.0f"));
    y_->setLabelFormat(QStringLiteral("%.6g"));
    chart()->addAxis(x_, Qt::AlignBottom);
    chart()->addAxis(y_, Qt::AlignLeft);
    axisHolder_ = new QLineSeries(this);
    chart()->addSeries(axisHolder_);
    axisHolder_->attachAxis(x_);
    axisHolder_->attachAxis(y_);
    emptyItem_ = new NoteItem(chart());
    emptyItem_->setZValue(1e6);
    emptyItem_->hide();
    legendItem_ = new QGraphicsTextItem(chart());
    legendItem_->setZValue(1e6);
    legendItem_->hide();
    connect(chart(), &QChart::plotAreaChanged, this, &LineChartView::placeEmptyText);
    connect(chart(), &QChart::plotAreaChanged, this, &LineChartView::placePointLabels);
    rebuildAxes();
    setMinimumHeight(fontMetrics().height() * kMinimumLines);
    setMinimumWidth(fontMetrics().averageCharWidth() * kMinimumChars);
    applyTheme();
}

void LineChartView::setTitles(const QString& title, const QString& xTitle, const QString& yTitle) {
    title_ = title;
    xTitle_ = xTitle;
    yTitle_ = yTitle;
    chart()->setTitle(title);
    x_->setTitleText(xTitle);
    y_->setTitleText(yTitle);
    logY_->setTitleText(yTitle);
    fitYLabelsToTitle();
}

void LineChartView::setLogY(bool on) {
    if (log_ == on) return;
    log_ = on;
    QAbstractAxis* from = on ? static_cast<QAbstractAxis*>(y_) : logY_;
    QAbstractAxis* to = on ? static_cast<QAbstractAxis*>(logY_) : y_;
    for (QLineSeries* s : series_) s->detachAxis(from);
    axisHolder_->detachAxis(from);
    chart()->removeAxis(from);
    chart()->addAxis(to, Qt::AlignLeft);
    for (QLineSeries* s : series_) s->attachAxis(to);
    axisHolder_->attachAxis(to);
    rebuildAxes();
}

void LineChartView::setXLabelFormat(const QString& format) {
    xFormat_ = format;
    rebuildAxes();
}

void LineChartView::setSeries(const QList<LineSeriesData>& data) {
    while (series_.size() > data.size()) {
        QLineSeries* s = series_.takeLast();
        dashed_.removeLast();
        markers_.removeLast();
        chart()->removeSeries(s);
        delete s;
    }
    const bool added = series_.size() < data.size();
    while (series_.size() < data.size()) {
        auto* s = new QLineSeries(this);
        chart()->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(log_ ? static_cast<QAbstractAxis*>(logY_) : y_);
        series_ << s;
        dashed_ << false;
        markers_ << false;
    }
    for (const PointLabel& l : pointLabels_) delete l.item;
    pointLabels_.clear();
    for (int i = 0; i < data.size(); ++i) {
        series_[i]->setName(data[i].name);
        QList<QPointF> pts;
        for (int k = 0; k < data[i].points.size(); ++k) {
            const QPointF& p = data[i].points[k];
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || (log_ && p.y() <= 0)) continue;
            pts << p;
            if (k < data[i].pointLabels.size() && !data[i].pointLabels[k].isEmpty()) {
                auto* item = new QGraphicsSimpleTextItem(data[i].pointLabels[k], chart());
                item->setZValue(1e5);
                pointLabels_.append({item, i, p});
            }
        }
        series_[i]->replace(pts);
        dashed_[i] = data[i].dashed;
        markers_[i] = data[i].markers;
        if (series_[i]->pointsVisible() != data[i].markers) series_[i]->setPointsVisible(data[i].markers);
    }
    if (added) applyTheme();   // a new series takes the theme's fonts and colours once
    else applyPens();          // not the whole theme: setTheme() re-styles every item and costs milliseconds
    rebuildAxes();
    placeEmptyText();
    placeLegend();
    placePointLabels();
}

void LineChartView::placePointLabels() {
    // Each label tries the places around its point (the corners, above right first, then above,
    // below, right and left of it) and takes the first inside the plot that overlaps no label
    // placed before it and no other point's dot.
    const QRectF plot = chart()->plotArea();
    const QFontMetricsF fm(font());
    const double gap = fm.height() / 4.0;
    QList<QPointF> dots;
    for (const PointLabel& l : pointLabels_) dots << chart()->mapToPosition(l.at, series_[l.series]);
    // Every series' line, to keep the labels off it.
    QList<QLineF> segments;
    for (QLineSeries* series : series_) {
        const QList<QPointF> points = series->points();
        for (int i = 1; i < points.size(); ++i)
            segments << QLineF(chart()->mapToPosition(points[i - 1], series), chart()->mapToPosition(points[i], series));
    }
    const auto crossesALine = [&](const QRectF& r) {
        const QLineF edges[] = {{r.topLeft(), r.topRight()}, {r.topRight(), r.bottomRight()},
                                {r.bottomRight(), r.bottomLeft()}, {r.bottomLeft(), r.topLeft()}};
        for (const QLineF& segment : segments) {
            if (r.contains(segment.p1()) || r.contains(segment.p2())) return true;
            for (const QLineF& edge : edges)
                if (segment.intersects(edge, nullptr) == QLineF::BoundedIntersection) return true;
        }
        return false;
    };
    QList<QRectF> placed;
    for (int n = 0; n < pointLabels_.size(); ++n) {
        const PointLabel& l = pointLabels_[n];
        l.item->setFont(font());
        l.item->setBrush(seriesColour(palette(), l.series));
        const QSizeF size = l.item->boundingRect().size();
        const QPointF at = dots[n];
        const QRectF candidates[] = {
            QRectF(QPointF(at.x() + gap, at.y() - gap - size.height()), size),
            QRectF(QPointF(at.x() - gap - size.width(), at.y() - gap - size.height()), size),
            QRectF(QPointF(at.x() + gap, at.y() + gap), size),
            QRectF(QPointF(at.x() - gap - size.width(), at.y() + gap), size),
            QRectF(QPointF(at.x() - size.width() / 2.0, at.y() - gap - size.height()), size),
            QRectF(QPointF(at.x() - size.width() / 2.0, at.y() + gap), size),
            QRectF(QPointF(at.x() + 2.0 * gap, at.y() - size.height() / 2.0), size),
            QRectF(QPointF(at.x() - 2.0 * gap - size.width(), at.y() - size.height() / 2.0), size),
        };
        bool shown = false;
        // Off every line where a place allows it, else only off the other labels and dots.
        for (int pass = 0; pass < 2 && !shown; ++pass) {
            for (const QRectF& r : candidates) {
                if (!plot.contains(r) || (pass == 0 && crossesALine(r))) continue;
                bool clash = std::any_of(placed.cbegin(), placed.cend(), [&](const QRectF& o) { return o.intersects(r); });
                for (int d = 0; d < dots.size() && !clash; ++d)
                    clash = d != n && r.adjusted(-gap, -gap, gap, gap).contains(dots[d]);
                if (clash) continue;
                l.item->setPos(r.topLeft());
                placed << r;
                shown = true;
                break;
            }
        }
        l.item->setVisible(shown && !plot.isEmpty());
    }
}

QStringList LineChartView::pointLabelTexts() const {
    QStringList out;
    for (const PointLabel& l : pointLabels_)
        if (l.item->isVisible()) out << l.item->text();
    return out;
}

QList<QRectF> LineChartView::pointLabelRects() const {
    QList<QRectF> out;
    for (const PointLabel& l : pointLabels_)
        if (l.item->isVisible()) out << l.item->sceneBoundingRect();
    return out;
}

QString LineChartView::legendText() const { return legendItem_->isVisible() ? legendItem_->toPlainText() : QString(); }
QRectF LineChartView::legendRect() const { return legendItem_->isVisible() ? legendItem_->sceneBoundingRect() : QRectF(); }

void LineChartView::placeLegend() {
    // One entry a series with a name: a square of its colour and the name, kept together where
    // the name fits a line; entries break between each other, centred under the plot.
    const QFontMetricsF fm(font());
    const QMargins m = chart()->margins();
    // Inside the chart's background box: the chart's layout keeps its margins around it.
    qreal boxLeft = 0.0, boxRight = 0.0, boxBottom = 0.0;
    if (chart()->layout()) chart()->layout()->getContentsMargins(&boxLeft, nullptr, &boxRight, &boxBottom);
    const double width = std::max(40.0, chart()->size().width() - boxLeft - boxRight - 8.0);
    // Whole entries packed into lines (an entry wider than a line alone wraps inside itself).
    const double gap = fm.horizontalAdvance(QStringLiteral("\u00a0\u00a0\u00a0\u00a0"));
    QStringList lines;
    double lineWidth = 0.0;
    for (int i = 0; i < series_.size(); ++i) {
        const QString name = series_[i]->name();
        if (name.isEmpty()) continue;
        const QString plain = QStringLiteral("\u25a0\u00a0") + name;
        const double w = fm.horizontalAdvance(plain) + 2.0;
        const bool fits = w <= width;
        QString text = name.toHtmlEscaped();
        if (fits) text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
        const QString entry = QStringLiteral("<span style=\"color:%1\">\u25a0</span>&nbsp;%2").arg(seriesColour(palette(), i).name(), text);
        const double withGap = lineWidth + gap + w;
        if (lines.isEmpty() || !fits || withGap > width) {
            lines << entry;
            lineWidth = w;
        } else {
            lines.last() += QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;") + entry;
            lineWidth = withGap;
        }
    }
    const QString html = lines.join(QStringLiteral("<br>"));
    if (html != legendHtml_) {
        legendHtml_ = html;
        legendItem_->setHtml(html);
    }
    legendItem_->setFont(font());
    legendItem_->setDefaultTextColor(palette().color(QPalette::Text));
    QTextOption centred = legendItem_->document()->defaultTextOption();
    centred.setAlignment(Qt::AlignHCenter);
    legendItem_->document()->setDefaultTextOption(centred);
    legendItem_->setTextWidth(width);
    const double height = lines.isEmpty() ? 0.0 : legendItem_->boundingRect().height();
    legendItem_->setVisible(!lines.isEmpty());
    const int bottom = 4 + int(std::ceil(height));
    if (m.bottom() != bottom) chart()->setMargins(QMargins(m.left(), m.top(), m.right(), bottom));
    // At the chart's own bottom edge the legend sat half outside the box.
    legendItem_->setPos(boxLeft + 4.0, chart()->size().height() - boxBottom - 2.0 - height);
}

void LineChartView::resizeEvent(QResizeEvent* e) {
    QChartView::resizeEvent(e);
    placeLegend();
}

void LineChartView::setEmptyText(const QString& text) {
    emptyText_ = text;
    placeEmptyText();
}

bool LineChartView::emptyTextShown() const { return emptyItem_->isVisible(); }

void LineChartView::placeEmptyText() {
    bool empty = true;
    for (QLineSeries* s : series_) empty = empty && s->count() == 0;
    const QRectF plot = chart()->plotArea();
    if (!empty || emptyText_.isEmpty() || plot.isEmpty()) {
        emptyItem_->hide();
        return;
    }
    // Wrapped to the plot's width (at spaces, or anywhere in Chinese), centred.
    emptyItem_->setFont(font());
    emptyItem_->setTextWidth(std::max(40.0, plot.width() - 16.0));
    if (emptyItem_->toPlainText() != emptyText_) emptyItem_->setPlainText(emptyText_);
    QTextOption centred = emptyItem_->document()->defaultTextOption();
    centred.setAlignment(Qt::AlignHCenter);
    emptyItem_->document()->setDefaultTextOption(centred);
    const QRectF box = emptyItem_->boundingRect();
    emptyItem_->setPos(plot.center().x() - box.width() / 2.0, plot.center().y() - box.height() / 2.0);
    emptyItem_->show();
}

QList<QPointF> LineChartView::points(int series) const { return series_.value(series) ? series_[series]->points() : QList<QPointF>(); }
QString LineChartView::seriesName(int series) const { return series_.value(series) ? series_[series]->name() : QString(); }

void LineChartView::rebuildAxes() {
    double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
    for (QLineSeries* s : series_)
        for (const QPointF& p : s->points()) {
            x0 = std::min(x0, p.x());
            x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y());
            y1 = std::max(y1, p.y());
        }
    // No points yet: round axes (0 … 10 by 2, 0 … 1) that read as "nothing measured".
    const bool empty = x0 > x1;
    if (empty) { x0 = 0; x1 = 10; y0 = log_ ? 1 : 0; y1 = log_ ? 10 : 1; }
    if (x1 == x0) x1 = x0 + 1;
    // Measured points drawn as dots keep a margin: on the axis or the border they were cut in half
    // (the serving lab's first and last batch size).
    bool dots = false;
    for (int i = 0; i < series_.size(); ++i) dots = dots || (markers_[i] && series_[i]->count() > 0);
    if (dots) {
        const double pad = 0.04 * (x1 - x0);
        x0 -= pad;
        x1 += pad;
    }
    x_->setRange(x0, x1);
    // Ticks at 0, 50, 100 … (not 51, 102): anchored at 0, a 1-2-5 step, the range kept as measured.
    x_->setTickType(QValueAxis::TicksDynamic);
    x_->setTickAnchor(0);
    // niceStep is for whole numbers; with a fractional label format a short range (ms of a fast
    // step) gets a decimal 1-2-5 step.
    double scale = 1.0;
    const bool whole = xFormat_.contains(QLatin1Char('d'));
    while (!whole && (x1 - x0) * scale < 50.0 && scale < 1e6) scale *= 10.0;
    x_->setTickInterval(double(niceStep((x1 - x0) * scale / 5.0)) / scale);
    // A handful of whole-number x values (request 1 … 6): a tick at every one of them, not 2, 4, 6.
    bool counted = !empty && x1 - x0 <= 13.0;
    for (QLineSeries* s : series_)
        for (const QPointF& p : s->points()) counted = counted && p.x() == std::round(p.x());
    if (counted) x_->setTickInterval(1.0);
    // Decimals only where the ticks need them: "10.0, 20.0, 30.0" said nothing "10, 20, 30" does not.
    const double interval = x_->tickInterval();
    x_->setLabelFormat(interval >= 1.0 && interval == std::round(interval) ? QStringLiteral("%.0f") : xFormat_);
    if (log_) {
        logY_->setRange(std::pow(10.0, std::floor(std::log10(y0))), std::pow(10.0, std::ceil(std::log10(std::max(y1, y0 * 1.01)))));

    } else {
        y_->setRange(std::min(0.0, y0), empty ? 1.0 : y1 > 0 ? y1 * 1.05 : 1.0);
        if (!empty) y_->applyNiceNumbers();
    }
    fitYLabelsToTitle();
}

void LineChartView::fitYLabelsToTitle() {
    QAbstractAxis* axis = log_ ? static_cast<QAbstractAxis*>(logY_) : y_;
    // %g writes 1e-05 below 0.0001 and 0.0001 above it: one log axis mixed "1E-05" with "0,0001".
    // Where the range goes that low, every decade is a power of ten.
    const bool powers = log_ && logY_->min() < 1e-4;
    const QString base = powers ? QStringLiteral("%.0e") : QStringLiteral("%.6g");
    QString format = base;
    if (!yTitle_.isEmpty()) {
        // Measured as Qt Charts measures: rich text in a document, in the axis' fonts.
        QTextDocument doc;
        doc.setDefaultFont(axis->titleFont());
        doc.setHtml(yTitle_.toHtmlEscaped());
        const double titleHeight = doc.size().height();
        doc.setHtml(QStringLiteral("..."));
        const double dotsHeight = doc.size().height();
        doc.setDefaultFont(axis->labelsFont());
        doc.setHtml(QStringLiteral("..."));
        const double dotsWidth = doc.size().width();
        QList<double> ticks;
        if (log_) {
            for (double v = logY_->min(); v <= logY_->max() * 1.0001 && ticks.size() < 64; v *= 10.0) ticks << v;
        } else {
            const int n = std::max(2, y_->tickCount());
            for (int i = 0; i < n; ++i) ticks << y_->min() + i * (y_->max() - y_->min()) / (n - 1);
        }
        double widest = 0.0;
        for (double v : ticks) {
            doc.setHtml(powers ? chart()->locale().toString(v, 'e', 0) : chart()->locale().toString(v, 'g', 6));
            widest = std::max(widest, doc.size().width());
        }
        const double missing = (titleHeight - dotsHeight) + dotsWidth - widest + 1.0;
        if (titleHeight > dotsHeight && missing > 0.0) {
            const double space = QFontMetricsF(axis->labelsFont()).horizontalAdvance(QLatin1Char(' '));
            format += QString(int(std::ceil(missing / std::max(1.0, space))), QLatin1Char(' '));
        }
    }
    if (log_ ? logY_->labelFormat() != format : y_->labelFormat() != format) {
        if (log_) logY_->setLabelFormat(format);
        else y_->setLabelFormat(format);
    }
}

void LineChartView::applyTheme() {
    const QPalette& pal = palette();
    chart()->setTheme(hasDarkBase(pal) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart()->setBackgroundBrush(pal.color(QPalette::Base));
    chart()->setTitleBrush(pal.color(QPalette::Text));
    emptyItem_->setDefaultTextColor(pal.color(QPalette::PlaceholderText));
    emptyItem_->backing = pal.color(QPalette::Base);
    emptyItem_->update();
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    chart()->setTitleFont(bold);
    for (QAbstractAxis* a : {static_cast<QAbstractAxis*>(x_), static_cast<QAbstractAxis*>(y_), static_cast<QAbstractAxis*>(logY_)}) {
        a->setLabelsFont(base);
        a->setTitleFont(base);
        a->setLabelsColor(pal.color(QPalette::Text));
        a->setTitleBrush(pal.color(QPalette::Text));
    }
    applyPens();   // setTheme() resets the series' pens
}

void LineChartView::applyPens() {
    for (int i = 0; i < series_.size(); ++i) {
        QPen pen(seriesColour(palette(), i), 2.0);
        if (dashed_[i]) pen.setStyle(Qt::DashLine);
        if (series_[i]->pen() != pen) series_[i]->setPen(pen);
    }
}

void LineChartView::changeEvent(QEvent* e) {
    QChartView::changeEvent(e);
    if (e->type() == QEvent::LocaleChange) {
        localizeChartNumbers(chart(), locale());
        fitYLabelsToTitle();
    }
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) {
        applyTheme();
        fitYLabelsToTitle();
        setMinimumHeight(fontMetrics().height() * kMinimumLines);
        setMinimumWidth(fontMetrics().averageCharWidth() * kMinimumChars);
        placeEmptyText();
        placeLegend();
        placePointLabels();
    }
}

}  // namespace dlab::widgets
