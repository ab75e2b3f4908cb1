#pragma once
// The current step's top-N tokens as grouped bars: probability before the sampler chain (softmax
// of the raw logits) beside after it (the last stage's renormalised survivors). Tokens the chain
// removed are drawn grey. Qt only: callers hand in plain DistributionBar values.
#include <QChartView>
#include <QList>
#include <QMetaType>
#include <QPolygonF>
#include <QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QBarSet;
class QBarSeries;
class QBarCategoryAxis;
class QLineSeries;
class QCategoryAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace dlab::widgets {

class MarkerLabel;
class ForbiddenMark;
class TokenAxisLabels;

struct DistributionBar {
    int id = -1;            // token id
    QString label;          // printable token text
    double before = 0.0;    // p under the raw logits
    double after = 0.0;     // p after the chain (0 when removed)
    bool removed = false;   // the chain removed this token
    bool forbidden = false; // a constraint (the chain's grammar stage) forbade it: drawn hatched
};

// Where the chain cut the distribution, drawn over the bars: the cumulative-probability line of
// the distribution the top-p stage sees (bar order), and vertical markers after the last bar
// top-k, top-p and min-p kept. A marker is drawn only where its stage really removed tokens this
// step (at T = 0 the temperature stage has already left one token, so top-k removes nothing);
// cuts beyond the bars shown and stages that removed nothing are reported in the caption.
struct DistributionCutoffs {
    QList<double> cumulative;  // one per bar, non-decreasing, <= 1; empty = no line
    int topK = 0;              // the setting; 0 = off
    int topKKept = -1;         // tokens the top-k stage kept; -1 = stage not in the chain this step
    bool topKCut = false;      // the top-k stage removed tokens this step
    double topP = 1.0;         // the setting; 1 = off
    int topPKept = -1;         // tokens the top-p stage kept; -1 = stage not in the chain
    bool topPCut = false;
    double minP = 0.0;         // the setting; 0 = off
    int minPKept = -1;         // tokens the min-p stage kept; -1 = stage not in the chain
    bool minPCut = false;
};

class DistributionChart : public QChartView {
    Q_OBJECT
public:
    explicit DistributionChart(QWidget* parent = nullptr);
    ~DistributionChart() override;

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
    qreal minPMarkerX() const { return minPX_; }
    QString caption() const { return caption_; }
    // The marker labels as drawn ("top-k = 40"; empty when hidden).
    QString topKLabelText() const;
    QString topPLabelText() const;
    QString minPLabelText() const;

    // Bars a constraint forbade (DistributionBar::forbidden) get a mark: their "before" bar
    // hatched and a band under the bar pair, with "forbidden by the grammar" in the legend while
    // any is shown. The bar indices marked as laid out now, and a mark's rectangle (the hatched
    // bar and the band, in view coordinates; empty when not marked), for tests.
    QList<int> forbiddenMarks() const;
    QRectF forbiddenMarkRect(int index) const;
    bool forbiddenLegendShown() const;

    // Logarithmic probability axis: small probabilities become readable; p = 0 bars (removed
    // tokens after the chain) sit on the axis floor, drawn with no height. In log scale the bar
    // sets hold log10(p / logFloor()), the axis labels the powers of ten.
    double logFloor() const { return logFloor_; }
    void setLogScale(bool on);
    bool logScale() const { return log_; }
    // One distribution instead of a sampler's before / after pair (the beam tree's nodes): one bar
    // per token, "model probability" in the legend.
    void setSingleDistribution(bool on);
    bool singleDistribution() const { return single_; }
    // Thickness factor for the marker and cumulative lines (presentation mode), 1 = normal.
    void setLineScale(double scale);
    double lineScale() const { return lineScale_; }
    // Every caption, axis title and marker label the chart had to elide or cut, as last laid out
    // (empty when everything fits). Includes texts Qt Charts truncated itself. Token labels
    // shortened to the length cap (the whole token is in their tooltip) are not counted; token
    // labels left out for lack of width are.
    QStringList elidedTexts() const;
    // The token labels drawn under the bars, as scene rectangles (tests measure them against the
    // legend), and the legend's first entry's top in scene coordinates (-1 when hidden).
    QList<QRectF> tokenLabelRects() const;
    // The visible marker labels (top-k, top-p, min-p) and the cumulative line's points, in scene
    // coordinates: a label never sits on the line it is read against.
    QList<QRectF> markerLabelRects() const;
    QPolygonF cumulativeLine() const;
    qreal legendEntriesTop() const;

protected:
    void changeEvent(QEvent* e) override;   // palette: light / dark chart theme; language: texts; font
    void resizeEvent(QResizeEvent* e) override;

private:
    static constexpr int kTitleLines = 19;   // below this many text lines of height, no chart title
    void applyTheme();
    void fitCumulativeTicks();   // as many cumulative-axis labels as the plot's height holds
    void applyFonts();
    void applyPens();
    void applyAxisTitles();
    void fitTokenLabels();              // their font (from the bars' width) and length cap
    int labelCapPx() const;             // the longest a token label may be drawn, from the height
    void reserveLabelRoom();            // room under the plot for the token labels as they are now
    QString barToolTip(int index) const;           // the whole token and its p
    void showBarToolTip(bool entered, int index);  // ... on hovering a bar
    void layoutCaption();
    void applyTexts();
    void updateCutoffs();
    void placeLabels();   // the marker labels, the caption and the token labels, on the plot as laid out
    void placeForbiddenMarks();
    static QLineSeries* makeOverlaySeries();

    QList<DistributionBar> bars_;
    std::unique_ptr<TokenAxisLabels> tokenLabels_;
    qreal legendBaseTop_ = 0.0;   // the legend's own top contents margin, before the labels' room
    int baseBottomMargin_ = 0;    // the chart's own bottom margin, likewise (used while no legend)
    int reservedExtent_ = 0;      // the room reserved for the labels now
    int valueTicks_ = 5;   // the probability axis's ticks for its current scale, where they fit
    DistributionCutoffs cutoffs_;
    bool single_ = false;
    QList<int> removed_;   // bars drawn as removed (selected), to skip re-selecting the same ones
    QBarSeries* series_ = nullptr;
    QBarSet* beforeSet_ = nullptr;
    QBarSet* afterSet_ = nullptr;
    QBarCategoryAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    // Log scale: bars carry log10(p / floor) on a linear axis labelled in powers of ten (a
    // QLogValueAxis maps every bar's base, 0, through log and warns on each layout).
    QCategoryAxis* logAxisY_ = nullptr;
    double logFloor_ = 1e-3;
    // The overlay shares the bars' plot area: a hidden x axis over -0.5 .. n - 0.5 puts x = i on
    // bar i's centre, a right-hand axis 0 .. 1 carries cumulative probability.
    QValueAxis* overlayX_ = nullptr;
    QValueAxis* cumulativeAxis_ = nullptr;
    QLineSeries* cumulative_ = nullptr;
    QLineSeries* topKMarker_ = nullptr;
    QLineSeries* topPMarker_ = nullptr;
    QLineSeries* topPLevelLine_ = nullptr;
    QLineSeries* minPMarker_ = nullptr;
    MarkerLabel* topKLabel_ = nullptr;
    MarkerLabel* captionLabel_ = nullptr;
    MarkerLabel* topPLabel_ = nullptr;
    MarkerLabel* minPLabel_ = nullptr;
    QList<ForbiddenMark*> forbiddenMarks_;   // one per bar, hidden unless forbidden
    QAreaSeries* forbiddenLegend_ = nullptr;  // no points: only its legend entry, shown while marks are
    qreal topKX_ = -1.0, topPX_ = -1.0, minPX_ = -1.0, topPLevel_ = -1.0;
    QString caption_;
    QStringList notes_;        // the caption's parts, wrapped into lines by layoutCaption
    int captionLines_ = 1;     // lines reserved above the plot for the caption
    int baseTopMargin_ = 0;    // the chart's own top margin, before the caption's reserve
    bool log_ = false;
    double lineScale_ = 1.0;
    QStringList ownElided_;    // texts this class elided itself (caption lines)
};

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::DistributionBar)
Q_DECLARE_METATYPE(dlab::widgets::DistributionCutoffs)
