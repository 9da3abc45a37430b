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

namespace {

// One probe of a row: the rows before it (retry) or through it (remaining), then the probe's
// own rows, decided by the limiter alone on fresh keys.
struct Probe {
    qsizetype row = 0;
    HuntProperty property = HuntProperty::Retry;
    bool shouldGrant = false;  // retry: at now + r (true) or now + r - 1
    qint64 k = 0;              // remaining: the grant's
    qint64 atMs = 0;
    Trace trace;
};

// The probes of `row`'s decision `d` for `property` (none when it promises nothing).
void addProbes(const Trace& trace, qsizetype row, const Decision& d, HuntProperty property,
               std::vector<Probe>& probes) {
    const TraceRow at = trace[row];
    if (property == HuntProperty::Retry && !d.allowed && d.retryAfterMs >= 0) {
        // The refused request alone from the state before it: granted at now + r, refused at
        // now + r - 1.
        for (const bool shouldGrant : {true, false}) {
            if (!shouldGrant && d.retryAfterMs < 1) {
                break;
            }
            TraceRow probe = at;
            probe.tMs = at.tMs + d.retryAfterMs - (shouldGrant ? 0 : 1);
            probes.push_back(
                Probe{row, property, shouldGrant, 0, probe.tMs, tracePrefix(trace, row, {probe})});
        }
    }
    if (property == HuntProperty::Remaining && d.allowed && d.remaining <= kMaxRemainingProbed) {
        // After a grant reporting k left: k single permits more at its instant granted, one
        // more refused, from the state after the grant.
        const qint64 k = std::max<qint64>(0, d.remaining);
        TraceRow single = at;
        single.permits = 1;
        probes.push_back(Probe{row, property, false, k, at.tMs,
                               tracePrefix(trace, row + 1, QVector<TraceRow>(k + 1, single))});
    }
}

// Whether the probe's answers keep the promise; the violation when not.
std::optional<Violation> judge(const Probe& probe, const Decision& d,
                               const std::vector<Decision>& answers) {
    Violation v;
    v.property = probe.property;
    v.row = probe.row;
    v.decision = d;
    v.probeAtMs = probe.atMs;
    if (probe.property == HuntProperty::Retry) {
        const Decision& answer = answers.back();
        if (answer.allowed == probe.shouldGrant) {
            return std::nullopt;
        }
        v.probeShouldGrant = probe.shouldGrant;
        v.probe = answer;
        v.probes = 1;
        v.probesGranted = answer.allowed ? 1 : 0;
        return v;
    }
    qint64 granted = 0;
    for (qint64 i = 0; i <= probe.k; ++i) {
        const Decision& answer = answers[size_t(probe.row + 1 + i)];
        granted += answer.allowed ? 1 : 0;
        if (answer.allowed != (i < probe.k)) {
            v.probeShouldGrant = i < probe.k;
            v.probe = answer;
            v.probes = i + 1;
            v.probesGranted = granted;
            return v;
        }
    }
    return std::nullopt;
}

}  // namespace

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
    // The first row the reference decides otherwise: no later row can fail first.
    qsizetype last = trace.size() - 1;
    for (qsizetype row = 0; row < trace.size() && !checked.reference.empty(); ++row) {
        if (checked.limiter[size_t(row)].allowed != checked.reference[size_t(row)].allowed) {
            last = row;
            break;
        }
    }
    // Every probe of every row up to it, decided together (one round trip when they can).
    std::vector<Probe> probes;
    for (qsizetype row = 0; row <= last; ++row) {
        for (const HuntProperty property : properties) {
            addProbes(trace, row, checked.limiter[size_t(row)], property, probes);
        }
    }
    std::vector<TraceJob> jobs;
    jobs.reserve(probes.size());
    for (const Probe& probe : probes) {
        jobs.push_back(TraceJob{{limiter_}, probe.trace});
    }
    const std::vector<std::vector<std::vector<Decision>>> answers = decider_.decide(jobs);
    // The earliest row that breaks a promise; at one row, the properties' order.
    for (qsizetype row = 0; row <= last && !checked.violation; ++row) {
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
            }
            for (std::size_t p = 0; p < probes.size() && !checked.violation; ++p) {
                if (probes[p].row == row && probes[p].property == property) {
                    checked.violation = judge(probes[p], d, answers[p][0]);
                }
            }
            if (checked.violation) {
                break;
            }
        }
    }
    return checked;
}

}  // namespace ratelab
