#include "widgets/distribution_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include <algorithm>

namespace dlab::widgets {

DistributionChart::DistributionChart(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart;
    chart->setTitle(tr("Next-token distribution"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);

    beforeSet_ = new QBarSet(tr("before the chain"));
    afterSet_ = new QBarSet(tr("after the chain"));
    beforeSet_->setColor(QColor(0x9c, 0xb8, 0xd9));
    afterSet_->setColor(QColor(0x1f, 0x5f, 0xa8));
    // Removed tokens are "selected" bars: Qt Charts colours a selected bar per bar, not per set.
    beforeSet_->setSelectedColor(QColor(0xd0, 0xd0, 0xd0));
    afterSet_->setSelectedColor(QColor(0xa0, 0xa0, 0xa0));

    series_ = new QBarSeries;
    series_->append(beforeSet_);
    series_->append(afterSet_);
    chart->addSeries(series_);

    axisX_ = new QBarCategoryAxis;
    axisX_->setLabelsAngle(-60);
    axisY_ = new QValueAxis;
    axisY_->setRange(0.0, 1.0);
    axisY_->setLabelFormat("%.2f");
    axisY_->setTitleText(tr("probability"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    series_->attachAxis(axisX_);
    series_->attachAxis(axisY_);

    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(260);
}

void DistributionChart::setBars(const QList<DistributionBar>& bars) {
    bars_ = bars;
    QList<qreal> before, after;
    QStringList categories;
    double top = 0.0;
    for (const auto& b : bars) {
        before << b.before;
        after << b.after;
        // Categories must be unique: two tokens may print alike ("\n" pieces, byte tokens).
        QString label = b.label;
        while (categories.contains(label)) label += QChar(0x200B);
        categories << label;
        top = std::max({top, b.before, b.after});
    }
    beforeSet_->deselectAllBars();
    afterSet_->deselectAllBars();
    beforeSet_->remove(0, beforeSet_->count());
    afterSet_->remove(0, afterSet_->count());
    beforeSet_->append(before);
    afterSet_->append(after);
    QList<int> removed;
    for (int i = 0; i < bars.size(); ++i)
        if (bars[i].removed) removed << i;
    beforeSet_->selectBars(removed);
    afterSet_->selectBars(removed);
    axisX_->setCategories(categories);
    axisY_->setRange(0.0, top > 0.0 ? std::min(1.0, top * 1.1) : 1.0);
}

}  // namespace dlab::widgets
