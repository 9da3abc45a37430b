#include "stats/expectation.h"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>
#include <limits>

#include "input_error.h"
#include "json_input.h"
#include "stats/run_snapshot.h"

namespace ratelab {
namespace {

const QLatin1String kBurstPrefix("max_accepted_in_any_");
const QLatin1String kRunClockBurstPrefix("max_admitted_in_any_");

const QLatin1String kClientPrefix("client.");

// The figures a per-client metric may name: "client.<client>.<figure>".
const QStringList& clientFigures() {
    static const QStringList figures = {
        QStringLiteral("fired"),  QStringLiteral("accepted"),       QStringLiteral("rejected"),
        QStringLiteral("errors"), QStringLiteral("accepted_ratio"), QStringLiteral("rejected_pct")};
    return figures;
}

// "client.<client>.<figure>": the client (up to the last dot: a trace's client may be an
// address with dots) and the figure. False for any other metric.
bool splitClientMetric(const QString& metric, QString* client, QString* figure) {
    const qsizetype dot = metric.lastIndexOf(QLatin1Char('.'));
    if (!metric.startsWith(kClientPrefix) || dot <= kClientPrefix.size()) {
        return false;
    }
    *client = metric.mid(kClientPrefix.size(), dot - kClientPrefix.size());
    *figure = metric.mid(dot + 1);
    return true;
}

// A client's figure (clientFigures or a burst on the limiter's clock): false when the run has
// no such client or figure. Groups of clients ("group.<name>.<figure>") are to read the same
// figures summed over their clients.
bool clientMetric(const LimiterSnapshot& l, const QString& name, const QString& figure,
                  double* value) {
    for (const ClientTotals& c : l.clients) {
        if (c.client != name) {
            continue;
        }
        if (figure == QLatin1String("fired")) {
            *value = double(c.fired);
        } else if (figure == QLatin1String("accepted")) {
            *value = double(c.accepted);
        } else if (figure == QLatin1String("rejected")) {
            *value = double(c.rejected);
        } else if (figure == QLatin1String("errors")) {
            *value = double(c.errors);
        } else if (figure == QLatin1String("accepted_ratio")) {
            *value = c.fired > 0 ? double(c.accepted) / double(c.fired) : 0;
        } else if (figure == QLatin1String("rejected_pct")) {
            *value = c.fired > 0 ? 100.0 * double(c.rejected) / double(c.fired) : 0;
        } else {
            const qint64 window = burstMetricWindow(figure, std::numeric_limits<qint64>::max());
            for (const BusiestInterval& b : c.admittedBurst) {
                if (window > 0 && b.windowMs == window) {
                    *value = double(b.permits);
                    return true;
                }
            }
            return false;
        }
        return true;
    }
    return false;
}

double ms(std::int64_t us) {
    return double(us) / 1000.0;
}

}  // namespace

QString compareOpName(CompareOp op) {
    switch (op) {
        case CompareOp::Less:
            return QStringLiteral("<");
        case CompareOp::LessEqual:
            return QStringLiteral("<=");
        case CompareOp::Equal:
            return QStringLiteral("==");
        case CompareOp::GreaterEqual:
            return QStringLiteral(">=");
        case CompareOp::Greater:
            return QStringLiteral(">");
    }
    return {};
}

bool compareHolds(double measured, CompareOp op, double threshold) {
    switch (op) {
        case CompareOp::Less:
            return measured < threshold;
        case CompareOp::LessEqual:
            return measured <= threshold;
        case CompareOp::Equal:
            return measured == threshold;
        case CompareOp::GreaterEqual:
            return measured >= threshold;
        case CompareOp::Greater:
            return measured > threshold;
    }
    return false;
}

QString Expectation::text() const {
    return metric + QLatin1Char(' ') + compareOpName(op) + QLatin1Char(' ') +
           json_input::formatNumber(threshold);
}

const QStringList& expectationMetrics() {
    static const QStringList metrics = {
        QStringLiteral("fired"),  QStringLiteral("accepted"),       QStringLiteral("rejected"),
        QStringLiteral("errors"), QStringLiteral("accepted_ratio"), QStringLiteral("p50_ms"),
        QStringLiteral("p99_ms"), QStringLiteral("max_wait_ms"),    QStringLiteral("rejected_pct")};
    return metrics;
}

qint64 burstMetricWindow(const QString& metric, qint64 maxWindowMs, BurstClock* clock) {
    static const QRegularExpression pattern(QStringLiteral(
        "^(?:max_accepted_in_any_([0-9]+)ms|max_admitted_in_any_([0-9]+)ms_run_clock)$"));
    const QRegularExpressionMatch match = pattern.match(metric);
    if (!match.hasMatch()) {
        return 0;
    }
    const bool runClock = match.captured(1).isEmpty();
    bool ok = false;
    const qint64 n = match.captured(runClock ? 2 : 1).toLongLong(&ok);
    if (clock != nullptr) {
        *clock = runClock ? BurstClock::Run : BurstClock::Limiter;
    }
    return ok && n >= 1 && n <= maxWindowMs ? n : 0;
}

QString burstMetricName(qint64 windowMs, BurstClock clock) {
    return clock == BurstClock::Run
               ? kRunClockBurstPrefix + QString::number(windowMs) + QStringLiteral("ms_run_clock")
               : kBurstPrefix + QString::number(windowMs) + QStringLiteral("ms");
}

Expectation parseExpectation(const QString& limiter, const QString& text, const QString& where,
                             qint64 maxWindowMs) {
    static const QRegularExpression form(
        QStringLiteral("^\\s*([A-Za-z0-9_.-]+)\\s*(<=|>=|==|<|>|=|!=)?\\s*(.*?)\\s*$"));
    const QRegularExpressionMatch match = form.match(text);
    const QString shape = QStringLiteral("expected \"<metric> <op> <number>\" (op: < <= == >= >)");
    if (!match.hasMatch() || match.captured(1).isEmpty()) {
        throw InputError(where, shape + QStringLiteral(", got ") + json_input::quoted(text));
    }
    Expectation e;
    e.limiter = limiter;
    e.metric = match.captured(1);
    QString client, figure;
    if (splitClientMetric(e.metric, &client, &figure)) {
        if (!clientFigures().contains(figure) && burstMetricWindow(figure, maxWindowMs) == 0) {
            throw InputError(where, QStringLiteral("%1: expected client.<client>.<figure> with "
                                                   "the figure %2")
                                        .arg(json_input::quoted(e.metric),
                                             json_input::oneOf(clientFigures() +
                                                               QStringList{QStringLiteral(
                                                                   "max_accepted_in_any_<N>ms")})));
        }
    } else if (!expectationMetrics().contains(e.metric)) {
        const bool runClock = e.metric.startsWith(kRunClockBurstPrefix);
        if (runClock || e.metric.startsWith(kBurstPrefix)) {
            if (burstMetricWindow(e.metric, maxWindowMs) == 0) {
                const BurstClock clock = runClock ? BurstClock::Run : BurstClock::Limiter;
                const QString shapeOf = runClock
                                            ? QStringLiteral("max_admitted_in_any_<N>ms_run_clock")
                                            : QStringLiteral("max_accepted_in_any_<N>ms");
                throw InputError(where, QStringLiteral("%1: expected %2 with the window N a whole "
                                                       "number of ms from 1 to %3, as in %4")
                                            .arg(json_input::quoted(e.metric), shapeOf)
                                            .arg(maxWindowMs)
                                            .arg(burstMetricName(1000, clock)));
            }
        } else {
            throw InputError(
                where,
                QStringLiteral("unknown metric %1; expected %2")
                    .arg(json_input::quoted(e.metric),
                         json_input::oneOf(
                             expectationMetrics() +
                             QStringList{QStringLiteral("client.<client>.<figure>"),
                                         QStringLiteral("max_accepted_in_any_<N>ms"),
                                         QStringLiteral("max_admitted_in_any_<N>ms_run_clock")})));
        }
    }
    const QString op = match.captured(2);
    if (op.isEmpty()) {
        throw InputError(where,
                         shape + QStringLiteral(": no operator in ") + json_input::quoted(text));
    }
    if (op == QLatin1String("=") || op == QLatin1String("!=")) {
        throw InputError(where, QStringLiteral("unknown operator %1; expected <, <=, ==, >= or >")
                                    .arg(json_input::quoted(op)));
    }
    static const QStringList ops = {QStringLiteral("<"), QStringLiteral("<="), QStringLiteral("=="),
                                    QStringLiteral(">="), QStringLiteral(">")};
    e.op = CompareOp(ops.indexOf(op));
    const QString number = match.captured(3);
    bool ok = false;
    e.threshold = QLocale::c().toDouble(number, &ok);
    if (!ok || !std::isfinite(e.threshold)) {
        throw InputError(where, QStringLiteral("%1 after %2 is not a number")
                                    .arg(json_input::quoted(number), json_input::quoted(op)));
    }
    return e;
}

bool limiterMetric(const LimiterSnapshot& l, const QString& metric, double* value) {
    if (metric == QLatin1String("fired")) {
        *value = double(l.fired);
    } else if (metric == QLatin1String("accepted")) {
        *value = double(l.accepted);
    } else if (metric == QLatin1String("rejected")) {
        *value = double(l.rejected);
    } else if (metric == QLatin1String("errors")) {
        *value = double(l.errors);
    } else if (metric == QLatin1String("accepted_ratio")) {
        *value = l.fired > 0 ? double(l.accepted) / double(l.fired) : 0;
    } else if (metric == QLatin1String("rejected_pct")) {
        *value = l.fired > 0 ? 100.0 * double(l.rejected) / double(l.fired) : 0;
    } else if (QString client, figure; splitClientMetric(metric, &client, &figure)) {
        return clientMetric(l, client, figure, value);
    } else if (metric == QLatin1String("p50_ms")) {
        *value = ms(l.latency.percentile(50));
    } else if (metric == QLatin1String("p99_ms")) {
        *value = ms(l.latency.percentile(99));
    } else if (metric == QLatin1String("max_wait_ms")) {
        *value = ms(l.waited.max);
    } else {
        BurstClock clock = BurstClock::Limiter;
        const qint64 window = burstMetricWindow(metric, std::numeric_limits<qint64>::max(), &clock);
        for (const BusiestInterval& b : l.admittedBurstOn(clock)) {
            if (window > 0 && b.windowMs == window) {
                *value = double(b.permits);
                return true;
            }
        }
        return false;
    }
    return true;
}

QVector<ExpectationResult> evaluateExpectations(const QVector<Expectation>& expectations,
                                                const RunSnapshot& run) {
    QVector<ExpectationResult> results;
    for (const Expectation& e : expectations) {
        for (const LimiterSnapshot& l : run.limiters) {
            if (e.limiter != QLatin1String("*") && e.limiter != l.spec.name) {
                continue;
            }
            ExpectationResult r;
            r.limiter = l.spec.name;
            r.expectation = e;
            if (limiterMetric(l, e.metric, &r.measured)) {
                r.held = compareHolds(r.measured, e.op, e.threshold);
            } else {
                r.measured = std::numeric_limits<double>::quiet_NaN();
            }
            results.append(r);
        }
    }
    return results;
}

QString expectationVerdict(const QVector<ExpectationResult>& results) {
    if (results.isEmpty()) {
        return QStringLiteral("none");
    }
    for (const ExpectationResult& r : results) {
        if (!r.held) {
            return QStringLiteral("failed");
        }
    }
    return QStringLiteral("passed");
}

}  // namespace ratelab
