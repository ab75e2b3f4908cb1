#pragma once
// What every page's engine work shares, on the engine thread: the loaded Model, its Backend and
// the one cancel flag (DESIGN.md "No god worker"). Each page has its own controller QObject on the
// same thread (a child of the context) with its own Session or runner; the controllers reach the
// model through model() / backend() and never keep them past aboutToReplaceModel().
//
// One computation at a time: everything runs on the one engine thread, so a page's long run
// queues the next page's request behind it. cancel() is the one call that may come from another
// thread: it raises the atomic flag that model loading (between tensors), runs (between steps)
// and the backend (between layers) check. A controller clears it with beginWork() when it starts.
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "sampling/sampler_params.h"
#include "ui/engine/engine_types.h"

namespace dlab {
class Model;
class Backend;
class KvBlockPool;
}  // namespace dlab

namespace dlab::ui {

class EngineContext : public QObject {
    Q_OBJECT
public:
    explicit EngineContext(QObject* parent = nullptr);
    // Deletes the controllers (its children) first: their sessions refer to the model and backend.
    ~EngineContext() override;

    // Thread-safe: asks the running load or computation to stop.
    void cancel() { cancel_.store(true); }
    // Engine thread: a computation starts; an earlier cancel() no longer applies.
    void beginWork() { cancel_.store(false); }
    bool cancelRequested() const { return cancel_.load(); }
    const std::atomic<bool>* cancelFlag() const { return &cancel_; }

    bool hasModel() const { return model_ != nullptr; }
    const Model& model() const { return *model_; }   // hasModel() first
    Backend& backend() const { return *backend_; }
    // What the user knows the loaded model as (ModelSummary::name: its file name), for saved sessions.
    const QString& modelName() const { return modelName_; }
    // DRY's sequence breakers in the loaded model's tokens when DRY is on and none are given
    // (what a page cannot know).
    SamplerParams withModelDefaults(SamplerParams params) const;

    // The automatic thread count: every core the machine has, at most 8.
    static int automaticThreads();

    // Live KV pools a page lets others look at (the KV page's block view shows the playground's
    // branches through this). Engine thread only; the owner removes its source when it goes.
    struct KvPoolSource {
        std::function<const KvBlockPool*()> pool;     // nullptr while there is none
        std::function<QString(int seq)> label;        // a sequence's name ("branch 2 (current)")
    };
    void setKvPoolSource(const QString& id, KvPoolSource source) { kvSources_[id] = std::move(source); }
    void removeKvPoolSource(const QString& id) { kvSources_.erase(id); }
    const KvPoolSource* kvPoolSource(const QString& id) const {
        const auto it = kvSources_.find(id);
        return it == kvSources_.end() ? nullptr : &it->second;
    }

public slots:
    // Loads a model; on success the previous one is replaced (aboutToReplaceModel() first). On
    // failure or cancel the previous model stays loaded and usable.
    // backendKind: a dlab::BackendKind (auto, cpu, cuda) as int, for the queued connection.
    void loadModel(const QString& path, int threads = 0, int backendKind = 0);
    // Changes the backend's thread count in place: the model and every session stay.
    void setThreads(int threads);

signals:
    // Emitted on the engine thread just before the model and backend change: controllers drop
    // their sessions (connect with Qt::DirectConnection).
    void aboutToReplaceModel();
    void progress(float fraction);
    void modelLoaded(const dlab::ui::ModelSummary& summary);
    void cancelled();      // a load was cancelled
    void failed(const QString& message);
    void threadsChanged(int threads);

private:
    std::atomic<bool> cancel_{false};
    // Destruction order: the backend refers to the model.
    std::unique_ptr<Model> model_;
    std::unique_ptr<Backend> backend_;
    std::vector<std::vector<TokenId>> dryBreakers_;
    std::map<QString, KvPoolSource> kvSources_;   // defaultDryBreakers() in the loaded model's tokens
    QString modelName_;
};

}  // namespace dlab::ui
