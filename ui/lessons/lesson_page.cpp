#include "lessons/lesson_page.h"

#include <QCoreApplication>
#include <algorithm>

#include "lessons/lesson_page_data.h"
#include "limiters/algorithm.h"
#include "report/html_markup.h"
#include "report/page_kit.h"

// The player's style and script (ui/lessons/page/), embedded at build time.
namespace ratelab::lesson_page {
extern const char* const kText_lesson_style;
extern const char* const kText_lesson_player;
extern const char* const kText_lesson_selftest;
}  // namespace ratelab::lesson_page

namespace ratelab {
namespace {

using html::esc;
using page_kit::legendEntry;

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::LessonPage", text);
}

// The lines the lesson's limiters draw: a rate limit, a limit on requests in flight, or both.
QString legend(const Lesson& lesson) {
    const QString box =
        QStringLiteral("<rect class=\"%1\" x=\"1\" y=\"1\" width=\"20\" height=\"10\"/>");
    const auto inFlight = [](const LimiterSpec& spec) {
        return algorithmOf(spec).limitsInFlight();
    };
    const QVector<LimiterSpec>& limiters = lesson.scenario.limiters;
    return QStringLiteral("<div class=\"legend\">") +
           legendEntry(box.arg(QStringLiteral("acc")), tr("accepted")) +
           legendEntry(box.arg(QStringLiteral("rej")), tr("rejected")) +
           (std::all_of(limiters.begin(), limiters.end(), inFlight)
                ? QString()
                : legendEntry(QStringLiteral("<path class=\"limit\" d=\"M1,6H21\"/>"),
                              tr("limit (steady state)"))) +
           (std::any_of(limiters.begin(), limiters.end(), inFlight) ? page_kit::inFlightLegend()
                                                                    : QString()) +
           legendEntry(box.arg(QStringLiteral("hl")), tr("what the beat points at")) +
           legendEntry(QStringLiteral("<path class=\"now\" d=\"M11,0V12\"/>"),
                       tr("the run so far")) +
           QStringLiteral("</div>\n");
}

// Every beat's words as the frames have them, for a reader without scripts.
QString beatList(const QVector<LessonFrame>& frames) {
    QString out = QStringLiteral("<noscript><ol class=\"beats\">");
    for (const LessonFrame& frame : frames) {
        if (frame.question) {
            continue;
        }
        out += QStringLiteral("<li>");
        for (const QString& text : {frame.say, frame.ask, frame.answer}) {
            if (!text.isEmpty()) {
                out += QStringLiteral("<p>%1</p>").arg(esc(text));
            }
        }
        out += QStringLiteral("</li>");
    }
    return out + QStringLiteral("</ol></noscript>\n");
}

}  // namespace

QByteArray lessonHtml(const Lesson& lesson, const QVector<LessonFrame>& frames,
                      page_kit::Scheme scheme) {
    const QString title = esc(lesson.title);
    const QString styleText = page_kit::colourVariables(scheme) +
                              QString::fromUtf8(report_page::kText_page_style) +
                              QString::fromUtf8(lesson_page::kText_lesson_style);
    const QString scriptText =
        page_kit::scriptOf({report_page::kText_page_common, report_page::kText_page_selftest,
                            report_page::kText_page_timeline, report_page::kText_page_in_flight,
                            lesson_page::kText_lesson_player, lesson_page::kText_lesson_selftest});
    QString html = page_kit::pageHead(scheme, title, styleText, scriptText);
    html += page_kit::definitions();
    html += QStringLiteral(
                "<header class=\"bar\"><h1>%1</h1><span id=\"progress\"></span>"
                "<span class=\"buttons\"><button type=\"button\" id=\"back\" disabled=\"disabled\""
                " title=\"%2\">%3</button><button type=\"button\" id=\"next\" title=\"%4\">%5"
                "</button></span></header>\n")
                .arg(title, esc(tr("Back (←)")), esc(tr("← Back")), esc(tr("Next (→ or Space)")),
                     esc(tr("Next →")));
    html += QStringLiteral(
        "<section id=\"beat\" aria-live=\"polite\"><p id=\"say\"></p>"
        "<div id=\"question\" hidden=\"hidden\"><p class=\"label\" id=\"ask-label\"></p>"
        "<p id=\"ask\"></p><p class=\"label\" id=\"answer-label\"></p><p id=\"answer\"></p></div>"
        "<ul id=\"claims\"></ul></section>\n");
    html += beatList(frames);
    html += legend(lesson);
    html += QStringLiteral(
        "<div id=\"timeline-charts\"></div>\n"
        "<pre id=\"selftest\" hidden=\"hidden\"></pre>\n");
    html += QStringLiteral("<script type=\"application/json\" id=\"ratelab-data\">%1</script>\n")
                .arg(QString::fromUtf8(lessonPageData(lesson, frames)));
    html += QStringLiteral("<script>%1</script>\n</body>\n</html>\n").arg(scriptText);
    return html.toUtf8();
}

}  // namespace ratelab
