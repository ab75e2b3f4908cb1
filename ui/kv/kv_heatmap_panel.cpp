#include "ui/kv/kv_heatmap_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include "widgets/flow_layout.h"
#include "widgets/kv_heatmap_view.h"

namespace dlab::ui {

namespace {
const KvCellQuantity kQuantities[] = {KvCellQuantity::Attention, KvCellQuantity::Bytes,    KvCellQuantity::Sharing,
                                      KvCellQuantity::KeyNorm,   KvCellQuantity::ValueNorm, KvCellQuantity::KeyError,
                                      KvCellQuantity::ValueError};
}

KvHeatmapPanel::KvHeatmapPanel(QWidget* parent) : QWidget(parent), run_(std::make_shared<KvRunView>()) {
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    quantityLabel_ = new QLabel(this);
    quantity_ = new QComboBox(this);
    quantity_->setObjectName(QStringLiteral("kvQuantity"));
    quantity_->setSizeAdjustPolicy(QComboBox::AdjustToContents);   // its items change with the language
    for (KvCellQuantity q : kQuantities) quantity_->addItem(QString(), int(q));
    quantityLabel_->setBuddy(quantity_);
    rowsLabel_ = new QLabel(this);
    rows_ = new QComboBox(this);
    rows_->setObjectName(QStringLiteral("kvRows"));
    rows_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rows_->addItem(QString(), int(KvHeatmapRows::Layers));
    rows_->addItem(QString(), int(KvHeatmapRows::KvHeads));
    rowsLabel_->setBuddy(rows_);
    stepLabel_ = new QLabel(this);
    step_ = new QSlider(Qt::Horizontal, this);
    step_->setObjectName(QStringLiteral("kvAttentionStep"));
    step_->setRange(0, 0);
    stepLabel_->setBuddy(step_);
    log_ = new QCheckBox(this);
    log_->setObjectName(QStringLiteral("kvLogScale"));
    log_->setChecked(true);   // attention spans orders of magnitude: linear shows little but the sink
    // The choices wrap in a narrow window (a label stays with its box); the step slider shares
    // the row and keeps room to slide (beside the Lessons panel the choices took the row and left
    // it 15 px).
    auto* choices = new widgets::FlowLayout;
    choices->addGroup({quantityLabel_, quantity_});
    choices->addGroup({rowsLabel_, rows_});
    choices->addGroup({log_});
    step_->setMinimumWidth(12 * step_->fontMetrics().averageCharWidth());
    controls->addLayout(choices, 1);
    controls->addWidget(stepLabel_);
    controls->addWidget(step_, 1);
    layout->addLayout(controls);
    view_ = new widgets::KvHeatmapView(this);
    view_->setObjectName(QStringLiteral("kvHeatmap"));
    view_->setTooltipProvider([this](int row, int col) { return extraTooltip(row, col); });
    layout->addWidget(view_, 1);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    layout->addWidget(note_);
    connect(quantity_, &QComboBox::currentIndexChanged, this, &KvHeatmapPanel::rebuild);
    connect(rows_, &QComboBox::currentIndexChanged, this, &KvHeatmapPanel::rebuild);
    connect(step_, &QSlider::valueChanged, this, &KvHeatmapPanel::rebuild);
    connect(log_, &QCheckBox::toggled, this, &KvHeatmapPanel::rebuild);
    retranslate();
}

KvCellQuantity KvHeatmapPanel::quantity() const { return KvCellQuantity(quantity_->currentData().toInt()); }
KvHeatmapRows KvHeatmapPanel::rows() const { return KvHeatmapRows(rows_->currentData().toInt()); }
int KvHeatmapPanel::attentionIndex() const { return step_->value(); }

void KvHeatmapPanel::setQuantity(KvCellQuantity q) { quantity_->setCurrentIndex(quantity_->findData(int(q))); }
void KvHeatmapPanel::setRows(KvHeatmapRows r) { rows_->setCurrentIndex(rows_->findData(int(r))); }
void KvHeatmapPanel::setAttentionIndex(int index) { step_->setValue(index); }

void KvHeatmapPanel::clear() {
    run_ = std::make_shared<KvRunView>();
    step_->setRange(0, 0);
    rebuild();
}

void KvHeatmapPanel::setRun(const KvRunPtr& v) {
    run_ = v ? v : std::make_shared<KvRunView>();
    const QSignalBlocker block(step_);
    step_->setRange(0, std::max(0, int(run_->attention.size()) - 1));
    step_->setValue(step_->maximum());   // the newest token's attention first
    rebuild();
}

void KvHeatmapPanel::setBusy(bool busy) {
    if (busy == busy_) return;
    busy_ = busy;
    rebuild();
}

void KvHeatmapPanel::rebuild() {
    const KvCellQuantity q = quantity();
    step_->setEnabled(q == KvCellQuantity::Attention && run_->attention.size() > 1);
    const int index = step_->value();
    if (q == KvCellQuantity::Attention && index < run_->attention.size())
        stepLabel_->setText(tr("Step %1:").arg(run_->attention[index].step));
    else
        stepLabel_->setText(tr("Step:"));
    log_->setEnabled(q == KvCellQuantity::Attention || q == KvCellQuantity::KeyNorm || q == KvCellQuantity::ValueNorm ||
                     q == KvCellQuantity::KeyError || q == KvCellQuantity::ValueError);
    widgets::HeatmapGrid g = kvHeatmapGrid(*run_, q, rows(), index, log_->isChecked() && log_->isEnabled());
    if (g.isEmpty()) {
        view_->clear();
        if (run_->nSlots == 0 && busy_) view_->setPlaceholderText(tr("The run is filling the cache; the map appears when it ends."));
        else if (run_->nSlots == 0) view_->setPlaceholderText(tr("Run a prompt to fill the cache."));
        else if (q == KvCellQuantity::KeyError || q == KvCellQuantity::ValueError)
            view_->setPlaceholderText(tr("The cache is f32: there is nothing to compare. Run with f16 or q8_0 to see the error."));
        else view_->setPlaceholderText(tr("This run recorded no attention."));
    } else {
        view_->setGrid(std::move(g));
    }
    QString note;
    if (run_->nHeadKv > 0) {
        const qint64 group = run_->nHead / run_->nHeadKv;
        note = run_->nHeadKv == run_->nHead
                   ? tr("Every query head has its own K/V head (multi-head attention): %1 K/V heads per layer.").arg(run_->nHead)
                   : tr("Grouped-query attention: %1 query heads share %2 K/V heads, %3 per group — the cache stores %2 "
                        "heads per layer, not %1. Choose 'Layers × KV heads' to see each group.")
                         .arg(run_->nHead)
                         .arg(run_->nHeadKv)
                         .arg(group);
        if (q == KvCellQuantity::Attention && run_->attention.size() > 1)
            note += QLatin1Char(' ') + tr("Attention was recorded at %n step(s) of this run; the slider walks through them.", nullptr,
                                          int(run_->attention.size()));
    }
    note_->setText(note);
}

QString KvHeatmapPanel::extraTooltip(int row, int col) const {
    Q_UNUSED(col);
    if (rows() != KvHeatmapRows::KvHeads || run_->nHeadKv <= 0) return {};
    const qint64 group = run_->nHead / run_->nHeadKv;
    const qint64 head = row % run_->nHeadKv;
    return tr("K/V head %1 is read by query heads %2–%3").arg(head).arg(head * group).arg(head * group + group - 1);
}

void KvHeatmapPanel::retranslate() {
    quantityLabel_->setText(tr("Sho&w:"));
    rowsLabel_->setText(tr("R&ows:"));
    for (int i = 0; i < quantity_->count(); ++i) quantity_->setItemText(i, kvCellQuantityName(KvCellQuantity(quantity_->itemData(i).toInt())));
    log_->setText(tr("&Log colours"));
    log_->setToolTip(tr("Colours on a log scale: small attention weights (down to 1 % of an even share) become distinguishable"));
    rows_->setItemText(0, tr("Layers"));
    rows_->setItemText(1, tr("Layers × KV heads"));
    rebuild();
}

void KvHeatmapPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
