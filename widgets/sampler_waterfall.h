#pragma once
// The sampler waterfall: one small panel per chain stage, in chain order (left to right, wrapping
// to a second row of panels when the width cannot hold them all readably), showing what that
// stage did to the distribution: its best few candidates as bars (p renormalised over the
// survivors) with their percentages, how many tokens survive, the probability mass they kept
// (of the stage's own input and of the raw distribution) and the entropy left. A stage that
// changed nothing this step keeps its place in the chain but folds to a slim muted strip with its
// name across it (its numbers would repeat the panel before; the tooltip still has them), so the
// stages that did something get the width. Painted by hand so a slider move repaints it within
// a frame; every size derives from the widget's font, so presentation mode only enlarges it.
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QTextOption>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace dlab::widgets {

struct StagePanel {
    QString stage;        // "temperature", "top-k", ... (shown translated where known)
    int kept = 0;         // surviving tokens
    double massKept = 1.0;  // their probability under the raw logits entering the chain
    // Their probability under the distribution this stage was given (StageSnapshot::inputMassKept);
    // empty for a session saved before the engine recorded it.
    std::optional<double> inputMassKept;
    double entropy = 0.0;   // nats, of the renormalised survivors
    bool changed = false;   // the stage altered the candidates this step
    QList<QString> labels;  // best few survivors, most probable first
    QList<double> p;        // their probabilities after this stage
    // Masking stages (the grammar of a constraint): how many tokens it forbade (-1: not a masking
    // stage) and the best of them with their probability in the distribution it was given.
    int forbiddenCount = -1;
    QList<QString> forbiddenLabels;
    QList<double> forbiddenP;
};

enum class EntropyUnit { Nats, Bits };

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
    // Whether panel `index` is folded to a slim strip: a stage (not the raw distribution) that
    // changed nothing this step.
    bool folded(int index) const;
    // Panels per row at the current width (more panels wrap to further rows).
    int columns() const;
    // Off: every panel in one row, never narrower than readable (the widget's minimum width then
    // holds them all; put it in a scroll area, see RowScrollArea). On (the default): wrap.
    void setWrapping(bool on);
    bool wrapping() const { return wrapping_; }

    // How entropy is shown: bits (the default: "1 bit" is a fair coin) or nats.
    void setEntropyUnit(EntropyUnit unit);
    EntropyUnit entropyUnit() const { return unit_; }
    // Thickness factor for outlines and chevrons (presentation mode), 1 = normal.
    void setLineScale(double scale);
    double lineScale() const { return lineScale_; }

    // The statistic lines panel `index` shows (kept, mass, entropy), in the current language.
    QStringList statTexts(int index) const;
    // The panel's tooltip: its full title, what the stage does, and what the numbers mean.
    QString toolTipFor(int index) const;
    // Every text the last paint drew in full / had to elide or leave out (empty when all fit).
    const QStringList& paintedTexts() const { return painted_; }
    const QStringList& elidedTexts() const { return elided_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;          // QEvent::ToolTip: the stage explained
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    struct Wrapped {
        QStringList lines;
        bool fits = true;
    };
    QStringList wrapCached(const QString& text, const QFont& font, int width, int maxLines, bool* fits,
                           QTextOption::WrapMode mode = QTextOption::WordWrap) const;
    mutable QHash<QString, Wrapped> wrapCache_;   // text + width + font + lines + mode -> its lines

    struct Metrics;  // font-derived sizes
    Metrics metrics() const;
    int columnsFor(int width) const;
    int panelMinWidth(const struct Metrics& m) const;   // not wrapping: room for the labels too
    int foldedWidth(const struct Metrics& m) const;     // a folded panel: two lines across
    // The width every unfolded panel gets when the widget is `width` wide with `perRow` panels a
    // row: the narrowest row's share, so the bars of all panels line up.
    int fullPanelWidthFor(int width, int perRow) const;
    QList<bool> foldedPattern() const;
    int panelHeightFor(int bars) const;
    int panelAt(const QPoint& pos) const;
    QString entropyText(double nats) const;
    // The statistic lines panel `index` draws at `width`: statTexts() wrapped, the short ones
    // (the kept count and the entropy) side by side on one line where they fit.
    QStringList statLinesFor(int index, int width) const;
    int innerWidthFor(int width) const;   // inside a panel, when the widget is `width` wide
    int maxStatLines(int innerWidth) const;
    int maxTitleLines(int innerWidth) const;
    void paintPanel(QPainter& painter, int index, int titleLines, int statLines) const;
    void paintFolded(QPainter& painter, int index) const;
    void paintFrame(QPainter& painter, const QRect& r) const;   // a panel's rounded outline and fill
    void paintChevron(QPainter& painter, int afterIndex) const;

    QList<StagePanel> panels_;
    EntropyUnit unit_ = EntropyUnit::Bits;
    double lineScale_ = 1.0;
    int lastColumns_ = -1;
    bool wrapping_ = true;
    mutable QStringList painted_, elided_;
};

// The user-visible name of a stage ("top-k" -> tr("Top-k")), a short form for narrow panels
// ("repetition" -> tr("Rep. penalty")) and a one-sentence explanation (translation context
// "SamplerWaterfall"). Unknown stages: the name itself / an empty string.
QString stageTitle(const QString& stage);
QString stageShortTitle(const QString& stage);
QString stageExplanation(const QString& stage);

}  // namespace dlab::widgets

Q_DECLARE_METATYPE(dlab::widgets::StagePanel)
