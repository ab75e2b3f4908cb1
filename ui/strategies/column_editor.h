#pragma once
// The dialog that adds or edits one column of the strategies page: a strategy (greedy, sampling,
// beam search, diverse beam search) with its common settings as fields, and the run spec they
// make (generate/run_spec.h), which the user may also type: every key the engine's spec reads
// (DRY, XTC, Mirostat, the stage order, …) works there. A spec that does not parse says why in
// one sentence under the field, and OK stays disabled until it does.
#include <QDialog>
#include <QString>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QWidget;
QT_END_NAMESPACE

namespace dlab::ui {

class ColumnEditor : public QDialog {
    Q_OBJECT
public:
    explicit ColumnEditor(const QString& spec, QWidget* parent = nullptr);
    QString spec() const;          // canonical (runSpecText), valid when accepted
    QString error() const;         // why the typed spec does not parse, "" if it does
    QLineEdit* specEdit() const { return specEdit_; }
    QComboBox* kindCombo() const { return kind_; }

private:
    void fromFields();             // the fields -> the spec text
    void fromSpec();               // the spec text -> the fields (when it parses)
    void showKind();

    QComboBox* kind_ = nullptr;    // greedy, sample, beam, diverse beam
    QFormLayout* form_ = nullptr;
    QDoubleSpinBox *temperature_, *topP_, *minP_, *repeat_, *lengthPenalty_, *diversity_;
    QSpinBox *topK_, *seed_, *noRepeat_, *width_, *groups_;
    QComboBox* early_ = nullptr;
    QLineEdit* specEdit_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    QString canonical_;
    bool syncing_ = false;
};

}  // namespace dlab::ui
