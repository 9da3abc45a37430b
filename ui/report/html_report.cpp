#include "report/html_report.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStringList>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace ratelab {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::HtmlReport", text);
}

// Text as XHTML character data or a double-quoted attribute value. Characters XML 1.0 does
// not allow (controls other than tab and newline) become U+FFFD.
QString esc(const QString& text) {
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        switch (c.unicode()) {
            case '&':
                out += QLatin1String("&amp;");
                break;
            case '<':
                out += QLatin1String("&lt;");
                break;
            case '>':
                out += QLatin1String("&gt;");
                break;
            case '"':
                out += QLatin1String("&quot;");
                break;
            case '\'':
                out += QLatin1String("&#39;");
                break;
            default:
                if ((c.unicode() < 0x20 && c != QLatin1Char('\t') && c != QLatin1Char('\n')) ||
                    c.unicode() == 0xfffe || c.unicode() == 0xffff) {
                    out += QChar(0xfffd);
                } else {
                    out += c;
                }
        }
    }
    return out;
}

// A summary number as the page shows it: integers whole, others to 3 decimals (trailing zeros
// dropped), so the page shows the figures summary.json holds.
QString number(const QJsonValue& value) {
    if (value.isBool()) {
        return value.toBool() ? tr("yes") : tr("no");
    }
    if (!value.isDouble()) {
        return esc(value.toString());
    }
    const double v = value.toDouble();
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15) {
        return QString::number(static_cast<qint64>(v));
    }
    QString text = QString::number(v, 'f', 3);
    while (text.endsWith(QLatin1Char('0'))) {
        text.chop(1);
    }
    if (text.endsWith(QLatin1Char('.'))) {
        text.chop(1);
    }
    return text;
}

const char* const kStyle =
    "body{font-family:sans-serif;color:#000;background:#fff;margin:1.5em;max-width:80em}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #777;padding:.2em .5em;text-align:right}"
    "th{background:#e8e8e8}td.t,th.t{text-align:left}"
    ".failed{font-weight:bold;color:#a00000}.passed{font-weight:bold;color:#005a00}"
    "img{max-width:100%;border:1px solid #777}"
    "@media print{body{margin:0}h2{page-break-after:avoid}table{page-break-inside:avoid}}";

// A table row; `cells` are already escaped/formatted; the first `textColumns` align left.
QString row(const QStringList& cells, bool header = false, int textColumns = 1) {
    QString out = QStringLiteral("<tr>");
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    for (int i = 0; i < cells.size(); ++i) {
        out +=
            QStringLiteral("<%1%2>%3</%1>")
                .arg(tag, i < textColumns ? QStringLiteral(" class=\"t\"") : QString(), cells[i]);
    }
    return out + QStringLiteral("</tr>\n");
}

QString factsTable(const QJsonObject& s) {
    QString out = QStringLiteral("<table>\n");
    const auto fact = [&](const QString& label, const QString& value) {
        out += QStringLiteral("<tr><th class=\"t\">%1</th><td>%2</td></tr>\n").arg(label, value);
    };
    if (s.contains(QLatin1String("start_epoch_ms"))) {
        const auto ms = static_cast<qint64>(s.value(QLatin1String("start_epoch_ms")).toDouble());
        fact(tr("Start (UTC)"),
             QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(Qt::ISODateWithMs));
    }
    const std::pair<const char*, const char*> facts[] = {{"duration_s", "Duration (s)"},
                                                         {"run_s", "Ran (s)"},
                                                         {"requests", "Requests"},
                                                         {"target_rate", "Target rate (/s)"},
                                                         {"achieved_rate", "Achieved rate (/s)"},
                                                         {"bucket_ms", "Bucket (ms)"},
                                                         {"finished", "Finished"}};
    for (const auto& [key, label] : facts) {
        if (s.contains(QLatin1String(key))) {
            fact(tr(label), number(s.value(QLatin1String(key))));
        }
    }
    return out + QStringLiteral("</table>\n");
}

QString verdictSection(const QJsonObject& s) {
    QString out;
    const QString verdict = s.value(QLatin1String("verdict")).toString();
    if (!verdict.isEmpty()) {
        const QString cls = verdict == QLatin1String("failed")   ? QStringLiteral("failed")
                            : verdict == QLatin1String("passed") ? QStringLiteral("passed")
                                                                 : QString();
        out += QStringLiteral("<p>%1 <span class=\"%2\">%3</span></p>\n")
                   .arg(tr("Verdict:"), cls, esc(verdict));
    }
    const QJsonArray expectations = s.value(QLatin1String("expectations")).toArray();
    if (expectations.isEmpty()) {
        return out;
    }
    out += QStringLiteral("<h2>%1</h2>\n<table>\n").arg(tr("Expectations"));
    out += row({tr("Limiter"), tr("Expectation"), tr("Measured"), tr("Result")}, true, 2);
    for (const QJsonValue& v : expectations) {
        const QJsonObject e = v.toObject();
        const bool held = e.value(QLatin1String("held")).toBool();
        out += row({esc(e.value(QLatin1String("limiter")).toString()),
                    esc(e.value(QLatin1String("expression")).toString()),
                    number(e.value(QLatin1String("measured"))),
                    held ? QStringLiteral("<span class=\"passed\">%1</span>").arg(tr("held"))
                         : QStringLiteral("<span class=\"failed\">%1</span>").arg(tr("FAILED"))},
                   false, 2);
    }
    return out + QStringLiteral("</table>\n");
}

QString limitersTable(const QJsonArray& limiters) {
    QString out = QStringLiteral("<h2>%1</h2>\n<table>\n").arg(tr("Limiters"));
    out += row({tr("Limiter"), tr("Type"), tr("Fired"), tr("Accepted"), tr("Rejected"),
                tr("Errors"), tr("Latency p50 (ms)"), tr("Latency p99 (ms)"), tr("Waited max (ms)"),
                tr("Fairness (Jain)")},
               true, 2);
    for (const QJsonValue& v : limiters) {
        const QJsonObject l = v.toObject();
        const QJsonObject latency = l.value(QLatin1String("latency")).toObject();
        const QJsonObject waited = l.value(QLatin1String("waited")).toObject();
        out += row(
            {esc(l.value(QLatin1String("name")).toString()),
             esc(l.value(QLatin1String("type")).toString()),
             number(l.value(QLatin1String("fired"))), number(l.value(QLatin1String("accepted"))),
             number(l.value(QLatin1String("rejected"))), number(l.value(QLatin1String("errors"))),
             number(latency.value(QLatin1String("p50_ms"))),
             number(latency.value(QLatin1String("p99_ms"))),
             number(waited.value(QLatin1String("max_ms"))),
             number(l.value(QLatin1String("fairness_jain")))},
            false, 2);
    }
    return out + QStringLiteral("</table>\n");
}

// The most permits accepted in any interval of each window length, and where that was.
QString burstTable(const QJsonArray& bursts) {
    QString out = QStringLiteral("<table>\n");
    out += row({tr("Window (ms)"), tr("Most accepted"), tr("From (ms)"), tr("First (ms)"),
                tr("Last (ms)")},
               true, 0);
    for (const QJsonValue& v : bursts) {
        const QJsonObject b = v.toObject();
        out += row(
            {number(b.value(QLatin1String("window_ms"))),
             number(b.value(QLatin1String("accepted"))), number(b.value(QLatin1String("from_ms"))),
             number(b.value(QLatin1String("first_ms"))), number(b.value(QLatin1String("last_ms")))},
            false, 0);
    }
    return out + QStringLiteral("</table>\n");
}

QString burstSection(const QJsonArray& limiters) {
    QString out;
    for (const QJsonValue& v : limiters) {
        const QJsonObject l = v.toObject();
        const QJsonArray bursts = l.value(QLatin1String("admitted_burst")).toArray();
        const QJsonArray runClock = l.value(QLatin1String("admitted_burst_run_clock")).toArray();
        if (!bursts.isEmpty() || !runClock.isEmpty()) {
            out +=
                QStringLiteral("<h3>%1</h3>\n").arg(esc(l.value(QLatin1String("name")).toString()));
        }
        if (!bursts.isEmpty()) {
            out += QStringLiteral("<h4>%1</h4>\n").arg(tr("On the limiter's time")) +
                   burstTable(bursts);
        }
        if (!runClock.isEmpty()) {
            out += QStringLiteral("<h4>%1</h4>\n").arg(tr("On the run's clock")) +
                   burstTable(runClock);
        }
    }
    if (out.isEmpty()) {
        return out;
    }
    return QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n")
               .arg(tr("Admitted burst"),
                    tr("The most permits accepted in any interval of each length; times in ms "
                       "since the run's start. On the limiter's time, grants count at the time "
                       "the limiter decided at: what it enforces, so a correct limiter never "
                       "exceeds its limit there. On the run's clock, they count when the run "
                       "sent them: what skewed clocks break and a backend behind the limiter "
                       "sees.")) +
           out;
}

// "max_accepted_in_any_<N>ms" keys of the clients, ordered by N.
QStringList burstKeys(const QJsonArray& clients) {
    QStringList keys;
    for (const QJsonValue& v : clients) {
        for (const QString& key : v.toObject().keys()) {
            if (key.startsWith(QLatin1String("max_accepted_in_any_")) && !keys.contains(key)) {
                keys << key;
            }
        }
    }
    const auto windowOf = [](const QString& key) {
        return key.mid(int(qstrlen("max_accepted_in_any_"))).chopped(2).toLongLong();
    };
    std::sort(keys.begin(), keys.end(),
              [&](const QString& a, const QString& b) { return windowOf(a) < windowOf(b); });
    return keys;
}

QString clientsSection(const QJsonArray& limiters) {
    QString out;
    for (const QJsonValue& v : limiters) {
        const QJsonObject l = v.toObject();
        const QJsonArray clients = l.value(QLatin1String("clients")).toArray();
        if (clients.isEmpty()) {
            continue;
        }
        const QStringList bursts = burstKeys(clients);
        QStringList header{tr("Client"),   tr("Fired"),  tr("Accepted"),
                           tr("Rejected"), tr("Errors"), tr("Waited total (ms)")};
        for (const QString& key : bursts) {
            header << tr("Most accepted in %1 ms")
                          .arg(key.mid(int(qstrlen("max_accepted_in_any_"))).chopped(2));
        }
        out += QStringLiteral("<h3>%1</h3>\n<table>\n")
                   .arg(esc(l.value(QLatin1String("name")).toString()));
        out += row(header, true);
        for (const QJsonValue& cv : clients) {
            const QJsonObject c = cv.toObject();
            QStringList cells{esc(c.value(QLatin1String("client")).toString()),
                              number(c.value(QLatin1String("fired"))),
                              number(c.value(QLatin1String("accepted"))),
                              number(c.value(QLatin1String("rejected"))),
                              number(c.value(QLatin1String("errors"))),
                              number(c.value(QLatin1String("waited_ms_total")))};
            for (const QString& key : bursts) {
                cells << (c.contains(key) ? number(c.value(key)) : QString());
            }
            out += row(cells);
        }
        out += QStringLiteral("</table>\n");
    }
    return out.isEmpty() ? out : QStringLiteral("<h2>%1</h2>\n").arg(tr("Clients")) + out;
}

QString disagreementsSection(const QJsonArray& pairs) {
    if (pairs.isEmpty()) {
        return QString();
    }
    QString out = QStringLiteral("<h2>%1</h2>\n<table>\n").arg(tr("Disagreements"));
    out += row({tr("Limiters"), tr("Compared"), tr("Decided differently")}, true);
    for (const QJsonValue& v : pairs) {
        const QJsonObject p = v.toObject();
        const QJsonArray names = p.value(QLatin1String("limiters")).toArray();
        out +=
            row({esc(names.at(0).toString()) + QStringLiteral(" / ") + esc(names.at(1).toString()),
                 number(p.value(QLatin1String("compared"))),
                 number(p.value(QLatin1String("disagreed")))});
    }
    return out + QStringLiteral("</table>\n");
}

}  // namespace

QByteArray reportHtml(const QJsonObject& summary, const QByteArray& png) {
    const QString scenario = summary.value(QLatin1String("scenario")).toString();
    const QJsonArray limiters = summary.value(QLatin1String("limiters")).toArray();
    QString html = QStringLiteral(
                       "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                       "<meta charset=\"utf-8\"/>\n<title>%1</title>\n"
                       "<style>%2</style>\n</head>\n<body>\n")
                       .arg(esc(tr("ratelab report: %1").arg(scenario)), QLatin1String(kStyle));
    html += QStringLiteral("<h1>%1</h1>\n").arg(esc(tr("ratelab report: %1").arg(scenario)));
    html += factsTable(summary);
    html += verdictSection(summary);
    if (!png.isEmpty()) {
        html += QStringLiteral(
                    "<h2>%1</h2>\n<p><img alt=\"%2\" src=\"data:image/png;base64,%3\"/>"
                    "</p>\n")
                    .arg(tr("Timeline"), esc(tr("accepted and rejected per time bucket")),
                         QString::fromLatin1(png.toBase64()));
    }
    html += limitersTable(limiters);
    html += burstSection(limiters);
    html += clientsSection(limiters);
    html += disagreementsSection(summary.value(QLatin1String("disagreements")).toArray());
    html += QStringLiteral("</body>\n</html>\n");
    return html.toUtf8();
}

bool writeReportHtml(const QString& outDir, QString* error) {
    const QDir dir(outDir);
    QFile summaryFile(dir.filePath(QStringLiteral("summary.json")));
    if (!summaryFile.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(summaryFile.fileName(), summaryFile.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument summary = QJsonDocument::fromJson(summaryFile.readAll(), &parseError);
    if (!summary.isObject()) {
        *error =
            tr("%1 is not a JSON object: %2").arg(summaryFile.fileName(), parseError.errorString());
        return false;
    }
    QByteArray png;
    QFile pngFile(dir.filePath(QStringLiteral("report.png")));
    if (pngFile.exists()) {
        if (!pngFile.open(QIODevice::ReadOnly)) {
            *error = tr("cannot read %1: %2").arg(pngFile.fileName(), pngFile.errorString());
            return false;
        }
        png = pngFile.readAll();
    }
    QSaveFile out(dir.filePath(QStringLiteral("report.html")));
    if (!out.open(QIODevice::WriteOnly) || out.write(reportHtml(summary.object(), png)) < 0 ||
        !out.commit()) {
        *error = tr("cannot write %1: %2").arg(out.fileName(), out.errorString());
        return false;
    }
    return true;
}

}  // namespace ratelab
