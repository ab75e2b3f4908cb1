#pragma once
// The main window: menus, the playground page, a status bar (model, parameters, last step time,
// load progress with Cancel) and the engine worker's thread. Errors from the engine are shown
// without blocking (QMessageBox::open) and never end the application.
#include <QMainWindow>
#include <QThread>

#include <functional>

#include "ui/engine_types.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QPushButton;
QT_END_NAMESPACE

namespace dlab::ui {

class EngineWorker;
class PlaygroundPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // modelPath empty: the default model (resolveModelPath("")), loaded once the event loop runs.
    explicit MainWindow(const QString& modelPath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlaygroundPage* playground() const { return playground_; }
    EngineWorker* worker() const { return worker_; }
    bool isLoading() const { return loading_; }
    const ModelSummary& model() const { return model_; }
    bool hasModel() const { return !model_.path.isEmpty(); }
    QString lastError() const { return lastError_; }
    // How errors reach the user; the default opens a window-modal QMessageBox without blocking.
    using ErrorReporter = std::function<void(const QString& message)>;
    void setErrorReporter(ErrorReporter reporter) { reportError_ = std::move(reporter); }

public slots:
    void loadModel(const QString& path);
    void openModel();          // File → Open model…
    void cancelLoad();

signals:
    void loadRequested(const QString& path);

private:
    void onProgress(float fraction);
    void onModelLoaded(const dlab::ui::ModelSummary& summary);
    void onLoadCancelled();
    void onFailed(const QString& message);
    void onStepDone(const dlab::StepTrace& trace);
    void setLoading(bool loading);
    void showError(const QString& message);

    QThread thread_;
    EngineWorker* worker_ = nullptr;   // lives on thread_, deleted when it finishes
    PlaygroundPage* playground_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* stepTimeLabel_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    ModelSummary model_;
    bool loading_ = false;
    QString lastError_;
    ErrorReporter reportError_;
};

}  // namespace dlab::ui
