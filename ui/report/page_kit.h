#pragma once

#include <QString>

// What report.html and lesson.html share: their series colours as CSS variables, the hatch the
// errors are drawn with, and the Content-Security-Policy that lets nothing but a page's own
// style and script run. The page/ scripts and style are embedded at build time (ui/CMakeLists.txt).
namespace ratelab::report_page {
extern const char* const kText_page_style;
extern const char* const kText_page_common;
extern const char* const kText_page_selftest;
extern const char* const kText_page_timeline;
extern const char* const kText_page_in_flight;
extern const char* const kText_page_compare;
extern const char* const kText_page_cumulative;
extern const char* const kText_page_main;
}  // namespace ratelab::report_page

namespace ratelab::page_kit {

// Which colours a page shows: the reader's browser's preference (light, or dark when it prefers
// it; light in print), or one of them always (a page exported from a window in that theme).
enum class Scheme { Auto, Light, Dark };

// The series colours (--accepted … --grp3) as CSS variables: the window's (style::seriesColors).
QString colourVariables(Scheme scheme = Scheme::Auto);
// A page's start up to <body>: the <html> element (with class "light" or "dark" when the scheme
// is fixed), its Content-Security-Policy for `styleText` and `scriptText`, its color-scheme,
// the `title` (HTML, escaped already) and the style.
QString pageHead(Scheme scheme, const QString& title, const QString& styleText,
                 const QString& scriptText);
// Scripts joined in one function scope, as CDATA so that the page stays XML.
QString scriptOf(std::initializer_list<const char*> parts);
// Allows the page's own style and script and data: images, nothing else.
QString contentSecurityPolicy(const QString& styleText, const QString& scriptText);
// The errors' hatch, referenced by the timelines' SVG (and the legend); its id "ratelab-defs"
// is what the scripts' SVG namespace comes from.
QString definitions();
// A legend's entry: `swatch` (SVG, drawn `width` wide) and its label (plain text, escaped here).
QString legendEntry(const QString& swatch, const QString& label, int width = 22);
// The legend's entries of a limit on requests in flight (page_in_flight.js draws them).
QString inFlightLegend();

}  // namespace ratelab::page_kit
