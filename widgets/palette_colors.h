#pragma once
// Colours the painted views share, so the token strip's shading, its legend and the waterfall's
// bars are one blue in light and dark, and text on them stays readable.
#include <QColor>
#include <QPalette>

namespace dlab::widgets {

// Whether the palette draws on a dark base (the text fields' and views' background).
bool hasDarkBase(const QPalette& pal);
// The accent for probability: bars and strip shading (a brighter blue on a dark base).
QColor probabilityAccent(const QPalette& pal);
// Black or white, whichever contrasts more with `bg` (WCAG relative luminance; at 0.179 both
// have the same contrast).
QColor readableTextOn(const QColor& bg);
// `from` blended towards `to` by t in [0, 1].
QColor mix(const QColor& from, const QColor& to, double t);

}  // namespace dlab::widgets
