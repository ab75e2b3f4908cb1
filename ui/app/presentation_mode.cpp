#include "ui/app/presentation_mode.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace dlab::ui {

namespace {
// The font the application had before any presentation mode scaled it: kept on the application,
// so a second window (or a mode made after another one scaled the font) starts from 100 %.
QFont applicationBaseFont() {
    constexpr const char* kKey = "dlabBaseFont";
    const QVariant kept = qApp->property(kKey);
    if (kept.isValid()) return kept.value<QFont>();
    const QFont f = QApplication::font();
    qApp->setProperty(kKey, f);
    return f;
}
}  // namespace

PresentationMode::PresentationMode(QObject* parent) : QObject(parent), base_(applicationBaseFont()) {}

double PresentationMode::fontScale() const { return zoom_ * (presenting_ ? kPresentationScale : 1.0); }

void PresentationMode::setPresenting(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    apply();
}

void PresentationMode::setZoom(double zoom) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (std::abs(zoom - 1.0) < 0.01) zoom = 1.0;   // steps up and down land on 100 % again
    if (zoom == zoom_) return;
    zoom_ = zoom;
    apply();
}

void PresentationMode::apply() {
    QFont f = base_;
    if (base_.pointSizeF() > 0) f.setPointSizeF(base_.pointSizeF() * fontScale());
    else f.setPixelSize(std::max(1, static_cast<int>(std::lround(base_.pixelSize() * fontScale()))));
    QApplication::setFont(f);
    // Qt tells the existing widgets only once the event loop runs (QApplication::exec); before
    // that (start-up from the saved settings, tests) they would keep the old size. Tell the
    // ones that did not follow: each re-resolves its font and gets QEvent::FontChange.
    QEvent changedFont(QEvent::ApplicationFontChange);
    for (QWidget* w : QApplication::allWidgets())
        if (!w->testAttribute(Qt::WA_SetFont) && w->font().pointSizeF() != f.pointSizeF()) QCoreApplication::sendEvent(w, &changedFont);
    emit changed();
}

}  // namespace dlab::ui
