#include "report/html_report.h"

#include <QCoreApplication>
#include <algorithm>

#include "report/html_markup.h"
#include "report/html_tables.h"
#include "report/page_kit.h"
#include "report/report_data.h"
#include "report/report_figures.h"
#include "style/series_style.h"

namespace ratelab {
namespace {

using html::esc;

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::HtmlReport", text);
}

QString pageStyle(page_kit::Scheme scheme) {
    return page_kit::colourVariables(scheme) + QString::fromUtf8(report_page::kText_page_style);
}

QString script() {
    return page_kit::scriptOf({report_page::kText_page_common, report_page::kText_page_selftest,
                               report_page::kText_page_timeline, report_page::kText_page_in_flight,
                               report_page::kText_page_compare, report_page::kText_page_cumulative,
                               report_page::kText_page_main});
}

QString legendEntry(const QString& swatch, const char* label) {
    return page_kit::legendEntry(swatch, tr(label));
}

// The traffic groups' accepted lines, in the pens the timelines draw them with.
QString groupLegend(const RunSummary& s) {
    QString out;
    const QStringList groups = groupsWithSeries(s);
    for (int i = 0; i < groups.size(); ++i) {
        out += page_kit::legendEntry(
            QStringLiteral("<path class=\"grp grp%1\" d=\"M3,6H31\"/>").arg(i % style::kGroupPens),
            tr("group %1 accepted").arg(groups[i]), 34);
    }
    return out;
}

QString legend(const RunSummary& s) {
    const QString box =
        QStringLiteral("<rect class=\"%1\" x=\"1\" y=\"1\" width=\"20\" height=\"10\"/>");
    const auto inFlightLimit = [](const LimiterSummary& l) {
        return report_figures::inFlightLimit(l).has_value();
    };
    const bool inFlight = std::any_of(s.limiters.begin(), s.limiters.end(), inFlightLimit);
    const bool rateLimit = !std::all_of(s.limiters.begin(), s.limiters.end(), inFlightLimit);
    return QStringLiteral("<div class=\"legend\">") +
           legendEntry(box.arg(QStringLiteral("acc")), "accepted") +
           legendEntry(box.arg(QStringLiteral("rej")), "rejected") +
           legendEntry(box.arg(QStringLiteral("err")), "errors") +
           (rateLimit ? legendEntry(QStringLiteral("<path class=\"limit\" d=\"M1,6H21\"/>"),
                                    "limit (steady state)")
                      : QString()) +
           (inFlight ? page_kit::inFlightLegend() : QString()) +
           legendEntry(QStringLiteral("<path class=\"boundary\" d=\"M11,0V12\"/>"),
                       "calendar window start") +
           legendEntry(box.arg(QStringLiteral("burst")), "admitted burst (the busiest interval)") +
           groupLegend(s) + QStringLiteral("</div>\n");
}

QString button(const char* id, const char* label) {
    return QStringLiteral("<button type=\"button\" id=\"%1\">%2</button>")
        .arg(QLatin1String(id), esc(tr(label)));
}

QString timelinesSection(const RunSummary& s, const QByteArray& png) {
    QString out = QStringLiteral("<h2 id=\"timelines\">%1</h2>\n").arg(esc(tr("Timelines")));
    out += QStringLiteral("<p class=\"hint\">%1</p>\n")
               .arg(esc(tr("Per limiter its requests per step over the run, stacked: accepted, "
                           "rejected on them, errors on both. Hover for the figures of every "
                           "limiter at that time; drag across a timeline, or use the buttons, to "
                           "zoom and pan: every timeline follows.")));
    out += QStringLiteral("<div class=\"controls\" id=\"zoom-controls\" hidden=\"hidden\">") +
           button("zoom-in", "Zoom in") + button("zoom-out", "Zoom out") +
           button("pan-left", "\u25c0 Earlier") + button("pan-right", "Later \u25b6") +
           button("zoom-all", "Whole run") +
           QStringLiteral("<span id=\"view-range\" class=\"note\"></span></div>\n");
    if (!s.limiters.isEmpty()) {
        out += legend(s);
    }
    out += QStringLiteral("<div id=\"timeline-charts\"></div>\n");
    if (!png.isEmpty()) {
        out += QStringLiteral(
                   "<noscript><p><img alt=\"%1\" src=\"data:image/png;base64,%2\"/></p>"
                   "</noscript>\n")
                   .arg(esc(tr("accepted and rejected per time bucket")),
                        QString::fromLatin1(png.toBase64()));
    }
    return out;
}

QString comparisonSection(const RunSummary& s) {
    if (s.limiters.isEmpty()) {
        return QString();
    }
    return QStringLiteral("<h2 id=\"comparison\">%1</h2>\n<div id=\"comparison-charts\"></div>\n")
               .arg(esc(tr("Comparison"))) +
           html_tables::comparison(s) + html_tables::disagreements(s) +
           html_tables::referenceDisagreements(s);
}

// Links to the sections the page has.
QString contents(const QString& body) {
    const std::pair<const char*, const char*> sections[] = {{"expectations", "Expectations"},
                                                            {"timelines", "Timelines"},
                                                            {"comparison", "Comparison"},
                                                            {"limiters", "Limiters"},
                                                            {"bursts", "Admitted burst"},
                                                            {"groups", "Groups"},
                                                            {"clients", "Clients"}};
    QString links;
    for (const auto& [id, title] : sections) {
        if (body.contains(QStringLiteral("id=\"%1\"").arg(QLatin1String(id)))) {
            links +=
                QStringLiteral("<a href=\"#%1\">%2</a>").arg(QLatin1String(id), esc(tr(title)));
        }
    }
    return QStringLiteral("<nav>%1</nav>\n").arg(links);
}

}  // namespace

QByteArray reportHtml(const RunSummary& summary, const QByteArray& png, page_kit::Scheme scheme) {
    const QString title = esc(tr("ratelab report: %1").arg(summary.scenario));
    const QString styleText = pageStyle(scheme);
    const QString scriptText = script();
    QString body = html_tables::verdict(summary) + timelinesSection(summary, png) +
                   comparisonSection(summary) + html_tables::limiters(summary) +
                   html_tables::bursts(summary) + html_tables::groups(summary) +
                   html_tables::clients(summary);
    QString html = page_kit::pageHead(scheme, title, styleText, scriptText);
    html += page_kit::definitions();
    html += QStringLiteral("<h1>%1</h1>\n").arg(title);
    html += html_tables::facts(summary);
    html += contents(body);
    html += body;
    html += QStringLiteral(
        "<div id=\"tip\" class=\"tip\" hidden=\"hidden\"></div>\n"
        "<pre id=\"selftest\" hidden=\"hidden\"></pre>\n");
    html += QStringLiteral("<script type=\"application/json\" id=\"ratelab-data\">%1</script>\n")
                .arg(QString::fromUtf8(reportData(summary)));
    html += QStringLiteral("<script>%1</script>\n</body>\n</html>\n").arg(scriptText);
    return html.toUtf8();
}

}  // namespace ratelab
