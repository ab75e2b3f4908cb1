#pragma once
// A small line chart for measured series (per-step times, bytes per step, per-token loss): named
// series of (x, y) points, two axis titles, optional log y. Follows the widget's font (presentation
// mode) and palette (light / dark) as the distribution chart does. Points are replaced in bulk.
#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
class QLogValueAxis;
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace dlab::widgets {

class NoteItem;

struct LineSeriesData {
    QString name;
    QList<QPointF> points;
    bool dashed = false;
    bool markers = false;   // a dot on every point (measured points joined by a line)
    // A short text beside each point ("8" for batch size 8), in the order of `points`; empty: none.
    // A label goes where it overlaps neither the plot's edge nor another label, else it is left out.
    QStringList pointLabels;
};

class LineChartView : public QChartView {
    Q_OBJECT
public:
    explicit LineChartView(QWidget* parent = nullptr);

    void setTitles(const QString& title, const QString& xTitle, const QString& yTitle);
    void setLogY(bool on);
    // The x axis's label format (QValueAxis::setLabelFormat; "%.0f" by default, "%.1f" for fractions),
    // used where the ticks are not whole numbers (a whole-number step drops the decimals).
    // Always "%.<precision>" and one of d e f g i E G: the labels are localized, and Qt Charts
    // leaves them empty for any other format.
    void setXLabelFormat(const QString& format);
    // Replaces every series; the axes fit the finite points (y from 0 on a linear axis).
    void setSeries(const QList<LineSeriesData>& series);
    int seriesCount() const { return static_cast<int>(series_.size()); }
    QList<QPointF> points(int series) const;
    QString seriesName(int series) const;
    // Shown in the middle of the plot while no series has a point ("Run eviction to draw …"); the
    // axes are drawn either way.
    void setEmptyText(const QString& text);
    QString emptyText() const { return emptyText_; }
    bool emptyTextShown() const;
    // The legend under the plot, drawn by the view (Qt Charts' own cut long names to "bei
    // p50-Abstand zwis…" in a narrow chart): entries wrap onto further lines instead, centred.
    // Its plain text (every series name whole) and its rectangle in scene coordinates.
    QString legendText() const;
    QRectF legendRect() const;
    // The point labels drawn (LineSeriesData::pointLabels) and their rectangles in scene
    // coordinates, in series then point order; labels with no room are not listed.
    QStringList pointLabelTexts() const;
    QList<QRectF> pointLabelRects() const;

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void placeEmptyText();
    void placeLegend();
    void placePointLabels();
    void applyTheme();
    void applyPens();
    void rebuildAxes();
    // Qt Charts keeps room for a y title only as tall as "..." plus what the tick labels are
    // wider than "...": a taller title (Chinese "奈特") next to one-digit labels was cut to "...".
    // Pads the labels with trailing spaces just enough to hold it.
    void fitYLabelsToTitle();

    QList<QLineSeries*> series_;
    // No points, no legend entry: Qt Charts draws an axis only while a series is attached to it,
    // so an empty chart kept only its title.
    QLineSeries* axisHolder_ = nullptr;
    NoteItem* emptyItem_ = nullptr;
    QGraphicsTextItem* legendItem_ = nullptr;
    struct PointLabel {
        QGraphicsSimpleTextItem* item;
        int series;
        QPointF at;   // the point, in data coordinates
    };
    QList<PointLabel> pointLabels_;
    QString legendHtml_;
    QString emptyText_;
    QList<bool> dashed_, markers_;
    QValueAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
    QLogValueAxis* logY_ = nullptr;
    bool log_ = false;
    QString xFormat_ = QStringLiteral("%.0f");   // setXLabelFormat: the most decimals the x labels get
    QString title_, xTitle_, yTitle_;
};

// Distinct line colours that read on the palette's base (index wraps).
QColor seriesColour(const QPalette& pal, int index);

}  // namespace dlab::widgets
