#include "widgets/palette_colors.h"

#include <algorithm>
#include <cmath>

namespace dlab::widgets {

bool hasDarkBase(const QPalette& pal) { return pal.color(QPalette::Base).lightness() < 128; }

QColor probabilityAccent(const QPalette& pal) { return hasDarkBase(pal) ? QColor(0x3d, 0xa5, 0xd9) : QColor(0x1f, 0x6f, 0xb5); }

double relativeLuminance(const QColor& c) {
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableTextOn(const QColor& bg) { return relativeLuminance(bg) > 0.179 ? QColor(Qt::black) : QColor(Qt::white); }

QColor mix(const QColor& from, const QColor& to, double t) {
    const double u = 1.0 - t;
    return QColor::fromRgbF(float(u * from.redF() + t * to.redF()), float(u * from.greenF() + t * to.greenF()),
                            float(u * from.blueF() + t * to.blueF()));
}

}  // namespace dlab::widgets
