#include "style/app_theme.h"

#include <QApplication>
#include <QSettings>
#include <optional>

namespace ratelab::style {
namespace {

constexpr char kSettingsKey[] = "view/theme";

std::optional<QPalette>& systemPalette() {
    static std::optional<QPalette> palette;
    return palette;
}

Theme& current() {
    static Theme theme = Theme::System;
    return theme;
}

QPalette paletteOf(const QColor& window, const QColor& base, const QColor& text,
                   const QColor& button, const QColor& mid, const QColor& placeholder) {
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, placeholder);
    p.setColor(QPalette::Mid, mid);
    p.setColor(QPalette::Link, QColor(0x2a, 0x82, 0xda));
    // Disabled texts: dimmer, still apart from the background.
    p.setColor(QPalette::Disabled, QPalette::WindowText, placeholder);
    p.setColor(QPalette::Disabled, QPalette::Text, placeholder);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, placeholder);
    return p;
}

}  // namespace

QPalette darkPalette() {
    return paletteOf(QColor(0x2b, 0x2b, 0x2b), QColor(0x1e, 0x1e, 0x1e), QColor(0xe6, 0xe6, 0xe6),
                     QColor(0x35, 0x35, 0x35), QColor(0x50, 0x50, 0x50), QColor(0x9a, 0x9a, 0x9a));
}

QPalette lightPalette() {
    return paletteOf(QColor(0xef, 0xef, 0xef), Qt::white, Qt::black, QColor(0xef, 0xef, 0xef),
                     QColor(0xb8, 0xb8, 0xb8), QColor(0x70, 0x70, 0x70));
}

void applyTheme(Theme theme) {
    if (!systemPalette())
        systemPalette() = QApplication::palette();
    current() = theme;
    switch (theme) {
        case Theme::System:
            QApplication::setPalette(*systemPalette());
            return;
        case Theme::Light:
            QApplication::setPalette(lightPalette());
            return;
        case Theme::Dark:
            QApplication::setPalette(darkPalette());
            return;
    }
}

Theme currentTheme() {
    return current();
}

QString themeKey(Theme theme) {
    switch (theme) {
        case Theme::Light:
            return QStringLiteral("light");
        case Theme::Dark:
            return QStringLiteral("dark");
        case Theme::System:
            break;
    }
    return QStringLiteral("system");
}

Theme savedTheme() {
    const QString key = QSettings().value(QLatin1String(kSettingsKey)).toString();
    for (const Theme theme : {Theme::Light, Theme::Dark}) {
        if (key == themeKey(theme))
            return theme;
    }
    return Theme::System;
}

void saveTheme(Theme theme) {
    QSettings().setValue(QLatin1String(kSettingsKey), themeKey(theme));
}

}  // namespace ratelab::style
