#pragma once
// The Serve page: the loaded model behind an OpenAI-compatible HTTP server (server/http_server.h)
// with continuous batching. The form sets the address (loopback unless "allow other machines" is
// ticked: the explicit choice to listen on 0.0.0.0), the port (0 = any free one), the batch, the
// context per request, the batching mode and the prefix cache; Start / Stop. While it serves, the
// server holds the engine: other pages' work waits until it stops (the page says so). Shown: the
// URL, copyable curl and Python `openai` examples with the real URL and model id, live counters
// from the serving loop (served, running, waiting, decode tokens/s over the last seconds) and the
// server's request log.
#include <QElapsedTimer>
#include <QList>

#include <functional>

#include "ui/app/page.h"
#include "ui/serve/serve_types.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace dlab::ui {

class RequestLogModel;
class ServeController;

class ServePage : public Page {
    Q_OBJECT
public:
    enum class State { Idle, Starting, Serving, Stopping };

    explicit ServePage(QWidget* parent = nullptr);
    ~ServePage() override;

    static constexpr int kSpeedWindowMs = 5000;   // "tokens/s over the last seconds"

    QString pageId() const override { return QStringLiteral("serve"); }
    QString title() const override;
    QString toolTip() const override;
    void attachEngine(EngineContext* engine) override;
    void setModelReady(bool ready) override;
    PageStatus status() const override { return status_; }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;

    ServeStartRequest request() const;     // what Start sends
    State state() const { return state_; }
    bool serving() const { return state_ == State::Serving; }
    QString engineHoldNotice() const override;
    const ServeStarted& server() const { return server_; }   // the running (or last) server
    QString baseUrl() const;               // the examples' URL
    double tokensPerSecond() const;        // over the last kSpeedWindowMs
    const ServeCounters& counters() const { return counters_; }
    ServeController* controller() const { return controller_; }

    QLineEdit* hostEdit() const { return host_; }
    QCheckBox* allowOthersCheck() const { return allowOthers_; }
    QSpinBox* portSpin() const { return port_; }
    QSpinBox* maxBatchSpin() const { return maxBatch_; }
    QSpinBox* contextSpin() const { return context_; }
    QComboBox* modeCombo() const { return mode_; }
    QCheckBox* prefixCacheCheck() const { return prefixCache_; }
    QPushButton* startButton() const { return start_; }
    QPushButton* stopButton() const { return stop_; }
    QLabel* statusLabel() const { return statusLabel_; }
    QLabel* warningLabel() const { return warning_; }
    QLabel* urlLabel() const { return url_; }
    QPlainTextEdit* curlEdit() const { return curl_; }
    QPlainTextEdit* pythonEdit() const { return python_; }
    QLabel* servedLabel() const { return served_; }
    QLabel* runningLabel() const { return running_; }
    QLabel* waitingLabel() const { return waiting_; }
    QLabel* speedLabel() const { return speed_; }
    QTableView* logView() const { return logView_; }
    RequestLogModel* logModel() const { return log_; }

public slots:
    void start();
    void stop();

signals:
    void startRequested(const dlab::ui::ServeStartRequest& request);
    void serverStarted();
    void serverStopped();

protected:
    void changeEvent(QEvent* e) override;

private:
    void build();
    void retranslate();
    void updateEnabled();
    void updateExamples();
    void fitLogFont();   // row height, least height and columns for the table's font
    void fitCodeBoxes();   // the examples' heights for their font
    void fitLogColumns();
    void updateCounters();
    void setStatus(std::function<QString()> text);
    void onStarted(const ServeStarted& info);
    void onCounters(const ServeCounters& c);
    void onStopped();

    EngineContext* engine_ = nullptr;
    ServeController* controller_ = nullptr;
    QLabel* hostLabel_ = nullptr;
    QLineEdit* host_ = nullptr;
    QCheckBox* allowOthers_ = nullptr;
    QLabel* portLabel_ = nullptr;
    QSpinBox* port_ = nullptr;
    QLabel* maxBatchLabel_ = nullptr;
    QSpinBox* maxBatch_ = nullptr;
    QLabel* contextLabel_ = nullptr;
    QSpinBox* context_ = nullptr;
    QLabel* modeLabel_ = nullptr;
    QComboBox* mode_ = nullptr;
    QCheckBox* prefixCache_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* stop_ = nullptr;
    QLabel* warning_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    QLabel* urlTitle_ = nullptr;
    QLabel* url_ = nullptr;
    QGroupBox* curlBox_ = nullptr;
    QPlainTextEdit* curl_ = nullptr;
    QToolButton* copyCurl_ = nullptr;
    QGroupBox* pythonBox_ = nullptr;
    QPlainTextEdit* python_ = nullptr;
    QToolButton* copyPython_ = nullptr;
    QLabel* served_ = nullptr;
    QLabel* running_ = nullptr;
    QLabel* waiting_ = nullptr;
    QLabel* speed_ = nullptr;
    QLabel* logTitle_ = nullptr;
    QTableView* logView_ = nullptr;
    RequestLogModel* log_ = nullptr;
    QTimer* speedTimer_ = nullptr;

    State state_ = State::Idle;
    bool modelReady_ = false;
    bool stoppedForLoad_ = false;        // the window began loading a model
    ServeStarted server_;
    ServeCounters counters_;
    QList<ServeTick> ticks_;               // the last kSpeedWindowMs of steps
    QElapsedTimer servingSince_;
    PageStatus status_;
    std::function<QString()> statusText_;
};

}  // namespace dlab::ui
