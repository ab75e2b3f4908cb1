// The playground page's saved sessions: what it hands to File → Save Session, and the replay of a
// saved one (a banner above the views, Previous / Next, the recorded steps drawn from the file).
// The rest of the page is playground_page.cpp.
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/error.h"
#include "ui/playground/candidate_table_model.h"
#include "ui/playground/logit_bias_text.h"
#include "ui/playground/playground_page.h"
#include "ui/playground/session_replay.h"
#include "ui_playground_page.h"
#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"
#include "widgets/number_text.h"

namespace dlab::ui {

namespace {

// A recording's settings as a setup (applySetup's keys: SamplerParams field names). Advanced
// fields at their neutral value are left out, so the stages they belong to stay off.
QVariantMap setupOf(const SamplerParams& p) {
    const SamplerParams d;
    QVariantMap m{{QStringLiteral("temperature"), double(p.temperature)},
                  {QStringLiteral("topK"), p.topK},
                  {QStringLiteral("topP"), double(p.topP)},
                  {QStringLiteral("minP"), double(p.minP)},
                  {QStringLiteral("repeatPenalty"), double(p.repeatPenalty)},
                  {QStringLiteral("frequencyPenalty"), double(p.frequencyPenalty)},
                  {QStringLiteral("presencePenalty"), double(p.presencePenalty)},
                  {QStringLiteral("seed"), double(p.seed)},
                  {QStringLiteral("penaltyLastN"), p.penaltyLastN},
                  {QStringLiteral("order"), QString::fromStdString(p.order)}};
    const auto put = [&](const char* key, double v, double neutral) {
        if (v != neutral) m.insert(QString::fromLatin1(key), v);
    };
    put("typicalP", p.typicalP, d.typicalP);
    put("topNSigma", p.topNSigma, d.topNSigma);
    put("xtcProbability", p.xtcProbability, d.xtcProbability);
    put("xtcThreshold", p.xtcThreshold, d.xtcThreshold);
    put("dryMultiplier", p.dryMultiplier, d.dryMultiplier);
    put("dryBase", p.dryBase, d.dryBase);
    put("dryAllowedLength", p.dryAllowedLength, d.dryAllowedLength);
    put("dryPenaltyLastN", p.dryPenaltyLastN, d.dryPenaltyLastN);
    put("mirostatTau", p.mirostatTau, d.mirostatTau);
    put("mirostatEta", p.mirostatEta, d.mirostatEta);
    put("mirostatM", p.mirostatM, d.mirostatM);
    put("noRepeatNgram", p.noRepeatNgram, d.noRepeatNgram);
    if (!p.logitBias.empty()) m.insert(QStringLiteral("logitBias"), formatLogitBias(p.logitBias));
    return m;
}


}  // namespace

void PlaygroundPage::buildReplayBar() {
    // Above the views (chart, waterfall, text): the views column becomes the banner + the splitter.
    auto* column = new QWidget;
    column->setObjectName(QStringLiteral("viewColumn"));
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    replayBar_ = new QFrame(column);
    replayBar_->setObjectName(QStringLiteral("replayBar"));
    replayBar_->setFrameShape(QFrame::StyledPanel);
    auto* row = new QHBoxLayout(replayBar_);
    row->setContentsMargins(6, 3, 6, 3);
    replayBanner_ = new QLabel(replayBar_);
    replayBanner_->setObjectName(QStringLiteral("replayBanner"));
    replayBanner_->setWordWrap(true);
    previousStepButton_ = new QToolButton(replayBar_);
    previousStepButton_->setObjectName(QStringLiteral("previousStepButton"));
    previousStepButton_->setArrowType(Qt::LeftArrow);
    nextStepButton_ = new QToolButton(replayBar_);
    nextStepButton_->setObjectName(QStringLiteral("nextStepButton"));
    nextStepButton_->setArrowType(Qt::RightArrow);
    replayPosition_ = new QLabel(replayBar_);
    replayPosition_->setObjectName(QStringLiteral("replayPosition"));
    row->addWidget(replayBanner_, 1);
    row->addWidget(previousStepButton_);
    row->addWidget(replayPosition_);
    row->addWidget(nextStepButton_);
    ui_->pageSplitter->replaceWidget(ui_->pageSplitter->indexOf(ui_->viewSplitter), column);
    layout->addWidget(replayBar_);
    layout->addWidget(ui_->viewSplitter, 1);
    ui_->viewSplitter->show();
    replayBar_->hide();
    connect(previousStepButton_, &QToolButton::clicked, this, [this] { showRecordedStep(currentStep_ - 1); });
    connect(nextStepButton_, &QToolButton::clicked, this, [this] { showRecordedStep(currentStep_ + 1); });
    // A presenter's clicker sends PageUp / PageDown; on only while a replay is on screen.
    for (const auto& [key, delta] : {std::pair{Qt::Key_PageUp, -1}, std::pair{Qt::Key_PageDown, 1}}) {
        auto* s = new QShortcut(QKeySequence(key), this);
        s->setContext(Qt::WindowShortcut);
        s->setEnabled(false);
        connect(s, &QShortcut::activated, this, [this, d = delta] { showRecordedStep(currentStep_ + d); });
        replayShortcuts_ << s;
    }
}

QAbstractButton* PlaygroundPage::previousStepButton() const { return previousStepButton_; }
QAbstractButton* PlaygroundPage::nextStepButton() const { return nextStepButton_; }
QString PlaygroundPage::replayBannerText() const { return replay_ ? replayBanner_->text() : QString(); }
QString PlaygroundPage::replayPositionText() const { return replay_ ? replayPosition_->text() : QString(); }

bool PlaygroundPage::canSaveSession() const { return replay_ || recording_.hasSteps(); }

SavedSession PlaygroundPage::saveSession() const {
    if (replay_) return replay_->session();   // saved again as it was read, with the branch shown as current
    if (!recording_.hasSteps()) throw Error(tr("The playground has no steps to save yet: press Step or Run first.").toStdString());
    return recording_.session(samplerParams());
}

void PlaygroundPage::openSession(const SavedSession& session, const QString& fileName) {
    if (session.page != pageId().toStdString())
        throw Error(tr("%1 was recorded on another page, not the playground.").arg(fileName).toStdString());
    auto replay = std::make_unique<SessionReplay>(session, fileName);   // before anything changes
    restart();   // the live session goes (a run is stopped; what it still sends is dropped)
    QVariantMap setup = setupOf(session.sampler);
    setup.insert(QStringLiteral("prompt"), QString::fromStdString(session.prompt));
    setup.insert(QStringLiteral("action"), QStringLiteral("none"));
    applySetup(setup);   // the recording's prompt and settings in the controls (they stay after Reset)
    replay_ = std::move(replay);

    setPromptChips(replay_->promptChips());
    setBranchEntries(replay_->branches());
    strip_->setTokens(replay_->strip());
    replayBar_->show();
    updateReplayShortcuts();
    updateEnabled();
    retranslateReplay();
    if (replay_->steps() > 0) showRecordedStep(replay_->steps() - 1);
    else ui_->chosenLabel->setText(tr("This branch of the session has no recorded steps."));
}

void PlaygroundPage::showRecordedStep(int index) {
    if (!replay_ || index < 0 || index >= replay_->steps()) return;
    const StepTrace& t = replay_->step(index).trace;
    currentStep_ = index;
    lastKept_ = t.stages.empty() ? 0 : t.stages.back().kept;
    const StepView view = replay_->view(index, barsSpin_->value());
    drawView(view, false);
    // The status bar (with a model loaded) shows the recorded figures, as it showed them live.
    status_.contextUsed = view.contextUsed;
    status_.kvBytes = view.kvBytes;
    status_.forwardMs = t.forwardMs;
    status_.sampleMs = t.sampleMs;
    status_.stepMs = t.forwardMs + t.sampleMs;
    status_.prefill = t.phase == Phase::Prefill;
    status_.tokensPerSecond = status_.stepMs > 0.0 ? 1000.0 * t.evaluated / status_.stepMs : -1.0;
    status_.timeToFirstTokenMs = -1.0;
    emit statusChanged();
    retranslateReplay();
}

void PlaygroundPage::switchRecordedBranch(int id) {
    replay_->switchTo(id);
    setBranchEntries(replay_->branches());
    strip_->setTokens(replay_->strip());
    if (replay_->steps() > 0) {
        showRecordedStep(replay_->steps() - 1);
        return;
    }
    currentStep_ = -1;
    lastView_ = {};
    chart_->clear();
    waterfall_->clear();
    candidateModel_->setRows({});
    plainText_->clear();
    ui_->chosenLabel->setText(tr("This branch of the session has no recorded steps."));
    retranslateReplay();
}

void PlaygroundPage::leaveReplay() {
    // restart() clears the views; the controls keep the recording's prompt and settings.
    replay_.reset();
    replayBar_->hide();
    updateReplayShortcuts();
    const QString tip = status_.contextToolTip;
    status_ = {};
    status_.contextToolTip = tip;
    emit statusChanged();
}

void PlaygroundPage::updateReplayShortcuts() {
    for (QShortcut* s : replayShortcuts_) s->setEnabled(replay_ && isVisible());
}

void PlaygroundPage::retranslateReplay() {
    previousStepButton_->setToolTip(tr("The recorded step before this one (PageUp)"));
    nextStepButton_->setToolTip(tr("The recorded step after this one (PageDown)"));
    // What Help → Keyboard shortcuts lists for the clicker's keys (replayShortcuts_: PageUp, PageDown).
    if (replayShortcuts_.size() == 2) {
        replayShortcuts_[0]->setWhatsThis(tr("Replay: the recorded step before this one"));
        replayShortcuts_[1]->setWhatsThis(tr("Replay: the recorded step after this one"));
    }
    if (!replay_) return;
    replayBanner_->setText(tr("Replaying %1 (recorded on %2); Reset to leave the replay.").arg(replay_->fileName(), replay_->modelName()));
    replayBanner_->setToolTip(tr("Everything shown comes from the file: the steps as they were computed. Step, Run, the sampler "
                                 "settings and branching need the model and are off while replaying; click a token to see its step."));
    const int n = replay_->steps();
    previousStepButton_->setEnabled(currentStep_ > 0);
    nextStepButton_->setEnabled(currentStep_ >= 0 && currentStep_ + 1 < n);
    if (currentStep_ < 0 || currentStep_ >= n) {
        replayPosition_->setText(tr("No steps"));
        return;
    }
    // The recorded KV figures of the step: what the status bar showed live (it needs a model to show them).
    const KvTraceStats& kv = replay_->step(currentStep_).trace.kv;
    replayPosition_->setText(tr("Step %1 of %2 \u00b7 KV cache %3 in %n block(s)", nullptr, static_cast<int>(kv.blocksUsed))
                                 .arg(currentStep_ + 1)
                                 .arg(n)
                                 .arg(widgets::byteText(kv.bytesInUse)));
    replayPosition_->setToolTip(tr("After this step the KV cache held %1 positions in %2 blocks, %3 of them shared between "
                                   "branches (sharing saved %4).")
                                    .arg(kv.positions)
                                    .arg(kv.blocksUsed)
                                    .arg(kv.blocksShared)
                                    .arg(widgets::byteText(kv.bytesSaved)));
}

}  // namespace dlab::ui
