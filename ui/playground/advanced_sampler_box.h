#pragma once
// The playground's "Advanced samplers": every stage of the engine beyond the classic chain —
// typical-p, top-n-σ, XTC, DRY, Mirostat 2, no-repeat-n-gram, logit bias / banned tokens — and
// the penalty window. Each stage is a checkable group whose tick is the stage's tick in the stage
// list (one StageOrderModel): unticked, its knobs are disabled and the stage is out of the chain.
// A knob starts at a value that does something once its stage is on (typical-p 0.9, not 1).
#include <QVariantMap>
#include <QWidget>

#include <vector>

#include "sampling/sampler_params.h"

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSettings;
class QSpinBox;
QT_END_NAMESPACE

namespace dlab::ui {

class StageOrderModel;

class AdvancedSamplerBox : public QWidget {
    Q_OBJECT
public:
    AdvancedSamplerBox(StageOrderModel* stages, QWidget* parent = nullptr);

    // Writes the advanced fields of p: the knobs' values where the stage is ticked, the neutral
    // value where it is not; the penalty window always.
    void apply(SamplerParams& p) const;
    // Sets the knobs named in `setup` (SamplerParams field names, as lessons use them); others stay.
    void setValues(const QVariantMap& setup);
    QVariantMap values() const;   // every knob by SamplerParams field name
    // The stages a setup switches on: a group's first knob (its switch: typicalP, dryMultiplier,
    // mirostatTau, …) set off its neutral value, or a logit bias that is not empty. A Mirostat is
    // left out while the other one is ticked.
    QStringList stagesSwitchedOnBy(const QVariantMap& setup) const;
    void reset();                 // every knob to its starting value
    void setVocabularySize(int n);
    // Bans a token (logit bias -inf) and ticks the logit-bias stage.
    void banToken(int id);
    QString logitBiasError() const { return biasError_; }
    QGroupBox* group(const QString& stage) const;
    QDoubleSpinBox* knob(const QString& field) const;

    void saveSettings(QSettings& s) const;
    void restoreSettings(QSettings& s);

signals:
    void edited();

protected:
    void changeEvent(QEvent* e) override;

private:
    struct Knob {
        const char* field;     // SamplerParams member
        const char* stage;     // its stage; "" for the penalty window (no stage of its own)
        double min, max, step;
        int decimals;
        double start;          // the value it shows first
        double neutral;        // what the engine gets while the stage is off
        QDoubleSpinBox* spin = nullptr;
        QLabel* label = nullptr;
    };
    void build();
    void addKnob(Knob& k, QWidget* box, QFormLayout* form);   // its spin box and label, in the group's form
    void retranslate();
    void syncGroupsFromModel();
    void onBiasEdited();
    double valueOf(const char* field) const;

    StageOrderModel* stages_;
    std::vector<Knob> knobs_;
    std::vector<std::pair<QString, QGroupBox*>> groups_;   // stage -> its group
    QLineEdit* biasEdit_ = nullptr;
    QLabel* biasHint_ = nullptr;
    QLabel* mirostatNote_ = nullptr;
    std::vector<std::pair<TokenId, float>> bias_;          // the last valid parse
    QString biasError_;
    int vocabSize_ = 0;
    bool syncing_ = false;
};

}  // namespace dlab::ui
