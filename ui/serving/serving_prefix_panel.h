#pragma once
// Prefix cache: prefixCacheExperiment on the loaded model. Requests that all start with one
// shared system prompt (500 tokens by default) run one after another, with the prefix cache on and
// off: the time to first token both ways (the prefill the cache saves) and the hit rate, in figures,
// as two bars (the medians) and request by request (the first computes the shared prompt either
// way; with the cache the others start from its KV blocks).
#include <QWidget>

#include <map>

#include "ui/serving/serving_types.h"

QT_BEGIN_NAMESPACE
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace dlab::widgets {
class LineChartView;
class ValueBarsView;
}

namespace dlab::ui {

class ServingPrefixPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServingPrefixPanel(QWidget* parent = nullptr);

    enum class Metric { TtftP50, TtftP99, HitRate, PrefillTokens, Wall };
    static const std::vector<Metric>& metrics();
    static QString metricText(Metric m, const ServeSummary& s);

    ServingPrefixRequest request() const;
    void setBusy(bool busy);
    void setModelReady(bool ready);
    void clear();
    void showResult(const ServingPrefixView& v);
    bool hasResult() const { return has_; }
    const ServingPrefixView& result() const { return view_; }

    QLabel* metricLabel(Metric m, bool withCache) const;
    QSpinBox* systemSpin() const { return system_; }
    QSpinBox* userSpin() const { return user_; }
    QSpinBox* outputSpin() const { return output_; }
    QSpinBox* requestsSpin() const { return requests_; }
    QPushButton* runButton() const { return run_; }
    widgets::ValueBarsView* bars() const { return bars_; }
    widgets::LineChartView* perRequestChart() const { return perRequest_; }
    QLabel* summaryLabel() const { return summary_; }

signals:
    void runRequested();
    void settingsChanged();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void redraw();

    QLabel* systemLabel_ = nullptr;
    QSpinBox* system_ = nullptr;
    QLabel* userLabel_ = nullptr;
    QSpinBox* user_ = nullptr;
    QLabel* outputLabel_ = nullptr;
    QSpinBox* output_ = nullptr;
    QLabel* requestsLabel_ = nullptr;
    QSpinBox* requests_ = nullptr;
    QPushButton* run_ = nullptr;
    QGroupBox* box_ = nullptr;
    QLabel* withHead_ = nullptr;
    QLabel* withoutHead_ = nullptr;
    std::map<Metric, QLabel*> names_;
    std::map<std::pair<Metric, bool>, QLabel*> values_;
    widgets::ValueBarsView* bars_ = nullptr;
    QLabel* summary_ = nullptr;
    widgets::LineChartView* perRequest_ = nullptr;
    ServingPrefixView view_;
    bool has_ = false, busy_ = false, modelReady_ = false;
};

}  // namespace dlab::ui
