#pragma once
// One page of the main window (Playground, Chat, Strategies, …). The window is a shell: it hosts
// the pages its registry lists (page_registry.cpp), their titles, the status bar and model
// loading, and knows nothing else of them. A page owns its widgets and creates its own engine
// controller in attachEngine(); everything else it offers the shell is below.
#include <QList>
#include <QString>
#include <QVariantMap>
#include <QWidget>

#include "sampling/sampler_params.h"
#include "session/saved_session.h"
#include "ui/engine/engine_types.h"

QT_BEGIN_NAMESPACE
class QSettings;
class QShortcut;
QT_END_NAMESPACE

namespace dlab::ui {

class EngineContext;

// What the status bar shows while a page is in front: numbers, so a language switch re-renders them.
struct PageStatus {
    qint64 contextUsed = -1;    // -1: nothing measured yet
    qint64 kvBytes = 0;
    double stepMs = 0.0, forwardMs = 0.0, sampleMs = 0.0;
    double tokensPerSecond = -1.0;     // -1: none yet
    bool prefill = false;
    double timeToFirstTokenMs = -1.0;  // >= 0: the speed is a chat answer's
    int promptTokens = 0, reusedTokens = 0;  // of that answer
    QString contextToolTip;            // what "context" counts on this page
};

class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString pageId() const = 0;        // stable: settings keys, tests ("playground")
    virtual QString title() const = 0;         // translated, with its & mnemonic
    virtual QString toolTip() const = 0;       // translated
    // Creates the page's controller as a child of `engine` (before the context moves to the
    // engine thread) and connects page and controller (queued: they live on different threads).
    virtual void attachEngine(EngineContext* engine) = 0;
    virtual void setModelReady(bool ready) = 0;         // a model is in (again): a new one restarts the page
    virtual void setVocabularySize(int /*n*/) {}
    virtual PageStatus status() const { return {}; }
    virtual void saveSettings(QSettings& /*settings*/) const {}
    virtual void restoreSettings(QSettings& /*settings*/) {}
    virtual void setLineScale(double /*scale*/) {}      // presentation mode: outline thickness
    virtual void setPresenting(bool /*on*/) {}
    // The sampler settings another page published (the chat answers with the playground's).
    virtual void setSharedSamplerParams(const SamplerParams& /*params*/) {}

    // Guided lessons (resources/lessons/): a page that can take a lesson's setup keeps the user's
    // own first so it can be restored.
    virtual bool acceptsLessons() const { return false; }
    virtual void applyLesson(const QVariantMap& /*setup*/) {}
    virtual void restoreBeforeLesson() {}
    virtual bool hasSetupBeforeLesson() const { return false; }
    virtual void setLessonsPanelShown(bool /*shown*/) {}   // the panel offers its own "Restore my settings"

    // Saved sessions (File → Save Session… / Open Session…, engine/session/session_file.h): a page
    // that records what it computes hands it over, and shows a saved one without the engine (the
    // shell picks the page whose pageId() is the file's page). Both throw dlab::Error with a
    // sentence for the user; openSession() changes nothing when it throws.
    // While this page holds the engine (the Serve page while it serves), one translated sentence
    // saying so: the shell shows it on the other pages, whose work waits meanwhile.
    virtual QString engineHoldNotice() const { return {}; }

    virtual bool canSaveSession() const { return false; }   // something is recorded now
    virtual dlab::SavedSession saveSession() const;
    virtual void openSession(const dlab::SavedSession& session, const QString& fileName);

protected:
    // A key that acts while this page is in front, wherever the keyboard focus is in the window
    // (F5 runs, Esc stops; the focus is on the tab bar after a tab click or its Alt key): a window
    // shortcut, on only while the page is shown, so the hidden pages' keys never compete.
    QShortcut* frontShortcut(const QKeySequence& key);
    void showEvent(QShowEvent* e) override;
    void hideEvent(QHideEvent* e) override;

signals:
    void statusChanged();            // status() changed
    void engineHoldChanged();        // engineHoldNotice() changed
    void settingsChanged();          // saveSettings() would write something new
    void errorOccurred(const QString& message);   // for the user, shown by the shell
    void samplerParamsPublished(const dlab::SamplerParams& params);   // to the other pages

private:
    QList<QShortcut*> frontShortcuts_;
};

}  // namespace dlab::ui
