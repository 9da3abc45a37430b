#pragma once

#include <QPalette>
#include <QString>

namespace ratelab::style {

// The window's own theme (View → Theme): the system's palette, or ratelab's light or dark
// one whatever the system says. Every widget and chart follows the application palette
// (changeEvent, QEvent::PaletteChange), so applying one repaints them all.
enum class Theme { System, Light, Dark };

// ratelab's dark and light palettes (the dark one is also what the screenshots show).
QPalette darkPalette();
QPalette lightPalette();

// Sets the application palette of `theme`. The system's palette is the one the application
// had before the first call, so System gives it back after Dark or Light.
void applyTheme(Theme theme);
Theme currentTheme();

// The theme remembered in QSettings ("view/theme": "system", "light", "dark"); System when
// none or an unknown one is stored.
Theme savedTheme();
void saveTheme(Theme theme);
QString themeKey(Theme theme);

}  // namespace ratelab::style
