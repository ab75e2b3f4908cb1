#pragma once
// What one request's user sees over time, with streaming against without. Two lanes on one time
// axis (ms since the request arrived); in each, the height of the filled area is how much of the
// answer is on screen:
//   with streaming     nothing until the first token (the time to first token), then one step up
//                      at every token's time, so the text grows as it is generated;
//   without streaming  nothing until the request finishes, then the whole answer at once.
// Hovering a token's step shows its index and time. Draws the times it is given (the serving lab
// passes a request's RequestTimings::tokenMs).
#include <QList>
#include <QString>
#include <QWidget>

#include <vector>

namespace dlab::widgets {

struct StreamingTimeline {
    std::vector<double> tokenMs;     // every generated token, ms since the request arrived (ascending)
    double finishedMs = -1.0;        // the whole answer is there; < 0: the last token's time
};

class StreamingTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit StreamingTimelineView(QWidget* parent = nullptr);

    // Throws std::invalid_argument for times that are negative, not finite or not ascending.
    void setTimeline(StreamingTimeline timeline);
    const StreamingTimeline& timeline() const { return timeline_; }
    void clear() { setTimeline({}); }
    void setPlaceholderText(const QString& text);

    double finishedMs() const;               // finishedMs, or the last token's time
    QRect laneRect(int lane) const;          // 0: with streaming, 1: without; the area the fill uses
    QRect tokenStepRect(int index) const;    // lane 0: from token index's time to the next one's
    QRect bufferedRect() const;              // lane 1: from the end to the axis end
    QString tooltipAt(QPoint pos) const;
    QColor fillColor() const;
    QColor waitColor() const;
    const QList<QRect>& lastTextRects() const { return textRects_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    int labelWidth() const;
    QRect plotRect() const;
    double axisMax() const;
    int xOf(double ms) const;

    StreamingTimeline timeline_;
    QString placeholder_;
    QList<QRect> textRects_;
};

}  // namespace dlab::widgets
