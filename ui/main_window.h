#pragma once
// The main window: the Playground and Chat pages as tabs, menus (File with recent models,
// Settings with language, backend / threads and appearance), drag-and-drop of a .gguf file, a
// status bar (model, backend, parameters, context used, memory, last tokens/s, load progress
// with Cancel) and the engine worker's thread. Errors from the engine are shown without blocking
// (QMessageBox::open) and never end the application; a model that fails to load leaves the
// previous one in use. Settings persist with QSettings (see app_settings.h) shortly after each
// change and when the window closes.
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QThread>

#include <functional>

#include "ui/engine_types.h"

QT_BEGIN_NAMESPACE
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTimer;
QT_END_NAMESPACE

namespace dlab::ui {

class ChatPage;
class EngineWorker;
class LessonPanel;
class PlaygroundPage;
class PresentationMode;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // modelPath empty: the last model used (settings), else the default model, loaded once the
    // event loop runs.
    explicit MainWindow(const QString& modelPath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlaygroundPage* playground() const { return playground_; }
    ChatPage* chat() const { return chat_; }
    QTabWidget* tabs() const { return tabs_; }
    EngineWorker* worker() const { return worker_; }
    bool isLoading() const { return loading_; }
    const ModelSummary& model() const { return model_; }
    bool hasModel() const { return !model_.path.isEmpty(); }
    QString lastError() const { return lastError_; }
    QStringList recentModels() const { return recent_; }
    int threads() const { return threads_; }   // 0 = automatic
    PresentationMode* presentation() const { return presentation_; }
    QAction* presentationAction() const { return presentationAction_; }
    LessonPanel* lessons() const { return lessonPanel_; }
    QDockWidget* lessonsDock() const { return lessonsDock_; }
    QString statusText() const;                 // every status-bar label, for tests
    // How errors reach the user; the default opens a window-modal QMessageBox without blocking.
    using ErrorReporter = std::function<void(const QString& message)>;
    void setErrorReporter(ErrorReporter reporter) { reportError_ = std::move(reporter); }

    static constexpr int kMaxRecent = 8;
    static constexpr int kMaxThreads = 256;     // the CPU backend's limit
    static constexpr int kSaveDelayMs = 400;    // settings are written this long after the last change

public slots:
    void loadModel(const QString& path);
    void openModel();          // File → Open model…
    void cancelLoad();
    void setThreads(int threads);   // reloads the model on the new backend settings
    void setLanguage(const QString& code);
    void setTheme(const QString& name);   // "system", "light", "dark"
    void saveSettings() const;

signals:
    void loadRequested(const QString& path, int threads);

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void retranslate();
    void rebuildRecentMenu();
    void addRecent(const QString& path);
    void restoreSettings();
    void onProgress(float fraction);
    void onModelLoaded(const dlab::ui::ModelSummary& summary);
    void onLoadCancelled();
    void onFailed(const QString& message);
    void onStepDone(const dlab::StepTrace& trace, const dlab::ui::StepView& view);
    void onBranched(const dlab::ui::BranchView& branch);
    void onSessionEnded();
    void onThreadsChanged(int threads);
    void onAnswerFinished(const dlab::ui::ChatStats& stats);
    void onChatStatusChanged();
    // Settings are written shortly after every change (a killed process keeps them), not only
    // on quit: one write per burst of changes.
    void scheduleSave();
    void setLoading(bool loading);
    void showError(const QString& message);
    void updateModelLabel();
    void updateStatusLabels();   // context, memory and speed from the last step or answer
    void buildViewMenu();
    void onPresentationChanged();
    void buildLessons();          // the Lessons menu and the dock with the lesson panel
    void rebuildLessonsMenu();    // one entry per lesson, titled in the current language
    void openLesson(int index);
    void applyLessonSetup(const QVariantMap& setup);
    void buildHelpMenu();

    QThread thread_;
    EngineWorker* worker_ = nullptr;   // lives on thread_, deleted when it finishes
    QTabWidget* tabs_ = nullptr;
    PlaygroundPage* playground_ = nullptr;
    ChatPage* chat_ = nullptr;
    QMenu* fileMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* settingsMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* backendMenu_ = nullptr;
    QMenu* threadsMenu_ = nullptr;
    QMenu* themeMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QAction* presentationAction_ = nullptr;
    QAction* zoomInAction_ = nullptr;
    QAction* zoomOutAction_ = nullptr;
    QAction* zoomResetAction_ = nullptr;
    QAction* fullScreenAction_ = nullptr;
    PresentationMode* presentation_ = nullptr;
    QMenu* lessonsMenu_ = nullptr;
    QAction* lessonsDockAction_ = nullptr;
    QDockWidget* lessonsDock_ = nullptr;
    LessonPanel* lessonPanel_ = nullptr;
    QAction* userGuideAction_ = nullptr;
    QAction* shortcutsAction_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* cpuAction_ = nullptr;
    QActionGroup* languageGroup_ = nullptr;
    QActionGroup* threadsGroup_ = nullptr;
    QActionGroup* themeGroup_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* contextLabel_ = nullptr;
    QLabel* memoryLabel_ = nullptr;
    QLabel* speedLabel_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    ModelSummary model_;
    // What the status bar shows, kept as numbers so a language switch can re-render it; one set
    // per page, shown for the page in front.
    struct StatusNumbers {
        qint64 contextUsed = -1;    // -1: no step yet
        qint64 kvBytes = 0;
        double stepMs = 0.0, forwardMs = 0.0, sampleMs = 0.0;
        double tokensPerSecond = -1.0;  // -1: none yet
        bool prefill = false;
        double timeToFirstTokenMs = -1.0;  // >= 0: the speed is a chat answer's
        int promptTokens = 0, reusedTokens = 0;  // of that answer
    };
    StatusNumbers playgroundStatus_, chatStatus_;
    const StatusNumbers& shownStatus() const;
    bool chatInFront() const;
    QTimer* saveTimer_ = nullptr;
    QPointer<QMessageBox> errorBox_;   // the error box on screen, if any
    bool loading_ = false;
    int threads_ = 0;
    QString theme_ = QStringLiteral("system");
    QStringList recent_;
    QString lastError_;
    QString settingsWarning_;   // a saved setting that was out of range, told once a model is in
    ErrorReporter reportError_;
};

}  // namespace dlab::ui
