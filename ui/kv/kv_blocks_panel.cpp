#include "ui/kv/kv_blocks_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <utility>

#include "widgets/kv_block_table_view.h"
#include "widgets/number_text.h"

namespace dlab::ui {

KvBlocksPanel::KvBlocksPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* sourceRow = new QHBoxLayout;
    sourceLabel_ = new QLabel(this);
    source_ = new QComboBox(this);
    source_->setObjectName(QStringLiteral("kvBlocksSource"));
    source_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    source_->addItem(QString(), QString());
    source_->addItem(QString(), QStringLiteral("playground"));
    sourceLabel_->setBuddy(source_);
    refresh_ = new QPushButton(this);
    sourceRow->addWidget(sourceLabel_);
    sourceRow->addWidget(source_);
    sourceRow->addWidget(refresh_);
    sourceRow->addStretch(1);
    layout->addLayout(sourceRow);
    connect(source_, &QComboBox::currentIndexChanged, this, [this] {
        if (!showingRun()) emit poolRequested(source_->currentData().toString());
        retranslate();
    });
    connect(refresh_, &QPushButton::clicked, this, [this] {
        if (!showingRun()) emit poolRequested(source_->currentData().toString());
    });
    auto* numbers = new QHBoxLayout;
    paged_ = new QLabel(this);
    paged_->setWordWrap(true);
    paged_->setObjectName(QStringLiteral("kvPagedSummary"));
    contiguous_ = new QLabel(this);
    contiguous_->setWordWrap(true);
    contiguous_->setObjectName(QStringLiteral("kvContiguousSummary"));
    paged_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    contiguous_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    numbers->addWidget(paged_, 1);
    numbers->addWidget(contiguous_, 1);
    layout->addLayout(numbers);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    view_ = new widgets::KvBlockTableView;
    view_->setObjectName(QStringLiteral("kvBlockTable"));
    scroll->setWidget(view_);
    layout->addWidget(scroll, 1);
    retranslate();
}

bool KvBlocksPanel::showingRun() const { return source_->currentData().toString().isEmpty(); }

void KvBlocksPanel::setSource(const QString& source) { source_->setCurrentIndex(std::max(0, source_->findData(source))); }

void KvBlocksPanel::showPool(const KvPoolView& v) {
    pool_ = v;
    retranslate();
}

void KvBlocksPanel::clear() {
    run_.reset();
    view_->clear();
    retranslate();
}

void KvBlocksPanel::setRun(const KvRunPtr& v) {
    run_ = v;
    retranslate();
}

void KvBlocksPanel::retranslate() {
    sourceLabel_->setText(tr("Seque&nces of:"));
    source_->setItemText(0, tr("this page's run"));
    source_->setItemText(1, tr("the Playground's session (its branches)"));
    refresh_->setText(tr("Re&fresh"));
    refresh_->setVisible(!showingRun());
    if (!showingRun()) {
        if (pool_.source != source_->currentData().toString() || !pool_.available) {
            view_->clear();
            paged_->setText(pool_.source == source_->currentData().toString()
                                ? tr("The Playground has no session: Step or Run there, branch from a token, then Refresh here.")
                                : tr("Reading the Playground's pool…"));
            contiguous_->clear();
            return;
        }
        showReport(pool_.blocks, pool_.allocation);
        return;
    }
    if (!run_) {
        view_->clear();
        paged_->setText(tr("Run a prompt (with several continuations to see blocks shared) to fill the pool."));
        contiguous_->clear();
        return;
    }
    // The sequences' names in the current language (the engine's data has none).
    widgets::BlockTableData data = run_->blocks;
    for (size_t i = 0; i < data.sequences.size(); ++i)
        data.sequences[i].label = data.sequences.size() == 1 ? tr("sequence") : tr("continuation %1").arg(i + 1);
    showReport(data, run_->allocation);
}

void KvBlocksPanel::showReport(const widgets::BlockTableData& blocks, const KvAllocationReport& a) {
    view_->setData(blocks);
    paged_->setText(tr("<b>Paged (the pool as it stands)</b><br>%n sequence(s), %1 positions in %2 blocks of %3: %4 in use. "
                       "Unused slots in partly filled blocks: %5 (%6 %). Sharing saved %7: without copy-on-write every "
                       "sequence would hold its own copy of the shared blocks.",
                       nullptr, int(a.sequences))
                        .arg(widgets::integerText(a.positions))
                        .arg(widgets::integerText(a.pagedBlocks))
                        .arg(a.blockSize)
                        .arg(widgets::byteText(double(a.pagedBytes)))
                        .arg(widgets::byteText(double(a.pagedUnusedBytes)))
                        .arg(widgets::decimalText(100.0 * a.pagedWasteFraction(), 1))
                        .arg(widgets::byteText(double(a.bytesSavedBySharing))));
    contiguous_->setText(tr("<b>Contiguous (reserve the whole context)</b><br>%1 positions reserved per sequence: %2 for "
                            "%n sequence(s), of which %3 (%4 %) hold nothing. That is %5× the paged pool's bytes; "
                            "paging wastes at most one partly filled block per sequence.",
                            nullptr, int(a.sequences))
                             .arg(widgets::integerText(a.contextLength))
                             .arg(widgets::byteText(double(a.contiguousBytes)))
                             .arg(widgets::byteText(double(a.contiguousUnusedBytes)))
                             .arg(widgets::decimalText(100.0 * a.contiguousWasteFraction(), 1))
                             .arg(widgets::decimalText(a.pagedBytes > 0 ? double(a.contiguousBytes) / double(a.pagedBytes) : 0.0, 1)));
}

void KvBlocksPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace dlab::ui
