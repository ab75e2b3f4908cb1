#pragma once
// Growth: the cache per step, measured. Bytes in use per step (a staircase: whole blocks), the
// lesson's picture of which K/V rows each step reused from the cache and which it computed (or,
// switched to "without the cache", computed again), and the forward pass's time per step and in
// total with the cache beside the no-cache mode on the same tokens: flat against growing per
// step, linear against quadratic in total — on this machine's timings.
#include <QElapsedTimer>
#include <QWidget>

#include "ui/kv/kv_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
QT_END_NAMESPACE

namespace dlab::widgets {
class KvHeatmapView;
class LineChartView;
}

namespace dlab::ui {

class KvGrowthPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvGrowthPanel(QWidget* parent = nullptr);

    static constexpr int kMaxReuseRows = 256;   // steps drawn in the reuse picture (evenly chosen)

    void clear();
    void addStep(const KvStepPoint& p);          // live during a run
    void setRun(const KvRunPtr& v);
    void addNoCacheStep(int step, qint64 computed, double ms);
    void setNoCacheFinished(bool stopped);

    const QList<KvStepPoint>& steps() const { return steps_; }
    widgets::LineChartView* bytesChart() const { return bytes_; }
    widgets::LineChartView* stepChart() const { return perStep_; }
    widgets::LineChartView* totalChart() const { return total_; }
    widgets::KvHeatmapView* reuseView() const { return reuse_; }
    QCheckBox* withoutCacheCheck() const { return showWithout_; }
    QLabel* summaryLabel() const { return summary_; }

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void retranslate();
    void redraw();
    void redrawReuse();

    void redrawLive();   // at most every 100 ms while measurements stream in

    QList<KvStepPoint> steps_;
    QElapsedTimer live_;
    bool dirty_ = false;   // steps arrived that are not drawn yet
    bool noCacheDone_ = false, noCacheStopped_ = false;
    widgets::LineChartView* bytes_ = nullptr;
    widgets::LineChartView* perStep_ = nullptr;
    widgets::LineChartView* total_ = nullptr;
    widgets::KvHeatmapView* reuse_ = nullptr;
    QCheckBox* showWithout_ = nullptr;
    QLabel* reuseTitle_ = nullptr;
    QLabel* summary_ = nullptr;
};

}  // namespace dlab::ui
