#pragma once
// The playground: a prompt, Step, the temperature / top-k / top-p controls and the distribution
// chart. The page never calls the engine: it emits requests (MainWindow wires them to the
// EngineWorker's queued slots) and draws the StepViews that come back.
#include <QWidget>

#include <memory>

#include "ui/engine_types.h"

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QPlainTextEdit;
class QSlider;
QT_END_NAMESPACE

namespace Ui {
class PlaygroundPage;
}

namespace dlab::widgets {
class DistributionChart;
}

namespace dlab::ui {

class PlaygroundPage : public QWidget {
    Q_OBJECT
public:
    explicit PlaygroundPage(QWidget* parent = nullptr);
    ~PlaygroundPage() override;

    SamplerParams samplerParams() const;
    widgets::DistributionChart* chart() const { return chart_; }
    QString generatedText() const;
    int currentStep() const { return currentStep_; }
    // A step or a re-sample is on its way to the worker or back.
    bool busy() const { return stepInFlight_ || resampleInFlight_ || resamplePending_; }

    // Test and automation hooks onto the controls.
    QPlainTextEdit* promptEdit() const;
    QAbstractButton* stepButton() const;
    QSlider* temperatureSlider() const;
    QSlider* topKSlider() const;
    QSlider* topPSlider() const;

public slots:
    void setModelReady(bool ready);   // a model is loaded: Step may be used; a new model restarts
    void step();                      // starts the session on first use, then asks for one step
    void restart();
    void showStep(const dlab::StepTrace& trace, const dlab::ui::StepView& view);
    void showResample(int step, const dlab::SampleResult& result, const dlab::ui::StepView& view);
    void requestFailed();             // the worker reported an error: unblock the controls

signals:
    void startSessionRequested(const QString& prompt, const dlab::SamplerParams& params);
    void stepRequested();
    void resampleRequested(int step, const dlab::SamplerParams& params);
    void samplerParamsChanged(const dlab::SamplerParams& params);

private:
    void onParamsEdited();
    void sendResample();
    void updateEnabled();

    std::unique_ptr<Ui::PlaygroundPage> ui_;
    widgets::DistributionChart* chart_ = nullptr;
    bool modelReady_ = false;
    bool sessionStarted_ = false;
    bool stepInFlight_ = false;
    // Slider moves are coalesced: one resample in flight, the newest parameters queued behind it.
    bool resampleInFlight_ = false;
    bool resamplePending_ = false;
    int currentStep_ = -1;
};

}  // namespace dlab::ui
