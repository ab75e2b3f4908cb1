#include "widgets/heatmap_color_map.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "widgets/palette_colors.h"

namespace dlab::widgets {

QColor heatRampColor(double t, const QPalette& pal) {
    t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0);
    const bool dark = hasDarkBase(pal);
    // The low end keeps 10 % of the accent: a zero is data, a NaN (pure base) is none.
    const QColor low = mix(pal.color(QPalette::Base), probabilityAccent(pal), 0.10);
    const QColor middle = probabilityAccent(pal);
    const QColor high = dark ? QColor(0xff, 0xd1, 0x66) : QColor(0x66, 0x12, 0x48);
    return t < 0.5 ? mix(low, middle, t * 2.0) : mix(middle, high, (t - 0.5) * 2.0);
}

QColor defaultCategoryColor(int index) {
    static const std::array<QColor, 8> kOkabeIto{QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0x00, 0x9e, 0x73),
                                                 QColor(0xf0, 0xe4, 0x42), QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                                 QColor(0xcc, 0x79, 0xa7), QColor(0x99, 0x99, 0x99)};
    return kOkabeIto[size_t(std::max(0, index)) % kOkabeIto.size()];
}

HeatScale::HeatScale(float lo, float hi, bool log) : lo_(lo), hi_(hi), log_(log) {
    const double a = log ? std::log(double(lo)) : double(lo), b = log ? std::log(double(hi)) : double(hi);
    a_ = a;
    inv_ = b > a ? 1.0 / (b - a) : 0.0;
}

double HeatScale::position(float v) const {
    if (std::isnan(v)) return std::nan("");
    if (inv_ == 0.0) return 0.5;
    const double f = log_ ? (v > 0.0f ? std::log(double(v)) : a_) : double(v);
    return std::clamp((f - a_) * inv_, 0.0, 1.0);
}

double HeatScale::valueAt(double t) const {
    if (inv_ == 0.0) return lo_;
    const double f = a_ + t / inv_;
    return log_ ? std::exp(f) : f;
}

}  // namespace dlab::widgets
