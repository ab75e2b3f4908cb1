#pragma once
// The buttons, spin boxes and combo boxes under `root` that are shown narrower than they need
// ("Datentypen vergleichen" cut to "ntypen verglei"), and sliders too short to slide: a layout that fits a narrow window by
// squeezing them has not fitted it. Header-only: for the GUI suites, which link Qt Widgets.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
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

}  // namespace dlab::test
