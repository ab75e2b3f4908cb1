#pragma once
// Safety: the serving picture of layered defence, run for real on the loaded model
// (runSafetyPipeline, safety/safety_pipeline.h). On the left the prompt and an editable list per
// layer (regular expressions for the two filters and the refusal check, plain phrases for the
// ban); on the right the four layers top to bottom, each "off", "not reached", "passed" or "acted
// at step N" with what it did, and the reply with every banned-phrase intervention numbered by its
// step and the part the output filter withheld struck through. Everything drawn comes from the
// run's SafetyRun.
#include <QWidget>

#include <array>

#include "ui/serving/serving_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTextBrowser;
QT_END_NAMESPACE

namespace dlab::ui {

// One layer in the picture: a card with an accent bar in the colour of its state.
class SafetyLayerCard : public QWidget {
    Q_OBJECT
public:
    explicit SafetyLayerCard(SafetyLayer layer, QWidget* parent = nullptr);
    SafetyLayer layer() const { return layer_; }
    void setTexts(const QString& title, const QString& what);
    void setState(SafetyLayerState state, const QString& status, const QString& detail);
    void clearState();
    bool hasState() const { return hasState_; }
    SafetyLayerState state() const { return state_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* detailLabel() const { return detail_; }
    QColor accent() const;

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void recolor();

    SafetyLayer layer_;
    QLabel* title_ = nullptr;
    QLabel* what_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* detail_ = nullptr;
    SafetyLayerState state_ = SafetyLayerState::Off;
    bool hasState_ = false;
};

class ServingSafetyPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServingSafetyPanel(QWidget* parent = nullptr);

    // The request from what is typed: one pattern or phrase per line, empty lines skipped.
    // Throws dlab::Error with the sentence for the first bad pattern or phrase (checkSafetyPolicy).
    SafetyRequest request() const;
    void setPolicy(const SafetyPolicy& policy);
    SafetyPolicy policy() const;
    void restoreExamples();     // the lesson's prompt and lists (defaultSafetyPrompt/Policy)
    void setBusy(bool busy);
    void setModelReady(bool ready);
    void clear();
    void showRun(const ServingSafetyPtr& run);
    const ServingSafetyPtr& run() const { return run_; }

    // What the picture shows, for tests: each layer's card, and the steps the reply marks.
    SafetyLayerCard* card(SafetyLayer layer) const { return cards_[size_t(layer)]; }
    const QList<int>& markedSteps() const { return marked_; }    // banned-phrase interventions, in order
    int markedCutStep() const { return markedCut_; }             // -1: no cut
    // The reply as HTML (the browser's content), from the run alone.
    static QString replyHtml(const SafetyRun& run, const QPalette& palette, QList<int>* marked = nullptr);

    QPlainTextEdit* promptEdit() const { return prompt_; }
    QPlainTextEdit* listEdit(SafetyLayer layer) const { return lists_[size_t(layer)]; }
    QCheckBox* ignoreCaseCheck() const { return ignoreCase_; }
    QSpinBox* maxTokensSpin() const { return maxTokens_; }
    QPushButton* runButton() const { return runButton_; }
    QPushButton* examplesButton() const { return examples_; }
    QTextBrowser* replyView() const { return reply_; }
    QLabel* summaryLabel() const { return summary_; }

Q_SIGNALS:
    void runRequested();
    void settingsChanged();

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void retranslate();
    void redraw();
    void updateEnabled();
    void fitLayers();

    QLabel* intro_ = nullptr;
    QLabel* promptLabel_ = nullptr;
    QPlainTextEdit* prompt_ = nullptr;
    std::array<QLabel*, kSafetyLayers> listLabels_{};
    std::array<QPlainTextEdit*, kSafetyLayers> lists_{};
    QCheckBox* ignoreCase_ = nullptr;
    QLabel* maxTokensLabel_ = nullptr;
    QSpinBox* maxTokens_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* examples_ = nullptr;
    QScrollArea* layersArea_ = nullptr;
    QWidget* layers_ = nullptr;
    std::array<SafetyLayerCard*, kSafetyLayers> cards_{};
    std::array<QLabel*, kSafetyLayers - 1> arrows_{};
    QLabel* replyLabel_ = nullptr;
    QTextBrowser* reply_ = nullptr;
    QLabel* summary_ = nullptr;
    ServingSafetyPtr run_;
    QList<int> marked_;
    int markedCut_ = -1;
    bool busy_ = false, modelReady_ = false;
};

}  // namespace dlab::ui
