#include "compare_command.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "command_line.h"
#include "input_error.h"
#include "input_limits.h"
#include "json_input.h"
#include "output/output_folder.h"
#include "stats/expectation.h"

namespace ratelab::cli {
namespace {

// Real-clock runs (and latencies of a virtual clock that paces in real time) never repeat
// exactly: differences up to this many percent are noise by default.
constexpr double kRealClockTolerancePct = 5;

// One figure of a run: limiter, client (empty: the limiter's own), metric, value.
struct Figure {
    QString limiter;
    QString client;
    QString metric;
    double value = 0;
};

constexpr qint64 kMaxSummaryBytes = output_limits::kMaxCompareSummaryBytes;

struct Summary {
    QString path;  // the summary.json read
    QString scenario;
    bool finished = false;
    bool virtualClock = false;
    bool roundTripPerLimiter = false;  // its latencies: each limiter's own round trip
    QStringList limiters;
    // The limiters of global scope: which client (and group) their grants go to depends on when
    // each request reaches Redis. A summary without a limiter's spec leaves it out.
    QStringList globalLimiters;
    std::vector<Figure> figures;
    QHash<QString, std::size_t> index;  // figureKey -> position in figures
};

QString figureKey(const Figure& f) {
    return f.limiter + QChar(0) + f.client + QChar(0) + f.metric;
}

bool isTiming(const QString& metric) {
    return metric == QLatin1String("p50_ms") || metric == QLatin1String("p99_ms");
}

// A client's or a group's share of a limiter's figures (its own totals are not).
bool isSplit(const Figure& f) {
    return !f.client.isEmpty() || f.metric.startsWith(QLatin1String("group."));
}

QString clockName(const Summary& s) {
    return s.virtualClock ? output_format::kVirtualClock : output_format::kRealClock;
}

// The counts of a limiter or a client.
void addCounts(const OutcomeTotals& t, const QString& limiter, const QString& client,
               std::vector<Figure>& out) {
    out.push_back({limiter, client, QStringLiteral("fired"), double(t.fired)});
    out.push_back({limiter, client, QStringLiteral("accepted"), double(t.accepted)});
    out.push_back({limiter, client, QStringLiteral("rejected"), double(t.rejected)});
    out.push_back({limiter, client, QStringLiteral("errors"), double(t.errors)});
}

// A script limiter's decisions its reference made otherwise.
void addReference(const ReferenceCounts& r, const QString& limiter, const QString& client,
                  std::vector<Figure>& out) {
    out.push_back(
        {limiter, client, QStringLiteral("disagreements_with_reference"), double(r.disagreed)});
}

void addBursts(const std::vector<BusiestInterval>& bursts, BurstClock clock, const QString& limiter,
               const QString& client, std::vector<Figure>& out) {
    for (const BusiestInterval& b : bursts) {
        out.push_back({limiter, client, burstMetricName(b.windowMs, clock), double(b.permits)});
    }
}

// The metric set of expectations, read back from summary.json; per client and per traffic group
// its counts and admitted burst.
void addLimiter(const LimiterSummary& l, std::vector<Figure>& out) {
    addCounts(l.counts, l.name, QString(), out);
    const OutcomeTotals& c = l.counts;
    out.push_back({l.name, QString(), QStringLiteral("accepted_ratio"),
                   c.fired > 0 ? double(c.accepted) / double(c.fired) : 0});
    out.push_back({l.name, QString(), QStringLiteral("p50_ms"), l.latency.p50Ms});
    out.push_back({l.name, QString(), QStringLiteral("p99_ms"), l.latency.p99Ms});
    out.push_back({l.name, QString(), QStringLiteral("max_wait_ms"), l.waited.maxMs});
    if (l.hasReference) {
        addReference(l.counts.reference, l.name, QString(), out);
    }
    for (const BurstClock clock : {BurstClock::Limiter, BurstClock::Run}) {
        addBursts(l.admittedBurstOn(clock), clock, l.name, QString(), out);
    }
    for (const ClientSummary& client : l.clients) {
        addCounts(client.counts, l.name, client.client, out);
        if (l.hasReference) {
            addReference(client.counts.reference, l.name, client.client, out);
        }
        addBursts(client.admittedBurst, BurstClock::Limiter, l.name, client.client, out);
    }
    // Per traffic group under its expectation names: group.users.accepted.
    for (const GroupSummary& group : l.groups) {
        std::vector<Figure> own;
        addCounts(group.counts, l.name, QString(), own);
        if (l.hasReference) {
            addReference(group.counts.reference, l.name, QString(), own);
        }
        for (const BurstClock clock : {BurstClock::Limiter, BurstClock::Run}) {
            addBursts(group.admittedBurstOn(clock), clock, l.name, QString(), own);
        }
        for (Figure& f : own) {
            f.metric = groupMetricName(group.group, f.metric);
            out.push_back(std::move(f));
        }
    }
}

Summary loadSummary(const QString& dir) {
    const QString path = QDir(dir).filePath(output_format::kSummaryFile);
    const qint64 bytes = QFileInfo(path).size();
    if (bytes > kMaxSummaryBytes) {
        throw InputError(path, QStringLiteral("%1 bytes, more than compare reads (%2 MiB)")
                                   .arg(bytes)
                                   .arg(kMaxSummaryBytes >> 20));
    }
    const RunSummary run = readOutputFolder(dir, OutputParts::Summary);
    Summary s;
    s.path = path;
    s.scenario = run.scenario;
    s.finished = run.finished;
    s.virtualClock = run.virtualClock;
    s.roundTripPerLimiter = run.roundTripPerLimiter;
    for (const LimiterSummary& l : run.limiters) {
        s.limiters << l.name;
        if (l.spec && l.spec->scope == Scope::Global) {
            s.globalLimiters << l.name;
        }
        addLimiter(l, s.figures);
    }
    for (std::size_t i = 0; i < s.figures.size(); ++i) {
        s.index.insert(figureKey(s.figures[i]), i);
    }
    return s;
}

const Figure* find(const Summary& s, const Figure& f) {
    const auto it = s.index.constFind(figureKey(f));
    return it == s.index.constEnd() ? nullptr : &s.figures[*it];
}

QString fmt(double v) {
    return json_input::formatNumber(std::round(v * 1e6) / 1e6);
}

QString percent(double base, double now) {
    if (base == 0) {
        return now == 0 ? QStringLiteral("0 %") : QStringLiteral("new");
    }
    return QString::number((now - base) / std::fabs(base) * 100, 'f', 2) + QStringLiteral(" %");
}

bool exceeds(double base, double now, double tolerancePct) {
    if (base == now) {
        return false;
    }
    if (base == 0) {
        return true;
    }
    // A relative epsilon: 0.33 against 0.3 is 10 % though its double is 10.0000000000001 %.
    return std::fabs(now - base) / std::fabs(base) * 100 > tolerancePct * (1 + 1e-9) + 1e-12;
}

// What makes two runs' figures unfit to compare, each a reason: a run that did not finish
// (its counts cover part of the schedule), runs of different scenarios, a limiter name twice in
// one run (its figures would be matched with the wrong limiter's). Empty when none.
// "shared" or "per_limiter": how a run timed its limiters' replies.
QString roundTripsOf(const Summary& s) {
    return s.roundTripPerLimiter ? output_format::kPerLimiterRoundTrips
                                 : output_format::kSharedRoundTrips;
}

// Latencies checked (`latencies`) between runs that timed them differently measure two things.
QStringList notComparable(const Summary& base, const Summary& now, bool latencies) {
    QStringList reasons;
    if (latencies && base.roundTripPerLimiter != now.roundTripPerLimiter) {
        reasons << QStringLiteral(
                       "$.round_trips: %1 in base, %2 in new: their latencies time "
                       "different round trips")
                       .arg(roundTripsOf(base), roundTripsOf(now));
    }
    for (const Summary* s : {&base, &now}) {
        if (!s->finished) {
            reasons << QStringLiteral(
                           "%1: $.finished: false: the run did not finish, its figures "
                           "cover part of it")
                           .arg(s->path);
        }
        for (qsizetype i = 0; i < s->limiters.size(); ++i) {
            if (s->limiters.indexOf(s->limiters[i]) < i) {
                reasons << QStringLiteral("%1: limiter %2 appears twice")
                               .arg(s->path, json_input::quoted(s->limiters[i]));
            }
        }
    }
    if (base.scenario != now.scenario) {
        reasons << QStringLiteral("different scenarios: %1 in base, %2 in new")
                       .arg(json_input::quoted(base.scenario), json_input::quoted(now.scenario));
    }
    return reasons;
}

}  // namespace

int compareCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("base"),
                                 QStringLiteral("The baseline run's folder."));
    parser.addPositionalArgument(QStringLiteral("new"), QStringLiteral("The new run's folder."));
    parser.addOptions({{QStringLiteral("tolerance"),
                        QStringLiteral("Largest difference of a count or burst that passes, in "
                                       "percent (default 0 for virtual-clock runs, 5 otherwise)."),
                        QStringLiteral("PCT")},
                       {QStringLiteral("latency-tolerance"),
                        QStringLiteral("Also check latencies (p50_ms, p99_ms), with this "
                                       "tolerance in percent; by default they are shown only."),
                        QStringLiteral("PCT")},
                       {QStringLiteral("force"),
                        QStringLiteral("Compare also a run that did not finish, runs of "
                                       "different scenarios or with a limiter name twice.")}});
    if (!parseArguments(parser, args, {}, 2)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const auto percentOption = [&](const QString& name) {
            bool ok = false;
            const double pct = QLocale::c().toDouble(parser.value(name), &ok);
            if (!ok || !std::isfinite(pct) || pct < 0) {
                throw InputError(QStringLiteral("--") + name,
                                 QStringLiteral("must be a number of percent from 0, got \"%1\"")
                                     .arg(parser.value(name)));
            }
            return pct;
        };
        const bool given = parser.isSet(QStringLiteral("tolerance"));
        const double tolerance = given ? percentOption(QStringLiteral("tolerance")) : 0;
        // Latencies measure the machine (its load, its scheduler) more than the limiter: two
        // runs of one scenario differ by tens of percent, so they fail only when asked to.
        const bool latencyChecked = parser.isSet(QStringLiteral("latency-tolerance"));
        const double latencyTolerance =
            latencyChecked ? percentOption(QStringLiteral("latency-tolerance")) : 0;
        const Summary base = loadSummary(parser.positionalArguments().at(0));
        const Summary now = loadSummary(parser.positionalArguments().at(1));
        // Latencies of a real-clock run and a virtual one are never compared (below).
        const QStringList unfit =
            notComparable(base, now, latencyChecked && base.virtualClock == now.virtualClock);
        if (!unfit.isEmpty()) {
            if (!parser.isSet(QStringLiteral("force"))) {
                throw InputError(QStringLiteral("compare"),
                                 unfit.join(QStringLiteral("; ")) +
                                     QStringLiteral(" (--force compares them anyway)"));
            }
            for (const QString& reason : unfit) {
                printError(QStringLiteral("compare: --force: ") + reason);
            }
        }
        const bool bothVirtual = base.virtualClock && now.virtualClock;
        // A real-clock run against a virtual one: their latencies time different things (a
        // virtual clock sends as fast as Redis answers), so none is checked.
        const bool clocksDiffer = base.virtualClock != now.virtualClock;
        const bool latenciesCompared = latencyChecked && !clocksDiffer;
        // On a real clock a global limiter's grants go to whichever client's request reaches
        // Redis first: two runs of one scenario split them differently, so a client's or a
        // group's share is shown, not checked (only virtual runs repeat it exactly).
        const auto unsteadySplit = [&](const Figure& f) {
            return !bothVirtual && isSplit(f) && base.globalLimiters.contains(f.limiter) &&
                   now.globalLimiters.contains(f.limiter);
        };
        // The tolerance a count or burst gets: the one given, else 0 where virtual runs repeat
        // exactly.
        const auto toleranceOf = [&](const QString& metric) {
            if (isTiming(metric)) {
                return latencyTolerance;
            }
            if (given) {
                return tolerance;
            }
            return bothVirtual ? 0.0 : kRealClockTolerancePct;
        };

        QString text;
        QTextStream out(&text);
        out << "base: " << base.path << "\nnew:  " << now.path << "\n";
        out << (given         ? QStringLiteral("tolerance: %1 %\n").arg(fmt(tolerance))
                : bothVirtual ? QStringLiteral("tolerance: 0 % (virtual clocks)\n")
                              : QStringLiteral("tolerance: %1 % (real clock)\n")
                                    .arg(fmt(kRealClockTolerancePct)));
        if (clocksDiffer) {
            out << QStringLiteral("clocks: base %1, new %2\n").arg(clockName(base), clockName(now));
        }
        out << (clocksDiffer     ? QStringLiteral("latencies: not compared (one run's clock is "
                                                      "virtual, which sends as fast as Redis answers)\n")
                : latencyChecked ? QStringLiteral("latencies: checked, tolerance %1 %\n")
                                       .arg(fmt(latencyTolerance))
                                 : QStringLiteral("latencies: shown, not checked "
                                                  "(--latency-tolerance PCT checks them)\n"));
        if (!bothVirtual) {
            QStringList global;
            for (const QString& l : base.globalLimiters) {
                if (now.globalLimiters.contains(l)) {
                    global << json_input::quoted(l);
                }
            }
            if (!global.isEmpty()) {
                out << QStringLiteral(
                           "clients of global limiters: shown, not checked (%1; on a real "
                           "clock which client gets a global limiter's grants depends on "
                           "timing)\n")
                           .arg(global.join(QStringLiteral(", ")));
            }
        }
        if (base.roundTripPerLimiter != now.roundTripPerLimiter) {
            out << QStringLiteral("latencies: base timed %1 round trips, new %2 ones\n")
                       .arg(roundTripsOf(base), roundTripsOf(now));
        }
        int failing = 0;
        QStringList onlyOne;
        for (const QString& l : base.limiters) {
            if (!now.limiters.contains(l)) {
                onlyOne << QStringLiteral("limiter %1 only in base").arg(json_input::quoted(l));
            }
        }
        for (const QString& l : now.limiters) {
            if (!base.limiters.contains(l)) {
                onlyOne << QStringLiteral("limiter %1 only in new").arg(json_input::quoted(l));
            }
        }
        QStringList rows;
        int limiterWidth = 16;
        for (const QString& l : base.limiters) {
            limiterWidth = std::max(limiterWidth, int(l.size()));
        }
        const QString header = QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                                   .arg(QStringLiteral("limiter"), -limiterWidth)
                                   .arg(QStringLiteral("client"), -10)
                                   .arg(QStringLiteral("metric"), -30)
                                   .arg(QStringLiteral("base"), 12)
                                   .arg(QStringLiteral("new"), 12)
                                   .arg(QStringLiteral("Δ"), 12)
                                   .arg(QStringLiteral("Δ%"), 10);
        for (const Figure& f : base.figures) {
            if (!now.limiters.contains(f.limiter)) {
                continue;
            }
            const QString where =
                f.client.isEmpty()
                    ? QStringLiteral("%1 %2").arg(f.limiter, f.metric)
                    : QStringLiteral("%1 client %2 %3").arg(f.limiter, f.client, f.metric);
            const Figure* other = find(now, f);
            if (other == nullptr) {
                onlyOne << where + QStringLiteral(" only in base");
                continue;
            }
            if (other->value == f.value) {
                continue;
            }
            const bool split = unsteadySplit(f);
            const bool checked = (isTiming(f.metric) ? latenciesCompared : true) && !split;
            const bool over = checked && exceeds(f.value, other->value, toleranceOf(f.metric));
            failing += over ? 1 : 0;
            rows << QStringLiteral("%1 %2 %3 %4 %5 %6 %7%8")
                        .arg(f.limiter, -limiterWidth)
                        .arg(f.client.isEmpty() ? QStringLiteral("-") : f.client, -10)
                        .arg(f.metric, -30)
                        .arg(fmt(f.value), 12)
                        .arg(fmt(other->value), 12)
                        .arg(fmt(other->value - f.value), 12)
                        .arg(percent(f.value, other->value), 10)
                        .arg(over      ? QStringLiteral("  OVER")
                             : checked ? QString()
                             : split   ? (f.client.isEmpty()
                                              ? QStringLiteral("  (a global limiter's group, not "
                                                                 "checked on a real clock)")
                                              : QStringLiteral("  (a global limiter's client, not "
                                                                 "checked on a real clock)"))
                                       : QStringLiteral("  (latency, not checked)"));
        }
        for (const Figure& f : now.figures) {
            if (base.limiters.contains(f.limiter) && find(base, f) == nullptr) {
                onlyOne << (f.client.isEmpty() ? QStringLiteral("%1 %2").arg(f.limiter, f.metric)
                                               : QStringLiteral("%1 client %2 %3")
                                                     .arg(f.limiter, f.client, f.metric)) +
                               QStringLiteral(" only in new");
            }
        }
        if (rows.isEmpty()) {
            out << "no differences\n";
        } else {
            out << header << "\n" << rows.join(QLatin1Char('\n')) << "\n";
        }
        for (const QString& line : onlyOne) {
            out << line << "\n";
        }
        const bool failed = failing > 0 || !onlyOne.isEmpty();
        out << QStringLiteral(
                   "verdict: %1 (%2 differences, %3 above the tolerance, %4 only on "
                   "one side)\n")
                   .arg(failed ? QStringLiteral("different") : QStringLiteral("same"))
                   .arg(rows.size())
                   .arg(failing)
                   .arg(onlyOne.size());
        std::fputs(text.toUtf8().constData(), stdout);
        std::fflush(stdout);
        return failed ? kFailed : kDone;
    });
}

}  // namespace ratelab::cli
