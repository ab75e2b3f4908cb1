#pragma once
// The engine on its own thread: a QObject moved to a QThread (not a QThread subclass) that owns
// the Model, the Backend and two Sessions (the playground's and the chat's). The GUI talks to it
// only through queued slots and gets values back through signals, so it never blocks on the
// engine. cancel() is the one call that may come from another thread: it raises an atomic flag
// that model loading (between tensors), run()/chat() (between steps) and the backend (between
// layers) check.
#include <QObject>
#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "ui/engine_types.h"

namespace dlab {
class Model;
class Backend;
class Session;
}  // namespace dlab

namespace dlab::ui {

class EngineWorker : public QObject {
    Q_OBJECT
public:
    explicit EngineWorker(QObject* parent = nullptr);
    ~EngineWorker() override;

    // Thread-safe: asks the running load, run, chat answer or step to stop (it then emits
    // cancelled(), runFinished() or chatFinished(stopped = true)).
    void cancel() { cancel_.store(true); }
    // Thread-safe: settings for a run in progress, taken between its steps (a slider moved during
    // Run changes the rest of the run). When no run is going, setSamplerParams() applies them.
    void offerSamplerParams(const SamplerParams& params);

    static constexpr int kChartBars = 20;       // bars the chart shows unless setChartBars() says otherwise
    static constexpr int kMinChartBars = 5, kMaxChartBars = 50;
    static constexpr int kAlternatives = 8;     // per strip token
    static constexpr int kPanelBars = 8;        // per waterfall panel

public slots:
    // Loads a model; on success the previous one (and both sessions) are replaced. On failure or
    // cancel the previous model stays loaded and usable.
    void loadModel(const QString& path, int threads = 0);
    // The automatic thread count: every core the machine has, at most 8.
    static int automaticThreads();
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
    // Changes the backend's thread count in place: the model and both sessions stay (the text
    // generated so far is kept). Emits threadsChanged() or failed().
    void setThreads(int threads);
    // Forgets the playground's session (Reset, a new prompt): its KV blocks are freed at once.
    void endSession();
    // How many bars the chart gets from now on (clamped to kMinChartBars..kMaxChartBars).
    void setChartBars(int bars);
    // Makes another branch of the session current and emits branched() with its whole strip
    // and its last step (re-sampled under `params`), or failed() for an unknown branch.
    void switchBranch(int id, const dlab::SamplerParams& params);

    // Chat: renders the conversation with the model's chat template, then streams the answer
    // (chatTokens batches, at most one per ~30 ms) until end-of-generation, maxTokens, a full
    // context or cancel(); then chatFinished(). Implemented in engine_worker_chat.cpp.
    void chat(const QList<dlab::ui::ChatTurn>& conversation, const dlab::SamplerParams& params, int maxTokens);

signals:
    void progress(float fraction);
    void modelLoaded(const dlab::ui::ModelSummary& summary);
    void sessionStarted(int promptTokens);
    void stepDone(const dlab::StepTrace& trace, const dlab::ui::StepView& view);
    void runFinished(const QString& reason);  // "eos", "length", "context", "stopped"
    void resampled(int step, const dlab::SampleResult& result, const dlab::ui::StepView& view);
    void branched(const dlab::ui::BranchView& view);
    void cancelled();
    void failed(const QString& message);
    void threadsChanged(int threads);
    void sessionEnded();
    // The prompt as the model sees it: one chip per token with its id (p < 0: no probability).
    void promptTokens(const QList<dlab::widgets::StripToken>& tokens);
    // After a session starts or a branch is made or switched to: every branch, the current marked.
    void branchesChanged(const QList<dlab::ui::BranchEntry>& branches);

    void chatStarted(int promptTokens);
    void chatTokens(const QList<dlab::widgets::StripToken>& tokens);
    void chatFinished(const dlab::ui::ChatStats& stats);

private:
    // The step's distribution: bars, cut-offs, waterfall panels (what a re-sample changes).
    StepView makeView(int step, const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                      TokenId chosen, float chosenP, const SamplerParams& params) const;
    // The current branch's state: its text, the step's chip, the loop, context and KV memory
    // (what a step or a branch changes; a re-sample leaves it as it was).
    void addBranchState(StepView& view) const;
    void emitStep(const StepTrace& trace);
    void emitBranches();
    // What the page cannot know: DRY's sequence breakers as this model's tokens (llama.cpp's
    // defaults "\n", ":", "\"", "*") when DRY is on and none are given.
    SamplerParams withModelDefaults(SamplerParams params) const;
    QList<widgets::StripToken> promptChips() const;

    std::atomic<bool> cancel_{false};
    // Destruction order matters: sessions refer to the backend and model, the backend to the model.
    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;
    std::unique_ptr<Session> session_;
    std::unique_ptr<Session> chatSession_;
    std::mutex offeredMutex_;
    std::optional<SamplerParams> offered_;   // guarded by offeredMutex_
    // Strip chips of every branch of session_, step by step (branch id -> chips).
    std::map<int, QList<widgets::StripToken>> strips_;
    // The last startSession() failed (and said so): the step or run queued behind it stays silent
    // instead of reporting a second error for the same cause.
    bool startFailed_ = false;
    int chartBars_ = kChartBars;
    std::vector<std::vector<TokenId>> dryBreakers_;   // defaultDryBreakers() in the loaded model's tokens
};

}  // namespace dlab::ui
