#include "widgets/palette_colors.h"

#include <cmath>

namespace dlab::widgets {

bool hasDarkBase(const QPalette& pal) { return pal.color(QPalette::Base).lightness() < 128; }

QColor probabilityAccent(const QPalette& pal) { return hasDarkBase(pal) ? QColor(0x3d, 0xa5, 0xd9) : QColor(0x1f, 0x6f, 0xb5); }

QColor readableTextOn(const QColor& bg) {
    auto lin = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const double l = 0.2126 * lin(bg.redF()) + 0.7152 * lin(bg.greenF()) + 0.0722 * lin(bg.blueF());
    return l > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor mix(const QColor& from, const QColor& to, double t) {
    const double u = 1.0 - t;
    return QColor::fromRgbF(float(u * from.redF() + t * to.redF()), float(u * from.greenF() + t * to.greenF()),
                            float(u * from.blueF() + t * to.blueF()));
}

}  // namespace dlab::widgets
