#pragma once
// The sampler chain's stages as a reorderable, checkable list: the playground shows it in a
// QListView where stages are dragged into another order and switched on and off. order() is
// the comma list SamplerParams::order takes (only the checked stages, in list order).
#include <QAbstractListModel>
#include <QStringList>

namespace dlab::ui {

class StageOrderModel : public QAbstractListModel {
    Q_OBJECT
public:
    // The stages checked by default: the classic chain in Hugging Face order.
    static QStringList defaultStages();
    // Every stage the engine has, each where it acts; the ones not in defaultStages() (logit-bias,
    // no-repeat-ngram, dry, typical, xtc, top-n-sigma, mirostat, mirostat-v1) start unchecked.
    static QStringList allStages();
    // The named orders of the engine (resolveStageOrder): "hf", "llama.cpp", "mirostat", "mirostat-v1".
    static QStringList presets();

    // The list holds allStages() (the playground), or the given stages only.
    explicit StageOrderModel(QObject* parent = nullptr);
    explicit StageOrderModel(const QStringList& stages, QObject* parent = nullptr);

    // Names as SamplerParams uses them ("repetition", "temperature", "top-k", ...).
    QStringList stages() const { return stages_; }
    bool isEnabled(const QString& stage) const;
    void setEnabled(const QString& stage, bool enabled);
    // The checked stages in list order, comma-separated ("" when none is checked).
    QString order() const;
    // Restores a saved list; unknown names are dropped, missing ones appended unchecked.
    void setOrder(const QStringList& stages, const QStringList& enabled);
    void reset();   // every stage in its default place, defaultStages() checked
    // Puts the engine's named order first (each of its stages keeping its tick; a Mirostat preset
    // ticks its Mirostat stage), the stages it lacks after it, unchecked.
    void applyPreset(const QString& preset);
    // The first preset whose order holds every checked stage in the same relative order ("" for
    // none): the default list is "hf".
    QString matchingPreset() const;
    // Moves one row (a drag in the view, or the Up/Down buttons): the stage at `from` ends up at
    // row `to` (QList::move semantics). False, and nothing emitted, when out of range or from == to.
    bool moveStage(int from, int to);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool moveRows(const QModelIndex& sourceParent, int sourceRow, int count, const QModelIndex& destinationParent,
                  int destinationChild) override;
    Qt::DropActions supportedDropActions() const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) override;

signals:
    void orderChanged();   // a move or a check box: the chain changed

private:
    // Watches the application for QEvent::LanguageChange: titles and tooltips are re-read.
    bool eventFilter(QObject* watched, QEvent* e) override;
    // Moves rows [sourceRow, sourceRow + count) before destinationChild (Qt's moveRows
    // semantics) without emitting orderChanged(); false for an invalid or no-op move.
    bool moveBlock(int sourceRow, int count, int destinationChild);
    // Replaces the whole list (model reset); emits orderChanged() when anything differs.
    void replaceAll(const QStringList& stages, const QList<bool>& enabled);

    QStringList known_;     // the stages this list holds, in their default order
    QStringList stages_;
    QList<bool> enabled_;
    QList<bool> defaultEnabled() const;
};

}  // namespace dlab::ui
