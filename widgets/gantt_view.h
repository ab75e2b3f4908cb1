#pragma once
// A serving run as a Gantt chart: one row per request, x = time (ms) or step. Every step a request
// was in the batch is one bar segment, coloured by what the step did for it (prefill chunk, decode
// token, padding in a static batch); the time it waited from arrival to admission is a thin line
// ending in the first segment. A legend on top names the colours, an axis at the bottom carries
// ticks at 1-2-5 steps. Hovering a segment or a row shows its tooltip (the page writes the
// request's numbers there).
//
// Draws only what setChart() gives; the serving lab builds the chart from the engine's StepRecords
// and RequestTimings (ui/serving/serving_gantt.h).
#include <QList>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace dlab::widgets {

enum class GanttWork { Prefill, Decode, Padding };

struct GanttSegment {
    int row = 0;
    double start = 0.0, end = 0.0;   // x units
    GanttWork work = GanttWork::Decode;
    int tokens = 0;                  // evaluated in that step for that request
    qint64 step = 0;                 // the engine's step index
};

struct GanttRow {
    QString label;                   // "#3"
    double arrival = -1.0;           // x units; < 0: not drawn
    double admitted = -1.0;          // the waiting line ends here (< 0: at the row's first segment)
    QString toolTip;                 // the request's numbers
};

struct GanttChart {
    QList<GanttRow> rows;
    std::vector<GanttSegment> segments;
    QString xTitle;                  // "ms since the run started", "step"
    double xMax = 0.0;               // the axis end; 0: the furthest segment or line
};

class GanttView : public QWidget {
    Q_OBJECT
public:
    explicit GanttView(QWidget* parent = nullptr);

    // Throws std::invalid_argument for a segment whose row does not exist or whose end is before its start.
    void setChart(GanttChart chart);
    const GanttChart& chart() const { return chart_; }
    void clear() { setChart({}); }
    void setPlaceholderText(const QString& text);

    // --- what is drawn where (tests, tooltips) ---
    QRect plotRect() const;                        // the area the rows share
    QRect rowRect(int row) const;                  // null for no such row
    QRect segmentRect(int index) const;            // null for no such segment
    std::optional<int> segmentAt(QPoint pos) const;
    QString tooltipAt(QPoint pos) const;
    QColor workColor(GanttWork work) const;        // as drawn in this palette
    QColor waitColor() const;
    double xAxisMax() const;
    const QList<QRect>& lastTextRects() const { return textRects_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;                // QEvent::ToolTip
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    int legendHeight() const;
    int labelWidth() const;
    double xToPixel(double x, const QRect& plot) const;

    GanttChart chart_;
    QString placeholder_;
    QList<QRect> textRects_;
};

}  // namespace dlab::widgets
