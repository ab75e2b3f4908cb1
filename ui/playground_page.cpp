#include "ui/playground_page.h"

#include <QShortcut>
#include <QSignalBlocker>

#include <cmath>
#include <functional>

#include "ui_playground_page.h"
#include "widgets/distribution_chart.h"

namespace dlab::ui {

namespace {
// A slider (integer steps) and its spin box show one value; `scale` slider steps per unit.
template <typename Spin>
void linkSliderAndSpin(QSlider* slider, Spin* spin, double scale, const std::function<void()>& edited) {
    QObject::connect(slider, &QSlider::valueChanged, spin, [=](int v) {
        {
            const QSignalBlocker block(spin);
            spin->setValue(v / scale);
        }
        edited();
    });
    // Qt 6: valueChanged is not overloaded any more, so &Spin::valueChanged is unambiguous.
    QObject::connect(spin, &Spin::valueChanged, slider, [=](auto v) {
        {
            const QSignalBlocker block(slider);
            slider->setValue(static_cast<int>(std::lround(v * scale)));
        }
        edited();
    });
}
}  // namespace

PlaygroundPage::PlaygroundPage(QWidget* parent) : QWidget(parent), ui_(std::make_unique<Ui::PlaygroundPage>()) {
    ui_->setupUi(this);
    chart_ = new widgets::DistributionChart(ui_->chartHost);
    ui_->chartLayout->addWidget(chart_);

    ui_->stepButton->setShortcut(QKeySequence(Qt::Key_F10));
    connect(ui_->stepButton, &QPushButton::clicked, this, &PlaygroundPage::step);
    connect(ui_->restartButton, &QPushButton::clicked, this, &PlaygroundPage::restart);
    // A new prompt is a new session: the generated text and chart would no longer belong to it.
    connect(ui_->promptEdit, &QPlainTextEdit::textChanged, this, [this] {
        if (sessionStarted_ && !stepInFlight_) restart();
    });

    const auto edited = [this] { onParamsEdited(); };
    linkSliderAndSpin(ui_->temperatureSlider, ui_->temperatureSpin, 100.0, edited);
    linkSliderAndSpin(ui_->topKSlider, ui_->topKSpin, 1.0, edited);
    linkSliderAndSpin(ui_->topPSlider, ui_->topPSpin, 100.0, edited);
    updateEnabled();
}

PlaygroundPage::~PlaygroundPage() = default;

QPlainTextEdit* PlaygroundPage::promptEdit() const { return ui_->promptEdit; }
QAbstractButton* PlaygroundPage::stepButton() const { return ui_->stepButton; }
QSlider* PlaygroundPage::temperatureSlider() const { return ui_->temperatureSlider; }
QSlider* PlaygroundPage::topKSlider() const { return ui_->topKSlider; }
QSlider* PlaygroundPage::topPSlider() const { return ui_->topPSlider; }
QString PlaygroundPage::generatedText() const { return ui_->generatedEdit->toPlainText(); }

SamplerParams PlaygroundPage::samplerParams() const {
    SamplerParams p;
    p.temperature = static_cast<float>(ui_->temperatureSpin->value());
    p.topK = ui_->topKSpin->value();
    p.topP = static_cast<float>(ui_->topPSpin->value());
    return p;
}

void PlaygroundPage::setModelReady(bool ready) {
    modelReady_ = ready;
    restart();
}

void PlaygroundPage::restart() {
    sessionStarted_ = false;
    stepInFlight_ = false;
    resampleInFlight_ = resamplePending_ = false;
    currentStep_ = -1;
    chart_->clear();
    ui_->generatedEdit->clear();
    ui_->chosenLabel->setText(modelReady_ ? tr("Press Step to generate the first token.") : tr("No model loaded."));
    updateEnabled();
}

void PlaygroundPage::step() {
    if (!modelReady_ || stepInFlight_) return;
    if (!sessionStarted_) {
        emit startSessionRequested(ui_->promptEdit->toPlainText(), samplerParams());
        sessionStarted_ = true;
    }
    stepInFlight_ = true;
    updateEnabled();
    emit stepRequested();
}

void PlaygroundPage::showStep(const StepTrace& trace, const StepView& view) {
    stepInFlight_ = false;
    currentStep_ = view.step;
    chart_->setBars(view.bars);
    ui_->generatedEdit->setPlainText(view.generatedText);
    ui_->chosenLabel->setText(tr("Step %1: chose \u201c%2\u201d (p = %3), %4 tokens kept after the chain")
                                  .arg(view.step)
                                  .arg(view.chosenText)
                                  .arg(view.chosenProbability, 0, 'f', 3)
                                  .arg(trace.stages.empty() ? 0 : trace.stages.back().kept));
    updateEnabled();
}

void PlaygroundPage::showResample(int step, const SampleResult& result, const StepView& view) {
    resampleInFlight_ = false;
    if (step == currentStep_) {
        chart_->setBars(view.bars);
        ui_->chosenLabel->setText(tr("Step %1 with these settings would choose \u201c%2\u201d (p = %3), %4 tokens kept")
                                      .arg(step)
                                      .arg(view.chosenText)
                                      .arg(view.chosenProbability, 0, 'f', 3)
                                      .arg(result.stages.empty() ? 0 : result.stages.back().kept));
    }
    if (resamplePending_) sendResample();
}

void PlaygroundPage::requestFailed() {
    // A session that failed to start (an empty prompt, one too long) is started again next Step.
    if (currentStep_ < 0) sessionStarted_ = false;
    stepInFlight_ = false;
    resampleInFlight_ = resamplePending_ = false;
    updateEnabled();
}

void PlaygroundPage::onParamsEdited() {
    emit samplerParamsChanged(samplerParams());
    if (currentStep_ < 0) return;
    if (resampleInFlight_) {
        resamplePending_ = true;
        return;
    }
    sendResample();
}

void PlaygroundPage::sendResample() {
    resamplePending_ = false;
    resampleInFlight_ = true;
    emit resampleRequested(currentStep_, samplerParams());
}

void PlaygroundPage::updateEnabled() {
    ui_->stepButton->setEnabled(modelReady_ && !stepInFlight_);
    ui_->restartButton->setEnabled(modelReady_ && sessionStarted_ && !stepInFlight_);
}

}  // namespace dlab::ui
