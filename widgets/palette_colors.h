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
// WCAG 2 relative luminance (0 black … 1 white) and the contrast ratio of two colours (1 … 21;
// WCAG asks 3:1 of graphics, 4.5:1 of text).
double relativeLuminance(const QColor& c);
double contrastRatio(const QColor& a, const QColor& b);
// Black or white, whichever contrasts more with `bg` (at luminance 0.179 both have the same contrast).
QColor readableTextOn(const QColor& bg);
// `from` blended towards `to` by t in [0, 1].
QColor mix(const QColor& from, const QColor& to, double t);

}  // namespace dlab::widgets
