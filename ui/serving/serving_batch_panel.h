#pragma once
// Batch size: batchSweep on the loaded model (one closed batch of B requests per size B) and the
// trade-off it measures: decode throughput against the inter-token latency each user sees, drawn
// through the measured points, with the numbers in a table. Below, the workloads: interactive
// chat (bound on p99 inter-token latency), batch processing (throughput), code completion (bound
// on p99 time to first token): the batch size workloadAdvice picks from the measurements under
// the bounds the user sets, and why, in a sentence built from the measured numbers.
#include <QWidget>

#include "ui/serving/serving_types.h"

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
QT_END_NAMESPACE

namespace dlab::widgets {
class LineChartView;
}

namespace dlab::ui {

class ServingBatchPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServingBatchPanel(QWidget* parent = nullptr);

    // The batch sizes typed ("1, 2, 4, 8"); throws dlab::Error with a sentence for anything else.
    std::vector<int> batches() const;
    ServingSweepRequest request() const;   // throws like batches()
    void setBusy(bool busy);
    void setModelReady(bool ready);
    void clear();
    void addPoint(const BatchSweepPoint& p);   // live
    void showSweep(const ServingSweepView& v);
    const std::vector<BatchSweepPoint>& points() const { return points_; }
    std::vector<WorkloadAnswer> advice() const;   // workloadAdvice under the bounds shown

    QLineEdit* batchesEdit() const { return batches_; }
    QSpinBox* promptSpin() const { return prompt_; }
    QSpinBox* outputSpin() const { return output_; }
    QDoubleSpinBox* itlBoundSpin() const { return itlBound_; }
    QDoubleSpinBox* ttftBoundSpin() const { return ttftBound_; }
    QPushButton* measureButton() const { return measure_; }
    widgets::LineChartView* chart() const { return chart_; }
    QTableWidget* pointsTable() const { return table_; }
    QTableWidget* workloadTable() const { return workloads_; }
    QLabel* noteLabel() const { return note_; }

signals:
    void measureRequested();
    void settingsChanged();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void redraw();
    void showWorkloads();

    QLabel* batchesLabel_ = nullptr;
    QLineEdit* batches_ = nullptr;
    QLabel* promptLabel_ = nullptr;
    QSpinBox* prompt_ = nullptr;
    QLabel* outputLabel_ = nullptr;
    QSpinBox* output_ = nullptr;
    QPushButton* measure_ = nullptr;
    widgets::LineChartView* chart_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* tableCaption_ = nullptr;
    QGroupBox* workloadBox_ = nullptr;
    QLabel* itlBoundLabel_ = nullptr;
    QDoubleSpinBox* itlBound_ = nullptr;
    QLabel* ttftBoundLabel_ = nullptr;
    QDoubleSpinBox* ttftBound_ = nullptr;
    QTableWidget* workloads_ = nullptr;
    QLabel* note_ = nullptr;
    std::vector<BatchSweepPoint> points_;
    bool busy_ = false, modelReady_ = false, cancelled_ = false;
};

}  // namespace dlab::ui
