#pragma once
// The memory calculator — a formula, and it says so: KV bytes = 2 (K and V) · layers · KV heads ·
// head dim · positions · bytes per value · sequences, for the engine's presets and the loaded
// model, with the attention layout switchable (as trained / MHA / MQA), beside the weights, on
// this machine's memory (where the CPU engine runs) and 24, 40, 80 and 141 GiB GPUs: how many
// sequences of this context fit, and what share of each the weights and cache take.
#include <QVariantMap>
#include <QWidget>

#include "ui/kv/kv_types.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace dlab {
struct KvShape;
}

namespace dlab::widgets {
class MemoryBarsView;
}

namespace dlab::ui {

class KvCalculatorPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvCalculatorPanel(QWidget* parent = nullptr);

    void setLoadedModel(const KvModelShape& shape);   // adds (or updates) "the loaded model" entry

    // A lesson's calculator keys (lesson_setup.h: calcModel, calcContext, calcSequences, calcDtype,
    // calcAttention), already checked; a key not given keeps its box. setup() gives the boxes' values
    // under the same keys, so a lesson's changes can be put back.
    void applySetup(const QVariantMap& setup);
    QVariantMap setup() const;

    // The numbers the panel shows, computed from the current choices (tests compare them with the formula).
    struct Result {
        double bytesPerPosition = 0, bytesPerSequence = 0, kvBytes = 0, weightsBytes = 0;
        QList<qint64> kvOnlyFit, withWeightsFit;   // per GPU size
        double ramBytes = 0;                        // this machine's memory; 0 when unknown
        qint64 ramKvOnlyFit = 0, ramWithWeightsFit = 0;
    };
    Result result() const;
    KvShape shape() const;                 // the chosen model with the chosen head layout

    QComboBox* modelCombo() const { return model_; }
    QSpinBox* contextSpin() const { return context_; }
    QSpinBox* batchSpin() const { return batch_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QComboBox* layoutCombo() const { return layout_; }
    QComboBox* weightsCombo() const { return weights_; }
    widgets::MemoryBarsView* bars() const { return bars_; }
    QLabel* resultLabel() const { return result_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void recompute();

    KvModelShape loaded_;
    bool hasLoaded_ = false;
    QLabel* modelLabel_ = nullptr;
    QComboBox* model_ = nullptr;
    QLabel* contextLabel_ = nullptr;
    QSpinBox* context_ = nullptr;
    QLabel* batchLabel_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QLabel* dtypeLabel_ = nullptr;
    QComboBox* dtype_ = nullptr;
    QLabel* layoutLabel_ = nullptr;
    QComboBox* layout_ = nullptr;
    QLabel* weightsLabel_ = nullptr;
    QComboBox* weights_ = nullptr;
    QLabel* formula_ = nullptr;
    QLabel* result_ = nullptr;
    widgets::MemoryBarsView* bars_ = nullptr;
};

}  // namespace dlab::ui
