#pragma once
// The main window, a shell: the pages of the registry (page_registry.cpp) as tabs, menus (File with recent models,
// Settings with language, backend / threads and appearance), drag-and-drop of a .gguf file, a
// status bar (model, backend, parameters, and the front page's context used, memory and last
// tokens/s; load progress with Cancel) and the engine thread with its EngineContext. Errors from the engine are shown without blocking
// (QMessageBox::open) and never end the application; a model that fails to load leaves the
// previous one in use. Settings persist with QSettings (see app_settings.h) shortly after each
// change and when the window closes.
#include <QDeadlineTimer>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QThread>

#include <functional>
#include <vector>

#include "ui/app/page.h"
#include "ui/engine/engine_types.h"

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

namespace dlab::widgets {
class ElidingLabel;
}

namespace dlab::ui {

class EngineContext;
class LessonPanel;
class PresentationMode;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // modelPath empty: the last model used (settings), else the default model, loaded once the
    // event loop runs.
    explicit MainWindow(const QString& modelPath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // The registered page of type P (PlaygroundPage, ChatPage, …), or nullptr.
    template <class P>
    P* page() const {
        for (Page* p : pages_)
            if (auto* found = qobject_cast<P*>(p)) return found;
        return nullptr;
    }
    const std::vector<Page*>& pages() const { return pages_; }
    Page* currentPage() const;
    QTabWidget* tabs() const { return tabs_; }
    EngineContext* engine() const { return engine_; }   // lives on the engine thread
    bool isLoading() const { return loading_; }
    const ModelSummary& model() const { return model_; }
    bool hasModel() const { return !model_.path.isEmpty(); }
    QString lastError() const { return lastError_; }
    QStringList recentModels() const { return recent_; }
    int threads() const { return threads_; }   // 0 = automatic
    QString backendChoice() const { return backend_; }   // "auto", "cpu" or "cuda" (Settings → Backend)
    PresentationMode* presentation() const { return presentation_; }
    QAction* presentationAction() const { return presentationAction_; }
    LessonPanel* lessons() const { return lessonPanel_; }
    QDockWidget* lessonsDock() const { return lessonsDock_; }
    QString statusText() const;                 // every status-bar label, for tests
    int statusMessageRoom() const;              // px a status-bar message has left of the shown labels, for tests
    // How errors reach the user; the default opens a window-modal QMessageBox without blocking.
    using ErrorReporter = std::function<void(const QString& message)>;
    void setErrorReporter(ErrorReporter reporter) { reportError_ = std::move(reporter); }

    // File → Save Session… / Open Session… without their dialogs (tests). saveSessionTo() writes
    // the front page's session (Page::saveSession); openSessionFrom() reads a file, hands it to the
    // page whose id it names and brings that page to the front. Both throw dlab::Error with the
    // sentence the menu shows; a failure changes nothing (the previous file, the pages' work).
    void saveSessionTo(const QString& path);
    void openSessionFrom(const QString& path);
    // The same with a failure shown like every other error (showError); true when it worked.
    bool trySaveSessionTo(const QString& path);
    bool tryOpenSessionFrom(const QString& path);

    static constexpr int kMaxRecent = 8;
    static constexpr int kMaxThreads = 256;     // the CPU backend's limit
    static constexpr int kSaveDelayMs = 400;    // settings are written this long after the last change

public slots:
    void loadModel(const QString& path);
    void openModel();          // File → Open model…
    void saveSession();        // File → Save Session…: asks for the file
    void openSession();        // File → Open Session…
    void cancelLoad();
    void setThreads(int threads);   // in place: the model and the pages' work stay
    // Settings → Backend ("auto", "cpu", "cuda"): reloads the current model on it (the pages
    // start afresh, as after opening a model); a refused choice (no CUDA in this build) is ignored.
    void setBackend(const QString& kind);
    void setLanguage(const QString& code);
    void setTheme(const QString& name);   // "system", "light", "dark"
    void saveSettings() const;

signals:
    void loadRequested(const QString& path, int threads, int backendKind);

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
    void onThreadsChanged(int threads);
    // Settings are written shortly after every change (a killed process keeps them), not only
    // on quit: one write per burst of changes.
    void scheduleSave();
    void setLoading(bool loading);
    void showError(const QString& message);
    // A status bar message for `ms` milliseconds, worded again by `text` if the language changes
    // while it shows.
    void showNote(std::function<QString()> text, int ms);
    void updateModelLabel();
    void updateStatusLabels();   // context, memory and speed from the last step or answer
    void buildViewMenu();
    void onPresentationChanged();
    void buildLessons();          // the Lessons menu and the dock with the lesson panel
    void rebuildLessonsMenu();    // one entry per lesson, titled in the current language
    void openLesson(int index);
    void applyLessonSetup(const QVariantMap& setup);
    void buildHelpMenu();
    QString sessionFolder() const;   // where the session dialogs start: the last one used

    void buildPages();            // the registry's pages and their controllers on the engine context
    Page* lessonPage() const;     // the page the current lesson sets up (Lesson::page, acceptsLessons), or nullptr

    std::function<QString()> noteText_;   // the note showing now, while its words are noteShown_
    QString noteShown_;
    QDeadlineTimer noteUntil_;

    QThread thread_;
    EngineContext* engine_ = nullptr;   // lives on thread_, deleted when it finishes (its controllers with it)
    QTabWidget* tabs_ = nullptr;
    std::vector<Page*> pages_;          // in tab order
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
    QMenu* pagesMenu_ = nullptr;             // View › Go to page: one action per page, Alt+1 …
    std::vector<QAction*> pageActions_;
    PresentationMode* presentation_ = nullptr;
    QMenu* lessonsMenu_ = nullptr;
    QAction* lessonsDockAction_ = nullptr;
    QDockWidget* lessonsDock_ = nullptr;
    LessonPanel* lessonPanel_ = nullptr;
    QAction* userGuideAction_ = nullptr;
    QAction* shortcutsAction_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* openSessionAction_ = nullptr;
    QAction* saveSessionAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QActionGroup* backendGroup_ = nullptr;   // auto, cpu, cuda
    GpuCheck gpuCheck_;                      // whether CUDA can be used here, and if not why
    QActionGroup* languageGroup_ = nullptr;
    QActionGroup* threadsGroup_ = nullptr;
    QActionGroup* themeGroup_ = nullptr;
    widgets::ElidingLabel* modelLabel_ = nullptr;
    QLabel* contextLabel_ = nullptr;
    QLabel* memoryLabel_ = nullptr;
    QLabel* speedLabel_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    ModelSummary model_;
    QTimer* saveTimer_ = nullptr;
    QPointer<QMessageBox> errorBox_;   // the error box on screen, if any
    bool loading_ = false;
    int threads_ = 0;
    QString backend_ = QStringLiteral("auto");
    QString theme_ = QStringLiteral("system");
    QStringList recent_;
    QString lastError_;
    QString settingsWarning_;   // a saved setting that was out of range, told once a model is in
    ErrorReporter reportError_;
};

}  // namespace dlab::ui
