#include "output/run_report.h"

#include <QTextStream>
#include <algorithm>

#include "limiters/script_spec.h"
#include "output/pipeline_summary.h"
#include "output/regression_report.h"
#include "output/run_summary.h"

namespace ratelab {
namespace {

QString gatewayUseText(const GatewayUse& use) {
    QString text = gatewayModeName(use.mode);
    if (use.cacheRefusals) {
        text += QStringLiteral(", cached refusals");
    }
    if (use.mode == GatewayMode::Batched) {
        text += QStringLiteral(", sync every %1 ms").arg(use.syncMs);
    }
    return text;
}

// "; per gateway (calls/decisions): g0 12/40, g1 …" with several gateways.
QString perGatewayText(const LimiterSnapshot& l) {
    if (l.gateways.size() < 2) {
        return {};
    }
    QStringList parts;
    for (qsizetype g = 0; g < l.gateways.size(); ++g) {
        parts << QStringLiteral("g%1 %2/%3")
                     .arg(g)
                     .arg(l.gateways[g].redisCalls)
                     .arg(l.gateways[g].decisions);
    }
    return QStringLiteral("; per gateway (calls/decisions): ") + parts.join(QStringLiteral(", "));
}

constexpr int kClientsPrinted = 8;

double ms(std::int64_t us) {
    return double(us) / 1000.0;
}

// The pairs whose decisions compare: try mode, two limiters or more.
bool comparesPairs(const RunSnapshot& run) {
    return run.sameRequests && !run.disagreements.isEmpty();
}

// A traffic group's counts, its share refused and its admitted burst (on the run's clock too
// where that differs).
QString groupLines(const GroupTotals& g) {
    QString text =
        QStringLiteral(
            "  group %1 (%2 %3): fired %4 = accepted %5 + rejected %6 + errors %7, "
            "rejected %8 %\n")
            .arg(g.group)
            .arg(g.clients)
            .arg(g.clients == 1 ? QStringLiteral("client") : QStringLiteral("clients"))
            .arg(g.fired)
            .arg(g.accepted)
            .arg(g.rejected)
            .arg(g.errors)
            .arg(g.fired > 0 ? 100.0 * double(g.rejected) / double(g.fired) : 0.0, 0, 'f', 1);
    if (g.reference.compared > 0) {
        text += QStringLiteral("    against the reference: %1 of %2 decisions disagree\n")
                    .arg(g.reference.disagreed)
                    .arg(g.reference.compared);
    }
    if (!g.admittedBurst.empty()) {
        text += QStringLiteral("    admitted burst, limiter's time: %1\n")
                    .arg(admittedBurstLine(g.admittedBurst));
    }
    if (!g.admittedBurstRunClock.empty() &&
        admittedBurstLine(g.admittedBurstRunClock) != admittedBurstLine(g.admittedBurst)) {
        text += QStringLiteral("    admitted burst, run's clock:    %1\n")
                    .arg(admittedBurstLine(g.admittedBurstRunClock));
    }
    return text;
}

// A script limiter against its reference: "12 of 400 decisions (3.0 %); most: alice 7, bob 5".
QString referenceLine(const LimiterSnapshot& l) {
    const std::optional<LimiterSpec> reference = referenceSpecOf(l.spec);
    QString text = QStringLiteral("  against its reference (%1): %2 of %3 decisions disagree")
                       .arg(reference ? limiterTypeName(reference->type) : QString())
                       .arg(l.reference.disagreed)
                       .arg(l.reference.compared);
    if (l.reference.compared > 0) {
        text += QStringLiteral(" (%1 %)").arg(
            100.0 * double(l.reference.disagreed) / double(l.reference.compared), 0, 'f', 2);
    }
    QVector<const ClientTotals*> most;
    for (const ClientTotals& c : l.clients) {
        if (c.reference.disagreed > 0) {
            most.push_back(&c);
        }
    }
    std::stable_sort(most.begin(), most.end(), [](const ClientTotals* a, const ClientTotals* b) {
        return a->reference.disagreed > b->reference.disagreed;
    });
    if (l.spec.scope == Scope::PerClient && !most.isEmpty()) {
        QStringList parts;
        for (qsizetype i = 0; i < most.size() && i < kClientsPrinted; ++i) {
            parts << QStringLiteral("%1 %2").arg(most[i]->client).arg(most[i]->reference.disagreed);
        }
        text += QStringLiteral("; by client: ") + parts.join(QStringLiteral(", "));
        if (most.size() > kClientsPrinted) {
            text += QStringLiteral(", …");
        }
    }
    return text + QLatin1Char('\n');
}

}  // namespace

// Several limiters timed on one round trip per batch: a latency was measured (not a virtual
// clock as fast as possible) and they were not given round trips of their own.
bool sharesRoundTrips(const RunSnapshot& run) {
    if (run.roundTripPerLimiter || run.limiters.size() < 2) {
        return false;
    }
    return std::any_of(run.limiters.cbegin(), run.limiters.cend(),
                       [](const LimiterSnapshot& l) { return l.latency.max > 0; });
}

QString progressLine(const RunSnapshot& run) {
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    for (const LimiterSnapshot& l : run.limiters) {
        accepted += l.accepted;
        rejected += l.rejected;
        errors += l.errors;
    }
    return QStringLiteral("%1/%2 s  %3 req/s  accepted %4  rejected %5  errors %6")
        .arg(double(run.elapsedUs) / 1e6, 0, 'f', 1)
        .arg(double(run.durationUs) / 1e6, 0, 'f', 1)
        .arg(achievedRate(run), 0, 'f', 0)
        .arg(accepted)
        .arg(rejected)
        .arg(errors);
}

QString summaryText(const RunSnapshot& run) {
    QString text;
    QTextStream out(&text);
    out << "scenario: " << run.scenarioName << "\n";
    if (run.stoppedEarly) {
        out << QStringLiteral(
                   "stopped early: after %1 s of %2 s (the counts cover what was sent)\n")
                   .arg(double(runLengthUs(run)) / 1e6, 0, 'f', 3)
                   .arg(double(run.durationUs) / 1e6, 0, 'f', 3);
    }
    out << QStringLiteral("requests: %1 in %2 s (target %3 req/s, achieved %4 req/s)\n")
               .arg(run.scheduled)
               .arg(double(runLengthUs(run)) / 1e6, 0, 'f', 3)
               .arg(run.targetRate, 0, 'f', 1)
               .arg(achievedRate(run), 0, 'f', 1);
    out << QStringLiteral("schedule lag: p50 %1 ms  p99 %2 ms  max %3 ms\n")
               .arg(ms(run.lag.percentile(50)), 0, 'f', 3)
               .arg(ms(run.lag.percentile(99)), 0, 'f', 3)
               .arg(ms(run.lag.max), 0, 'f', 3);
    const PipelineSummary pipeline = pipelineSummaryOf(run);
    if (const QString line = pipelineLine(pipeline); !line.isEmpty()) {
        out << line << "\n";
    }
    for (const QString& note : settingsWithoutEffect(pipeline, run.virtualClock, run.clockSpeed)) {
        out << "note: " << note << "\n";
    }
    if (sharesRoundTrips(run)) {
        out << QStringLiteral(
                   "latency: the %1 limiters share each round trip (traffic "
                   "\"round_trips\": \"shared\"), so their figures differ only by the "
                   "microseconds between their replies; \"per_limiter\" times each "
                   "alone\n")
                   .arg(run.limiters.size());
    }
    for (const LimiterSnapshot& l : run.limiters) {
        out << QStringLiteral("%1 (%2): fired %3 = accepted %4 + rejected %5 + errors %6%7\n")
                   .arg(l.spec.name, limiterTypeName(l.spec.type))
                   .arg(l.fired)
                   .arg(l.accepted)
                   .arg(l.rejected)
                   .arg(l.errors)
                   .arg(l.fired == l.accepted + l.rejected + l.errors
                            ? QString()
                            : QStringLiteral(" (MISMATCH)"));
        if (l.hasReference) {
            out << referenceLine(l);
        }
        if (l.errors > 0) {
            out << QStringLiteral("  errors by cause: %1\n")
                       .arg(errorCausesText(nonZeroCauses(l.errorCauses)));
        }
        if (l.spec.onError != FailurePolicy::Error || l.errorsOpen > 0 || l.errorsClosed > 0) {
            out << QStringLiteral("  on_error %1: of the errors, %2 let through, %3 refused\n")
                       .arg(failurePolicyName(l.spec.onError))
                       .arg(l.errorsOpen)
                       .arg(l.errorsClosed);
        }
        if (!l.spec.gateway.isDefault() || l.gateways.size() > 1) {
            out << QStringLiteral("  redis calls %1 of %2 decisions (gateway %3)%4\n")
                       .arg(l.redisCalls)
                       .arg(l.gatewayDecisions())
                       .arg(gatewayUseText(l.spec.gateway), perGatewayText(l));
        }
        if (l.leases.any()) {
            out << QStringLiteral(
                       "  leases: released %1, late %2, leaked %3; expired unreleased "
                       "%4 (slots)\n")
                       .arg(l.leases.released)
                       .arg(l.leases.lateReleases)
                       .arg(l.leases.leaked)
                       .arg(l.leases.expired);
        }
        out << QStringLiteral("  latency p50 %1 ms  p99 %2 ms  p99.9 %3 ms  fairness %4\n")
                   .arg(ms(l.latency.percentile(50)), 0, 'f', 3)
                   .arg(ms(l.latency.percentile(99)), 0, 'f', 3)
                   .arg(ms(l.latency.percentile(99.9)), 0, 'f', 3)
                   .arg(l.fairness, 0, 'f', 3);
        if (!l.admittedBurst.empty()) {
            out << QStringLiteral("  admitted burst, limiter's time: %1\n")
                       .arg(admittedBurstLine(l.admittedBurst));
        }
        if (!l.admittedBurstRunClock.empty()) {
            out << QStringLiteral("  admitted burst, run's clock:    %1\n")
                       .arg(admittedBurstLine(l.admittedBurstRunClock));
        }
        for (const GroupTotals& g : l.groups) {
            out << groupLines(g);
        }
        // Per client only for a few clients of a per-client limiter: summary.json has every
        // one, for every limiter.
        if (l.spec.scope == Scope::PerClient && l.clients.size() <= kClientsPrinted) {
            for (const ClientTotals& c : l.clients) {
                if (!c.admittedBurst.empty()) {
                    out << QStringLiteral("    %1: %2\n")
                               .arg(c.client, admittedBurstLine(c.admittedBurst));
                }
            }
        }
    }
    for (const FailoverSummary& f : failoversOf(run)) {
        QStringList around;
        for (const auto& [limiter, accepted] : f.acceptedAround) {
            around << QStringLiteral("%1 %2").arg(limiter).arg(accepted);
        }
        out << QStringLiteral(
                   "Sentinel failover at %1 ms: primary %2 -> %3; accepted within %4 ms "
                   "either side: %5 (replication is asynchronous: the new primary may "
                   "not have the last grants, and admit more than the limit)\n")
                   .arg(f.atMs, 0, 'f', 0)
                   .arg(f.from, f.to)
                   .arg(kFailoverSpanMs)
                   .arg(around.join(QStringLiteral(", ")));
    }
    if (comparesPairs(run)) {
        out << "disagreements (same requests; accepted by one, rejected by the other):\n";
        for (const LimiterDisagreement& d : run.disagreements) {
            out << QStringLiteral("  %1 vs %2: %3 of %4\n")
                       .arg(run.limiters[d.a].spec.name, run.limiters[d.b].spec.name)
                       .arg(d.disagreed)
                       .arg(d.compared);
        }
    }
    return text;
}

}  // namespace ratelab
