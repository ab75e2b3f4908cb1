#pragma once
// Fusion draws a check box's frame in a shade of the window colour; on the dark palette that
// frame all but vanishes against the dark base (the stage list's boxes looked unticked and
// unframed). This proxy draws every check indicator itself — a frame in the text colour at
// reduced contrast, the base inside, the tick in the highlight colour — the same in light and dark.
#include <QProxyStyle>

namespace dlab::ui {

class CheckIndicatorStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;
};

}  // namespace dlab::ui
