#pragma once
// The KV heatmap's colours: a sequential ramp for numbers, distinct hues for categories, and the
// value -> ramp position mapping (linear or log).
//
// The ramp runs base -> probability accent -> a warm end, so the lowest value is a faint tint of
// the view's background (still told apart from "no data", which is the background itself), the
// middle is the blue the token strip and the charts use for probability, and the top stands out:
//   light base:  white -> #1f6fb5 blue -> #661248 wine   (relative luminance 1.0 -> 0.15 -> 0.04)
//   dark base:   base  -> #3da5d9 blue -> #ffd166 amber  (0.01 -> 0.33 -> 0.68)
// Luminance runs one way on each base, also inside each (sRGB) blend: the end colours were picked
// so that blue -> wine has no darker dip (a grey-scale print or a colour-blind reader still reads
// the order), and the hue turn at the top marks the hottest cells, e.g. an attention sink.
#include <QColor>
#include <QPalette>

namespace dlab::widgets {

// The ramp at t in [0, 1] (clamped) for the palette's base.
QColor heatRampColor(double t, const QPalette& palette);

// The view's hues for categories without their own colours (Okabe-Ito: distinct for the common
// colour-vision deficiencies, readable on light and dark bases); wraps after eight.
QColor defaultCategoryColor(int index);

// Value -> position on the ramp for a colour range [lo, hi]. Linear: (v - lo) / (hi - lo);
// Log: the same on log(v), values <= 0 clamp to lo. Results are clamped to [0, 1]; NaN stays NaN;
// a degenerate range (lo == hi) puts every value at 0.5.
class HeatScale {
public:
    HeatScale() = default;
    HeatScale(float lo, float hi, bool log);
    double position(float v) const;
    // The value at ramp position t (the legend's labels); the inverse of position() inside the range.
    double valueAt(double t) const;
    float lo() const { return lo_; }
    float hi() const { return hi_; }
    bool isLog() const { return log_; }

private:
    float lo_ = 0, hi_ = 0;
    bool log_ = false;
    double a_ = 0, inv_ = 0;  // position = (f(v) - a_) * inv_, f = identity or log
};

}  // namespace dlab::widgets
