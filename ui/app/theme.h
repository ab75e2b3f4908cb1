#pragma once
// Light / dark appearance. "system" keeps the palette the platform gives (Qt follows the desktop's
// light or dark setting); "light" and "dark" set a Fusion palette so a classroom projector can be
// forced either way. Widgets draw from the palette, so a switch repaints everything at once.
#include <QPalette>
#include <QString>

namespace dlab::ui {

enum class Theme { System, Light, Dark };

Theme themeFromString(const QString& name);   // unknown names give System
QString themeName(Theme theme);               // "system", "light", "dark"
QPalette darkPalette();
QPalette lightPalette();
// Applies the theme to the whole application (style Fusion for light/dark).
void applyTheme(Theme theme);
// Whether a palette is dark (its window colour is darker than its text).
bool isDark(const QPalette& palette);

}  // namespace dlab::ui
