#pragma once
// The app's adjustments to the style it runs with (Fusion in the light and dark themes, the
// platform's in the system theme):
//   - check indicators (light and dark only). Fusion draws a check box's frame in a shade of the
//     window colour; on the dark palette that frame all but vanishes against the dark base (the
//     stage list's boxes looked unticked and unframed). This style draws every check indicator
//     itself — a frame in the text colour at reduced contrast, the base inside, the tick in the
//     highlight colour — the same in light and dark.
//   - push buttons keep room beside their text. Fusion pads short labels up to 80 px but gives a
//     long one ("Neu erzeugen", "Standardwerte") a few pixels, so its text touched the frame.
//   - check boxes and radio buttons grow with their text: Fusion's are 14 px at any font, a speck
//     beside presentation mode's 22-px lines on a projector.
#include <QFontMetrics>
#include <QProxyStyle>

namespace dlab::ui {

class LabStyle : public QProxyStyle {
    Q_OBJECT
public:
    // Takes ownership of `base`. `ownCheckIndicators`: draw check indicators as described above.
    LabStyle(QStyle* base, bool ownCheckIndicators) : QProxyStyle(base), ownCheckIndicators_(ownCheckIndicators) {}
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;
    QSize sizeFromContents(ContentsType type, const QStyleOption* option, const QSize& contents,
                           const QWidget* widget = nullptr) const override;
    int pixelMetric(PixelMetric metric, const QStyleOption* option = nullptr, const QWidget* widget = nullptr) const override;

    bool ownsCheckIndicators() const { return ownCheckIndicators_; }

    // The least room on each side of a push button's text: half the font's height.
    static int buttonTextPadding(const QFontMetrics& fm) { return (fm.height() + 1) / 2; }
    // The least side of a check box's or radio button's indicator: the text's line height.
    static int indicatorSize(const QFontMetrics& fm) { return fm.height(); }

private:
    bool ownCheckIndicators_;
};

}  // namespace dlab::ui
