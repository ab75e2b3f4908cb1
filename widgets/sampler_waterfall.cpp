#include "widgets/sampler_waterfall.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QTextLayout>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

#include "widgets/palette_colors.h"

namespace dlab::widgets {

namespace {

constexpr int kMaxBars = 8;

struct StageText {
    const char* stage;
    const char* title;
    const char* explanation;
    const char* shortTitle = nullptr;  // for panels too narrow for the title on two lines
};

// QT_TRANSLATE_NOOP marks the strings for lupdate; stageTitle/stageExplanation translate them.
constexpr std::array kStages{
    StageText{"raw", QT_TRANSLATE_NOOP("SamplerWaterfall", "Raw"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "The model's own prediction: the softmax of its logits before any sampler stage.")},
    StageText{"grammar", QT_TRANSLATE_NOOP("SamplerWaterfall", "Grammar (constraint)"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Constrained decoding: forbids every token that would make the text so far stop being "
                                "a valid start of the grammar or JSON Schema, and the end of the text until the "
                                "grammar is complete. The probability it removes is the price of the constraint."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Grammar")},
    StageText{"logit-bias", QT_TRANSLATE_NOOP("SamplerWaterfall", "Logit bias"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Adds a fixed amount to the logits of chosen tokens, making them more or less "
                                "likely (minus infinity bans a token)."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Bias")},
    StageText{"repetition", QT_TRANSLATE_NOOP("SamplerWaterfall", "Repetition penalty"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Makes tokens that already appeared less likely (positive logits divided by the "
                                "penalty, negative ones multiplied)."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Rep. penalty")},
    StageText{"freq-presence", QT_TRANSLATE_NOOP("SamplerWaterfall", "Frequency / presence"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Subtracts the frequency penalty once per earlier occurrence and the presence "
                                "penalty once if the token appeared at all."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Freq./pres.")},
    StageText{"no-repeat-ngram", QT_TRANSLATE_NOOP("SamplerWaterfall", "No-repeat n-gram"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Bans every token that would repeat a run of n tokens that already appears in "
                                "the text."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "No n-gram")},
    StageText{"dry", QT_TRANSLATE_NOOP("SamplerWaterfall", "DRY"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "\"Don't repeat yourself\": penalises a token that would continue a repeat of "
                                "earlier text, more strongly the longer the repeated run already is.")},
    StageText{"temperature", QT_TRANSLATE_NOOP("SamplerWaterfall", "Temperature"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Divides every logit by T: below 1 the likely tokens get likelier, above 1 the "
                                "distribution flattens."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Temp.")},
    StageText{"top-k", QT_TRANSLATE_NOOP("SamplerWaterfall", "Top-k"),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Keeps only the k most likely tokens and renormalises them.")},
    StageText{"top-p", QT_TRANSLATE_NOOP("SamplerWaterfall", "Top-p (nucleus)"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Keeps the smallest set of most likely tokens whose probabilities add up to p."),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Top-p")},
    StageText{"min-p", QT_TRANSLATE_NOOP("SamplerWaterfall", "Min-p"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Drops every token less likely than min-p times the most likely token.")},
    StageText{"typical", QT_TRANSLATE_NOOP("SamplerWaterfall", "Typical"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Keeps the tokens whose surprise is closest to the average surprise (the "
                                "entropy), until their probabilities add up to p.")},
    StageText{"xtc", QT_TRANSLATE_NOOP("SamplerWaterfall", "XTC"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "\"Exclude top choices\": now and then removes every token above the threshold "
                                "except the least likely of them, so the text gets less predictable.")},
    StageText{"top-n-sigma", QT_TRANSLATE_NOOP("SamplerWaterfall", "Top-n\u03c3"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Keeps only the tokens whose logit lies within n standard deviations of the "
                                "highest logit.")},
    StageText{"mirostat", QT_TRANSLATE_NOOP("SamplerWaterfall", "Mirostat 2"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Moves its cut-off after every token so that the average surprise of the chosen "
                                "tokens stays near a target value \u03c4.")},
    StageText{"mirostat-v1", QT_TRANSLATE_NOOP("SamplerWaterfall", "Mirostat 1"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Estimates how fast the probabilities fall off (Zipf's law) from the best m tokens and "
                                "keeps as many as give the target surprise \u03c4, learning after every token.")},
};

const StageText* findStage(const QString& stage) {
    for (const StageText& s : kStages)
        if (stage == QLatin1String(s.stage)) return &s;
    return nullptr;
}

// `text` broken into lines of at most `width` pixels at word boundaries (between CJK characters
// too: Unicode line breaking allows it). `fits` is false when it needs more than `maxLines` or a
// single word is wider than `width`.
QStringList wrapped(const QString& text, const QFont& font, int width, int maxLines, bool* fits,
                    QTextOption::WrapMode mode = QTextOption::WordWrap) {
    QStringList lines;
    bool ok = true;
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(mode);
    layout.setTextOption(option);
    layout.beginLayout();
    for (;;) {
        QTextLine line = layout.createLine();
        if (!line.isValid()) break;
        line.setLineWidth(width);
        if (line.naturalTextWidth() > width + 0.5) ok = false;
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    if (lines.size() > maxLines) ok = false;
    if (fits) *fits = ok;
    return lines;
}

// CJK text reads top to bottom, one character under the other, in a strip too narrow for a
// line; anything with Latin letters is turned on its side instead.
bool stacksVertically(const QString& text) {
    bool cjk = false;
    for (const QChar c : text) {
        if (c.isSpace() || c.isPunct()) continue;
        switch (c.script()) {
        case QChar::Script_Han:
        case QChar::Script_Hiragana:
        case QChar::Script_Katakana:
        case QChar::Script_Hangul:
            cjk = true;
            break;
        default:
            return false;
        }
    }
    return cjk;
}

// How long `text` is along a folded strip: its width on its side, or a line per character stacked.
int lengthAlong(const QString& text, const QFont& font) {
    const QFontMetrics fm(font);
    if (!stacksVertically(text)) return fm.horizontalAdvance(text);
    int chars = 0;
    for (const QChar c : text) chars += c.isSpace() ? 0 : 1;
    return chars * fm.height();
}

struct PanelTexts {
    QStringList title;   // one or two lines
    QList<QStringList> stats;  // each statistic, wrapped
    int statLines = 0;
};

}  // namespace

QString stageTitle(const QString& stage) {
    const StageText* s = findStage(stage);
    return s ? QCoreApplication::translate("SamplerWaterfall", s->title) : stage;
}

QString stageShortTitle(const QString& stage) {
    const StageText* s = findStage(stage);
    if (!s) return stage;
    return QCoreApplication::translate("SamplerWaterfall", s->shortTitle ? s->shortTitle : s->title);
}

QString stageExplanation(const QString& stage) {
    const StageText* s = findStage(stage);
    return s ? QCoreApplication::translate("SamplerWaterfall", s->explanation) : QString();
}

// Every size comes from the font, so an enlarged application font (presentation mode) scales the
// whole panel and nothing is measured in fixed pixels.
struct SamplerWaterfall::Metrics {
    int line = 0;        // one line of the normal font
    int boldLine = 0;    // one line of the title font
    int margin = 0;      // around the panels and between rows of panels
    int gap = 0;         // between panels in a row: room for the chevron
    int pad = 0;         // inside a panel
    int rowHeight = 0;   // one bar
    int inset = 0;       // a percentage inside its bar, from the bar's end
    int valueWidth = 0;  // the widest percentage, "100 %"
    int minPanel = 0, preferredPanel = 0, maxPanel = 0;
};

SamplerWaterfall::Metrics SamplerWaterfall::metrics() const {
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    Metrics m;
    m.line = fm.height();
    m.boldLine = QFontMetrics(bold).height();
    m.margin = std::max(4, m.line / 3);
    m.gap = std::max(14, m.line);
    m.pad = std::max(4, m.line / 3);
    m.rowHeight = m.line + std::max(2, m.line / 6);
    m.inset = std::max(3, m.line / 5);
    m.valueWidth = fm.horizontalAdvance(tr("%1 %").arg(locale().toString(100))) + 2 * m.inset;
    const int avg = fm.averageCharWidth();
    // Label column of a few characters plus a bar long enough that its percentage always fits
    // either inside it or beside it.
    m.minPanel = std::max(avg * 16, 2 * m.pad + avg * 6 + m.inset + 2 * m.valueWidth + 3);
    m.preferredPanel = std::max(m.minPanel, avg * 24);
    m.maxPanel = std::max(m.preferredPanel, avg * 34);  // wider panels only spread the bars thin
    return m;
}

SamplerWaterfall::SamplerWaterfall(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

// In one row (not wrapping) the panels may be as wide as their token labels need (up to 16
// average characters): the row scrolls sideways instead of eliding them.
int SamplerWaterfall::panelMinWidth(const Metrics& m) const {
    if (wrapping_) return m.minPanel;
    const QFontMetrics fm(font());
    int labels = 0;
    for (const StagePanel& panel : panels_)
        for (int b = 0; b < std::min<int>(kMaxBars, int(panel.labels.size())); ++b)
            labels = std::max(labels, fm.horizontalAdvance(panel.labels[b]));
    labels = std::min(labels, fm.averageCharWidth() * 16);
    return std::max(m.minPanel, 2 * m.pad + labels + m.inset + 2 * m.valueWidth + 3);
}

void SamplerWaterfall::setPanels(const QList<StagePanel>& panels) {
    // A stage that starts or stops doing something folds or unfolds: the row's widths change.
    const bool shapeChanged = panels.size() != panels_.size() || [&] {
        for (int i = 0; i < panels.size(); ++i)
            if ((!panels[i].changed && panels[i].stage != QLatin1String("raw")) != folded(i)) return true;
        return false;
    }();
    const int oldMin = wrapping_ ? 0 : panelMinWidth(metrics());
    panels_ = panels;
    if (shapeChanged || (!wrapping_ && panelMinWidth(metrics()) != oldMin)) {
        lastColumns_ = columns();
        updateGeometry();
    }
    update();
}

bool SamplerWaterfall::folded(int index) const {
    if (index < 0 || index >= panels_.size()) return false;
    return !panels_[index].changed && panels_[index].stage != QLatin1String("raw");
}

int SamplerWaterfall::foldedWidth(const Metrics& m) const { return 2 * m.pad + 2 * std::max(m.boldLine, m.line) + 2; }

void SamplerWaterfall::setEntropyUnit(EntropyUnit unit) {
    if (unit == unit_) return;
    unit_ = unit;
    update();
}

void SamplerWaterfall::setLineScale(double scale) {
    scale = std::clamp(scale, 0.5, 6.0);
    if (scale == lineScale_) return;
    lineScale_ = scale;
    update();
}

void SamplerWaterfall::setWrapping(bool on) {
    if (on == wrapping_) return;
    wrapping_ = on;
    lastColumns_ = columns();
    updateGeometry();
    update();
}

int SamplerWaterfall::fullPanelWidthFor(int width, int perRow) const {
    const Metrics m = metrics();
    const int n = int(panels_.size());
    const int widest = std::max(m.maxPanel, panelMinWidth(m));
    perRow = std::max(1, perRow);
    int full = widest;
    for (int first = 0; first < n; first += perRow) {
        const int count = std::min(perRow, n - first);
        int folds = 0;
        for (int i = first; i < first + count; ++i) folds += folded(i) ? 1 : 0;
        if (folds == count) continue;
        const int available = width - 2 * m.margin - (count - 1) * m.gap - folds * foldedWidth(m);
        full = std::min(full, available / (count - folds));
    }
    return std::clamp(full, 1, widest);
}

int SamplerWaterfall::columnsFor(int width) const {
    const int n = int(panels_.size());
    if (n == 0) return 0;
    if (!wrapping_) return n;
    // The fewest rows in which every unfolded panel is still readable, balanced (4 + 3, not
    // 5 + 2) so the reading order stays obvious.
    const int minPanel = metrics().minPanel;
    for (int rows = 1; rows < n; ++rows) {
        const int perRow = (n + rows - 1) / rows;
        if (fullPanelWidthFor(width, perRow) >= minPanel) return perRow;
    }
    return 1;
}

int SamplerWaterfall::columns() const { return columnsFor(width()); }

QRect SamplerWaterfall::panelRect(int index) const {
    const int n = int(panels_.size());
    if (index < 0 || index >= n) return {};
    const Metrics m = metrics();
    const int cols = columns();
    const int rows = (n + cols - 1) / cols;
    const int fullWidth = fullPanelWidthFor(width(), cols);
    const int panelHeight = std::max(1, (height() - 2 * m.margin - (rows - 1) * m.margin) / rows);
    const int row = index / cols;
    int x = m.margin;
    for (int i = row * cols; i < index; ++i) x += (folded(i) ? foldedWidth(m) : fullWidth) + m.gap;
    return {x, m.margin + row * (panelHeight + m.margin), folded(index) ? foldedWidth(m) : fullWidth, panelHeight};
}

int SamplerWaterfall::panelAt(const QPoint& pos) const {
    for (int i = 0; i < panels_.size(); ++i)
        if (panelRect(i).contains(pos)) return i;
    return -1;
}

int SamplerWaterfall::innerWidthFor(int width) const {
    return std::max(1, fullPanelWidthFor(width, columnsFor(width)) - 2 * metrics().pad);
}

QStringList SamplerWaterfall::wrapCached(const QString& text, const QFont& font, int width, int maxLines, bool* fits,
                                         QTextOption::WrapMode mode) const {
    // Every paint asks for the same lines twice (the tallest panel sets every panel's height) and
    // the titles never change: a QTextLayout per request made the waterfall's paint ~5× dearer.
    const QString key = text + QChar(0x1f) + QString::number(width) + QChar(0x1f) + font.key() + QChar(0x1f) +
                        QString::number(maxLines) + QChar(0x1f) + QString::number(int(mode));
    auto it = wrapCache_.constFind(key);
    if (it == wrapCache_.constEnd()) {
        if (wrapCache_.size() > 2048) wrapCache_.clear();   // stats texts change with every step
        bool ok = true;
        it = wrapCache_.insert(key, {wrapped(text, font, width, maxLines, &ok, mode), ok});
    }
    if (fits) *fits = it->fits;
    return it->lines;
}

QStringList SamplerWaterfall::statLinesFor(int index, int width) const {
    const QStringList stats = statTexts(index);
    if (stats.isEmpty()) return {};
    const QFontMetrics fm(font());
    const QString joiner = QStringLiteral(" \u00b7 ");
    QStringList lines;
    // The kept count and the entropy are short: one line together where they fit.
    const QString kept = stats.first(), entropy = stats.last();
    const bool join = stats.size() >= 2 && fm.horizontalAdvance(kept + joiner + entropy) <= width;
    const auto add = [&](const QString& s) {
        lines += wrapCached(s, font(), width, 99, nullptr, QTextOption::WrapAtWordBoundaryOrAnywhere);
    };
    if (join) add(kept + joiner + entropy);
    else add(kept);
    for (int i = 1; i + 1 < stats.size(); ++i) add(stats[i]);
    if (!join && stats.size() >= 2) add(entropy);
    return lines;
}

int SamplerWaterfall::maxStatLines(int innerWidth) const {
    int lines = 0;
    for (int i = 0; i < panels_.size(); ++i)
        if (!folded(i)) lines = std::max<int>(lines, int(statLinesFor(i, innerWidth).size()));
    return lines;
}

int SamplerWaterfall::maxTitleLines(int innerWidth) const {
    QFont bold = font();
    bold.setBold(true);
    int titleLines = 1;
    for (int i = 0; i < panels_.size(); ++i) {
        if (folded(i)) continue;
        bool fits = false;
        const QStringList full = wrapCached(stageTitle(panels_[i].stage), bold, innerWidth, 2, &fits);
        titleLines = std::max<int>(titleLines, fits ? int(full.size()) : 1);
    }
    return std::min(titleLines, 2);
}

// A panel with the title and statistic lines it needs at the current width and `bars` bars
// (before any panels: two title lines and three statistic lines).
int SamplerWaterfall::panelHeightFor(int bars) const {
    const Metrics m = metrics();
    const int inner = innerWidthFor(width());
    const int titles = panels_.isEmpty() ? 2 : maxTitleLines(inner);
    const int stats = panels_.isEmpty() ? 3 : maxStatLines(inner);
    return m.pad + titles * m.boldLine + 4 + bars * m.rowHeight + stats * m.line + m.pad;
}

QSize SamplerWaterfall::sizeHint() const {
    const Metrics m = metrics();
    const int n = std::max<int>(1, int(panels_.size()));
    const int rows = panels_.isEmpty() ? 1 : (n + columns() - 1) / std::max(1, columns());
    int across = 2 * m.margin + (n - 1) * m.gap;
    for (int i = 0; i < n; ++i) across += folded(i) ? foldedWidth(m) : m.preferredPanel;
    return {across, 2 * m.margin + rows * (panelHeightFor(6) + m.margin)};
}

QSize SamplerWaterfall::minimumSizeHint() const {
    // At the current width the panels may need two rows: each still wants room for a few bars.
    const Metrics m = metrics();
    const int n = std::max<int>(1, int(panels_.size()));
    const int cols = std::max(1, columns());
    const int rows = (n + cols - 1) / cols;
    int across = 2 * m.margin + 2 * panelMinWidth(m) + m.gap;   // wrapping: two panels a row
    if (!wrapping_) {
        across = 2 * m.margin + (n - 1) * m.gap;
        for (int i = 0; i < n; ++i) across += folded(i) ? foldedWidth(m) : panelMinWidth(m);
    } else if (n == 1) {
        across = 2 * m.margin + panelMinWidth(m);
    }
    return {across, 2 * m.margin + rows * (panelHeightFor(2) + m.margin)};
}

void SamplerWaterfall::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // A new number of columns changes how tall the panels want to be.
    const int cols = columns();
    if (cols != lastColumns_) {
        lastColumns_ = cols;
        updateGeometry();
    }
}

QString SamplerWaterfall::entropyText(double nats) const {
    if (unit_ == EntropyUnit::Bits) return tr("H %1 bits").arg(locale().toString(nats / std::log(2.0), 'f', 2));
    return tr("H %1 nats").arg(locale().toString(nats, 'f', 2));
}

QStringList SamplerWaterfall::statTexts(int index) const {
    if (index < 0 || index >= panels_.size()) return {};
    const StagePanel& panel = panels_[index];
    const auto pct = [this](double x) { return tr("%1 %").arg(locale().toString(x * 100.0, 'f', 1)); };
    if (panel.forbiddenCount >= 0 && panel.stage != QLatin1String("raw")) {
        // A mask: what it allowed, what it forbade and the probability that went with it.
        // Of the distribution the mask was given, as its forbidden tokens' p are (a session saved
        // before that was recorded: the raw share it took away).
        const double input = index > 0 ? panels_[index - 1].massKept : 1.0;
        const int given = index > 0 ? panels_[index - 1].kept : panel.kept + panel.forbiddenCount;
        const double removed = panel.inputMassKept ? std::max(0.0, 1.0 - *panel.inputMassKept)
                                                   : std::max(0.0, input - panel.massKept);
        // One decimal would round a mask that left a sliver to "100.0 %": say "> 99.9 %".
        const QString removedText = removed < 1.0 && removed > 0.9995 ? tr("> %1 %").arg(locale().toString(99.9, 'f', 1))
                                    : removed > 0.0 && removed < 0.0005 ? tr("< %1 %").arg(locale().toString(0.1, 'f', 1))
                                                                        : pct(removed);
        return {tr("allowed %1 of %2").arg(locale().toString(panel.kept), locale().toString(given)),
                tr("removed %1").arg(removedText), entropyText(panel.entropy)};
    }
    QStringList stats{tr("kept %1").arg(locale().toString(panel.kept))};
    if (index > 0 && panel.stage != QLatin1String("raw")) {
        if (panel.inputMassKept) {
            // The engine measured the share under the distribution the stage was given, which is
            // what its setting controls (top-p 0.95 keeps at least 95 % of it, after any temperature).
            stats << tr("kept %1 of its input \u00b7 %2 of raw").arg(pct(*panel.inputMassKept), pct(panel.massKept));
        } else {
            // A session saved before that was recorded: only the raw shares exist, so their ratio
            // is all there is, and after a temperature other than 1 it is not the setting's share.
            const double input = panels_[index - 1].massKept;
            const double ofInput = input > 0.0 ? std::min(1.0, panel.massKept / input) : 1.0;
            stats << tr("kept %1 of its input by raw p \u00b7 %2 of raw").arg(pct(ofInput), pct(panel.massKept));
        }
    }
    stats << entropyText(panel.entropy);
    return stats;
}

QString SamplerWaterfall::toolTipFor(int index) const {
    if (index < 0 || index >= panels_.size()) return {};
    const QString stage = panels_[index].stage;
    QString html = QStringLiteral("<p><b>%1</b></p>").arg(stageTitle(stage).toHtmlEscaped());
    const QString why = stageExplanation(stage);
    if (!why.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(why.toHtmlEscaped());
    const StagePanel& panel = panels_[index];
    if (folded(index))
        html += QStringLiteral("<p>%1</p>").arg(tr("This step it changed nothing: it passed on what it was given (%1).")
                                                     .arg(statTexts(index).join(QStringLiteral(" \u00b7 ")))
                                                     .toHtmlEscaped());
    if (!panel.forbiddenLabels.isEmpty()) {
        // The tokens the model wanted most that the mask took away.
        QStringList best;
        for (int i = 0; i < std::min<int>(5, int(panel.forbiddenLabels.size())); ++i)
            best << tr("\u201c%1\u201d %2 %").arg(panel.forbiddenLabels[i].toHtmlEscaped(),
                                                   locale().toString(panel.forbiddenP.value(i) * 100.0, 'f', 1));
        html += QStringLiteral("<p>%1</p>").arg(tr("Forbidden this step, most probable first: %1").arg(best.join(QStringLiteral(", "))));
    }
    html += QStringLiteral("<p>%1</p><p>%2</p>")
                .arg((panel.inputMassKept || index == 0
                          ? tr("Kept: how many tokens survive, the share of the probability they carry in the "
                               "distribution this stage was given (as the stages before it left it: top-p 0.95 keeps "
                               "at least 95 % of it), and their share of the model's raw distribution.")
                          : tr("Kept: how many tokens survive, and the share of the probability they carry, of what "
                               "this stage was given and of the model's raw distribution, both weighed with the raw "
                               "probabilities (temperature 1): this session was saved before the share of what each "
                               "stage was given was recorded. After another temperature the stages see sharper or "
                               "flatter probabilities: top-p 0.95 then keeps 95 % of what it sees, which can be a "
                               "different share by raw p."))
                         .toHtmlEscaped(),
                     (unit_ == EntropyUnit::Bits
                          ? tr("H is the entropy, how uncertain the choice still is: 0 bits means one certain "
                               "token, 1 bit is like a coin toss, n bits like 2^n equally likely tokens.")
                          : tr("H is the entropy, how uncertain the choice still is: 0 nats means one certain "
                               "token, ln 2 = 0.69 nats is like a coin toss."))
                         .toHtmlEscaped());
    return html;
}

bool SamplerWaterfall::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = panelAt(help->pos());
        if (i >= 0) QToolTip::showText(help->globalPos(), toolTipFor(i), this, panelRect(i));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void SamplerWaterfall::paintEvent(QPaintEvent*) {
    painted_.clear();
    elided_.clear();
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (panels_.isEmpty()) return;
    // Titles and statistics take as many lines as the most demanding panel, so the bars of all
    // panels start and end at the same height and read as one picture.
    const int innerWidth = innerWidthFor(width());
    const int titleLines = maxTitleLines(innerWidth);
    const int statLines = maxStatLines(innerWidth);
    for (int i = 0; i < panels_.size(); ++i) {
        if (folded(i)) paintFolded(painter, i);
        else paintPanel(painter, i, titleLines, statLines);
        const int cols = columns();
        if (i + 1 < panels_.size() && (i + 1) % cols != 0) paintChevron(painter, i);
    }
}

void SamplerWaterfall::paintFrame(QPainter& painter, const QRect& r) const {
    const double outline = lineScale_;
    painter.setPen(QPen(palette().color(QPalette::Mid), outline));
    painter.setBrush(palette().color(QPalette::AlternateBase));
    const double half = outline / 2.0;
    const double radius = metrics().pad / 1.5;
    painter.drawRoundedRect(QRectF(r).adjusted(half, half, -half, -half), radius, radius);
}

void SamplerWaterfall::paintPanel(QPainter& painter, int index, int titleLines, int statLines) const {
    const StagePanel& panel = panels_[index];
    const QPalette& pal = palette();
    const QRect r = panelRect(index);
    const Metrics m = metrics();
    painter.save();

    paintFrame(painter, r);

    const QRect inner = r.adjusted(m.pad, m.pad / 2, -m.pad, -m.pad / 2);
    const QColor textColour = pal.color(QPalette::Text);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldFm(bold);

    // Title: the full name on up to two lines, else the short name (the full one is in the tooltip).
    bool fits = false;
    QStringList title = wrapCached(stageTitle(panel.stage), bold, inner.width(), titleLines, &fits);
    if (!fits) title = wrapCached(stageShortTitle(panel.stage), bold, inner.width(), titleLines, &fits);
    if (!fits) {
        const QString shortTitle = stageShortTitle(panel.stage);
        title = {boldFm.elidedText(shortTitle, Qt::ElideRight, inner.width())};
        elided_ << shortTitle;
    }
    painter.setFont(bold);
    painter.setPen(textColour);
    for (int l = 0; l < title.size(); ++l) {
        painter.drawText(QRect(inner.left(), inner.top() + l * m.boldLine, inner.width(), m.boldLine),
                         Qt::AlignLeft | Qt::AlignVCenter, title[l]);
        painted_ << title[l];
    }
    painter.setFont(font());
    const int barsTop = inner.top() + titleLines * m.boldLine + 2;

    // Statistics at the bottom, wrapped (never elided by width); the bars get what is left.
    const int statsTop = std::max(barsTop, inner.bottom() + 1 - statLines * m.line);
    int y = statsTop;
    bool whole = true;
    for (const QString& l : statLinesFor(index, inner.width())) {
        if (y + m.line > inner.bottom() + 1) {
            whole = false;
            break;
        }
        painter.drawText(QRect(inner.left(), y, inner.width(), m.line), Qt::AlignLeft | Qt::AlignVCenter, l);
        y += m.line;
    }
    for (const QString& s : statTexts(index)) (whole ? painted_ : elided_) << s;

    // Bars: as many as fit at a readable row height; a short panel shows fewer, never cut ones.
    const int barsHeight = statsTop - 2 - barsTop;
    const int wanted = int(std::min<qsizetype>({kMaxBars, panel.labels.size(), panel.p.size()}));
    const int rowHeight = std::max(1, std::min(m.rowHeight, wanted > 0 ? barsHeight / wanted : m.rowHeight));
    const int rows = rowHeight >= m.line ? std::min(wanted, barsHeight / rowHeight) : std::min(wanted, barsHeight / m.line);
    const int rowH = rows > 0 ? std::max(rowHeight, m.line) : 0;
    if (wanted > 0 && rows <= 0) elided_ << tr("%1: bars").arg(stageTitle(panel.stage));
    if (rows > 0) {
        // The label column takes what the labels need, leaving the bar room for its percentage
        // inside or beside it (a p = 1 bar fills its span, so its number goes inside).
        const int barMin = 2 * m.valueWidth + 3;
        int labelNeed = 0;
        for (int b = 0; b < rows; ++b) labelNeed = std::max(labelNeed, fm.horizontalAdvance(panel.labels[b]));
        const int labelWidth = std::clamp(labelNeed, 0, std::max(0, inner.width() - m.inset - barMin));
        const int barLeft = inner.left() + labelWidth + m.inset;
        const int barSpan = std::max(1, inner.right() + 1 - barLeft);
        const QColor accent = probabilityAccent(pal);
        const QColor onAccent = readableTextOn(accent);
        QColor faint = textColour;
        faint.setAlphaF(0.75f);
        for (int b = 0; b < rows; ++b) {
            const int top = barsTop + b * rowH;
            const QString& label = panel.labels[b];
            painter.setPen(textColour);
            if (fm.horizontalAdvance(label) <= labelWidth) {
                painter.drawText(QRect(inner.left(), top, labelWidth, rowH), Qt::AlignRight | Qt::AlignVCenter, label);
                painted_ << label;
            } else {
                painter.drawText(QRect(inner.left(), top, labelWidth, rowH), Qt::AlignRight | Qt::AlignVCenter,
                                 fm.elidedText(label, Qt::ElideRight, labelWidth));
                elided_ << label;
            }
            const double p = std::clamp(panel.p[b], 0.0, 1.0);
            const int barWidth = std::max(1, int(p * barSpan + 0.5));
            const int barInset = std::max(1, rowH / 8);
            painter.fillRect(QRect(barLeft, top + barInset, barWidth, std::max(1, rowH - 2 * barInset)), accent);
            // The number inside a long bar (contrasting colour), beside a short one: bars alone
            // hide 0.2 % vs 2 %.
            // "0.0 %" would claim impossible what is merely unlikely.
            const QString value = p > 0.0 && p < 0.0005
                                      ? tr("< %1 %").arg(locale().toString(0.1, 'f', 1))
                                      : tr("%1 %").arg(locale().toString(p * 100.0, 'f', p * 100.0 < 9.95 ? 1 : 0));
            const int vw = fm.horizontalAdvance(value);
            if (vw + 2 * m.inset <= barWidth) {
                painter.setPen(onAccent);
                painter.drawText(QRect(barLeft, top, barWidth - m.inset, rowH), Qt::AlignRight | Qt::AlignVCenter, value);
                painted_ << value;
            } else if (barLeft + barWidth + m.inset + vw <= inner.right() + 1) {
                painter.setPen(faint);
                painter.drawText(QRect(barLeft + barWidth + m.inset, top, vw + 1, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                                 value);
                painted_ << value;
            } else {
                elided_ << value;
            }
        }
    }
    painter.restore();
}

// A stage that did nothing this step: it stays in place (the chain order is the lesson) as a
// faded strip with its name and "no change" along it.
void SamplerWaterfall::paintFolded(QPainter& painter, int index) const {
    const QPalette& pal = palette();
    const QRect r = panelRect(index);
    const Metrics m = metrics();
    painter.save();
    painter.setOpacity(0.5);
    paintFrame(painter, r);

    QFont bold = font();
    bold.setBold(true);
    const int length = r.height() - 2 * m.pad;   // along the strip
    // The title on one line along the strip with "no change" beside it; else the short title; else
    // the title over both lines (no note); else elided.
    const QString stage = panels_[index].stage;
    const QString note = tr("no change");
    QStringList title;
    for (const QString& t : {stageTitle(stage), stageShortTitle(stage)})
        if (title.isEmpty() && lengthAlong(t, bold) <= length) title = {t};
    if (title.isEmpty()) {
        for (const QString& t : {stageTitle(stage), stageShortTitle(stage)}) {
            if (!title.isEmpty()) break;
            if (stacksVertically(t)) {
                const QString half = t.left((t.size() + 1) / 2);
                if (lengthAlong(half, bold) <= length) title = {half, t.mid(half.size())};
            } else {
                bool fits = false;
                const QStringList lines = wrapCached(t, bold, length, 2, &fits);
                if (fits) title = lines;
            }
        }
    }
    if (title.isEmpty()) {
        const QString t = stageShortTitle(stage);
        elided_ << t;
        title = {stacksVertically(t) ? t.left(std::max(0, length / QFontMetrics(bold).height() - 1)) + QChar(0x2026)
                                     : QFontMetrics(bold).elidedText(t, Qt::ElideRight, length)};
    } else {
        painted_ << title;
    }
    const bool noteFits = title.size() == 1 && lengthAlong(note, font()) <= length;
    if (noteFits) painted_ << note;

    painter.setPen(pal.color(QPalette::Text));
    // Two columns across the strip, each centred along it: the title (bold), then the note or
    // the title's second line.
    const auto column = [&](const QString& text, const QFont& f, int across, int thickness) {
        painter.setFont(f);
        if (stacksVertically(text)) {
            const int step = QFontMetrics(f).height();
            int y = r.top() + m.pad + (length - lengthAlong(text, f)) / 2;
            for (const QChar c : text) {
                if (c.isSpace()) continue;
                painter.drawText(QRect(r.left() + across, y, thickness, step), Qt::AlignCenter, QString(c));
                y += step;
            }
            return;
        }
        painter.save();
        painter.translate(r.left() + across, r.bottom() + 1 - m.pad);
        painter.rotate(-90);   // reads upwards, the letters' tops to the left
        painter.drawText(QRect(0, 0, length, thickness), Qt::AlignCenter, text);
        painter.restore();
    };
    const int used = m.boldLine * int(title.size()) + (noteFits ? m.line : 0);
    int across = (r.width() - used) / 2;
    for (const QString& line : title) {
        column(line, bold, across, m.boldLine);
        across += m.boldLine;
    }
    if (noteFits) column(note, font(), across, m.line);
    painter.restore();
}

void SamplerWaterfall::paintChevron(QPainter& painter, int afterIndex) const {
    const QRect r = panelRect(afterIndex);
    const Metrics m = metrics();
    const double h = m.line * 0.4, w = m.line * 0.35;
    const QPointF tip(r.right() + 1 + (m.gap + w) / 2.0, r.center().y());
    painter.save();
    painter.setPen(QPen(palette().color(QPalette::Text), 2.0 * lineScale_, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setOpacity(0.6);
    const QPointF chevron[] = {tip + QPointF(-w, -h), tip, tip + QPointF(-w, h)};
    painter.drawPolyline(chevron, 3);
    painter.restore();
}

void SamplerWaterfall::changeEvent(QEvent* e) {
    switch (e->type()) {
    case QEvent::FontChange:
    // Titles, explanations and figures are looked up when painted, but the panels' height was
    // measured for the old words: after a switch to German the last line ("H 3,87 Bit") fell
    // below the panel and stale pixels showed through. Measured again, as for a new font.
    case QEvent::LanguageChange:
    case QEvent::LocaleChange:
        wrapCache_.clear();
        lastColumns_ = columns();
        updateGeometry();
        update();
        break;
    case QEvent::PaletteChange:
        update();
        break;
    default:
        break;
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
