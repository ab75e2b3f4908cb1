#include "widgets/sampler_waterfall.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>

namespace dlab::widgets {

namespace {

constexpr int kMargin = 6;            // around the row of panels
constexpr int kGap = 18;              // between panels: room for the chevron
constexpr int kPreferredPanel = 160;
constexpr int kMaxPanel = 220;        // wider panels only spread the bars thin
constexpr int kMinPanel = 60;
constexpr int kMaxBars = 8;
constexpr int kPad = 6;               // inside a panel

struct StageText {
    const char* stage;
    const char* title;
    const char* explanation;
};

// QT_TRANSLATE_NOOP marks the strings for lupdate; stageTitle/stageExplanation translate them.
constexpr std::array kStages{
    StageText{"raw", QT_TRANSLATE_NOOP("SamplerWaterfall", "Raw"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "The model's own prediction: the softmax of its logits before any sampler stage.")},
    StageText{"logit-bias", QT_TRANSLATE_NOOP("SamplerWaterfall", "Logit bias"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Adds a fixed amount to the logits of chosen tokens, making them more or less "
                                "likely (minus infinity bans a token).")},
    StageText{"repetition", QT_TRANSLATE_NOOP("SamplerWaterfall", "Repetition penalty"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Makes tokens that already appeared less likely (positive logits divided by the "
                                "penalty, negative ones multiplied).")},
    StageText{"freq-presence", QT_TRANSLATE_NOOP("SamplerWaterfall", "Frequency / presence"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Subtracts the frequency penalty once per earlier occurrence and the presence "
                                "penalty once if the token appeared at all.")},
    StageText{"no-repeat-ngram", QT_TRANSLATE_NOOP("SamplerWaterfall", "No-repeat n-gram"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Bans every token that would repeat a run of n tokens that already appears in "
                                "the text.")},
    StageText{"dry", QT_TRANSLATE_NOOP("SamplerWaterfall", "DRY"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "\"Don't repeat yourself\": penalises a token that would continue a repeat of "
                                "earlier text, more strongly the longer the repeated run already is.")},
    StageText{"temperature", QT_TRANSLATE_NOOP("SamplerWaterfall", "Temperature"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Divides every logit by T: below 1 the likely tokens get likelier, above 1 the "
                                "distribution flattens.")},
    StageText{"top-k", QT_TRANSLATE_NOOP("SamplerWaterfall", "Top-k"),
              QT_TRANSLATE_NOOP("SamplerWaterfall", "Keeps only the k most likely tokens and renormalises them.")},
    StageText{"top-p", QT_TRANSLATE_NOOP("SamplerWaterfall", "Top-p (nucleus)"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Keeps the smallest set of most likely tokens whose probabilities add up to p.")},
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
    StageText{"mirostat", QT_TRANSLATE_NOOP("SamplerWaterfall", "Mirostat"),
              QT_TRANSLATE_NOOP("SamplerWaterfall",
                                "Moves its cut-off after every token so that the average surprise of the chosen "
                                "tokens stays near a target value \u03c4.")},
};

const StageText* findStage(const QString& stage) {
    for (const StageText& s : kStages)
        if (stage == QLatin1String(s.stage)) return &s;
    return nullptr;
}

bool isDark(const QPalette& pal) { return pal.color(QPalette::Base).lightness() < 128; }

}  // namespace

QString stageTitle(const QString& stage) {
    const StageText* s = findStage(stage);
    return s ? QCoreApplication::translate("SamplerWaterfall", s->title) : stage;
}

QString stageExplanation(const QString& stage) {
    const StageText* s = findStage(stage);
    return s ? QCoreApplication::translate("SamplerWaterfall", s->explanation) : QString();
}

SamplerWaterfall::SamplerWaterfall(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void SamplerWaterfall::setPanels(const QList<StagePanel>& panels) {
    const bool countChanged = panels.size() != panels_.size();
    panels_ = panels;
    if (countChanged) updateGeometry();
    update();
}

QRect SamplerWaterfall::panelRect(int index) const {
    const int n = int(panels_.size());
    if (index < 0 || index >= n) return {};
    // Panels share the width evenly (shrinking when narrow) and stop growing at kMaxPanel.
    const int available = width() - 2 * kMargin - (n - 1) * kGap;
    const int panelWidth = std::clamp(available / n, 1, kMaxPanel);
    return {kMargin + index * (panelWidth + kGap), kMargin, panelWidth, std::max(1, height() - 2 * kMargin)};
}

int SamplerWaterfall::panelAt(const QPoint& pos) const {
    for (int i = 0; i < panels_.size(); ++i)
        if (panelRect(i).contains(pos)) return i;
    return -1;
}

QSize SamplerWaterfall::sizeHint() const {
    const int n = std::max<int>(1, int(panels_.size()));
    return {2 * kMargin + n * kPreferredPanel + (n - 1) * kGap, 200};
}

QSize SamplerWaterfall::minimumSizeHint() const {
    const int n = std::max<int>(1, int(panels_.size()));
    return {2 * kMargin + n * kMinPanel + (n - 1) * kGap, 150};
}

bool SamplerWaterfall::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = panelAt(help->pos());
        const QString text = i >= 0 ? stageExplanation(panels_[i].stage) : QString();
        if (!text.isEmpty()) QToolTip::showText(help->globalPos(), text, this, panelRect(i));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void SamplerWaterfall::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    for (int i = 0; i < panels_.size(); ++i) {
        paintPanel(painter, i);
        if (i + 1 < panels_.size()) paintChevron(painter, i);
    }
}

void SamplerWaterfall::paintPanel(QPainter& painter, int index) const {
    const StagePanel& panel = panels_[index];
    const QPalette& pal = palette();
    const QRect r = panelRect(index);
    // A stage that did nothing this step stays in place (the chain order is the lesson) but fades.
    const bool muted = !panel.changed && panel.stage != QLatin1String("raw");
    painter.save();
    painter.setOpacity(muted ? 0.45 : 1.0);

    painter.setPen(pal.color(QPalette::Mid));
    painter.setBrush(pal.color(QPalette::AlternateBase));
    painter.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);

    const QRect inner = r.adjusted(kPad, kPad / 2, -kPad, -kPad / 2);
    const QColor textColour = pal.color(QPalette::Text);
    const QFontMetrics fm(font());
    const int line = fm.height();

    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldFm(bold);
    painter.setFont(bold);
    painter.setPen(textColour);
    painter.drawText(QRect(inner.left(), inner.top(), inner.width(), boldFm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     boldFm.elidedText(stageTitle(panel.stage), Qt::ElideRight, inner.width()));
    painter.setFont(font());

    // Three statistic lines at the bottom, the bars fill what is left between.
    const QStringList stats{
        tr("kept %1").arg(locale().toString(panel.kept)),
        tr("mass %1 %").arg(locale().toString(panel.massKept * 100.0, 'f', 1)),
        tr("H %1 nats").arg(locale().toString(panel.entropy, 'f', 2)),
    };
    const int statsTop = inner.bottom() + 1 - int(stats.size()) * line;
    for (int s = 0; s < stats.size(); ++s)
        painter.drawText(QRect(inner.left(), statsTop + s * line, inner.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(stats[s], Qt::ElideRight, inner.width()));

    const QRect bars(inner.left(), inner.top() + boldFm.height() + 2, inner.width(),
                     statsTop - 2 - (inner.top() + boldFm.height() + 2));
    const int rows = int(std::min<qsizetype>({kMaxBars, panel.labels.size(), panel.p.size()}));
    if (rows > 0 && bars.height() > rows) {
        const int rowHeight = std::min(line, bars.height() / rows);
        const bool labelsFit = rowHeight >= fm.height() * 4 / 5;  // too cramped: bars only
        const int labelWidth = labelsFit ? inner.width() / 2 : 0;   // token texts need the room more than the bars
        const int barLeft = bars.left() + labelWidth + (labelsFit ? 3 : 0);
        const int barSpan = std::max(1, bars.right() + 1 - barLeft);
        const QColor accent = isDark(pal) ? QColor(0x3d, 0xa5, 0xd9) : QColor(0x1f, 0x6f, 0xb5);
        for (int b = 0; b < rows; ++b) {
            const int y = bars.top() + b * rowHeight;
            if (labelsFit) {
                painter.setPen(textColour);
                painter.drawText(QRect(bars.left(), y, labelWidth, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                                 fm.elidedText(panel.labels[b], Qt::ElideRight, labelWidth));
            }
            const double p = std::clamp(panel.p[b], 0.0, 1.0);
            const int barWidth = std::max(1, int(p * barSpan + 0.5));
            painter.fillRect(QRect(barLeft, y + 2, barWidth, std::max(1, rowHeight - 4)), accent);
            // The number beside the bar where it fits: bars alone hide 0.2 % vs 2 %.
            const QString value = tr("%1 %").arg(locale().toString(p * 100.0, 'f', p * 100.0 < 9.95 ? 1 : 0));
            const int valueLeft = barLeft + barWidth + 3;
            if (labelsFit && valueLeft + fm.horizontalAdvance(value) <= bars.right() + 1) {
                QColor faint = textColour;
                faint.setAlphaF(0.65f);
                painter.setPen(faint);
                painter.drawText(QRect(valueLeft, y, bars.right() + 1 - valueLeft, rowHeight),
                                 Qt::AlignLeft | Qt::AlignVCenter, value);
            }
        }
    }
    painter.restore();
}

void SamplerWaterfall::paintChevron(QPainter& painter, int afterIndex) const {
    const QRect r = panelRect(afterIndex);
    const QPointF tip(r.right() + 1 + kGap / 2.0 + 3, r.center().y());
    painter.save();
    painter.setPen(QPen(palette().color(QPalette::Text), 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setOpacity(0.6);
    const QPointF chevron[] = {tip + QPointF(-6, -7), tip, tip + QPointF(-6, 7)};
    painter.drawPolyline(chevron, 3);
    painter.restore();
}

void SamplerWaterfall::changeEvent(QEvent* e) {
    switch (e->type()) {
    case QEvent::FontChange:
        updateGeometry();
        update();
        break;
    case QEvent::PaletteChange:
    case QEvent::LanguageChange:  // titles and explanations are looked up when painted / shown
        update();
        break;
    default:
        break;
    }
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
