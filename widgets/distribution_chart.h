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
class QValueAxis;
QT_END_NAMESPACE

namespace dlab::widgets {

struct DistributionBar {
    int id = -1;            // token id
    QString label;          // printable token text
    double before = 0.0;    // p under the raw logits
    double after = 0.0;     // p after the chain (0 when removed)
    bool removed = false;   // the chain removed this token
};

class DistributionChart : public QChartView {
    Q_OBJECT
public:
    explicit DistributionChart(QWidget* parent = nullptr);

    // Replaces every bar at once (one bulk update per set, not one signal per bar).
    void setBars(const QList<DistributionBar>& bars);
    void clear() { setBars({}); }
    const QList<DistributionBar>& bars() const { return bars_; }

private:
    QList<DistributionBar> bars_;
    QBarSeries* series_ = nullptr;
    QBarSet* beforeSet_ = nullptr;
    QBarSet* afterSet_ = nullptr;
    QBarCategoryAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
};

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::DistributionBar)
