#include "ui/kv/kv_growth_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>
#include <utility>
#include <limits>

#include "widgets/kv_heatmap_view.h"
#include "widgets/line_chart_view.h"
#include "widgets/palette_colors.h"
#include "widgets/number_text.h"

namespace dlab::ui {

KvGrowthPanel::KvGrowthPanel(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    bytes_ = new widgets::LineChartView(this);
    bytes_->setObjectName(QStringLiteral("kvBytesChart"));
    perStep_ = new widgets::LineChartView(this);
    perStep_->setObjectName(QStringLiteral("kvStepTimeChart"));
    total_ = new widgets::LineChartView(this);
    total_->setObjectName(QStringLiteral("kvTotalTimeChart"));
    auto* reuseBox = new QWidget(this);
    auto* reuseLayout = new QVBoxLayout(reuseBox);
    reuseLayout->setContentsMargins(0, 0, 0, 0);
    reuseTitle_ = new QLabel(reuseBox);
    reuseTitle_->setWordWrap(true);
    showWithout_ = new QCheckBox(reuseBox);
    reuse_ = new widgets::KvHeatmapView(reuseBox);
    reuse_->setObjectName(QStringLiteral("kvReuseView"));
    reuseLayout->addWidget(reuseTitle_);
    reuseLayout->addWidget(showWithout_);
    reuseLayout->addWidget(reuse_, 1);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("kvGrowthSummary"));
    grid->addWidget(bytes_, 0, 0);
    grid->addWidget(reuseBox, 0, 1);
    grid->addWidget(perStep_, 1, 0);
    grid->addWidget(total_, 1, 1);
    grid->addWidget(summary_, 2, 0, 1, 2);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    // Two equal columns: by size hints the heatmap's took nearly all of a narrow page (beside the
    // Lessons panel the charts were 60 px wide, their titles "Cache…").
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    connect(showWithout_, &QCheckBox::toggled, this, &KvGrowthPanel::redrawReuse);
    retranslate();
}

void KvGrowthPanel::clear() {
    steps_.clear();
    noCacheDone_ = noCacheStopped_ = false;
    redraw();
}

void KvGrowthPanel::addStep(const KvStepPoint& p) {
    steps_ << p;
    redrawLive();
}

void KvGrowthPanel::redrawLive() {
    // While a run streams in: the charts at most 4 times a second and only when they are on
    // screen, so the GUI thread leaves the cores to the engine (the steps are timed there).
    if (!isVisible()) {
        dirty_ = true;
        return;
    }
    if (live_.isValid() && live_.elapsed() < 250) {
        dirty_ = true;
        return;
    }
    redraw();
    live_.restart();
}

void KvGrowthPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (std::exchange(dirty_, false)) redraw();
}

void KvGrowthPanel::setRun(const KvRunPtr& v) {
    steps_ = v ? v->steps : QList<KvStepPoint>();
    noCacheDone_ = noCacheStopped_ = false;
    redraw();
}

void KvGrowthPanel::addNoCacheStep(int step, qint64 computed, double ms) {
    if (step < 0 || step >= steps_.size()) return;
    steps_[step].withoutCacheComputed = computed;
    steps_[step].withoutCacheMs = ms;
    redrawLive();
}

void KvGrowthPanel::setNoCacheFinished(bool stopped) {
    noCacheDone_ = true;
    noCacheStopped_ = stopped;
    redraw();
}

void KvGrowthPanel::redraw() {
    dirty_ = false;
    QList<QPointF> kib, positions, with, without, totalWith, totalWithout;
    double tw = 0, two = 0;
    // MiB from 2 MiB on: the axis then reads "0, 2, 4, 6" like the caption's "5.27 MiB", not "10000" KiB.
    const bool mib = !steps_.isEmpty() && steps_.last().bytesInUse > (2LL << 20);
    const double unit = mib ? 1024.0 * 1024.0 : 1024.0;
    for (const KvStepPoint& p : steps_) {
        kib << QPointF(p.step, p.bytesInUse / unit);
        positions << QPointF(p.step, double(p.positions));
        if (p.step > 0) with << QPointF(p.step, p.forwardMs);   // step 0 is the prompt's prefill: another scale
        tw += p.forwardMs;
        totalWith << QPointF(p.step, tw);
        if (p.withoutCacheMs >= 0) {
            if (p.step > 0) without << QPointF(p.step, p.withoutCacheMs);
            two += p.withoutCacheMs;
            totalWithout << QPointF(p.step, two);
        }
    }
    bytes_->setTitles(tr("Cache size per step"), tr("step"), mib ? tr("MiB") : tr("KiB"));
    bytes_->setSeries({{mib ? tr("KV bytes in use (MiB)") : tr("KV bytes in use (KiB)"), kib, false}});
    perStep_->setSeries({{tr("with the cache"), with, false}, {tr("without the cache"), without, true}});
    total_->setSeries({{tr("with the cache"), totalWith, false}, {tr("without the cache"), totalWithout, true}});
    redrawReuse();

    if (steps_.isEmpty()) {
        summary_->setText(tr("Run a prompt: every step's cache size and forward-pass time appear here, measured."));
        return;
    }
    const KvStepPoint& last = steps_.last();
    QString text = tr("%n step(s); the cache holds %1 positions in %2 MiB. With the cache each decode step computed "
                      "1 new K/V row per layer and read the rest back.", nullptr, int(steps_.size()))
                       .arg(last.positions)
                       .arg(widgets::decimalText(last.bytesInUse / (1024.0 * 1024.0), 2));
    int measured = 0;
    for (const KvStepPoint& p : steps_) measured += p.withoutCacheMs >= 0;
    if (measured > 1) {
        const KvStepPoint& m = steps_[measured - 1];
        text += QLatin1Char(' ') + tr("Without it, step %1 recomputed all %2 positions: %3 ms against %4 ms, and %5 ms in total "
                                      "against %6 ms over the %7 steps measured.")
                                       .arg(m.step)
                                       .arg(m.withoutCacheComputed)
                                       .arg(widgets::decimalText(m.withoutCacheMs, 1))
                                       .arg(widgets::decimalText(m.forwardMs, 1))
                                       .arg(widgets::decimalText(two, 0))
                                       .arg(widgets::decimalText(totalWith.value(measured - 1).y(), 0))
                                       .arg(measured);
        if (noCacheStopped_) text += QLatin1Char(' ') + tr("(The no-cache timings were stopped.)");
    } else if (!noCacheDone_) {
        text += QLatin1Char(' ') + tr("The no-cache timings follow when Time without the cache is on.");
    }
    summary_->setText(text);
}

void KvGrowthPanel::redrawReuse() {
    widgets::HeatmapGrid g;
    if (!steps_.isEmpty()) {
        const bool without = showWithout_->isChecked();
        const int n = static_cast<int>(steps_.size());
        const int rows = std::min(n, kMaxReuseRows);
        g.rows = rows;
        g.cols = static_cast<int>(steps_.last().positions);
        g.values.assign(static_cast<size_t>(g.rows) * g.cols, std::numeric_limits<float>::quiet_NaN());
        g.categories = {tr("reused from the cache"), tr("computed in this step")};
        const QPalette& pal = palette();
        g.categoryColors = {widgets::mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.35),
                            widgets::probabilityAccent(pal)};
        g.quantity = without ? tr("K/V rows without the cache") : tr("K/V rows with the cache");
        for (int r = 0; r < rows; ++r) {
            // Evenly chosen steps, the first and the last included (every step when they fit).
            const KvStepPoint& p = steps_[rows > 1 ? static_cast<int>(std::llround(double(r) * (n - 1) / (rows - 1))) : 0];
            g.rowLabels << tr("step %1").arg(p.step);
            const qint64 computed = without ? p.positions : p.computed;
            for (qint64 s = 0; s < p.positions && s < g.cols; ++s) g.values[r * g.cols + s] = s < p.positions - computed ? 0.0f : 1.0f;
        }
    }
    if (g.rows > 0 && g.cols > 0) reuse_->setGrid(std::move(g));
    else reuse_->clear();
}

void KvGrowthPanel::retranslate() {
    bytes_->setTitles(tr("Cache size per step"), tr("step"), tr("KiB"));
    perStep_->setTitles(tr("Forward pass per decode step"), tr("step"), tr("ms"));
    total_->setTitles(tr("Total time so far"), tr("step"), tr("ms"));
    bytes_->setEmptyText(tr("Each step's cache size appears as the prompt runs."));
    perStep_->setEmptyText(tr("Each step's time appears as the prompt runs."));
    total_->setEmptyText(tr("Each step's time appears as the prompt runs."));
    reuseTitle_->setText(tr("Which K/V rows each step reused and which it computed (rows: steps, columns: positions)"));
    showWithout_->setText(tr("As without the cache (every row computed again)"));
    reuse_->setPlaceholderText(tr("Run a prompt to see the cache grow."));
    redraw();
}

void KvGrowthPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
    if (e->type() == QEvent::PaletteChange) redrawReuse();
}

}  // namespace dlab::ui
