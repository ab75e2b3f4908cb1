#pragma once
// The Serving lab: how a server batches requests, measured on the loaded model in real time.
//   Load           a Poisson trace with static and then continuous batching: metrics and a Gantt
//                  chart per mode (requests joining and leaving the batch);
//   Batch size     throughput against per-token latency per batch size, and which batch size
//                  suits which workload under the bounds the user sets;
//   Streaming      one request of the last load run as its user sees it, streamed or not;
//   Prefix cache   a shared system prompt with the cache on and off.
// One run at a time, on the engine thread; Stop (Esc) ends it between steps and keeps what was
// measured. F5 runs the tab in front.
#include <functional>

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
class ServingStreamingPanel;

class ServingLabPage : public Page {
    Q_OBJECT
public:
    enum class Work { None, Load, Sweep, Prefix };

    explicit ServingLabPage(QWidget* parent = nullptr);
    ~ServingLabPage() override;

    QString pageId() const override { return QStringLiteral("serving"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    void setModelReady(bool ready) override;
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;

    Work work() const { return work_; }
    bool busy() const { return work_ != Work::None; }
    const ServingLoadPtr& lastLoad() const { return lastLoad_; }
    ServingController* controller() const { return controller_; }

    QTabWidget* tabs() const { return tabs_; }
    ServingLoadPanel* loadPanel() const { return load_; }
    ServingBatchPanel* batchPanel() const { return batch_; }
    ServingStreamingPanel* streamingPanel() const { return streaming_; }
    ServingPrefixPanel* prefixPanel() const { return prefix_; }
    QLabel* statusLabel() const { return statusLabel_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* stopButton() const { return stop_; }

public slots:
    void runLoad();
    void measureBatches();
    void measurePrefix();
    void runCurrentTab();   // F5
    void stop();            // Esc

signals:
    void loadRequested(const dlab::ui::ServingLoadRequest& request);
    void sweepRequested(const dlab::ui::ServingSweepRequest& request);
    void prefixRequested(const dlab::ui::ServingPrefixRequest& request);
    void loadDone();
    void sweepDone();
    void prefixDone();

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
    QLabel* statusLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* stop_ = nullptr;
    Work work_ = Work::None;
    bool modelReady_ = false;
    ServingLoadPtr lastLoad_;
    std::function<QString()> statusText_;
};

}  // namespace dlab::ui
