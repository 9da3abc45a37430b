#include "report/page_kit.h"

#include <QCoreApplication>
#include <QCryptographicHash>

#include "report/html_markup.h"
#include "style/series_style.h"

namespace ratelab::page_kit {
namespace {

QString variables(bool dark) {
    const style::SeriesColors c = style::seriesColors(dark);
    // The areas' outlines as the window draws them: a shade darker on light.
    const auto line = [dark](const QColor& color) { return color.darker(dark ? 100 : 120).name(); };
    // The limiters' lines (the cumulative chart), each its pen's colour.
    QString pens;
    for (int i = 0; i < style::kLimiterPens; ++i) {
        pens += QStringLiteral(";--pen%1:%2").arg(i).arg(style::limiterPen(i, dark).color().name());
    }
    // The traffic groups' accepted lines on the timelines, each its group pen's colour.
    for (int i = 0; i < style::kGroupPens; ++i) {
        pens += QStringLiteral(";--grp%1:%2").arg(i).arg(style::groupPen(i, dark).color().name());
    }
    return QStringLiteral(
               ":root{--accepted:%1;--accepted-line:%2;--rejected:%3;--rejected-line:%4;"
               "--errors:%5;--limit:%6;--boundary:%7;--grid:%8;--tokens:%9%10}")
        .arg(c.accepted.name(), line(c.accepted), c.rejected.name(), line(c.rejected),
             c.errors.name(), c.limit.name(), c.boundary.name(),
             dark ? QStringLiteral("#3c3c3c") : c.grid.name(), c.tokens.name(),
             QStringLiteral(";--marker:%1;--marker-line:%2%3")
                 .arg(c.marker.name(), c.marker.darker(dark ? 100 : 140).name(), pens));
}

// 'sha256-…' of an inline element's text, for the Content-Security-Policy.
QString hashSource(const QString& text) {
    return QStringLiteral("'sha256-%1'")
        .arg(QString::fromLatin1(
            QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toBase64()));
}

// The <html> element's class that fixes the scheme; empty for Auto.
QString schemeClass(Scheme scheme) {
    switch (scheme) {
        case Scheme::Light:
            return QStringLiteral(" class=\"light\"");
        case Scheme::Dark:
            return QStringLiteral(" class=\"dark\"");
        case Scheme::Auto:
            break;
    }
    return {};
}

QString colorSchemeContent(Scheme scheme) {
    switch (scheme) {
        case Scheme::Light:
            return QStringLiteral("light");
        case Scheme::Dark:
            return QStringLiteral("dark");
        case Scheme::Auto:
            break;
    }
    return QStringLiteral("light dark");
}

}  // namespace

QString colourVariables(Scheme scheme) {
    switch (scheme) {
        case Scheme::Light:
            return variables(false) + QLatin1Char('\n');
        case Scheme::Dark:
            return variables(true) + QLatin1Char('\n');
        case Scheme::Auto:
            break;
    }
    return variables(false) + QStringLiteral("\n@media (prefers-color-scheme: dark){") +
           variables(true) + QStringLiteral("}\n@media print{") + variables(false) +
           QStringLiteral("}\n");
}

QString pageHead(Scheme scheme, const QString& title, const QString& styleText,
                 const QString& scriptText) {
    return QStringLiteral(
               "<!DOCTYPE html>\n<html lang=\"en\"%1>\n<head>\n<meta charset=\"utf-8\"/>\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"%2\"/>\n"
               "<meta name=\"color-scheme\" content=\"%3\"/>\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
               "<title>%4</title>\n<style>%5</style>\n</head>\n<body>\n")
        .arg(schemeClass(scheme), html::esc(contentSecurityPolicy(styleText, scriptText)),
             colorSchemeContent(scheme), title, styleText);
}

QString scriptOf(std::initializer_list<const char*> parts) {
    QString body;
    for (const char* part : parts) {
        body += QString::fromUtf8(part);
    }
    return QStringLiteral("//<![CDATA[\n(function () {\n\"use strict\";\n") + body +
           QStringLiteral("})();\n//]]>\n");
}

QString contentSecurityPolicy(const QString& styleText, const QString& scriptText) {
    return QStringLiteral(
               "default-src 'none'; style-src %1; script-src %2; img-src data:; "
               "base-uri 'none'; form-action 'none'")
        .arg(hashSource(styleText), hashSource(scriptText));
}

QString definitions() {
    return QStringLiteral(
        "<svg id=\"ratelab-defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>"
        "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
        "<rect class=\"hatch-bg\" width=\"6\" height=\"6\"/>"
        "<path class=\"hatch-line\" d=\"M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2\"/></pattern>"
        "</defs></svg>\n");
}

QString legendEntry(const QString& swatch, const QString& label, int width) {
    return QStringLiteral(
               "<span><svg width=\"%1\" height=\"12\" aria-hidden=\"true\">%2</svg>%3</span>")
        .arg(width)
        .arg(swatch, html::esc(label));
}

QString inFlightLegend() {
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("ratelab::HtmlReport", text);
    };
    return legendEntry(QStringLiteral("<path class=\"in-flight\" d=\"M1,6H21\"/>"),
                       tr("requests in flight (right axis)")) +
           legendEntry(QStringLiteral("<path class=\"in-flight-limit\" d=\"M1,6H21\"/>"),
                       tr("in-flight limit")) +
           legendEntry(QStringLiteral("<path class=\"released\" d=\"M1,6H21\"/>"),
                       tr("released per step")) +
           legendEntry(QStringLiteral("<path class=\"leak\" d=\"M11,1l5,5l-5,5l-5,-5Z\"/>"),
                       tr("leaked grants"));
}

}  // namespace ratelab::page_kit
