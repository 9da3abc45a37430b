#include "report/html_tables.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

#include "limiters/script_spec.h"
#include "report/html_markup.h"
#include "report/report_figures.h"

namespace ratelab::html_tables {
namespace {

using html::esc;
using html::number;
using html::row;

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::HtmlReport", text);
}

// Fired, accepted, rejected and errors.
QStringList countCells(const OutcomeTotals& c) {
    return {number(c.fired), number(c.accepted), number(c.rejected), number(c.errors)};
}
QStringList countHeaders() {
    return {tr("Fired"), tr("Accepted"), tr("Rejected"), tr("Errors")};
}

// "63.2 %" of the fired requests accepted; empty when none was fired.
QString acceptedShare(const OutcomeTotals& c) {
    return c.fired > 0 ? tr("%1 %").arg(
                             QString::number(100.0 * double(c.accepted) / double(c.fired), 'f', 1))
                       : QString();
}

QString yesNo(bool v) {
    return v ? tr("yes") : tr("no");
}

// A section: its heading (with an id the page's contents link to) and its body.
QString section(const char* id, const QString& title, const QString& body) {
    return QStringLiteral("<h2 id=\"%1\">%2</h2>\n").arg(QLatin1String(id), esc(title)) + body;
}

QString table(const QString& rows) {
    return QStringLiteral("<table>\n") + rows + QStringLiteral("</table>\n");
}

// The most permits accepted in any interval of each window length, and where that was.
QString burstTable(const std::vector<BusiestInterval>& bursts) {
    QString rows = row({tr("Window (ms)"), tr("Most accepted"), tr("From (ms)"), tr("First (ms)"),
                        tr("Last (ms)")},
                       true, 0);
    for (const BusiestInterval& b : bursts) {
        rows += row({number(b.windowMs), number(b.permits), number(b.fromMs), number(b.firstMs),
                     number(b.lastMs)},
                    false, 0);
    }
    return table(rows);
}

// The admitted-burst windows of the clients or groups, ascending.
template <typename Summary>
std::vector<qint64> burstWindows(const QVector<Summary>& rows) {
    std::vector<qint64> windows;
    for (const Summary& r : rows) {
        for (const BusiestInterval& b : r.admittedBurst) {
            windows.push_back(b.windowMs);
        }
    }
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

// The most accepted in each window, a cell each (empty where the row has no such window).
QStringList burstCells(const std::vector<BusiestInterval>& bursts,
                       const std::vector<qint64>& windows) {
    QStringList cells;
    for (const qint64 window : windows) {
        const auto burst =
            std::find_if(bursts.begin(), bursts.end(),
                         [&](const BusiestInterval& b) { return b.windowMs == window; });
        cells << (burst != bursts.end() ? number(burst->permits) : QString());
    }
    return cells;
}

// A table of named counts (clients, groups): the name, fired, accepted, rejected, errors, the
// accepted share, then `extraHeaders` and each row's extra cells.
struct CountsRow {
    QString name;
    OutcomeTotals counts;
    QStringList extra;  // already escaped/formatted
};
QString countsTable(const QString& nameHeader, const QStringList& extraHeaders,
                    const QVector<CountsRow>& rows) {
    QString out =
        row(QStringList{nameHeader} + countHeaders() + QStringList{tr("Accepted %")} + extraHeaders,
            true);
    for (const CountsRow& r : rows) {
        out += row(QStringList{esc(r.name)} + countCells(r.counts) +
                   QStringList{acceptedShare(r.counts)} + r.extra);
    }
    return table(out);
}

}  // namespace

QString facts(const RunSummary& s) {
    QString out;
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
    fact("Clock", s.virtualClock ? tr("virtual") : tr("real"));
    fact("Finished", yesNo(s.finished));
    return QStringLiteral("<table class=\"facts\">\n") + out + QStringLiteral("</table>\n");
}

QString verdict(const RunSummary& s) {
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
                                                                       : QStringLiteral("none");
        out += QStringLiteral("<p class=\"verdict\">%1 <span class=\"%2\">%3</span>%4</p>\n")
                   .arg(tr("Verdict:"), cls, esc(s.verdict),
                        incomplete ? QStringLiteral(" (%1; %2)")
                                         .arg(esc(s.verdictReason),
                                              tr("the expectations below are not judged"))
                                   : QString());
    }
    if (s.expectations.isEmpty()) {
        return out;
    }
    QString rows = row({tr("Limiter"), tr("Expectation"), tr("Measured"), tr("Result")}, true, 2);
    for (const ExpectationResult& e : s.expectations) {
        rows += row({esc(e.limiter), esc(e.expectation.text()),
                     std::isnan(e.measured) ? tr("n/a") : number(e.measured),
                     e.held ? QStringLiteral("<span class=\"passed\">%1</span>").arg(tr("held"))
                            : QStringLiteral("<span class=\"failed\">%1</span>").arg(tr("FAILED"))},
                    false, 2);
    }
    return out + section("expectations", tr("Expectations"), table(rows));
}

QString limiters(const RunSummary& s) {
    QString rows =
        row(QStringList{tr("Limiter"), tr("Type"), tr("Configuration")} + countHeaders() +
                QStringList{tr("Latency p50 (ms)"), tr("Latency p99 (ms)"), tr("Waited max (ms)"),
                            tr("Fairness (Jain)")},
            true, 3);
    for (const LimiterSummary& l : s.limiters) {
        rows += row(QStringList{esc(l.name), esc(l.type), esc(report_figures::configText(l))} +
                        countCells(l.counts) +
                        QStringList{number(l.latency.p50Ms), number(l.latency.p99Ms),
                                    number(l.waited.maxMs), number(l.fairness)},
                    false, 3);
    }
    return section("limiters", tr("Limiters"), table(rows));
}

QString comparison(const RunSummary& s) {
    // The burst's columns only when some limiter has one.
    const bool anyBurst = std::any_of(
        s.limiters.begin(), s.limiters.end(),
        [](const LimiterSummary& l) { return report_figures::markedBurst(l).has_value(); });
    QStringList header{tr("Limiter"), tr("Accepted %")};
    if (anyBurst) {
        header << tr("Admitted burst") << tr("In (ms)") << tr("Its limit admits there");
    }
    QString rows = row(header, true);
    for (const LimiterSummary& l : s.limiters) {
        QStringList cells{esc(l.name), acceptedShare(l.counts)};
        const std::optional<BusiestInterval> burst = report_figures::markedBurst(l);
        const std::optional<double> limit =
            burst ? report_figures::limitIn(l, burst->windowMs) : std::nullopt;
        const std::optional<qint64> inFlight = report_figures::inFlightLimit(l);
        if (anyBurst) {
            cells << (burst ? number(burst->permits) : QString())
                  << (burst ? number(burst->windowMs) : QString())
                  << (limit      ? number(*limit)
                      : inFlight ? esc(tr("%1 in flight at once").arg(*inFlight))
                                 : QString());
        }
        rows += row(cells);
    }
    return table(rows);
}

QString disagreements(const RunSummary& s) {
    if (s.disagreements.isEmpty()) {
        return QString();
    }
    QString rows = row({tr("Limiters"), tr("Compared"), tr("Decided differently"), tr("%")}, true);
    for (const DisagreementSummary& p : s.disagreements) {
        rows += row({esc(p.a) + QStringLiteral(" / ") + esc(p.b), number(p.compared),
                     number(p.disagreed),
                     p.compared > 0
                         ? QString::number(100.0 * double(p.disagreed) / double(p.compared), 'f', 1)
                         : QString()});
    }
    return html::heading(3, tr("Disagreements")) +
           QStringLiteral("<p>%1</p>\n")
               .arg(esc(tr("Requests both limiters decided, and those one accepted and the other "
                           "rejected."))) +
           table(rows);
}

QString referenceDisagreements(const RunSummary& s) {
    QString rows;
    for (const LimiterSummary& l : s.limiters) {
        if (!l.hasReference) {
            continue;
        }
        const std::optional<LimiterSpec> reference =
            l.spec ? referenceSpecOf(*l.spec) : std::nullopt;
        const ReferenceCounts& r = l.counts.reference;
        rows += row({esc(l.name), reference ? esc(limiterTypeName(reference->type)) : QString(),
                     number(r.compared), number(r.disagreed),
                     r.compared > 0
                         ? QString::number(100.0 * double(r.disagreed) / double(r.compared), 'f', 2)
                         : QString()});
    }
    if (rows.isEmpty()) {
        return QString();
    }
    return html::heading(3, tr("Against the reference")) +
           QStringLiteral("<p>%1</p>\n")
               .arg(esc(tr("Each script limiter's decisions, every one also decided by the "
                           "built-in limiter it names as its reference: "
                           "disagreements_with_reference counts those the two decided "
                           "differently."))) +
           table(row({tr("Script limiter"), tr("Reference"), tr("Compared"),
                      tr("Decided differently"), tr("%")},
                     true) +
                 rows);
}

QString bursts(const RunSummary& s) {
    QString out;
    for (const LimiterSummary& l : s.limiters) {
        if (!l.admittedBurst.empty() || !l.admittedBurstRunClock.empty()) {
            out += html::heading(3, l.name);
        }
        if (!l.admittedBurst.empty()) {
            out += html::heading(4, tr("On the limiter's time")) + burstTable(l.admittedBurst);
        }
        if (!l.admittedBurstRunClock.empty()) {
            out += html::heading(4, tr("On the run's clock")) + burstTable(l.admittedBurstRunClock);
        }
    }
    if (out.isEmpty()) {
        return out;
    }
    return section("bursts", tr("Admitted burst"),
                   QStringLiteral("<p>%1</p>\n")
                           .arg(tr("The most permits accepted in any interval of each length; "
                                   "times in ms since the run's start. On the limiter's time, "
                                   "grants count at the time the limiter decided at: what it "
                                   "enforces, so a correct limiter never exceeds its limit there. "
                                   "On the run's clock, they count when the run sent them: what "
                                   "skewed clocks break and a backend behind the limiter sees.")) +
                       out);
}

QString groups(const RunSummary& s) {
    QString out;
    for (const LimiterSummary& l : s.limiters) {
        if (l.groups.isEmpty()) {
            continue;
        }
        const std::vector<qint64> windows = burstWindows(l.groups);
        QStringList headers{tr("Clients"), tr("Rejected %"), tr("Fairness (Jain)")};
        for (const qint64 window : windows) {
            headers << tr("Most accepted in %1 ms").arg(window);
        }
        for (const qint64 window : windows) {
            headers << tr("Most in %1 ms, run's clock").arg(window);
        }
        QVector<CountsRow> rows;
        for (const GroupSummary& g : l.groups) {
            const double rejectedPct =
                g.counts.fired > 0 ? 100.0 * double(g.counts.rejected) / double(g.counts.fired)
                                   : 0.0;
            rows << CountsRow{
                g.group, g.counts,
                QStringList{number(g.clients), number(rejectedPct), number(g.fairness)} +
                    burstCells(g.admittedBurst, windows) +
                    burstCells(g.admittedBurstRunClock, windows)};
        }
        out += html::heading(3, l.name) + countsTable(tr("Group"), headers, rows);
    }
    return out.isEmpty() ? out : section("groups", tr("Groups"), out);
}

QString clients(const RunSummary& s) {
    QString out;
    for (const LimiterSummary& l : s.limiters) {
        if (l.clients.isEmpty()) {
            continue;
        }
        const std::vector<qint64> windows = burstWindows(l.clients);
        const bool grouped = !l.groups.isEmpty();
        QStringList headers;
        if (grouped) {
            headers << tr("Group");
        }
        headers << tr("Waited total (ms)");
        for (const qint64 window : windows) {
            headers << tr("Most accepted in %1 ms").arg(window);
        }
        QVector<CountsRow> rows;
        for (const ClientSummary& c : l.clients) {
            CountsRow r{c.client, c.counts, {}};
            if (grouped) {
                r.extra << esc(c.group);
            }
            r.extra << number(c.counts.waitedMsTotal) << burstCells(c.admittedBurst, windows);
            rows << r;
        }
        if (l.otherClients.clients > 0) {  // past the listed ones: their counts added up
            rows << CountsRow{tr("%1 other clients").arg(l.otherClients.clients),
                              l.otherClients.counts,
                              QStringList{number(l.otherClients.counts.waitedMsTotal)} +
                                  QStringList(int(windows.size()), QString())};
        }
        out += html::heading(3, l.name) + countsTable(tr("Client"), headers, rows);
    }
    return out.isEmpty() ? out : section("clients", tr("Clients"), out);
}

}  // namespace ratelab::html_tables
