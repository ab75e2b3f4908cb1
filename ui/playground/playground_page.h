#pragma once
// The playground: a prompt, Step / Run / Stop / Reset, every sampler knob with a slider and a spin
// box, the stage-order list, and the views of the current step: the distribution chart (with the
// cumulative line and the top-k / top-p cut-offs), the candidate table, the sampler waterfall and
// the token strip (hover for alternatives, click to branch). The page never calls the engine: it
// emits requests (attachEngine() wires them to its PlaygroundController's queued slots) and
// draws the StepViews that come back. It records what it was sent (SessionRecording) for File →
// Save Session, and replays a saved session without the engine (SessionReplay): a banner says so,
// Previous / Next, PageUp / PageDown or a click on a chip show each recorded step, and everything
// that needs the model (Step, Run, the knobs that re-sample, branching) is off until Reset.
#include <QVariantMap>

#include <memory>
#include <vector>

#include "ui/app/page.h"
#include "ui/engine/constraint_compiler.h"
#include "ui/engine/engine_types.h"
#include "ui/playground/session_recording.h"

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QAbstractSlider;
class QCheckBox;
class QComboBox;
class QFrame;
class QHBoxLayout;
class QVBoxLayout;
class QLabel;
class QSpinBox;
class QPushButton;
class QToolButton;
class QPlainTextEdit;
class QSettings;
class QShortcut;
class QSlider;
class QSplitter;
class QTimer;
QT_END_NAMESPACE

namespace Ui {
class PlaygroundPage;
}

namespace dlab::widgets {
class DistributionChart;
class MaskStrip;
class TextLine;
class ProbabilityLegend;
class SamplerWaterfall;
class TokenStrip;
}  // namespace dlab::widgets

namespace dlab::ui {

struct BasicKnob;
class AdvancedSamplerBox;
class CandidateTableModel;
class ConstraintBox;
class PlaygroundController;
class SessionReplay;
class StageOrderModel;

class PlaygroundPage : public Page {
    Q_OBJECT
public:
    explicit PlaygroundPage(QWidget* parent = nullptr);
    ~PlaygroundPage() override;

    QString pageId() const override { return QStringLiteral("playground"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    PageStatus status() const override { return status_; }
    bool acceptsLessons() const override { return true; }
    void applyLesson(const QVariantMap& setup) override;   // saveSetupForRestore, applySetup, the distribution in front
    void restoreBeforeLesson() override { restoreSavedSetup(); }
    bool hasSetupBeforeLesson() const override { return hasSavedSetup(); }
    PlaygroundController* controller() const { return controller_; }   // lives on the engine thread

    // The knobs and the stage order as engine parameters (stages switched off are neutral).
    SamplerParams samplerParams() const;
    widgets::DistributionChart* chart() const { return chart_; }
    widgets::SamplerWaterfall* waterfall() const { return waterfall_; }
    widgets::TokenStrip* strip() const { return strip_; }
    StageOrderModel* stageModel() const { return stageModel_; }
    CandidateTableModel* candidateModel() const { return candidateModel_; }
    QString generatedText() const;
    int currentStep() const { return currentStep_; }
    bool running() const { return running_; }
    bool hasModel() const { return modelReady_; }
    // A step, run, branch or re-sample is on its way to the worker or back.
    bool busy() const { return stepInFlight_ || running_ || resampleInFlight_ || resamplePending_; }
    const RepetitionView& repetition() const { return repetition_; }
    QString repetitionText() const;
    QString captionText() const;   // the line about the current step ("Step 3 chose …", "(stopped)")

    // Test and automation hooks onto the controls.
    QPlainTextEdit* promptEdit() const;
    QAbstractButton* stepButton() const;
    QAbstractButton* runButton() const;
    QAbstractButton* stopButton() const;
    QAbstractButton* resetButton() const;
    QAbstractButton* loopDemoButton() const;
    QSlider* temperatureSlider() const;
    QSlider* topKSlider() const;
    QSlider* topPSlider() const;
    QSlider* minPSlider() const;
    QSlider* repeatPenaltySlider() const;
    QSlider* frequencyPenaltySlider() const;
    QSlider* presencePenaltySlider() const;
    QSlider* seedSlider() const;
    void setRunLength(int tokens);

    AdvancedSamplerBox* advancedBox() const { return advanced_; }
    QAbstractButton* advancedToggle() const;
    QAbstractButton* randomSeedButton() const;
    QAbstractButton* applyResampleButton() const;
    QAbstractButton* restoreSetupButton() const;
    QComboBox* presetCombo() const { return presetCombo_; }
    QCheckBox* logScaleCheck() const { return logScaleCheck_; }
    QSpinBox* barsSpin() const { return barsSpin_; }
    QComboBox* entropyUnitCombo() const { return entropyCombo_; }
    QCheckBox* plainTextCheck() const { return plainTextCheck_; }
    QPlainTextEdit* plainTextView() const { return plainText_; }
    QComboBox* branchCombo() const { return branchCombo_; }
    widgets::TokenStrip* promptStrip() const { return promptStrip_; }
    QStringList branchLabels() const;
    // Constrained decoding: the selector, whether a constraint is in force (its compile came back
    // without an error), the strip of the mass it removed per step under the text, and the same
    // prompt without it (shown beside the text while "Compare with unconstrained" is ticked).
    ConstraintBox* constraintBox() const { return constraintBox_; }
    bool constraintOn() const { return constraintOn_; }
    widgets::MaskStrip* maskStrip() const { return maskStrip_; }
    QWidget* maskRow() const { return maskRow_; }
    QString maskSummaryText() const;
    widgets::TokenStrip* unconstrainedStrip() const { return unconstrainedStrip_; }
    QWidget* unconstrainedColumn() const { return unconstrainedColumn_; }
    QString unconstrainedNoteText() const;
    int unconstrainedMisfit() const { return unconstrainedMisfit_; }

    // The knobs of a stage (label, slider, spin box) are enabled exactly while it is ticked.
    bool knobEnabled(const QString& stage) const;

    // Everything a lesson or the loop demo sets, by name: "prompt", "runLength" and the
    // SamplerParams field names (temperature, topK, …, order). applySetup() sets what is named,
    // puts the rest of the sampler back to its defaults, starts over, then does "action"
    // ("step", "run"; anything else: nothing). currentSetup() is the page as it is now.
    QVariantMap currentSetup() const;
    void applySetup(const QVariantMap& setup);
    // Keeps the user's setup before a demo or lesson changes it; restoreSavedSetup() puts it back.
    void saveSetupForRestore();
    bool hasSavedSetup() const { return !savedSetup_.isEmpty(); }
    // The Lessons panel has its own "Restore my settings": while it is shown the page's button is
    // not (beside the panel at 1024 px it was cut to "estore my settin" in the text box).
    void setLessonsPanelShown(bool shown) override;
    void setVocabularySize(int n) override;
    // Presentation mode: the painted views' lines this many times thicker.
    void setLineScale(double scale) override;

    // Presentation mode: the chart gets half of the views' height.
    void setPresenting(bool on) override;
    void showDistribution();   // the Distribution tab in front
    static QString probabilityText(double p);

    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;

    static QString loopDemoPrompt();

    // Saved sessions (Page): the live session as recorded, or the replay shown (its branch current).
    bool canSaveSession() const override;
    SavedSession saveSession() const override;
    // Leaves the live session (a run is stopped), shows the file's prompt and settings in the
    // controls and its current branch's last step; nothing is computed.
    void openSession(const SavedSession& session, const QString& fileName) override;
    bool replaying() const { return replay_ != nullptr; }
    const SessionReplay* replay() const { return replay_.get(); }
    // Replay: recorded step `index` of the branch shown, drawn as the live page drew it.
    void showRecordedStep(int index);
    QString replayBannerText() const;
    QString replayPositionText() const;   // "Step 3 of 12" and the KV cache after it
    QAbstractButton* previousStepButton() const;
    QAbstractButton* nextStepButton() const;

public slots:
    void setModelReady(bool ready) override;   // a model is loaded: Step may be used; a new model restarts
    void step();                      // starts the session on first use, then asks for one step
    void run();                       // starts the session on first use, then Run
    void stop();
    void restart();
    void resetSampler();              // every knob and the stage order to the defaults
    void startLoopDemo();
    void restoreSavedSetup();
    void applyResample();             // takes the re-sampled token at the current step (a branch)
    void randomizeSeed();
    void showStep(const dlab::StepTrace& trace, const dlab::ui::StepView& view);
    void showResample(int step, const dlab::SampleResult& result, const dlab::ui::StepView& view);
    void showBranch(const dlab::ui::BranchView& branch);
    void runFinished(const QString& reason);
    void requestFailed();             // the worker reported an error: unblock the controls
    void showPromptTokens(const QList<dlab::widgets::StripToken>& tokens);
    void showBranches(const QList<dlab::ui::BranchEntry>& branches);
    void showConstraintStatus(const dlab::ui::ConstraintStatus& status);
    void showUnconstrained(const QList<dlab::widgets::StripToken>& chips, bool reset, int misfit, bool ended);

signals:
    void startSessionRequested(const QString& prompt, const dlab::SamplerParams& params);
    void stepRequested();
    void runRequested(int maxSteps);
    void stopRequested();
    void resampleRequested(int step, const dlab::SamplerParams& params);
    void branchRequested(int step, int token, const dlab::SamplerParams& params);
    void switchBranchRequested(int branch, const dlab::SamplerParams& params);
    void chartBarsChanged(int bars);
    void samplerParamsChanged(const dlab::SamplerParams& params);
    // The current step's views were drawn (the slider-to-repaint benchmark listens to this).
    void viewsUpdated();
    // Reset or a new prompt: the controller may free the old session and its KV blocks.
    void sessionDiscarded();
    // The constraint selector changed (request counts up; the status answering it carries it),
    // and "Compare with unconstrained".
    void constraintRequested(const dlab::ui::ConstraintChoice& choice, int request);
    void compareRequested(bool on);

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void hideEvent(QHideEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;   // the view tabs' resizes

private:
    // The chart / waterfall options sit in the view tabs' corner where the tabs leave room for
    // them, else in a row above the chart (a corner too narrow cut the tab texts).
    void placeViewOptions();
    QWidget* viewOptions_ = nullptr;
    void onParamsEdited();
    void sendResample();
    void updateEnabled();
    void startSessionIfNeeded();
    // The chart, the waterfall and the table for a step; `chosen` is marked in the table.
    void updateViews(const StepView& view, int chosen);
    // updateViews() plus the caption, the loop and (followEnd) the strip scrolled to its end.
    void drawView(const StepView& view, bool followEnd = true);
    void showChosen(const StepView& view, int kept, bool resampled);
    void showRepetition(const RepetitionView& r);
    void onAlternativeChosen(int step, int token);
    void retranslate();
    void fitStageList();      // the stage-order list as tall as its rows
    void fitControlsWidth();
    void fitCandidateColumns();
    std::vector<BasicKnob> basicKnobs() const;   // the sliders' spin boxes by SamplerParams field
    void updateKnobStates();
    void updatePresetCombo();
    void showCandidateMenu(const QPoint& pos);
    // Keyboard focus: a button that is disabled while a step runs hands the focus to the page
    // (not to the next control, which would select its text) and gets it back afterwards.
    void parkFocus();
    void restoreFocus();
    void noteStep(const dlab::StepTrace& trace, const dlab::ui::StepView& view);   // into status_

    std::unique_ptr<Ui::PlaygroundPage> ui_;
    widgets::DistributionChart* chart_ = nullptr;
    widgets::SamplerWaterfall* waterfall_ = nullptr;
    widgets::TokenStrip* strip_ = nullptr;
    StageOrderModel* stageModel_ = nullptr;
    CandidateTableModel* candidateModel_ = nullptr;
    // While running, views are drawn at most once per frame: the newest waits in pendingView_.
    QTimer* drawTimer_ = nullptr;
    StepView pendingView_;
    PlaygroundController* controller_ = nullptr;
    PageStatus status_;
    bool viewPending_ = false;
    bool modelReady_ = false;
    bool sessionStarted_ = false;
    bool stepInFlight_ = false;
    bool running_ = false;
    bool discardRun_ = false;         // Reset during a run: ignore its steps until runFinished
    bool discardStep_ = false;        // Reset with a step in flight: ignore its answer
    // Slider moves are coalesced: one resample in flight, the newest parameters queued behind it.
    bool resampleInFlight_ = false;
    bool resamplePending_ = false;
    int currentStep_ = -1;
    int lastKept_ = 0;
    StepView lastView_;
    RepetitionView repetition_;
    bool repetitionGreedy_ = false;    // the run that looped was greedy (temperature 0)
    AdvancedSamplerBox* advanced_ = nullptr;
    QToolButton* advancedToggle_ = nullptr;
    QToolButton* randomSeedButton_ = nullptr;
    QPushButton* applyResampleButton_ = nullptr;
    QPushButton* restoreSetupButton_ = nullptr;
    QComboBox* presetCombo_ = nullptr;
    QCheckBox* logScaleCheck_ = nullptr;
    QSpinBox* barsSpin_ = nullptr;
    QComboBox* entropyCombo_ = nullptr;
    QLabel* barsLabel_ = nullptr;
    QCheckBox* plainTextCheck_ = nullptr;
    QPlainTextEdit* plainText_ = nullptr;
    QComboBox* branchCombo_ = nullptr;
    bool lessonsPanelShown_ = false;
    QHBoxLayout* captionRow_ = nullptr;   // under the caption: Use this choice, Restore, Branch, Plain text
    QLabel* branchLabel_ = nullptr;
    widgets::ProbabilityLegend* legend_ = nullptr;
    widgets::TokenStrip* promptStrip_ = nullptr;
    QWidget* promptTab_ = nullptr;
    QLabel* promptTokensLabel_ = nullptr;
    QList<BranchEntry> branches_;
    void buildViewOptions();
    void buildTextRow();
    void buildConstraintViews();       // the selector, the mask strip, the unconstrained column
    void requestConstraint();          // the selector's choice to the controller
    void syncMaskStrip();              // the mask strip from the token strip's chips
    void updateConstraintViews();      // which of them are shown, their titles
    // The mask strip beside the shading legend where the text box is wide enough for both (the
    // strip keeps its rows), else under the constrained text.
    void placeMaskRow();
    QHBoxLayout* legendRow_ = nullptr;
    QVBoxLayout* maskColumn_ = nullptr;
    ConstraintBox* constraintBox_ = nullptr;
    bool constraintOn_ = false;
    int constraintRequest_ = 0;
    // Sessions started over since the page began (restart()); a constraint's answer says whether
    // the session it found fits, which matters only if that is still the page's session.
    int sessionEpoch_ = 0;
    int constraintEpoch_ = 0;
    QSplitter* textSplit_ = nullptr;
    QWidget* maskRow_ = nullptr;
    QLabel* maskLabel_ = nullptr;
    widgets::MaskStrip* maskStrip_ = nullptr;
    QLabel* maskSummary_ = nullptr;
    QWidget* unconstrainedColumn_ = nullptr;
    widgets::TokenStrip* unconstrainedStrip_ = nullptr;
    widgets::TextLine* unconstrainedNote_ = nullptr;
    int unconstrainedMisfit_ = -1;
    bool unconstrainedEnded_ = false;
    void buildReplayBar();             // above the views, shown while replaying
    void leaveReplay();                // Reset: back to the live page (the prompt and settings stay)
    void retranslateReplay();
    void setPromptChips(const QList<widgets::StripToken>& tokens);
    void setBranchEntries(const QList<BranchEntry>& branches);
    void switchRecordedBranch(int id);
    void updateReplayShortcuts();
    void retranslateBranches();
    int resampledToken_ = -1;          // the token the last re-sample chose (-1: none pending)
    int lastChosen_ = -1;              // the token the current step actually took
    QVariantMap savedSetup_;           // the user's setup before a demo or lesson
    QWidget* parkedFocus_ = nullptr;   // the button that had the focus before a step
    uint64_t sessionSeed_ = 0;          // the seed the current session started with
    uint64_t editedSeed_ = 0;           // the seed knob's value at the last edit
    bool presenting_ = false;
    QByteArray splitBeforePresenting_;  // the views' split before presentation mode changed it

    SessionRecording recording_;        // the live session, for File → Save Session
    std::unique_ptr<SessionReplay> replay_;   // set while a saved session is shown
    QFrame* replayBar_ = nullptr;
    QLabel* replayBanner_ = nullptr;
    QLabel* replayPosition_ = nullptr;
    QToolButton* previousStepButton_ = nullptr;
    QToolButton* nextStepButton_ = nullptr;
    QList<QShortcut*> replayShortcuts_;   // PageUp / PageDown (a presenter's clicker) while replaying
};

}  // namespace dlab::ui
