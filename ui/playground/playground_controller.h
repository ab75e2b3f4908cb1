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

#include "ui/engine/constraint_compiler.h"
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

    // Thread-safe: the constraint in force (nullptr: none), compiled for the loaded model.
    std::shared_ptr<const Constraint> constraint() const;

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
    // Compiles the page's constraint for the loaded model and puts it in force for the steps to
    // come and every re-sample (the chain's "grammar" stage runs first); emits constraintChanged().
    // The session goes on under it if the text generated so far fits it (status.fitsSession);
    // otherwise the page starts over. A spec that does not compile leaves no constraint in force
    // and says why in one sentence. `request` comes back in the status.
    void setConstraint(const dlab::ui::ConstraintChoice& choice, int request);
    // The same prompt with the same settings but no constraint, one step for each step of the
    // session, shown beside it (unconstrainedTokens()); only while a constraint is in force.
    void setCompareUnconstrained(bool on);

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
    void constraintChanged(const dlab::ui::ConstraintStatus& status);
    // The unconstrained comparison grew by `chips` (reset: it starts over with them). misfit: the
    // first of its tokens the constraint forbids (-1: it still fits); ended: it generated its
    // end-of-text token.
    void unconstrainedTokens(const QList<dlab::widgets::StripToken>& chips, bool reset, int misfit, bool ended);

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
    void putConstraint(std::shared_ptr<const Constraint> c);
    // Whether `generated` is a valid start of the constraint in force (true when there is none).
    bool fitsConstraint(std::span<const TokenId> generated) const;
    // The unconstrained comparison: made for the session's prompt, stepped up to `steps` tokens,
    // its first misfit found again for a new constraint.
    void startShadow();
    void advanceShadow(int steps);
    void dropShadow();
    void findShadowMisfit();
    SamplerParams unconstrained(SamplerParams params) const;

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

    ConstraintCompiler compiler_;
    ConstraintChoice choice_;
    mutable std::mutex constraintMutex_;
    std::shared_ptr<const Constraint> constraint_;   // guarded by constraintMutex_ (written on this thread only)
    bool compare_ = false;
    std::unique_ptr<Session> shadow_;                 // the session's prompt without the constraint
    std::vector<TokenId> shadowTokens_;               // what it generated
    bool shadowEnded_ = false;
    int shadowMisfit_ = -1;
};

}  // namespace dlab::ui
