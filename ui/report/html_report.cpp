#include "report/html_report.h"

#include <QCoreApplication>
#include <QDateTime>
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

// A figure as the page shows it: integers whole, others to 3 decimals (trailing zeros
// dropped), so the page shows the figures summary.json holds.
QString number(double v) {
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

QString number(qint64 v) {
    return QString::number(v);
}

// Fired, accepted, rejected and errors.
QStringList countCells(const OutcomeCounts& c) {
    return {number(c.fired), number(c.accepted), number(c.rejected), number(c.errors)};
}

QString yesNo(bool v) {
    return v ? tr("yes") : tr("no");
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

QString factsTable(const RunSummary& s) {
    QString out = QStringLiteral("<table>\n");
    const auto fact = [&](const char* label, const QString& value) {
        out +=
            QStringLiteral("<tr><th class=\"t\">%1</th><td>%2</td></tr>\n").arg(tr(label), value);
    };
    fact("Start (UTC)", QDateTime::fromMSecsSinceEpoch(s.startEpochMs, QTimeZone::utc())
                            .toString(Qt::ISODateWithMs));
    fact("Duration (s)", number(s.durationS));
    fact("Ran (s)", number(s.runS));
    fact("Requests", number(s.requests));
    fact("Target rate (/s)", number(s.targetRate));
    fact("Achieved rate (/s)", number(s.achievedRate));
    fact("Bucket (ms)", number(s.bucketMs));
    fact("Finished", yesNo(s.finished));
    return out + QStringLiteral("</table>\n");
}

QString verdictSection(const RunSummary& s) {
    QString out;
    // A Sentinel failover may let limits be exceeded (asynchronous replication): said first.
    for (const FailoverSummary& f : s.failovers) {
        QStringList around;
        for (const auto& [limiter, accepted] : f.acceptedAround) {
            around << QStringLiteral("%1 %2").arg(esc(limiter), number(accepted));
        }
        out += QStringLiteral("<p class=\"failed\">%1</p>\n")
                   .arg(tr("Sentinel failover at %1 ms: primary %2 → %3; accepted within %4 ms "
                           "either side: %5. Replication is asynchronous: the new primary may "
                           "not have the last grants and admit more than the limit.")
                            .arg(number(f.atMs), esc(f.from), esc(f.to), number(kFailoverSpanMs),
                                 around.join(QStringLiteral(", "))));
    }
    if (!s.verdict.isEmpty()) {
        // An incomplete run judges nothing: it reads as a failure, with why.
        const bool incomplete = s.verdict == output_format::verdict::kIncomplete;
        const QString cls =
            s.verdict == output_format::verdict::kFailed || incomplete ? QStringLiteral("failed")
            : s.verdict == output_format::verdict::kPassed             ? QStringLiteral("passed")
                                                                       : QString();
        out += QStringLiteral("<p>%1 <span class=\"%2\">%3</span>%4</p>\n")
                   .arg(tr("Verdict:"), cls, esc(s.verdict),
                        incomplete ? QStringLiteral(" (%1; %2)")
                                         .arg(esc(s.verdictReason),
                                              tr("the expectations below are not judged"))
                                   : QString());
    }
    if (s.expectations.isEmpty()) {
        return out;
    }
    out += QStringLiteral("<h2>%1</h2>\n<table>\n").arg(tr("Expectations"));
    out += row({tr("Limiter"), tr("Expectation"), tr("Measured"), tr("Result")}, true, 2);
    for (const ExpectationResult& e : s.expectations) {
        out += row({esc(e.limiter), esc(e.expectation.text()),
                    std::isnan(e.measured) ? tr("n/a") : number(e.measured),
                    e.held ? QStringLiteral("<span class=\"passed\">%1</span>").arg(tr("held"))
                           : QStringLiteral("<span class=\"failed\">%1</span>").arg(tr("FAILED"))},
                   false, 2);
    }
    return out + QStringLiteral("</table>\n");
}

QString limitersTable(const QVector<LimiterSummary>& limiters) {
    QString out = QStringLiteral("<h2>%1</h2>\n<table>\n").arg(tr("Limiters"));
    out += row({tr("Limiter"), tr("Type"), tr("Fired"), tr("Accepted"), tr("Rejected"),
                tr("Errors"), tr("Latency p50 (ms)"), tr("Latency p99 (ms)"), tr("Waited max (ms)"),
                tr("Fairness (Jain)")},
               true, 2);
    for (const LimiterSummary& l : limiters) {
        out += row(QStringList{esc(l.name), esc(l.type)} + countCells(l.counts) +
                       QStringList{number(l.latency.p50Ms), number(l.latency.p99Ms),
                                   number(l.waited.maxMs), number(l.fairness)},
                   false, 2);
    }
    return out + QStringLiteral("</table>\n");
}

// The most permits accepted in any interval of each window length, and where that was.
QString burstTable(const std::vector<BusiestInterval>& bursts) {
    QString out = QStringLiteral("<table>\n");
    out += row({tr("Window (ms)"), tr("Most accepted"), tr("From (ms)"), tr("First (ms)"),
                tr("Last (ms)")},
               true, 0);
    for (const BusiestInterval& b : bursts) {
        out += row({number(b.windowMs), number(b.permits), number(b.fromMs), number(b.firstMs),
                    number(b.lastMs)},
                   false, 0);
    }
    return out + QStringLiteral("</table>\n");
}

QString burstSection(const QVector<LimiterSummary>& limiters) {
    QString out;
    for (const LimiterSummary& l : limiters) {
        if (!l.admittedBurst.empty() || !l.admittedBurstRunClock.empty()) {
            out += QStringLiteral("<h3>%1</h3>\n").arg(esc(l.name));
        }
        if (!l.admittedBurst.empty()) {
            out += QStringLiteral("<h4>%1</h4>\n").arg(tr("On the limiter's time")) +
                   burstTable(l.admittedBurst);
        }
        if (!l.admittedBurstRunClock.empty()) {
            out += QStringLiteral("<h4>%1</h4>\n").arg(tr("On the run's clock")) +
                   burstTable(l.admittedBurstRunClock);
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

// The admitted-burst windows of the clients, ascending.
std::vector<qint64> burstWindows(const QVector<ClientSummary>& clients) {
    std::vector<qint64> windows;
    for (const ClientSummary& c : clients) {
        for (const BusiestInterval& b : c.admittedBurst) {
            windows.push_back(b.windowMs);
        }
    }
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

QString clientsSection(const QVector<LimiterSummary>& limiters) {
    QString out;
    for (const LimiterSummary& l : limiters) {
        if (l.clients.isEmpty()) {
            continue;
        }
        const std::vector<qint64> windows = burstWindows(l.clients);
        QStringList header{tr("Client"),   tr("Fired"),  tr("Accepted"),
                           tr("Rejected"), tr("Errors"), tr("Waited total (ms)")};
        for (const qint64 window : windows) {
            header << tr("Most accepted in %1 ms").arg(window);
        }
        out += QStringLiteral("<h3>%1</h3>\n<table>\n").arg(esc(l.name));
        out += row(header, true);
        for (const ClientSummary& c : l.clients) {
            QStringList cells = QStringList{esc(c.client)} + countCells(c.counts);
            cells << number(c.waitedMsTotal);
            for (const qint64 window : windows) {
                const auto burst =
                    std::find_if(c.admittedBurst.begin(), c.admittedBurst.end(),
                                 [&](const BusiestInterval& b) { return b.windowMs == window; });
                cells << (burst != c.admittedBurst.end() ? number(burst->permits) : QString());
            }
            out += row(cells);
        }
        out += QStringLiteral("</table>\n");
    }
    return out.isEmpty() ? out : QStringLiteral("<h2>%1</h2>\n").arg(tr("Clients")) + out;
}

QString disagreementsSection(const QVector<DisagreementSummary>& pairs) {
    if (pairs.isEmpty()) {
        return QString();
    }
    QString out = QStringLiteral("<h2>%1</h2>\n<table>\n").arg(tr("Disagreements"));
    out += row({tr("Limiters"), tr("Compared"), tr("Decided differently")}, true);
    for (const DisagreementSummary& p : pairs) {
        out += row(
            {esc(p.a) + QStringLiteral(" / ") + esc(p.b), number(p.compared), number(p.disagreed)});
    }
    return out + QStringLiteral("</table>\n");
}

}  // namespace

QByteArray reportHtml(const RunSummary& summary, const QByteArray& png) {
    const QString title = esc(tr("ratelab report: %1").arg(summary.scenario));
    QString html = QStringLiteral(
                       "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                       "<meta charset=\"utf-8\"/>\n<title>%1</title>\n"
                       "<style>%2</style>\n</head>\n<body>\n")
                       .arg(title, QLatin1String(kStyle));
    html += QStringLiteral("<h1>%1</h1>\n").arg(title);
    html += factsTable(summary);
    html += verdictSection(summary);
    if (!png.isEmpty()) {
        html += QStringLiteral(
                    "<h2>%1</h2>\n<p><img alt=\"%2\" src=\"data:image/png;base64,%3\"/>"
                    "</p>\n")
                    .arg(tr("Timeline"), esc(tr("accepted and rejected per time bucket")),
                         QString::fromLatin1(png.toBase64()));
    }
    html += limitersTable(summary.limiters);
    html += burstSection(summary.limiters);
    html += clientsSection(summary.limiters);
    html += disagreementsSection(summary.disagreements);
    html += QStringLiteral("</body>\n</html>\n");
    return html.toUtf8();
}

}  // namespace ratelab
