#include "hunt/regression_case.h"

#include "limiters/script_spec.h"
#include "run/replay.h"

namespace ratelab {
namespace {

qint64 granted(const std::vector<Decision>& decisions, qsizetype end) {
    qint64 n = 0;
    for (qsizetype i = 0; i < end; ++i) {
        n += decisions[size_t(i)].allowed ? 1 : 0;
    }
    return n;
}

// The reference beside the limiter in the scenario: "reference", unless that is its name.
QString referenceBesideIt(const QString& limiterName) {
    return limiterName == QLatin1String("reference") ? QStringLiteral("reference-2")
                                                     : QStringLiteral("reference");
}

}  // namespace

RegressionCase regressionCase(TraceDecider& decider, const PropertyCheck& check, const Trace& trace,
                              const CheckedTrace& checked) {
    const Violation& v = *checked.violation;
    const LimiterSpec& limiter = check.limiter();
    RegressionCase r;
    QVector<LimiterSpec> specs{limiter};
    switch (v.property) {
        case HuntProperty::Agree: {
            r.trace = tracePrefix(trace, v.row + 1);
            LimiterSpec reference = *check.reference();
            reference.name = referenceBesideIt(limiter.name);
            specs.append(reference);
            r.expectedAccepted = granted(checked.reference, v.row + 1);
            break;
        }
        case HuntProperty::Retry: {
            TraceRow probe = trace[v.row];
            probe.tMs = v.probeAtMs;
            // With the refusal itself when it leaves the state as it found it (the probe then
            // decides the same), else from the state before it.
            const Trace withRefusal = tracePrefix(trace, v.row + 1, {probe});
            const bool same =
                decider.decide({limiter}, withRefusal)[0].back().allowed == v.probe->allowed;
            r.trace = same ? withRefusal : tracePrefix(trace, v.row, {probe});
            r.expectedAccepted = granted(checked.limiter, v.row) + (v.probeShouldGrant ? 1 : 0);
            break;
        }
        case HuntProperty::Remaining: {
            TraceRow single = trace[v.row];
            single.permits = 1;
            r.trace = tracePrefix(trace, v.row + 1, QVector<TraceRow>(v.probes, single));
            r.expectedAccepted = granted(checked.limiter, v.row + 1) +
                                 (v.probeShouldGrant ? v.probes : v.probes - 1);
            break;
        }
    }
    r.counterexampleTrace = r.trace.size() == trace.size() && v.property == HuntProperty::Agree;
    const std::vector<std::vector<Decision>> decided = decider.decide(specs, r.trace);
    r.acceptedNow = granted(decided[0], r.trace.size());

    r.scenario = replayScenario(specs, r.trace);
    r.scenario.name = QStringLiteral("hunt counterexample (%1)").arg(huntPropertyName(v.property));
    if (onRedisClock(specs)) {
        r.scenario.traffic.clock = ClockSpec{};  // the real clock: Redis's TTLs run in real time
    }
    r.scenario.expectations = {Expectation{limiter.name, QStringLiteral("accepted"),
                                           CompareOp::Equal, double(r.expectedAccepted)}};
    const qint64 spanMs = r.trace.tMsAt(r.trace.size() - 1) - r.trace.tMsAt(0) + 1;
    if (spanMs > qint64(scenario_limits::kMaxDurationS) * 1000) {
        r.unwritable = QStringLiteral(
                           "its rows span %1 ms, longer than a scenario's run may last "
                           "(%2 s)")
                           .arg(spanMs)
                           .arg(scenario_limits::kMaxDurationS);
    }
    return r;
}

}  // namespace ratelab
