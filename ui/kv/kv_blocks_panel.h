#pragma once
// Paged blocks: the block table of every sequence of the run (shared copy-on-write blocks
// highlighted, the pool's free blocks, each last block's unused slots), beside the same sequences
// in a contiguous allocator that reserves the whole context per sequence — the paged-attention
// paper's comparison, computed from this run's pool (kv/kv_allocation.h).
#include <QWidget>

#include "ui/kv/kv_types.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace dlab::widgets {
class KvBlockTableView;
}

namespace dlab::ui {

class KvBlocksPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvBlocksPanel(QWidget* parent = nullptr);

    void clear();
    void setRun(const KvRunPtr& v);
    // Another page's live pool, when the source selector shows it.
    void showPool(const KvPoolView& v);
    bool showingRun() const;                 // the source selector is on this page's run
    void setSource(const QString& source);   // "" = this page's run, "playground"
    widgets::KvBlockTableView* view() const { return view_; }
    QComboBox* sourceCombo() const { return source_; }
    QLabel* pagedLabel() const { return paged_; }
    QLabel* contiguousLabel() const { return contiguous_; }

signals:
    void poolRequested(const QString& source);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void showReport(const widgets::BlockTableData& blocks, const KvAllocationReport& a);

    KvRunPtr run_;
    KvPoolView pool_;
    QLabel* sourceLabel_ = nullptr;
    QComboBox* source_ = nullptr;
    QPushButton* refresh_ = nullptr;
    QLabel* paged_ = nullptr;
    QLabel* contiguous_ = nullptr;
    widgets::KvBlockTableView* view_ = nullptr;
};

}  // namespace dlab::ui
