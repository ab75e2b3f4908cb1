#include "ui/app/theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

#include "ui/app/lab_style.h"

namespace dlab::ui {

namespace {
// The palette and style the application started with, restored by Theme::System.
struct Startup {
    QPalette palette;
    QString style;
};
Startup& startup() {
    static Startup s{QApplication::palette(), QApplication::style() ? QApplication::style()->name() : QString()};
    return s;
}
}  // namespace

Theme themeFromString(const QString& name) {
    if (name == QLatin1String("light")) return Theme::Light;
    if (name == QLatin1String("dark")) return Theme::Dark;
    return Theme::System;
}

QString themeName(Theme theme) {
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    default: return QStringLiteral("system");
    }
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80), highlight(0x3d, 0x8b, 0xfd);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, highlight);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x45, 0x48, 0x4d));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x50, 0x53, 0x58));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette lightPalette() {
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion ? fusion->standardPalette() : QPalette();
}

// Installs LabStyle over the style called `base` unless it is in place already: a new style
// restyles every widget of the application, and each window opened sets the theme.
void setLabStyle(const QString& base, bool ownCheckIndicators) {
    if (base.isEmpty()) return;
    if (const auto* current = qobject_cast<const LabStyle*>(QApplication::style());
        current && current->ownsCheckIndicators() == ownCheckIndicators &&
        current->baseStyle()->name().compare(base, Qt::CaseInsensitive) == 0)
        return;
    if (QStyle* style = QStyleFactory::create(base)) QApplication::setStyle(new LabStyle(style, ownCheckIndicators));
}

void applyTheme(Theme theme) {
    const Startup& s = startup();
    switch (theme) {
    case Theme::System:
        setLabStyle(s.style, false);
        QApplication::setPalette(s.palette);
        break;
    case Theme::Light:
        setLabStyle(QStringLiteral("Fusion"), true);
        QApplication::setPalette(lightPalette());
        break;
    case Theme::Dark:
        setLabStyle(QStringLiteral("Fusion"), true);
        QApplication::setPalette(darkPalette());
        break;
    }
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

}  // namespace dlab::ui
