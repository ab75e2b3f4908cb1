#include "ui/app/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QTimer>

#include <algorithm>

#include "core/error.h"
#include "cuda/backend_choice.h"
#include "cuda/cuda_backend.h"
#include "model/model_locator.h"
#include "session/session_file.h"
#include "ui/app/app_settings.h"
#include "ui/app/gpu_fallback_text.h"
#include "ui/app/page_registry.h"
#include "ui/engine/engine_context.h"
#include "ui/help/shortcuts_dialog.h"
#include "ui/help/user_guide_dialog.h"
#include "ui/app/language_manager.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/app/mnemonic_text.h"
#include "ui/app/presentation_mode.h"
#include "ui/app/theme.h"
#include "widgets/combo_font_refresh.h"
#include "widgets/lost_resize_guard.h"
#include "widgets/wheel_guard.h"
#include "widgets/eliding_label.h"
#include "widgets/front_tab_sizing.h"
#include "widgets/number_text.h"

namespace dlab::ui {

namespace {
// The first local .gguf file among dropped URLs, or "".
QString droppedModel(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive))
            return url.toLocalFile();
    return {};
}
}  // namespace

MainWindow::MainWindow(const QString& modelPath, QWidget* parent) : QMainWindow(parent) {
    registerEngineTypes();
    setAcceptDrops(true);
    resize(1280, 820);
    // The wheel scrolls the page; it turns a knob only once the knob has the focus.
    qApp->installEventFilter(new widgets::WheelGuard(this));
    qApp->installEventFilter(new widgets::ComboFontRefresh(this));
    qApp->installEventFilter(new widgets::LostResizeGuard(this));

    // The pages in a scroll area that fills the window: where the window is smaller than a page
    // needs (a 1024 × 700 screen with the Lessons panel open, presentation mode's larger text),
    // the page scrolls instead of the window growing past the screen.
    tabs_ = new QTabWidget;
    auto* pageArea = new QScrollArea(this);
    pageArea->setObjectName(QStringLiteral("pageArea"));
    pageArea->setFrameShape(QFrame::NoFrame);
    pageArea->setWidgetResizable(true);
    pageArea->setWidget(tabs_);
    setCentralWidget(pageArea);

    // Status bar: model | context | memory | speed ... progress + Cancel while loading.
    // The model label takes what the others leave and elides ("…", the whole text in its tooltip)
    // only when the window cannot hold every text; the figures beside it are always whole.
    modelLabel_ = new widgets::ElidingLabel(this);
    modelLabel_->setObjectName(QStringLiteral("modelLabel"));
    contextLabel_ = new QLabel(this);
    contextLabel_->setObjectName(QStringLiteral("contextLabel"));
    memoryLabel_ = new QLabel(this);
    memoryLabel_->setObjectName(QStringLiteral("memoryLabel"));
    speedLabel_ = new QLabel(this);
    speedLabel_->setObjectName(QStringLiteral("speedLabel"));
    progressBar_ = new QProgressBar(this);
    progressBar_->setRange(0, 100);
    progressBar_->setMaximumWidth(200);
    cancelButton_ = new QPushButton(this);
    // Never the focus: it is hidden when loading ends, and a hidden focus widget would swallow
    // the pages' shortcuts (F5, F10, Esc). Esc reaches it while it is shown.
    cancelButton_->setFocusPolicy(Qt::NoFocus);
    cancelButton_->setShortcut(QKeySequence(Qt::Key_Escape));
    statusBar()->addWidget(modelLabel_, 1);
    // A message takes the name's place. QStatusBar hides only what is visible when the message
    // comes: one shown while the bar was hidden left the name drawn under it once the bar came back.
    connect(statusBar(), &QStatusBar::messageChanged, modelLabel_, [this](const QString& m) { modelLabel_->setVisible(m.isEmpty()); });
    statusBar()->addPermanentWidget(contextLabel_);
    statusBar()->addPermanentWidget(memoryLabel_);
    statusBar()->addPermanentWidget(speedLabel_);
    statusBar()->addPermanentWidget(progressBar_);
    statusBar()->addPermanentWidget(cancelButton_);
    progressBar_->hide();
    cancelButton_->hide();
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelLoad);

    buildMenus();

    buildPages();
    widgets::groupSpinBoxDigits(tabs_);   // "1.000 ms" in a box as in the labels beside it
    // The window's minimum is the page in front's, not the widest page's: the KV page's 840 pixels
    // made the Playground scroll sideways beside the Lessons panel on a 1024-pixel screen.
    widgets::sizeToFrontTab(tabs_);
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        updateModelLabel();   // the status labels, and whether another page holds the engine
        scheduleSave();
    });
    thread_.setObjectName(QStringLiteral("engine"));
    thread_.start();

    reportError_ = [this](const QString& message) {
        // One box per cause: the same message while its box is still open is not stacked again.
        // (A QPointer, not a destroyed() handler: the box may die inside ~MainWindow.)
        if (errorBox_ && errorBox_->isVisible() && errorBox_->text() == message) return;
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Decoding Lab"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        errorBox_ = box;
        box->open();  // window-modal, returns at once: the event loop (and the tests) keep running
    };
    saveTimer_ = new QTimer(this);
    saveTimer_->setSingleShot(true);
    saveTimer_->setInterval(kSaveDelayMs);
    connect(saveTimer_, &QTimer::timeout, this, &MainWindow::saveSettings);

    restoreSettings();
    retranslate();

    // Open onto the given, the last used or the default model once the window is up.
    QString start = modelPath;
    if (start.isEmpty()) {
        const QString last = openSettings()->value(QStringLiteral("model/last")).toString();
        if (!last.isEmpty() && QFileInfo::exists(last)) start = last;
    }
    QTimer::singleShot(0, this, [this, start] {
        try {
            loadModel(QString::fromStdString(resolveModelPath(start.toStdString())));
        } catch (const std::exception& e) {
            showError(QString::fromUtf8(e.what()));
            updateModelLabel();
        }
    });
}

MainWindow::~MainWindow() {
    // QWidget's destructor hides the dock after this one has run: its visibility must not reach
    // the pages then.
    disconnect(lessonsDock_, nullptr, this, nullptr);
    engine_->cancel();
    thread_.quit();
    thread_.wait();
}

void MainWindow::buildPages() {
    // The context and every page's controller are made here, then moved to the engine thread
    // together; every page <-> controller connection is queued across the threads.
    engine_ = new EngineContext;
    for (const PageFactory& make : registeredPages()) {
        Page* page = make(tabs_);
        pages_.push_back(page);
        tabs_->addTab(page, QString());
        // Alt+1, Alt+2, …: the tabs carry no Alt+letter of their own, so every letter is free for
        // the controls of the page in front (test_gui_mnemonics).
        QAction* go = pagesMenu_->addAction(QString(), this, [this, page] { tabs_->setCurrentWidget(page); });
        if (pages_.size() <= 9) go->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_0 + int(pages_.size()))));
        pageActions_.push_back(go);
        page->attachEngine(engine_);
        connect(page, &Page::statusChanged, this, [this, page] {
            if (page == currentPage()) updateStatusLabels();
        });
        connect(page, &Page::engineHoldChanged, this, &MainWindow::updateModelLabel);
        connect(page, &Page::settingsChanged, this, &MainWindow::scheduleSave);
        connect(page, &Page::errorOccurred, this, &MainWindow::showError);
    }
    for (Page* from : pages_)
        for (Page* to : pages_)
            if (from != to) connect(from, &Page::samplerParamsPublished, to, &Page::setSharedSamplerParams);
    engine_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, engine_, &QObject::deleteLater);
    connect(this, &MainWindow::loadRequested, engine_, &EngineContext::loadModel);
    connect(engine_, &EngineContext::progress, this, &MainWindow::onProgress);
    connect(engine_, &EngineContext::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(engine_, &EngineContext::cancelled, this, &MainWindow::onLoadCancelled);
    connect(engine_, &EngineContext::failed, this, &MainWindow::onFailed);
    connect(engine_, &EngineContext::threadsChanged, this, &MainWindow::onThreadsChanged);
}

Page* MainWindow::currentPage() const { return qobject_cast<Page*>(tabs_->currentWidget()); }

Page* MainWindow::lessonPage() const {
    // The page the current lesson names (Lesson::page), else the first that takes lessons.
    const Lesson* lesson = lessonPanel_ ? lessonPanel_->currentLesson() : nullptr;
    Page* first = nullptr;
    for (Page* p : pages_) {
        if (!p->acceptsLessons()) continue;
        if (lesson && p->pageId() == lesson->page) return p;
        if (!first) first = p;
    }
    return first;
}

void MainWindow::buildMenus() {
    fileMenu_ = menuBar()->addMenu(QString());
    openAction_ = fileMenu_->addAction(QString(), this, &MainWindow::openModel);
    openAction_->setShortcut(QKeySequence::Open);
    recentMenu_ = fileMenu_->addMenu(QString());
    fileMenu_->addSeparator();
    // Ctrl+Shift+O beside the model's Ctrl+O; Ctrl+S is free (the pages' keys are F-keys and Esc).
    openSessionAction_ = fileMenu_->addAction(QString(), this, &MainWindow::openSession);
    openSessionAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    saveSessionAction_ = fileMenu_->addAction(QString(), this, &MainWindow::saveSession);
    saveSessionAction_->setShortcut(QKeySequence::Save);
    fileMenu_->addSeparator();
    quitAction_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    quitAction_->setShortcut(QKeySequence::Quit);

    buildViewMenu();

    settingsMenu_ = menuBar()->addMenu(QString());
    languageMenu_ = settingsMenu_->addMenu(QString());
    languageGroup_ = new QActionGroup(this);
    for (const Language& lang : LanguageManager::languages()) {
        QAction* a = languageMenu_->addAction(lang.nativeName);  // each language in its own words
        a->setCheckable(true);
        a->setData(lang.code);
        languageGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, code = lang.code] { setLanguage(code); });
    }

    // Automatic (the GPU when one is usable, else the CPU), the CPU, or CUDA; CUDA is greyed out
    // with the reason when this build or this machine cannot run it.
    backendMenu_ = settingsMenu_->addMenu(QString());
    backendGroup_ = new QActionGroup(this);
    gpuCheck_ = checkGpu();
    for (const char* kind : {"auto", "cpu", "cuda"}) {
        QAction* a = backendMenu_->addAction(QString());
        a->setCheckable(true);
        a->setData(QString::fromLatin1(kind));
        a->setChecked(backend_ == QLatin1String(kind));
        if (QLatin1String(kind) == QLatin1String("cuda")) a->setEnabled(gpuCheck_.problem == GpuProblem::None);
        backendGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, k = QString::fromLatin1(kind)] { setBackend(k); });
    }
    threadsMenu_ = settingsMenu_->addMenu(QString());
    threadsGroup_ = new QActionGroup(this);
    for (int n : {0, 1, 2, 4, 8, 16}) {
        if (n > 0 && n > std::max(2, QThread::idealThreadCount())) break;
        QAction* a = threadsMenu_->addAction(QString());
        a->setCheckable(true);
        a->setData(n);
        threadsGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, n] { setThreads(n); });
    }

    themeMenu_ = settingsMenu_->addMenu(QString());
    themeGroup_ = new QActionGroup(this);
    for (const char* name : {"system", "light", "dark"}) {
        QAction* a = themeMenu_->addAction(QString());
        a->setCheckable(true);
        a->setData(QString::fromLatin1(name));
        themeGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, n = QString::fromLatin1(name)] { setTheme(n); });
    }

    buildLessons();
    buildHelpMenu();
}

void MainWindow::buildLessons() {
    lessonsMenu_ = menuBar()->addMenu(QString());
    lessonPanel_ = new LessonPanel(LessonLibrary::load());
    lessonsDock_ = new QDockWidget(this);
    lessonsDock_->setObjectName(QStringLiteral("lessonsDock"));   // saveState() needs a name
    lessonsDock_->setWidget(lessonPanel_);
    lessonsDock_->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::RightDockWidgetArea, lessonsDock_);
    lessonsDock_->hide();
    lessonsDockAction_ = lessonsDock_->toggleViewAction();
    connect(lessonsDock_, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        for (Page* p : pages_) p->setLessonsPanelShown(shown);
    });
    lessonsDockAction_->setShortcut(QKeySequence(Qt::Key_F2));
    connect(lessonPanel_, &LessonPanel::setupRequested, this, &MainWindow::applyLessonSetup);
    connect(lessonPanel_, &LessonPanel::restoreRequested, this, [this] {
        Page* page = lessonPage();
        if (!page) return;
        page->restoreBeforeLesson();
        lessonPanel_->setRestoreAvailable(page->hasSetupBeforeLesson());
    });
    connect(lessonPanel_, &LessonPanel::currentLessonChanged, this, [this] {
        if (Page* page = lessonPage()) lessonPanel_->setRestoreAvailable(page->hasSetupBeforeLesson());
    });
    rebuildLessonsMenu();
}

void MainWindow::rebuildLessonsMenu() {
    lessonsMenu_->clear();
    lessonsMenu_->addAction(lessonsDockAction_);
    lessonsMenu_->addSeparator();
    const QString lang = LanguageManager::instance().current();
    const auto& lessons = lessonPanel_->library().lessons();
    for (int i = 0; i < lessons.size(); ++i)
        lessonsMenu_->addAction(localized(lessons[i].title, lang), this, [this, i] { openLesson(i); });
}

void MainWindow::openLesson(int index) {
    lessonPanel_->setCurrentIndex(index);
    lessonsDock_->show();
    lessonsDock_->raise();
}

void MainWindow::applyLessonSetup(const QVariantMap& setup) {
    // The page the lesson names (Lesson::page) keeps the user's setup first.
    Page* page = lessonPage();
    if (!page) return;
    tabs_->setCurrentWidget(page);
    if (!hasModel()) {
        showError(tr("Load a model first: the lesson runs on it."));
        return;
    }
    page->applyLesson(setup);
    lessonPanel_->setRestoreAvailable(true);
}

void MainWindow::buildHelpMenu() {
    helpMenu_ = menuBar()->addMenu(QString());
    userGuideAction_ = helpMenu_->addAction(QString(), this, [this] {
        auto* dialog = new UserGuideDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();   // non-modal: the guide stays open beside the app
    });
    userGuideAction_->setShortcut(QKeySequence::HelpContents);
    shortcutsAction_ = helpMenu_->addAction(QString(), this, [this] {
        auto* dialog = new ShortcutsDialog(this, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    shortcutsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    helpMenu_->addSeparator();
    aboutAction_ = helpMenu_->addAction(QString(), this, [this] {
        QMessageBox::about(this, tr("About Decoding Lab"),
                           tr("<p><b>Decoding Lab %1</b></p><p>See how a language model picks each token: the logits, "
                              "what temperature, top-k, top-p and the penalties do to them, and the text that comes out.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::buildViewMenu() {
    presentation_ = new PresentationMode(this);
    viewMenu_ = menuBar()->addMenu(QString());
    presentationAction_ = viewMenu_->addAction(QString());
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    connect(presentationAction_, &QAction::toggled, presentation_, &PresentationMode::setPresenting);
    viewMenu_->addSeparator();
    zoomInAction_ = viewMenu_->addAction(QString(), presentation_, &PresentationMode::zoomIn);
    // Ctrl+= is where Ctrl++ is without Shift on most keyboards: both zoom in.
    zoomInAction_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn});
    zoomOutAction_ = viewMenu_->addAction(QString(), presentation_, &PresentationMode::zoomOut);
    zoomOutAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));   // QKeySequence::ZoomOut is the same key: twice is ambiguous
    zoomResetAction_ = viewMenu_->addAction(QString(), presentation_, &PresentationMode::resetZoom);
    zoomResetAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    viewMenu_->addSeparator();
    fullScreenAction_ = viewMenu_->addAction(QString());
    fullScreenAction_->setCheckable(true);
    fullScreenAction_->setShortcut(QKeySequence(Qt::Key_F11));   // QKeySequence::FullScreen is empty on X11
    connect(fullScreenAction_, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
    viewMenu_->addSeparator();
    pagesMenu_ = viewMenu_->addMenu(QString());   // filled by buildPages()
    connect(presentation_, &PresentationMode::changed, this, &MainWindow::onPresentationChanged);
}

void MainWindow::onPresentationChanged() {
    const QSignalBlocker block(presentationAction_);
    presentationAction_->setChecked(presentation_->presenting());
    for (Page* page : pages_) {
        page->setLineScale(presentation_->lineScale());
        page->setPresenting(presentation_->presenting());
    }
    // The zoom shows in the View menu's tooltip, not as a status message: a message over the
    // status bar hid the model label only partly when the window was resized under it.
    zoomResetAction_->setToolTip(tr("Text at %1 %").arg(qRound(presentation_->fontScale() * 100)));
    scheduleSave();
}

void MainWindow::retranslate() {
    pagesMenu_->setTitle(tr("&Go to page"));
    for (int i = 0; i < static_cast<int>(pages_.size()); ++i) {
        QAction* go = pageActions_[size_t(i)];
        tabs_->setTabText(i, withoutMnemonic(pages_[i]->title()));
        go->setText(pages_[i]->title());
        tabs_->setTabToolTip(i, go->shortcut().isEmpty() ? pages_[i]->toolTip()
                                                         : tr("%1 (%2)").arg(pages_[i]->toolTip(),
                                                                             go->shortcut().toString(QKeySequence::NativeText)));
    }
    fileMenu_->setTitle(tr("&File"));
    openAction_->setText(tr("&Open model…"));
    recentMenu_->setTitle(tr("Open &recent"));
    openSessionAction_->setText(tr("Open S&ession…"));
    openSessionAction_->setToolTip(tr("Replay a saved session: every step as it was recorded, with or without its model"));
    saveSessionAction_->setText(tr("&Save Session…"));
    saveSessionAction_->setToolTip(tr("Save the front page's session (prompt, settings, every step's numbers) to replay it later"));
    quitAction_->setText(tr("&Quit"));
    settingsMenu_->setTitle(tr("&Settings"));
    languageMenu_->setTitle(tr("&Language"));
    backendMenu_->setTitle(tr("&Backend"));
    backendMenu_->setToolTipsVisible(true);
    for (QAction* a : backendGroup_->actions()) {
        const QString kind = a->data().toString();
        if (kind == QLatin1String("auto")) {
            a->setText(tr("Automatic"));
            a->setToolTip(gpuCheck_.problem == GpuProblem::None ? tr("The NVIDIA GPU, which this machine has")
                                                                : tr("The CPU here: %1").arg(gpuProblemText(gpuCheck_)));
        } else if (kind == QLatin1String("cpu")) {
            a->setText(tr("CPU"));
            a->setToolTip(tr("Runs the model on the processor"));
        } else {
            a->setText(tr("CUDA GPU"));
            a->setToolTip(gpuCheck_.problem == GpuProblem::None ? tr("Runs the model on the NVIDIA GPU")
                                                                : tr("Not available: %1").arg(gpuProblemText(gpuCheck_)));
        }
    }
    threadsMenu_->setTitle(tr("CPU &threads"));
    for (QAction* a : threadsGroup_->actions()) {
        const int n = a->data().toInt();
        a->setText(n == 0 ? tr("Automatic") : tr("%n thread(s)", nullptr, n));
    }
    themeMenu_->setTitle(tr("&Appearance"));
    for (QAction* a : themeGroup_->actions()) {
        const QString n = a->data().toString();
        a->setText(n == QLatin1String("light") ? tr("Light") : n == QLatin1String("dark") ? tr("Dark") : tr("Follow the system"));
    }
    viewMenu_->setTitle(tr("&View"));
    presentationAction_->setText(tr("&Presentation mode"));
    presentationAction_->setToolTip(tr("Large text and thick lines, readable from the back of a lecture room"));
    zoomInAction_->setText(tr("Zoom &in"));
    zoomOutAction_->setText(tr("Zoom &out"));
    zoomResetAction_->setText(tr("&Actual size"));
    fullScreenAction_->setText(tr("&Full screen"));
    helpMenu_->setTitle(tr("&Help"));
    userGuideAction_->setText(tr("&User guide"));
    shortcutsAction_->setText(tr("&Keyboard shortcuts"));
    lessonsMenu_->setTitle(tr("L&essons"));
    lessonsDock_->setWindowTitle(tr("Lessons"));
    lessonsDockAction_->setText(tr("Show the &lessons panel"));
    rebuildLessonsMenu();
    aboutAction_->setText(tr("&About Decoding Lab"));
    cancelButton_->setText(tr("Cancel"));
    cancelButton_->setToolTip(tr("Stop loading the model (Esc)"));
    rebuildRecentMenu();
    updateModelLabel();
    // A note still showing is said again in the new language (a menu's status tip is left alone).
    if (noteText_ && statusBar()->currentMessage() == noteShown_ && !noteUntil_.hasExpired()) showNote(noteText_, int(noteUntil_.remainingTime()));
}

void MainWindow::showNote(std::function<QString()> text, int ms) {
    noteText_ = std::move(text);
    noteShown_ = noteText_();
    noteUntil_.setRemainingTime(ms);
    statusBar()->showMessage(noteShown_, ms);
}

void MainWindow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(e);
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    for (const QString& path : recent_) {
        QAction* a = recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { loadModel(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (!recent_.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear the list"), this, [this] {
            recent_.clear();
            rebuildRecentMenu();
        });
    }
    recentMenu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::addRecent(const QString& path) {
    const QString canonical = QFileInfo(path).absoluteFilePath();
    recent_.removeAll(canonical);
    recent_.prepend(canonical);
    while (recent_.size() > kMaxRecent) recent_.removeLast();
    rebuildRecentMenu();
}

void MainWindow::restoreSettings() {
    const auto s = openSettings();
    restoreGeometry(s->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s->value(QStringLiteral("window/state")).toByteArray());
    const QString front = s->value(QStringLiteral("window/page")).toString();
    for (Page* page : pages_)
        if (page->pageId() == front) tabs_->setCurrentWidget(page);
    recent_ = s->value(QStringLiteral("model/recent")).toStringList();
    // A hand-edited or corrupt value must not make every load fail: out of range -> automatic.
    bool ok = false;
    const QVariant savedThreads = s->value(QStringLiteral("backend/threads"), 0);
    threads_ = savedThreads.toInt(&ok);
    if (!ok || threads_ < 0 || threads_ > kMaxThreads) {
        settingsWarning_ = tr("The saved CPU thread count \u201c%1\u201d (settings: %2, key backend/threads) is not between 0 and %3; "
                              "using the automatic count.")
                               .arg(savedThreads.toString(), s->fileName())
                               .arg(kMaxThreads);
        threads_ = 0;
    }
    for (QAction* a : threadsGroup_->actions()) a->setChecked(a->data().toInt() == threads_);
    const QString savedBackend = s->value(QStringLiteral("backend/kind"), QStringLiteral("auto")).toString();
    if (savedBackend == QLatin1String("auto") || savedBackend == QLatin1String("cpu") || savedBackend == QLatin1String("cuda")) {
        backend_ = savedBackend;
    } else {
        settingsWarning_ = tr("The saved backend \u201c%1\u201d (settings: %2, key backend/kind) is not auto, cpu or cuda; using automatic.")
                               .arg(savedBackend, s->fileName());
        backend_ = QStringLiteral("auto");
    }
    for (QAction* a : backendGroup_->actions()) a->setChecked(a->data().toString() == backend_);
    for (Page* page : pages_) page->restoreSettings(*s);
    presentation_->setZoom(s->value(QStringLiteral("view/zoom"), 1.0).toDouble());
    presentation_->setPresenting(s->value(QStringLiteral("view/presentation"), false).toBool());
    setTheme(s->value(QStringLiteral("appearance/theme"), QStringLiteral("system")).toString());
    const QString lang = s->value(QStringLiteral("language"), LanguageManager::systemLanguage()).toString();
    setLanguage(lang);
}

void MainWindow::saveSettings() const {
    const auto s = openSettings();
    s->setValue(QStringLiteral("window/geometry"), saveGeometry());
    s->setValue(QStringLiteral("window/state"), saveState());
    if (const Page* front = currentPage()) s->setValue(QStringLiteral("window/page"), front->pageId());
    s->setValue(QStringLiteral("model/recent"), recent_);
    if (hasModel()) s->setValue(QStringLiteral("model/last"), model_.path);
    s->setValue(QStringLiteral("backend/threads"), threads_);
    s->setValue(QStringLiteral("backend/kind"), backend_);
    s->setValue(QStringLiteral("appearance/theme"), theme_);
    s->setValue(QStringLiteral("view/zoom"), presentation_->zoom());
    s->setValue(QStringLiteral("view/presentation"), presentation_->presenting());
    s->setValue(QStringLiteral("language"), LanguageManager::instance().current());
    for (const Page* page : pages_) page->saveSettings(*s);
    s->sync();
}

void MainWindow::scheduleSave() {
    if (saveTimer_) saveTimer_->start();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    saveTimer_->stop();
    saveSettings();
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!droppedModel(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QString path = droppedModel(e->mimeData());
    if (path.isEmpty()) return;
    e->acceptProposedAction();
    loadModel(path);
}

void MainWindow::loadModel(const QString& path) {
    if (loading_) {
        showError(tr("A model is still loading; cancel it first."));
        return;
    }
    // A missing file is reported here, before the worker is asked: the current model stays.
    if (!QFileInfo::exists(path)) {
        showError(tr("%1: the file does not exist (it may have been moved or deleted).").arg(path));
        recent_.removeAll(QFileInfo(path).absoluteFilePath());
        rebuildRecentMenu();
        return;
    }
    modelLabel_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    tabs_->setEnabled(false);   // the pages wait; the current model stays until the new one is in
    setLoading(true);
    const BackendKind kind = backend_ == QLatin1String("cpu") ? BackendKind::Cpu : backend_ == QLatin1String("cuda") ? BackendKind::Cuda : BackendKind::Auto;
    emit loadRequested(path, threads_, static_cast<int>(kind));
}

void MainWindow::openModel() {
    const QString start = hasModel() ? QFileInfo(model_.path).absolutePath() : QString::fromStdString(modelDirectory());
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), start, tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty()) loadModel(path);
}

QString MainWindow::sessionFolder() const {
    const QString last = openSettings()->value(QStringLiteral("session/folder")).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void MainWindow::saveSessionTo(const QString& path) {
    const Page* page = currentPage();
    if (!page) throw Error(tr("There is no page to save a session from.").toStdString());
    const SavedSession session = page->saveSession();   // its own sentence when it has nothing
    writeSessionFile(path.toStdString(), session);
}

void MainWindow::openSessionFrom(const QString& path) {
    const SavedSession session = readSessionFile(path.toStdString());
    const QString id = QString::fromStdString(session.page);
    for (Page* page : pages_) {
        if (page->pageId() != id) continue;
        page->openSession(session, QFileInfo(path).fileName());
        tabs_->setCurrentWidget(page);
        return;
    }
    throw Error(tr("%1: the session was recorded on the “%2” page, which this version of Decoding Lab does not have.")
                    .arg(path, id)
                    .toStdString());
}

bool MainWindow::trySaveSessionTo(const QString& path) {
    try {
        saveSessionTo(path);
    } catch (const std::exception& e) {
        showError(QString::fromUtf8(e.what()));
        return false;
    }
    showNote([this, path] { return tr("Saved the session to %1").arg(path); }, 5000);
    return true;
}

bool MainWindow::tryOpenSessionFrom(const QString& path) {
    try {
        openSessionFrom(path);
    } catch (const std::exception& e) {
        showError(QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

void MainWindow::saveSession() {
    if (Page* page = currentPage(); page && !page->canSaveSession()) {
        // Why not, before a file is asked for: the page's own sentence.
        trySaveSessionTo(QString());
        return;
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Save session"), sessionFolder() + QStringLiteral("/session.dlab"),
                                                tr("Decoding Lab sessions (*.dlab)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".dlab");
    openSettings()->setValue(QStringLiteral("session/folder"), QFileInfo(path).absolutePath());
    trySaveSessionTo(path);
}

void MainWindow::openSession() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), sessionFolder(),
                                                      tr("Decoding Lab sessions (*.dlab);;All files (*)"));
    if (path.isEmpty()) return;
    openSettings()->setValue(QStringLiteral("session/folder"), QFileInfo(path).absolutePath());
    tryOpenSessionFrom(path);
}

void MainWindow::cancelLoad() {
    if (loading_) engine_->cancel();
}

void MainWindow::setThreads(int threads) {
    for (QAction* a : threadsGroup_->actions()) a->setChecked(a->data().toInt() == threads);
    if (threads == threads_) return;
    threads_ = threads;
    scheduleSave();
    // In place on the engine thread (queued behind whatever it is doing): the model, the
    // playground's text and the chat stay. A load in progress takes threads_ anyway. On the GPU
    // the count waits for the next time the model runs on the CPU.
    if (!hasModel() || loading_) return;
    if (model_.backend == QLatin1String("cpu")) {
        QMetaObject::invokeMethod(engine_, "setThreads", Qt::QueuedConnection, Q_ARG(int, threads));
        return;
    }
    showNote([this, threads] {
        return threads > 0 ? tr("The model runs on the GPU; it will use %n CPU thread(s) when it runs on the CPU.", nullptr, threads)
                           : tr("The model runs on the GPU; it will choose its CPU threads when it runs on the CPU.");
    }, 5000);
}

void MainWindow::setBackend(const QString& kind) {
    const bool known = kind == QLatin1String("auto") || kind == QLatin1String("cpu") || kind == QLatin1String("cuda");
    if (!known || (kind == QLatin1String("cuda") && gpuCheck_.problem != GpuProblem::None)) {
        for (QAction* a : backendGroup_->actions()) a->setChecked(a->data().toString() == backend_);
        return;
    }
    for (QAction* a : backendGroup_->actions()) a->setChecked(a->data().toString() == kind);
    if (kind == backend_) return;
    backend_ = kind;
    scheduleSave();
    if (hasModel() && !loading_) loadModel(model_.path);   // the same model on the new backend
}

void MainWindow::onThreadsChanged(int threads) {
    model_.threads = threads;
    updateModelLabel();
    showNote([this, threads] { return tr("The backend now uses %n thread(s); the model and the generated text stay.", nullptr, threads); }, 5000);
}

void MainWindow::setLanguage(const QString& code) {
    if (!LanguageManager::instance().setLanguage(code)) LanguageManager::instance().setLanguage(QStringLiteral("en"));
    const QString current = LanguageManager::instance().current();
    for (QAction* a : languageGroup_->actions()) a->setChecked(a->data().toString() == current);
    scheduleSave();
}

void MainWindow::setTheme(const QString& name) {
    const Theme theme = themeFromString(name);
    theme_ = themeName(theme);
    applyTheme(theme);
    for (QAction* a : themeGroup_->actions()) a->setChecked(a->data().toString() == theme_);
    scheduleSave();
}

void MainWindow::onProgress(float fraction) { progressBar_->setValue(static_cast<int>(fraction * 100.0f)); }

void MainWindow::onModelLoaded(const ModelSummary& summary) {
    model_ = summary;
    setLoading(false);
    tabs_->setEnabled(true);
    addRecent(summary.path);
    updateModelLabel();
    scheduleSave();
    if (!settingsWarning_.isEmpty()) {
        showError(settingsWarning_);
        settingsWarning_.clear();
    }
    if (summary.gpuFallback.problem != GpuProblem::None) showNote([check = summary.gpuFallback] { return cpuFallbackMessage(check); }, 15000);
    for (Page* page : pages_) {
        page->setVocabularySize(static_cast<int>(summary.vocab));
        page->setModelReady(true);
    }
    // The pages were disabled while loading, so the keyboard focus may have nowhere to be.
    QWidget* focus = QApplication::focusWidget();
    if (!focus || !focus->isVisible() || !focus->isEnabled()) tabs_->currentWidget()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::updateModelLabel() {
    if (loading_) return;
    updateStatusLabels();
    if (!hasModel()) {
        modelLabel_->setShorterTexts({});
        modelLabel_->setText(tr("No model — File → Open model… or drop a .gguf file here"));
        setWindowTitle(tr("Decoding Lab"));
        return;
    }
    const QString backend = model_.backend == QLatin1String("cpu")    ? tr("CPU, %n thread(s)", nullptr, model_.threads)
                            : model_.backend == QLatin1String("cuda") ? tr("CUDA GPU")
                                                                      : model_.backend;
    const QString model = tr("%1 — %2, %3 parameters, %4 layers, vocabulary %5 — %6")
                              .arg(model_.name, model_.arch, widgets::countText(model_.parameters))
                              .arg(model_.layers)
                              .arg(widgets::integerText(model_.vocab), backend);
    // Another page holding the engine (the server) comes first: this page's work waits for it.
    QString hold;
    for (const Page* p : pages_)
        if (p != currentPage() && !p->engineHoldNotice().isEmpty()) hold = p->engineHoldNotice();
    // Where the status bar is short (beside the run's figures at 1024 px): the sizes without the
    // architecture and vocabulary, then the name and the backend alone, before any "…".
    const QString sizes = tr("%1 — %2 parameters, %3 layers — %4")
                              .arg(model_.name, widgets::countText(model_.parameters))
                              .arg(model_.layers)
                              .arg(backend);
    const QString bare = model_.name + QStringLiteral(" — ") + backend;
    const auto held = [&](const QString& text) { return hold.isEmpty() ? text : hold + QStringLiteral(" — ") + text; };
    modelLabel_->setShorterTexts({held(sizes), held(bare)});
    modelLabel_->setText(held(model));
    modelLabel_->setToolTip(model_.internalName.isEmpty() || model_.internalName == model_.name
                                ? model_.path + QLatin1Char('\n') + model_.tensorTypes
                                : tr("%1\nIn its metadata: %2\n%3").arg(model_.path, model_.internalName, model_.tensorTypes));
    setWindowTitle(tr("Decoding Lab — %1").arg(model_.name));
}

void MainWindow::onLoadCancelled() {
    if (!loading_) return;
    setLoading(false);
    tabs_->setEnabled(true);
    updateModelLabel();
    showNote([this] { return tr("Loading cancelled; %1 is still in use.").arg(hasModel() ? model_.name : tr("no model")); }, 5000);
}

void MainWindow::onFailed(const QString& message) {
    if (loading_) {
        setLoading(false);
        tabs_->setEnabled(true);
        updateModelLabel();
    }
    showError(message);
}

void MainWindow::updateStatusLabels() {
    if (!hasModel()) {
        contextLabel_->clear();
        memoryLabel_->clear();
        speedLabel_->clear();
        return;
    }
    const Page* front = currentPage();
    const PageStatus st = front ? front->status() : PageStatus{};
    contextLabel_->setText(st.contextUsed < 0 ? QString()
                                                   : tr("context %1 / %2").arg(widgets::integerText(st.contextUsed), widgets::integerText(model_.contextLength)));
    contextLabel_->setToolTip(st.contextToolTip);
    memoryLabel_->setText(st.contextUsed < 0 ? tr("model %1").arg(widgets::byteText(model_.fileBytes))
                                                  : tr("model %1 · KV cache %2").arg(widgets::byteText(model_.fileBytes), widgets::byteText(st.kvBytes)));
    memoryLabel_->setToolTip(tr("The model file (memory-mapped) and the key/value cache blocks in use"));
    if (st.tokensPerSecond < 0.0) {
        speedLabel_->clear();
        speedLabel_->setToolTip(QString());
    } else if (st.timeToFirstTokenMs >= 0.0) {
        speedLabel_->setText(tr("%1 tokens/s").arg(widgets::decimalText(st.tokensPerSecond, 1)));
        speedLabel_->setToolTip(tr("last answer: time to first token %1 ms; %2 of its %3 prompt tokens came from the KV cache")
                                    .arg(widgets::decimalText(st.timeToFirstTokenMs, 0))
                                    .arg(st.reusedTokens)
                                    .arg(st.promptTokens));
    } else {
        speedLabel_->setText(st.prefill ? tr("prompt %1 tokens/s").arg(widgets::decimalText(st.tokensPerSecond, 0))
                                             : tr("%1 tokens/s").arg(widgets::decimalText(st.tokensPerSecond, 1)));
        speedLabel_->setToolTip(tr("last step: %1 ms (forward %2 ms, sampling %3 ms)")
                                    .arg(widgets::decimalText(st.stepMs, 1))
                                    .arg(widgets::decimalText(st.forwardMs, 1))
                                    .arg(widgets::decimalText(st.sampleMs, 2)));
    }
}

int MainWindow::statusMessageRoom() const {
    int right = statusBar()->contentsRect().right();
    for (const QWidget* label : {static_cast<const QWidget*>(contextLabel_), static_cast<const QWidget*>(memoryLabel_),
                                 static_cast<const QWidget*>(speedLabel_), static_cast<const QWidget*>(progressBar_),
                                 static_cast<const QWidget*>(cancelButton_)})
        if (label->isVisible() && !label->geometry().isEmpty()) right = std::min(right, label->geometry().left());
    return right - statusBar()->contentsRect().left() - 8;   // QStatusBar's message margins
}

QString MainWindow::statusText() const {
    return QStringList{modelLabel_->text(), contextLabel_->text(), memoryLabel_->text(), speedLabel_->text()}.join(QLatin1String(" | "));
}

void MainWindow::setLoading(bool loading) {
    loading_ = loading;
    progressBar_->setValue(0);
    progressBar_->setVisible(loading);
    cancelButton_->setVisible(loading);
}

void MainWindow::showError(const QString& message) {
    lastError_ = message;
    if (reportError_) reportError_(message);
}

}  // namespace dlab::ui
