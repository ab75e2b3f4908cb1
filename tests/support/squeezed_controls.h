#pragma once
// The buttons, spin boxes and combo boxes under `root` that are shown narrower than they need
// ("Datentypen vergleichen" cut to "ntypen verglei"), and sliders too short to slide: a layout that fits a narrow window by
// squeezing them has not fitted it. Header-only: for the GUI suites, which link Qt Widgets.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStringList>
#include <QWidget>

namespace dlab::test {

inline QStringList squeezedControls(const QWidget* root) {
    QStringList out;
    // A slider needs room to slide: a dozen pixels (the KV heatmap's step slider beside the
    // Lessons panel) reads as a check box.
    for (QSlider* s : root->findChildren<QSlider*>()) {
        const int least = 6 * s->fontMetrics().averageCharWidth();
        if (s->isVisible() && s->orientation() == Qt::Horizontal && s->width() < least)
            out << QStringLiteral("QSlider \"%1\" %2 px of %3").arg(s->objectName()).arg(s->width()).arg(least);
    }
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisible() || !(qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w)))
            continue;
        if (w->width() < w->minimumSizeHint().width())
            out << QStringLiteral("%1 \"%2\" %3 px of %4")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                       .arg(w->width())
                       .arg(w->minimumSizeHint().width());
    }
    return out;
}

// Controls the user cannot get to: a shown button, box or spin box lying (partly) outside its
// parent, where no scrolling brings it (a layout left stale by a language change kept the Safety
// tab's check box at y 573 in a 520-px column); and scroll areas inside `root` that scroll
// sideways (that column, 366 px of German options in 254 px) unless made to (RowScrollArea: the
// sampler waterfall's one row).
inline QStringList unreachableControls(const QWidget* root) {
    QStringList out;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisible() || !w->parentWidget()) continue;
        if (auto* area = qobject_cast<QScrollArea*>(w);
            area && !area->inherits("dlab::widgets::RowScrollArea") && area->horizontalScrollBar()->maximum() > 0)
            out << QStringLiteral("QScrollArea \"%1\" scrolls sideways by %2 px").arg(area->objectName()).arg(area->horizontalScrollBar()->maximum());
        if (!(qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w))) continue;
        if (!w->parentWidget()->rect().contains(w->geometry()))
            out << QStringLiteral("%1 \"%2\" at %3,%4 %5x%6 outside its parent's %7x%8")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                       .arg(w->x()).arg(w->y()).arg(w->width()).arg(w->height())
                       .arg(w->parentWidget()->width()).arg(w->parentWidget()->height());
    }
    return out;
}

}  // namespace dlab::test
