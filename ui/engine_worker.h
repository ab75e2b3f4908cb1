#pragma once
// The engine on its own thread: a QObject moved to a QThread (not a QThread subclass) that owns
// the Model, the Backend and the Session. The GUI talks to it only through queued slots and gets
// values back through signals, so it never blocks on the engine. cancel() is the one call that
// may come from another thread: it raises an atomic flag that model loading (between tensors)
// and the backend (between layers) check.
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

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

    // Thread-safe: asks the running load or step to stop (it then emits cancelled()).
    void cancel() { cancel_.store(true); }

    static constexpr int kChartBars = 20;

public slots:
    void loadModel(const QString& path);
    // Tokenizes the prompt (with the model's default BOS) and starts a fresh session; the first
    // step() prefills it.
    void startSession(const QString& prompt, const dlab::SamplerParams& params);
    void step();
    // Re-runs only the sampler chain of `step` on its cached logits; no forward pass.
    void resample(int step, const dlab::SamplerParams& params);
    // Parameters for later steps.
    void setSamplerParams(const dlab::SamplerParams& params);

signals:
    void progress(float fraction);
    void modelLoaded(const dlab::ui::ModelSummary& summary);
    void sessionStarted(int promptTokens);
    void stepDone(const dlab::StepTrace& trace, const dlab::ui::StepView& view);
    void resampled(int step, const dlab::SampleResult& result, const dlab::ui::StepView& view);
    void cancelled();
    void failed(const QString& message);

private:
    StepView makeView(int step, const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                      TokenId chosen, float chosenP) const;

    std::atomic<bool> cancel_{false};
    // Destruction order matters: the session refers to the backend and model, the backend to the model.
    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;
    std::unique_ptr<Session> session_;
    SamplerParams params_;
};

}  // namespace dlab::ui
