#include "hunt/property_check.h"

#include <algorithm>

namespace ratelab {

QString huntPropertyName(HuntProperty property) {
    switch (property) {
        case HuntProperty::Agree:
            return QStringLiteral("agree");
        case HuntProperty::Retry:
            return QStringLiteral("retry");
        case HuntProperty::Remaining:
            return QStringLiteral("remaining");
    }
    return {};
}

QStringList huntPropertyNames() {
    return {QStringLiteral("agree"), QStringLiteral("retry"), QStringLiteral("remaining")};
}

std::optional<HuntProperty> huntPropertyNamed(const QString& name) {
    for (const HuntProperty p :
         {HuntProperty::Agree, HuntProperty::Retry, HuntProperty::Remaining}) {
        if (huntPropertyName(p) == name) {
            return p;
        }
    }
    return std::nullopt;
}

Trace tracePrefix(const Trace& trace, qsizetype end, const QVector<TraceRow>& extra) {
    Trace out;
    out.reserve(end + extra.size());
    for (qsizetype i = 0; i < end; ++i) {
        out.append(trace[i]);
    }
    for (const TraceRow& row : extra) {
        out.append(row);
    }
    return out;
}

PropertyCheck::PropertyCheck(TraceDecider& decider, LimiterSpec limiter,
                             std::optional<LimiterSpec> reference,
                             std::vector<HuntProperty> properties)
    : decider_(decider),
      limiter_(std::move(limiter)),
      reference_(std::move(reference)),
      properties_(std::move(properties)) {}

CheckedTrace PropertyCheck::check(const Trace& trace) const {
    return check(trace, properties_);
}

CheckedTrace PropertyCheck::check(const Trace& trace, HuntProperty property) const {
    return check(trace, std::vector<HuntProperty>{property});
}

CheckedTrace PropertyCheck::check(const Trace& trace,
                                  const std::vector<HuntProperty>& properties) const {
    const bool agree =
        std::find(properties.begin(), properties.end(), HuntProperty::Agree) != properties.end();
    QVector<LimiterSpec> specs{limiter_};
    if (reference_ && agree) {
        specs.append(*reference_);
    }
    std::vector<std::vector<Decision>> decided = decider_.decide(specs, trace);
    CheckedTrace checked;
    checked.limiter = std::move(decided[0]);
    if (specs.size() > 1) {
        checked.reference = std::move(decided[1]);
    }
    for (qsizetype row = 0; row < trace.size() && !checked.violation; ++row) {
        const Decision& d = checked.limiter[size_t(row)];
        for (const HuntProperty property : properties) {
            if (property == HuntProperty::Agree && !checked.reference.empty() &&
                d.allowed != checked.reference[size_t(row)].allowed) {
                Violation v;
                v.property = HuntProperty::Agree;
                v.row = row;
                v.decision = d;
                v.reference = checked.reference[size_t(row)];
                checked.violation = v;
            } else if (property == HuntProperty::Retry) {
                checked.violation = retry(trace, row, d);
            } else if (property == HuntProperty::Remaining) {
                checked.violation = remaining(trace, row, d);
            }
            if (checked.violation) {
                break;
            }
        }
    }
    return checked;
}

// The refused request alone from the state before it: granted at now + r, refused at
// now + r - 1.
std::optional<Violation> PropertyCheck::retry(const Trace& trace, qsizetype row,
                                              const Decision& d) const {
    if (d.allowed || d.retryAfterMs < 0) {
        return std::nullopt;
    }
    const TraceRow refused = trace[row];
    const qint64 at = refused.tMs + d.retryAfterMs;
    for (const bool shouldGrant : {true, false}) {
        if (!shouldGrant && d.retryAfterMs < 1) {
            break;
        }
        TraceRow probe = refused;
        probe.tMs = shouldGrant ? at : at - 1;
        const Trace probed = tracePrefix(trace, row, {probe});
        const Decision answer = decider_.decide({limiter_}, probed)[0].back();
        if (answer.allowed != shouldGrant) {
            Violation v;
            v.property = HuntProperty::Retry;
            v.row = row;
            v.decision = d;
            v.probeAtMs = probe.tMs;
            v.probeShouldGrant = shouldGrant;
            v.probe = answer;
            v.probes = 1;
            v.probesGranted = answer.allowed ? 1 : 0;
            return v;
        }
    }
    return std::nullopt;
}

// After a grant reporting k left: k single permits more at its instant granted, one more
// refused, from the state after the grant.
std::optional<Violation> PropertyCheck::remaining(const Trace& trace, qsizetype row,
                                                  const Decision& d) const {
    if (!d.allowed || d.remaining > kMaxRemainingProbed) {
        return std::nullopt;
    }
    const qint64 k = std::max<qint64>(0, d.remaining);
    TraceRow single = trace[row];
    single.permits = 1;
    const QVector<TraceRow> singles(k + 1, single);
    const std::vector<Decision> answers =
        decider_.decide({limiter_}, tracePrefix(trace, row + 1, singles))[0];
    qint64 granted = 0;
    for (qint64 i = 0; i <= k; ++i) {
        const Decision& answer = answers[size_t(row + 1 + i)];
        granted += answer.allowed ? 1 : 0;
        if (answer.allowed != (i < k)) {
            Violation v;
            v.property = HuntProperty::Remaining;
            v.row = row;
            v.decision = d;
            v.probeAtMs = single.tMs;
            v.probeShouldGrant = i < k;
            v.probe = answer;
            v.probes = i + 1;
            v.probesGranted = granted;
            return v;
        }
    }
    return std::nullopt;
}

}  // namespace ratelab
