#pragma once
// The playground's engine side: a controller on the engine thread (a child of the EngineContext,
// which holds the model and the backend) with the playground's Session and its branches' strips.
// The page talks to it only through queued slots and gets value structs back through signals, so
// it never blocks on the engine. Stop goes to EngineContext::cancel() (thread-safe); a run checks
// the flag between steps and the backend between layers.
#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "ui/engine/engine_context.h"
#include "ui/engine/engine_types.h"
#include "ui/playground/playground_views.h"

namespace dlab {
class Model;
class Backend;
class Session;
}  // namespace dlab

namespace dlab::ui {

class PlaygroundController : public QObject {
    Q_OBJECT
public:
    // Created on the GUI thread before the context moves to the engine thread (it moves along).
    explicit PlaygroundController(EngineContext* engine);
    ~PlaygroundController() override;

    // Thread-safe: settings for a run in progress, taken between its steps (a slider moved during
    // Run changes the rest of the run). When no run is going, setSamplerParams() applies them.
    void offerSamplerParams(const SamplerParams& params);

    static constexpr int kChartBars = 20;       // bars the chart shows unless setChartBars() says otherwise
    static constexpr int kMinChartBars = 5, kMaxChartBars = 50;
    static constexpr int kAlternatives = kChipAlternatives;   // per strip token
    static constexpr int kPanelBars = kWaterfallBars;         // per waterfall panel
    // A saved step keeps the best kSavedRawLogits raw logits: every bar a replay may draw.
    static_assert(kMaxChartBars <= kSavedRawLogits && 2 * kAlternatives <= kSavedRawLogits);

public slots:
    // Tokenizes the prompt (with the model's default BOS) and starts a fresh session; the first
    // step() prefills it.
    void startSession(const QString& prompt, const dlab::SamplerParams& params);
    void step();
    // Up to maxSteps step()s, one stepDone() each, then runFinished(). Stops early at an
    // end-of-generation token, a full context or cancel().
    void run(int maxSteps);
    // Re-runs only the sampler chain of `step` on its cached logits; no forward pass.
    void resample(int step, const dlab::SamplerParams& params);
    // Forks the current branch at `step` with `token` instead of the sampled one (the prefix is
    // shared, not recomputed) and emits branched().
    void branch(int step, int token, const dlab::SamplerParams& params);
    // Parameters for later steps.
    void setSamplerParams(const dlab::SamplerParams& params);
    // Forgets the playground's session (Reset, a new prompt): its KV blocks are freed at once.
    void endSession();
    // How many bars the chart gets from now on (clamped to kMinChartBars..kMaxChartBars).
    void setChartBars(int bars);
    // Makes another branch of the session current and emits branched() with its whole strip
    // and its last step (re-sampled under `params`), or failed() for an unknown branch.
    void switchBranch(int id, const dlab::SamplerParams& params);

signals:
    void sessionStarted(int promptTokens);
    void stepDone(const dlab::StepTrace& trace, const dlab::ui::StepView& view);
    void runFinished(const QString& reason);  // "eos", "length", "context", "stopped"
    void resampled(int step, const dlab::SampleResult& result, const dlab::ui::StepView& view);
    void branched(const dlab::ui::BranchView& view);
    void cancelled();   // a step was stopped
    void failed(const QString& message);
    void sessionEnded();
    // The prompt as the model sees it: one chip per token with its id (p < 0: no probability).
    void promptTokens(const QList<dlab::widgets::StripToken>& tokens);
    // After a session starts or a branch is made or switched to: every branch, the current marked.
    void branchesChanged(const QList<dlab::ui::BranchEntry>& branches);

private:
    // The step's distribution: bars, cut-offs, waterfall panels (what a re-sample changes).
    StepView makeView(int step, const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                      TokenId chosen, float chosenP, const SamplerParams& params) const;
    // The current branch's state: its text, the step's chip, the loop, context and KV memory
    // (what a step or a branch changes; a re-sample leaves it as it was).
    void addBranchState(StepView& view) const;
    void emitStep(const StepTrace& trace);
    // A step's record for a saved session (the session's logits of that step give its raw logits).
    std::shared_ptr<const StepRecord> record(const StepTrace& trace, const SamplerParams& params, bool forced);
    std::shared_ptr<const RecordedModel> recordedModel();   // made on first use for the loaded model
    void emitBranches();
    SamplerParams withModelDefaults(SamplerParams params) const;
    void dropSession();   // the model is about to be replaced
    QList<widgets::StripToken> promptChips() const;

    EngineContext& engine_;
    std::unique_ptr<Session> session_;
    std::mutex offeredMutex_;
    std::optional<SamplerParams> offered_;   // guarded by offeredMutex_
    // Strip chips of every branch of session_, step by step (branch id -> chips).
    std::map<int, QList<widgets::StripToken>> strips_;
    // The last startSession() failed (and said so): the step or run queued behind it stays silent
    // instead of reporting a second error for the same cause.
    bool startFailed_ = false;
    int chartBars_ = kChartBars;
    std::shared_ptr<const RecordedModel> recordedModel_;
};

}  // namespace dlab::ui
