#pragma once
// The current step's top-N tokens as grouped bars: probability before the sampler chain (softmax
// of the raw logits) beside after it (the last stage's renormalised survivors). Tokens the chain
// removed are drawn grey. Qt only: callers hand in plain DistributionBar values.
#include <QChartView>
#include <QList>
#include <QMetaType>
#include <QString>

QT_BEGIN_NAMESPACE
class QBarSet;
class QBarSeries;
class QBarCategoryAxis;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace dlab::widgets {

class MarkerLabel;

struct DistributionBar {
    int id = -1;            // token id
    QString label;          // printable token text
    double before = 0.0;    // p under the raw logits
    double after = 0.0;     // p after the chain (0 when removed)
    bool removed = false;   // the chain removed this token
};

// Where the chain cut the distribution, drawn over the bars: the cumulative-probability line of
// the distribution the top-p stage sees (bar order), and vertical markers after the last bar
// top-k and top-p kept. Indices beyond the bars shown are reported in the chart's caption.
struct DistributionCutoffs {
    QList<double> cumulative;  // one per bar, non-decreasing, <= 1; empty = no line
    int topK = 0;              // the setting; 0 = off
    int topKKept = -1;         // tokens the top-k stage kept; -1 = stage not in the chain this step
    double topP = 1.0;         // the setting; 1 = off
    int topPKept = -1;         // tokens the top-p stage kept; -1 = stage not in the chain
};

class DistributionChart : public QChartView {
    Q_OBJECT
public:
    explicit DistributionChart(QWidget* parent = nullptr);

    // Replaces every bar at once (one bulk update per set, not one signal per bar).
    void setBars(const QList<DistributionBar>& bars, const DistributionCutoffs& cutoffs = {});
    void clear() { setBars({}); }
    const QList<DistributionBar>& bars() const { return bars_; }
    const DistributionCutoffs& cutoffs() const { return cutoffs_; }

    // What the cut-offs drew, for tests and the page: the cumulative line (x = bar index, on the
    // right-hand "cumulative" axis), the x of the top-k / top-p markers on the bar index scale
    // (kept - 0.5, between the last kept bar and the first cut one; -1 when not drawn), the top-p
    // level line's y (-1 when not drawn) and the note on cuts beyond the bars shown (empty if none).
    QLineSeries* cumulativeSeries() const { return cumulative_; }
    qreal topKMarkerX() const { return topKX_; }
    qreal topPMarkerX() const { return topPX_; }
    qreal topPLevel() const { return topPLevel_; }
    QString caption() const { return caption_; }

protected:
    void changeEvent(QEvent* e) override;   // palette: light / dark chart theme; language: texts

private:
    void applyTheme();
    void applyTexts();
    void updateCutoffs();
    void placeMarkerLabels();
    static QLineSeries* makeOverlaySeries();

    QList<DistributionBar> bars_;
    DistributionCutoffs cutoffs_;
    QList<int> removed_;   // bars drawn as removed (selected), to skip re-selecting the same ones
    QBarSeries* series_ = nullptr;
    QBarSet* beforeSet_ = nullptr;
    QBarSet* afterSet_ = nullptr;
    QBarCategoryAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    // The overlay shares the bars' plot area: a hidden x axis over -0.5 .. n - 0.5 puts x = i on
    // bar i's centre, a right-hand axis 0 .. 1 carries cumulative probability.
    QValueAxis* overlayX_ = nullptr;
    QValueAxis* cumulativeAxis_ = nullptr;
    QLineSeries* cumulative_ = nullptr;
    QLineSeries* topKMarker_ = nullptr;
    QLineSeries* topPMarker_ = nullptr;
    QLineSeries* topPLevelLine_ = nullptr;
    MarkerLabel* topKLabel_ = nullptr;
    MarkerLabel* captionLabel_ = nullptr;
    MarkerLabel* topPLabel_ = nullptr;
    qreal topKX_ = -1.0, topPX_ = -1.0, topPLevel_ = -1.0;
    QString caption_;
};

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::DistributionBar)
Q_DECLARE_METATYPE(dlab::widgets::DistributionCutoffs)
