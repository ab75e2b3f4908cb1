#pragma once
// The buttons, spin boxes and combo boxes under `root` that are shown narrower than they need
// ("Datentypen vergleichen" cut to "ntypen verglei"): a layout that fits a narrow window by
// squeezing them has not fitted it. Header-only: for the GUI suites, which link Qt Widgets.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QStringList>
#include <QWidget>

namespace dlab::test {

inline QStringList squeezedControls(const QWidget* root) {
    QStringList out;
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
