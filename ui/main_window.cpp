#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

#include "model/model_locator.h"
#include "ui/engine_worker.h"
#include "ui/playground_page.h"

namespace dlab::ui {

namespace {
QString humanCount(qint64 n) {
    if (n >= 1'000'000'000) return QString::number(n / 1e9, 'f', 2) + QStringLiteral(" B");
    if (n >= 1'000'000) return QString::number(n / 1e6, 'f', 1) + QStringLiteral(" M");
    if (n >= 1'000) return QString::number(n / 1e3, 'f', 1) + QStringLiteral(" K");
    return QString::number(n);
}
}  // namespace

MainWindow::MainWindow(const QString& modelPath, QWidget* parent) : QMainWindow(parent) {
    registerEngineTypes();
    setWindowTitle(tr("Decoding Lab"));
    resize(1100, 760);

    playground_ = new PlaygroundPage(this);
    setCentralWidget(playground_);

    // Menus.
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open model…"), this, &MainWindow::openModel);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    // Status bar: model | step time ... progress + Cancel while loading.
    modelLabel_ = new QLabel(tr("No model"), this);
    stepTimeLabel_ = new QLabel(this);
    progressBar_ = new QProgressBar(this);
    progressBar_->setRange(0, 100);
    progressBar_->setMaximumWidth(200);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    statusBar()->addWidget(modelLabel_, 1);
    statusBar()->addPermanentWidget(stepTimeLabel_);
    statusBar()->addPermanentWidget(progressBar_);
    statusBar()->addPermanentWidget(cancelButton_);
    progressBar_->hide();
    cancelButton_->hide();
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelLoad);

    // The worker: moved to its own thread; every connection below is queued across threads.
    worker_ = new EngineWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(this, &MainWindow::loadRequested, worker_, &EngineWorker::loadModel);
    connect(worker_, &EngineWorker::progress, this, &MainWindow::onProgress);
    connect(worker_, &EngineWorker::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(worker_, &EngineWorker::cancelled, this, &MainWindow::onLoadCancelled);
    connect(worker_, &EngineWorker::failed, this, &MainWindow::onFailed);
    connect(worker_, &EngineWorker::stepDone, this, &MainWindow::onStepDone);

    connect(playground_, &PlaygroundPage::startSessionRequested, worker_, &EngineWorker::startSession);
    connect(playground_, &PlaygroundPage::stepRequested, worker_, &EngineWorker::step);
    connect(playground_, &PlaygroundPage::resampleRequested, worker_, &EngineWorker::resample);
    connect(playground_, &PlaygroundPage::samplerParamsChanged, worker_, &EngineWorker::setSamplerParams);
    connect(worker_, &EngineWorker::stepDone, playground_, &PlaygroundPage::showStep);
    connect(worker_, &EngineWorker::resampled, playground_, &PlaygroundPage::showResample);
    connect(worker_, &EngineWorker::failed, playground_, &PlaygroundPage::requestFailed);
    connect(worker_, &EngineWorker::cancelled, playground_, &PlaygroundPage::requestFailed);
    thread_.setObjectName(QStringLiteral("engine"));
    thread_.start();

    reportError_ = [this](const QString& message) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Decoding Lab"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();  // window-modal, returns at once: the event loop (and the tests) keep running
    };

    // Open onto the given or default model once the window is up.
    QTimer::singleShot(0, this, [this, modelPath] {
        try {
            loadModel(QString::fromStdString(resolveModelPath(modelPath.toStdString())));
        } catch (const std::exception& e) {
            showError(QString::fromUtf8(e.what()));
        }
    });
}

MainWindow::~MainWindow() {
    worker_->cancel();
    thread_.quit();
    thread_.wait();
}

void MainWindow::loadModel(const QString& path) {
    model_ = {};
    modelLabel_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    playground_->setModelReady(false);
    setLoading(true);
    emit loadRequested(path);
}

void MainWindow::openModel() {
    const QString start = QString::fromStdString(modelDirectory());
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), start, tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty()) loadModel(path);
}

void MainWindow::cancelLoad() {
    if (loading_) worker_->cancel();
}

void MainWindow::onProgress(float fraction) { progressBar_->setValue(static_cast<int>(fraction * 100.0f)); }

void MainWindow::onModelLoaded(const ModelSummary& summary) {
    model_ = summary;
    setLoading(false);
    modelLabel_->setText(tr("%1 — %2, %3 parameters, %4 layers, vocabulary %5 — %6")
                             .arg(summary.name, summary.arch, humanCount(summary.parameters))
                             .arg(summary.layers)
                             .arg(summary.vocab)
                             .arg(summary.backend));
    modelLabel_->setToolTip(summary.path + QLatin1Char('\n') + summary.tensorTypes);
    setWindowTitle(tr("Decoding Lab — %1").arg(summary.name));
    playground_->setModelReady(true);
}

void MainWindow::onLoadCancelled() {
    if (!loading_) return;  // a cancelled step: nothing to undo here
    setLoading(false);
    modelLabel_->setText(tr("Loading cancelled — File → Open model… to choose one"));
}

void MainWindow::onFailed(const QString& message) {
    if (loading_) {
        setLoading(false);
        modelLabel_->setText(tr("No model — File → Open model… to choose one"));
    }
    showError(message);
}

void MainWindow::onStepDone(const StepTrace& trace) {
    stepTimeLabel_->setText(tr("last step: %1 ms (forward %2 ms, sampling %3 ms)")
                                .arg(trace.forwardMs + trace.sampleMs, 0, 'f', 1)
                                .arg(trace.forwardMs, 0, 'f', 1)
                                .arg(trace.sampleMs, 0, 'f', 2));
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
