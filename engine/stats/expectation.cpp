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
const QLatin1String kGroupPrefix("group.");
const QLatin1String kClientPrefix("client.");

double ms(std::int64_t us) {
    return double(us) / 1000.0;
}

// A script limiter's decisions its reference made otherwise, and their share of the decisions
// both made.
const QLatin1String kDisagreements("disagreements_with_reference");
const QLatin1String kDisagreementsPct("disagreements_with_reference_pct");

// A count of countMetrics() from totals of a limiter, a group or a client.
template <typename Totals>
bool countValue(const Totals& t, const QString& figure, double* value) {
    const double fired = double(t.fired);
    if (figure == QLatin1String("fired")) {
        *value = fired;
    } else if (figure == QLatin1String("accepted")) {
        *value = double(t.accepted);
    } else if (figure == QLatin1String("rejected")) {
        *value = double(t.rejected);
    } else if (figure == QLatin1String("errors")) {
        *value = double(t.errors);
    } else if (figure == QLatin1String("accepted_ratio")) {
        *value = t.fired > 0 ? double(t.accepted) / fired : 0;
    } else if (figure == QLatin1String("rejected_pct")) {
        *value = t.fired > 0 ? 100.0 * double(t.rejected) / fired : 0;
    } else if (figure == kDisagreements) {
        *value = double(t.reference.disagreed);
    } else if (figure == kDisagreementsPct) {
        *value = t.reference.compared > 0
                     ? 100.0 * double(t.reference.disagreed) / double(t.reference.compared)
                     : 0;
    } else {
        return false;
    }
    return true;
}

// The admitted burst a burst figure names, from the bursts on its clock; false when the list
// has no such window.
bool burstValue(const QString& figure, const std::vector<BusiestInterval>& limiterClock,
                const std::vector<BusiestInterval>* runClock, double* value) {
    BurstClock clock = BurstClock::Limiter;
    const qint64 window = burstMetricWindow(figure, std::numeric_limits<qint64>::max(), &clock);
    const std::vector<BusiestInterval>* bursts =
        clock == BurstClock::Run ? runClock : &limiterClock;
    if (window == 0 || bursts == nullptr) {
        return false;
    }
    for (const BusiestInterval& b : *bursts) {
        if (b.windowMs == window) {
            *value = double(b.permits);
            return true;
        }
    }
    return false;
}

// Refuses a burst figure whose window is not a whole number of ms from 1 to maxWindowMs.
void checkBurstWindow(const QString& metric, const QString& figure, const QString& where,
                      qint64 maxWindowMs) {
    if (burstMetricWindow(figure, maxWindowMs) != 0) {
        return;
    }
    const bool runClock = figure.startsWith(kRunClockBurstPrefix);
    const BurstClock clock = runClock ? BurstClock::Run : BurstClock::Limiter;
    const QString shapeOf = runClock ? QStringLiteral("max_admitted_in_any_<N>ms_run_clock")
                                     : QStringLiteral("max_accepted_in_any_<N>ms");
    throw InputError(where, QStringLiteral("%1: expected %2 with the window N a whole "
                                           "number of ms from 1 to %3, as in %4")
                                .arg(json_input::quoted(metric), shapeOf)
                                .arg(maxWindowMs)
                                .arg(burstMetricName(1000, clock)));
}

bool isBurstFigure(const QString& figure) {
    return figure.startsWith(kRunClockBurstPrefix) || figure.startsWith(kBurstPrefix);
}

// A group's or a client's metric: a count or an admitted burst (a client's on the limiter's
// clock only).
void checkScopedMetric(const QString& metric, const MetricScope& scope, const QString& where,
                       qint64 maxWindowMs) {
    const bool group = scope.kind == MetricScope::Kind::Group;
    const QString form = group ? QStringLiteral("group.<group>.<metric>")
                               : QStringLiteral("client.<client>.<metric>");
    const QStringList bursts =
        group ? QStringList{QStringLiteral("max_accepted_in_any_<N>ms"),
                            QStringLiteral("max_admitted_in_any_<N>ms_run_clock")}
              : QStringList{QStringLiteral("max_accepted_in_any_<N>ms")};
    if (scope.name.isEmpty() || scope.figure.isEmpty()) {
        throw InputError(where, QStringLiteral("%1: expected %2, as in %3")
                                    .arg(json_input::quoted(metric), form,
                                         group ? QStringLiteral("group.users.rejected_pct")
                                               : QStringLiteral("client.c0.accepted")));
    }
    if (countMetrics().contains(scope.figure)) {
        return;
    }
    if (!group && scope.figure.startsWith(kRunClockBurstPrefix)) {
        throw InputError(where, QStringLiteral("%1: a client's admitted burst is counted on the "
                                               "limiter's time only; expected "
                                               "client.<client>.max_accepted_in_any_<N>ms")
                                    .arg(json_input::quoted(metric)));
    }
    if (isBurstFigure(scope.figure)) {
        checkBurstWindow(metric, scope.figure, where, maxWindowMs);
        return;
    }
    throw InputError(where, QStringLiteral("unknown metric %1 of a %2; expected %3")
                                .arg(json_input::quoted(scope.figure),
                                     group ? QStringLiteral("group") : QStringLiteral("client"),
                                     json_input::oneOf(countMetrics() + bursts)));
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

const QStringList& countMetrics() {
    static const QStringList metrics = {
        QStringLiteral("fired"),  QStringLiteral("accepted"),       QStringLiteral("rejected"),
        QStringLiteral("errors"), QStringLiteral("accepted_ratio"), QStringLiteral("rejected_pct"),
        QString(kDisagreements),  QString(kDisagreementsPct)};
    return metrics;
}

const QStringList& expectationMetrics() {
    static const QStringList metrics =
        countMetrics() + QStringList{QStringLiteral("p50_ms"), QStringLiteral("p99_ms"),
                                     QStringLiteral("max_wait_ms")};
    return metrics;
}

MetricScope metricScope(const QString& metric) {
    MetricScope scope;
    scope.figure = metric;
    for (const auto& [kind, prefix] : {std::pair{MetricScope::Kind::Group, kGroupPrefix},
                                       std::pair{MetricScope::Kind::Client, kClientPrefix}}) {
        if (!metric.startsWith(prefix)) {
            continue;
        }
        scope.kind = kind;
        const qsizetype dot = metric.lastIndexOf(QLatin1Char('.'));
        if (dot > prefix.size()) {
            scope.name = metric.mid(prefix.size(), dot - prefix.size());
            scope.figure = metric.mid(dot + 1);
        } else {
            scope.figure.clear();
        }
    }
    return scope;
}

QString groupMetricName(const QString& group, const QString& figure) {
    return kGroupPrefix + group + QLatin1Char('.') + figure;
}

QString clientMetricName(const QString& client, const QString& figure) {
    return kClientPrefix + client + QLatin1Char('.') + figure;
}

qint64 burstMetricWindow(const QString& metric, qint64 maxWindowMs, BurstClock* clock) {
    static const QRegularExpression pattern(QStringLiteral(
        "^(?:max_accepted_in_any_([0-9]+)ms|max_admitted_in_any_([0-9]+)ms_run_clock)$"));
    const QRegularExpressionMatch match = pattern.match(metricScope(metric).figure);
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
    // A metric holds no space and no operator character (a client's name may hold '-', '.'
    // or ':').
    static const QRegularExpression form(
        QStringLiteral("^\\s*([^\\s<>=!]+)\\s*(<=|>=|==|<|>|=|!=)?\\s*(.*?)\\s*$"));
    const QRegularExpressionMatch match = form.match(text);
    const QString shape = QStringLiteral("expected \"<metric> <op> <number>\" (op: < <= == >= >)");
    if (!match.hasMatch() || match.captured(1).isEmpty()) {
        throw InputError(where, shape + QStringLiteral(", got ") + json_input::quoted(text));
    }
    Expectation e;
    e.limiter = limiter;
    e.metric = match.captured(1);
    const MetricScope scope = metricScope(e.metric);
    if (scope.kind != MetricScope::Kind::Limiter) {
        checkScopedMetric(e.metric, scope, where, maxWindowMs);
    } else if (isBurstFigure(e.metric)) {
        checkBurstWindow(e.metric, e.metric, where, maxWindowMs);
    } else if (!expectationMetrics().contains(e.metric)) {
        throw InputError(
            where, QStringLiteral("unknown metric %1; expected %2")
                       .arg(json_input::quoted(e.metric),
                            json_input::oneOf(
                                expectationMetrics() +
                                QStringList{QStringLiteral("max_accepted_in_any_<N>ms"),
                                            QStringLiteral("max_admitted_in_any_<N>ms_run_clock"),
                                            QStringLiteral("group.<group>.<metric>"),
                                            QStringLiteral("client.<client>.<metric>")})));
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
    const MetricScope scope = metricScope(metric);
    if (!l.hasReference && (scope.figure == kDisagreements || scope.figure == kDisagreementsPct)) {
        return false;  // only a script limiter with a reference has the figure
    }
    switch (scope.kind) {
        case MetricScope::Kind::Group:
            for (const GroupTotals& g : l.groups) {
                if (g.group == scope.name) {
                    return countValue(g, scope.figure, value) ||
                           burstValue(scope.figure, g.admittedBurst, &g.admittedBurstRunClock,
                                      value);
                }
            }
            return false;
        case MetricScope::Kind::Client:
            for (const ClientTotals& c : l.clients) {
                if (c.client == scope.name) {
                    return countValue(c, scope.figure, value) ||
                           burstValue(scope.figure, c.admittedBurst, nullptr, value);
                }
            }
            return false;
        case MetricScope::Kind::Limiter:
            break;
    }
    if (countValue(l, metric, value)) {
        return true;
    }
    if (metric == QLatin1String("p50_ms")) {
        *value = ms(l.latency.percentile(50));
    } else if (metric == QLatin1String("p99_ms")) {
        *value = ms(l.latency.percentile(99));
    } else if (metric == QLatin1String("max_wait_ms")) {
        *value = ms(l.waited.max);
    } else {
        return burstValue(metric, l.admittedBurst, &l.admittedBurstRunClock, value);
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
