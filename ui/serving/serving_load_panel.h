#pragma once
// Load: a Poisson load generator (rate, number of requests, prompt and output length ranges, an
// optional shared system prompt, max batch, token budget) and Run: the same trace with static and
// then continuous batching. Per mode the metrics summarize() gives (throughput, TTFT and ITL
// p50 / p99, occupancy, prefix-cache hit rate, padding tokens) and a Gantt chart of the run (one
// row per request, a segment per step it was in the batch), live while it runs, on one x scale
// for both modes so they compare by length.
#include <QElapsedTimer>
#include <QWidget>

#include <map>

#include "ui/serving/serving_gantt.h"
#include "ui/serving/serving_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace dlab::widgets {
class GanttView;
}

namespace dlab::ui {

class ServingLoadPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServingLoadPanel(QWidget* parent = nullptr);

    enum class Metric { Throughput, DecodeThroughput, Ttft, Itl, E2e, Occupancy, PrefixHitRate, Padding, Wall };
    static const std::vector<Metric>& metrics();
    // How the metric table writes a summary's number (the current locale).
    static QString metricText(Metric m, const ServeSummary& s);
    static QString metricName(Metric m);

    ServingLoadRequest request() const;
    void setBusy(bool busy);
    void setModelReady(bool ready);
    void clear();
    void showLive(const ServingLiveRun& live);
    void showRun(const ServingLoadPtr& view);
    GanttAxis axis() const;
    void setAxis(GanttAxis axis);

    widgets::GanttView* gantt(BatchingMode mode) const { return mode == BatchingMode::Static ? staticGantt_ : continuousGantt_; }
    QLabel* metricLabel(Metric m, BatchingMode mode) const;
    QLabel* summaryLabel() const { return summary_; }
    QDoubleSpinBox* rateSpin() const { return rate_; }
    QSpinBox* requestsSpin() const { return requests_; }
    QSpinBox* promptMinSpin() const { return promptMin_; }
    QSpinBox* promptMaxSpin() const { return promptMax_; }
    QSpinBox* outputMinSpin() const { return outputMin_; }
    QSpinBox* outputMaxSpin() const { return outputMax_; }
    QCheckBox* systemPromptCheck() const { return system_; }
    QSpinBox* systemTokensSpin() const { return systemTokens_; }
    QSpinBox* maxBatchSpin() const { return maxBatch_; }
    QSpinBox* tokenBudgetSpin() const { return budget_; }
    QComboBox* axisCombo() const { return axis_; }
    QPushButton* runButton() const { return run_; }

signals:
    void runRequested();
    void settingsChanged();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void redraw();
    void showMetrics();

    QLabel* rateLabel_ = nullptr;
    QDoubleSpinBox* rate_ = nullptr;
    QLabel* requestsLabel_ = nullptr;
    QSpinBox* requests_ = nullptr;
    QLabel* promptLabel_ = nullptr;
    QSpinBox* promptMin_ = nullptr;
    QSpinBox* promptMax_ = nullptr;
    QLabel* outputLabel_ = nullptr;
    QSpinBox* outputMin_ = nullptr;
    QSpinBox* outputMax_ = nullptr;
    QList<QLabel*> dashes_;
    QCheckBox* system_ = nullptr;
    QSpinBox* systemTokens_ = nullptr;
    QLabel* maxBatchLabel_ = nullptr;
    QSpinBox* maxBatch_ = nullptr;
    QLabel* budgetLabel_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QLabel* axisLabel_ = nullptr;
    QComboBox* axis_ = nullptr;
    QPushButton* run_ = nullptr;
    QGroupBox* metricsBox_ = nullptr;
    QLabel* staticHead_ = nullptr;
    QLabel* continuousHead_ = nullptr;
    std::map<Metric, QLabel*> metricNames_;
    std::map<std::pair<Metric, int>, QLabel*> metricValues_;
    QLabel* staticTitle_ = nullptr;
    QLabel* continuousTitle_ = nullptr;
    widgets::GanttView* staticGantt_ = nullptr;
    widgets::GanttView* continuousGantt_ = nullptr;
    QLabel* summary_ = nullptr;

    ServingLoadPtr view_;                  // the last finished run
    std::shared_ptr<const TraceRunResult> live_[2];   // static, continuous while a run goes
    int liveRequests_ = 0;
    bool running_ = false, busy_ = false, modelReady_ = false;
    QElapsedTimer liveRedraw_;
};

}  // namespace dlab::ui
