#pragma once
// The memory heatmap: layers (or layers × KV heads, so grouped-query attention shows) down,
// positions or blocks across, each cell one of the engine's numbers (kv_heatmap_data.h) chosen
// from a list; for attention, a step slider walks through the recorded steps. Hover a cell for
// its numbers, the token there and, per KV head, which query heads read it.
#include <QWidget>

#include "ui/kv/kv_heatmap_data.h"
#include "ui/kv/kv_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
QT_END_NAMESPACE

namespace dlab::widgets {
class KvHeatmapView;
}

namespace dlab::ui {

class KvHeatmapPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvHeatmapPanel(QWidget* parent = nullptr);

    void clear();
    void setRun(const KvRunPtr& v);
    void setQuantity(KvCellQuantity q);
    void setRows(KvHeatmapRows rows);
    void setAttentionIndex(int index);       // which recorded step
    void setBusy(bool busy);                 // a run is filling the cache: the map comes at its end

    KvCellQuantity quantity() const;
    KvHeatmapRows rows() const;
    int attentionIndex() const;
    widgets::KvHeatmapView* view() const { return view_; }
    QComboBox* quantityCombo() const { return quantity_; }
    QComboBox* rowsCombo() const { return rows_; }
    QSlider* stepSlider() const { return step_; }
    QCheckBox* logCheck() const { return log_; }
    QLabel* noteLabel() const { return note_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void rebuild();
    QString extraTooltip(int row, int col) const;

    KvRunPtr run_;
    bool busy_ = false;
    QComboBox* quantity_ = nullptr;
    QComboBox* rows_ = nullptr;
    QSlider* step_ = nullptr;
    QCheckBox* log_ = nullptr;
    QLabel* quantityLabel_ = nullptr;
    QLabel* rowsLabel_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QLabel* note_ = nullptr;
    widgets::KvHeatmapView* view_ = nullptr;
};

}  // namespace dlab::ui
