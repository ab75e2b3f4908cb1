#include "widgets/probability_legend.h"

#include <algorithm>
#include <QEvent>
#include <QLocale>
#include <QPainter>

#include "widgets/token_strip.h"

#include <algorithm>

namespace dlab::widgets {

ProbabilityLegend::ProbabilityLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setToolTip(explanation());
}

QString ProbabilityLegend::explanation() const {
    return tr("Each token's background shows how probable the sampler made the token it chose: pale = it was a "
              "long shot, saturated = it was nearly certain.");
}

QString ProbabilityLegend::caption() const { return tr("Shading: probability of the chosen token"); }
QString ProbabilityLegend::shortCaption() const { return tr("Shading:"); }

int ProbabilityLegend::rampWidth() const { return fontMetrics().averageCharWidth() * 18; }

QSize ProbabilityLegend::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const QString low = tr("%1 %").arg(locale().toString(0)), high = tr("%1 %").arg(locale().toString(100));
    const int w = fm.horizontalAdvance(caption()) + fm.horizontalAdvance(low) + fm.horizontalAdvance(high) +
                  rampWidth() + 4 * fm.averageCharWidth();
    return {w, fm.height() + 4};
}

QSize ProbabilityLegend::minimumSizeHint() const {
    // Never unlabelled: at least "Shading:", 0 %, a short ramp and 100 %.
    const QFontMetrics fm = fontMetrics();
    const QString low = tr("%1 %").arg(locale().toString(0)), high = tr("%1 %").arg(locale().toString(100));
    const int w = fm.horizontalAdvance(shortCaption()) + fm.horizontalAdvance(low) + fm.horizontalAdvance(high) +
                  fm.averageCharWidth() * (8 + 3);
    return {w, sizeHint().height()};
}

void ProbabilityLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QFontMetrics fm = fontMetrics();
    const QString low = tr("%1 %").arg(locale().toString(0)), high = tr("%1 %").arg(locale().toString(100));
    const int gap = fm.averageCharWidth();
    // The ramp gives way first (down to 8 characters), so that the short caption always fits.
    const int rampW = std::clamp(width() - fm.horizontalAdvance(shortCaption()) - fm.horizontalAdvance(low) - fm.horizontalAdvance(high) - 3 * gap,
                                 fm.averageCharWidth() * 8, rampWidth());
    const int tail = fm.horizontalAdvance(low) + fm.horizontalAdvance(high) + rampW + 3 * gap;
    const int captionRoom = std::max(0, width() - tail);
    // Where the whole caption does not fit (a 1024 px window with the lessons dock open), its
    // short form, then none: the tooltip says the whole of it. Only what still does not fit elides.
    QString text = caption();
    for (const QString& form : {caption(), shortCaption()})
        if (fm.horizontalAdvance(form) <= captionRoom) {
            text = form;
            break;
        }
    if (fm.horizontalAdvance(text) > captionRoom) text = fm.elidedText(text, Qt::ElideRight, captionRoom);
    elided_ = !text.isEmpty() && text != caption() && text != shortCaption();
    shown_ = text;
    painter.setPen(palette().color(QPalette::WindowText));
    const QRect row(0, 0, width(), height());
    painter.drawText(row.adjusted(0, 0, -tail, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    int x = std::min(width() - tail, fm.horizontalAdvance(text)) + gap;
    painter.drawText(QRect(x, 0, fm.horizontalAdvance(low), height()), Qt::AlignVCenter, low);
    x += fm.horizontalAdvance(low) + gap;
    const int h = fm.height() - 2, top = (height() - h) / 2;
    // The strip's own colour function, sampled per pixel column: the legend cannot drift from it.
    for (int i = 0; i < rampW; ++i)
        painter.fillRect(QRect(x + i, top, 1, h), TokenStrip::backgroundFor(double(i) / std::max(1, rampW - 1), palette()));
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(QRect(x, top, rampW - 1, h - 1));
    x += rampW + gap;
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(x, 0, fm.horizontalAdvance(high) + 1, height()), Qt::AlignVCenter, high);
}

void ProbabilityLegend::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) setToolTip(explanation());
    if (e->type() == QEvent::FontChange) updateGeometry();
    QWidget::changeEvent(e);
}

}  // namespace dlab::widgets
