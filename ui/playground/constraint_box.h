#pragma once
// The playground's constraint selector (constrained decoding): None, any JSON value, a JSON
// Schema or a GBNF grammar; for the last two the examples shipped under resources/schemas and
// resources/grammars (in the .qrc as :/schemas/ and :/grammars/), "Open file…" and an editable
// text with Apply (Ctrl+Return). Below: what the engine made of it — compiled in how long, or
// its one sentence saying what is wrong (file:line:col for GBNF, the JSON Pointer for a schema);
// the grammar a schema became (collapsed), and "Compare with unconstrained". The box only says
// what the user chose (choiceChanged()); the controller compiles it on the engine thread and
// the page hands the outcome back with showStatus().
#include <QGroupBox>

#include "ui/engine/constraint_compiler.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QShortcut;
class QSettings;
class QToolButton;
QT_END_NAMESPACE

namespace dlab::ui {

class ConstraintBox : public QGroupBox {
    Q_OBJECT
public:
    enum class Kind { None, AnyJson, JsonSchema, Gbnf };

    explicit ConstraintBox(QWidget* parent = nullptr);

    ConstraintChoice choice() const;   // what is applied (not an unapplied edit of the text)
    Kind kind() const;
    void setKind(Kind kind);
    // Selects an example of the current kind by file name ("person.json"); false if none.
    bool selectExample(const QString& fileName);
    // Loads a file as the text (its name becomes the source in messages) and applies it.
    bool openFile(const QString& path);
    // Puts text in the editor and applies it (as Apply does), named `source` in messages.
    void setText(const QString& text, const QString& source = QString());
    void apply();
    bool compareUnconstrained() const;
    void setCompareUnconstrained(bool on);

    // The controller's answer to the latest choice.
    void showStatus(const ConstraintStatus& status);
    const ConstraintStatus& status() const { return status_; }
    QString statusText() const;
    bool statusIsError() const { return !status_.error.isEmpty(); }
    // A choice was sent and its answer has not come back yet.
    bool compiling() const { return waiting_; }

    // Examples of a kind, by file name, from the resources.
    static QStringList examples(Kind kind);

    QComboBox* kindCombo() const { return kindCombo_; }
    QComboBox* exampleCombo() const { return exampleCombo_; }
    QPushButton* openButton() const { return openButton_; }
    QPlainTextEdit* textEdit() const { return textEdit_; }
    QPushButton* applyButton() const { return applyButton_; }
    QLabel* statusLabel() const { return statusLabel_; }
    QToolButton* grammarToggle() const { return grammarToggle_; }
    QPlainTextEdit* grammarView() const { return grammarView_; }
    QCheckBox* compareCheck() const { return compareCheck_; }

    void saveSettings(QSettings& settings) const;
    void restoreSettings(QSettings& settings);   // emits choiceChanged() once when the choice is on

signals:
    void choiceChanged(const dlab::ui::ConstraintChoice& choice);
    void compareChanged(bool on);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void fillExamples();
    void loadExample(int index);
    void updateVisibility();
    void updateApply();
    void showStatusText();
    ConstraintSpec::Kind specKind() const;

    QComboBox* kindCombo_ = nullptr;
    QLabel* exampleLabel_ = nullptr;
    QComboBox* exampleCombo_ = nullptr;
    QPushButton* openButton_ = nullptr;
    QPlainTextEdit* textEdit_ = nullptr;
    QPushButton* applyButton_ = nullptr;
    QList<QShortcut*> applyShortcuts_;   // Ctrl+Return, Ctrl+Enter in the text: Apply
    QLabel* statusLabel_ = nullptr;
    QToolButton* grammarToggle_ = nullptr;
    QPlainTextEdit* grammarView_ = nullptr;
    QCheckBox* compareCheck_ = nullptr;
    QString source_;          // the name the applied text goes by (a file name, "+ (edited)" once changed)
    QString sourceText_;      // the text as that file gave it
    QString appliedText_;     // the text last applied (Apply is enabled while the editor differs)
    ConstraintStatus status_;
    bool waiting_ = false;    // a choice was sent and its status has not come back
};

}  // namespace dlab::ui
