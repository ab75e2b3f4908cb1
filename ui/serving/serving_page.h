#pragma once
// The Serving lab: how a server batches requests, measured on the loaded model in real time.
//   Load           a Poisson trace with static and then continuous batching: metrics and a Gantt
//                  chart per mode (requests joining and leaving the batch);
//   Batch size     throughput against per-token latency per batch size, and which batch size
//                  suits which workload under the bounds the user sets;
//   Streaming      one request of the last load run as its user sees it, streamed or not;
//   Prefix cache   a shared system prompt with the cache on and off;
//   Safety         one prompt through an input filter, banned phrases, the model's own refusal and
//                  an output filter (safety/safety_pipeline.h), each layer shown for what it is.
// One run at a time, on the engine thread; Stop (Esc) ends it between steps and keeps what was
// measured. F5 runs the tab in front.
#include <functional>
#include <optional>

#include "ui/app/page.h"
#include "ui/serving/serving_types.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
QT_END_NAMESPACE

namespace dlab::ui {

class ServingBatchPanel;
class ServingController;
class ServingLoadPanel;
class ServingPrefixPanel;
class ServingSafetyPanel;
class ServingStreamingPanel;

class ServingLabPage : public Page {
    Q_OBJECT
public:
    enum class Work { None, Load, Sweep, Prefix, Safety };

    explicit ServingLabPage(QWidget* parent = nullptr);
    ~ServingLabPage() override;

    QString pageId() const override { return QStringLiteral("serving"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    void setModelReady(bool ready) override;
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;
    // Lessons for this page set up the Safety tab (the setup keys "tab", "prompt", "runLength",
    // "action" and the four lists, ui/lessons/lesson_setup.h).
    bool acceptsLessons() const override { return true; }
    void applyLesson(const QVariantMap& setup) override;
    void restoreBeforeLesson() override;
    bool hasSetupBeforeLesson() const override { return beforeLesson_.has_value(); }

    Work work() const { return work_; }
    bool busy() const { return work_ != Work::None; }
    const ServingLoadPtr& lastLoad() const { return lastLoad_; }
    const ServingSafetyPtr& lastSafety() const { return lastSafety_; }
    ServingController* controller() const { return controller_; }

    QTabWidget* tabs() const { return tabs_; }
    ServingLoadPanel* loadPanel() const { return load_; }
    ServingBatchPanel* batchPanel() const { return batch_; }
    ServingStreamingPanel* streamingPanel() const { return streaming_; }
    ServingPrefixPanel* prefixPanel() const { return prefix_; }
    ServingSafetyPanel* safetyPanel() const { return safety_; }
    QLabel* statusLabel() const { return statusLabel_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* stopButton() const { return stop_; }

public slots:
    void runLoad();
    void measureBatches();
    void measurePrefix();
    void runSafety();
    void runCurrentTab();   // F5
    void stop();            // Esc

signals:
    void loadRequested(const dlab::ui::ServingLoadRequest& request);
    void sweepRequested(const dlab::ui::ServingSweepRequest& request);
    void prefixRequested(const dlab::ui::ServingPrefixRequest& request);
    void safetyRequested(const dlab::SafetyRequest& request);
    void loadDone();
    void sweepDone();
    void prefixDone();
    void safetyDone();

protected:
    void changeEvent(QEvent* e) override;

private:
    void build();
    void retranslate();
    void updateEnabled();
    void begin(Work w);
    void finish();
    void setStatus(std::function<QString()> text);

    EngineContext* engine_ = nullptr;
    ServingController* controller_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ServingLoadPanel* load_ = nullptr;
    ServingBatchPanel* batch_ = nullptr;
    ServingStreamingPanel* streaming_ = nullptr;
    ServingPrefixPanel* prefix_ = nullptr;
    ServingSafetyPanel* safety_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* stop_ = nullptr;
    Work work_ = Work::None;
    bool modelReady_ = false;
    ServingLoadPtr lastLoad_;
    ServingSafetyPtr lastSafety_;
    struct SafetySetup {
        int tab = 0;
        QString prompt;
        SafetyPolicy policy;
        int maxTokens = 96;
    };
    std::optional<SafetySetup> beforeLesson_;   // the user's own, while a lesson's setup is in
    std::function<QString()> statusText_;
};

}  // namespace dlab::ui
