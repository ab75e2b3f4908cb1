#pragma once
// The sampler waterfall: one small panel per chain stage, left to right in chain order, showing
// what that stage did to the distribution: its best few candidates as bars (p renormalised over
// the survivors), how many tokens survive, the probability mass they kept and the entropy left.
// A stage that changed nothing this step is drawn muted. Painted by hand so a slider move
// repaints it within a frame.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace dlab::widgets {

struct StagePanel {
    QString stage;        // "temperature", "top-k", ... (shown translated where known)
    int kept = 0;         // surviving tokens
    double massKept = 1.0;  // their probability under the raw logits entering the chain
    double entropy = 0.0;   // nats, of the renormalised survivors
    bool changed = false;   // the stage altered the candidates this step
    QList<QString> labels;  // best few survivors, most probable first
    QList<double> p;        // their probabilities after this stage
};

class SamplerWaterfall : public QWidget {
    Q_OBJECT
public:
    explicit SamplerWaterfall(QWidget* parent = nullptr);

    // First panel is the raw distribution ("raw"), then one per stage.
    void setPanels(const QList<StagePanel>& panels);
    void clear() { setPanels({}); }
    const QList<StagePanel>& panels() const { return panels_; }
    // The panel's rectangle in widget coordinates (tests, tooltips).
    QRect panelRect(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;          // QEvent::ToolTip: the stage explained in one sentence
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    int panelAt(const QPoint& pos) const;
    void paintPanel(QPainter& painter, int index) const;
    void paintChevron(QPainter& painter, int afterIndex) const;

    QList<StagePanel> panels_;
};

// The user-visible name of a stage ("top-k" -> tr("Top-k")) and a one-sentence explanation
// (translation context "SamplerWaterfall"). Unknown stages: the name itself / an empty string.
QString stageTitle(const QString& stage);
QString stageExplanation(const QString& stage);

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::StagePanel)
