#include "panels/comparison_cells.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "panels/comparison_table.h"
#include "panels/marked_burst.h"
#include "panels/table_cells.h"

namespace ratelab::comparison {
namespace {

QString tr(const char* text) {
    return ComparisonTable::tr(text);
}

// Two leading spaces: a group's rows sit under their limiter's.
QString indented(const QString& text) {
    return QStringLiteral("  ") + text;
}

// Accepted / fired × 100, or -1 with nothing fired.
double acceptedPct(const OutcomeTotals& c) {
    return c.fired > 0 ? 100.0 * double(c.accepted) / double(c.fired) : -1.0;
}

QString pctText(double pct) {
    return pct < 0 ? panel::dash() : QLocale().toString(pct, 'f', 1);
}

// A latency percentile cell. A virtual clock run as fast as possible decides each request at its
// scheduled time without waiting for Redis: every latency is 0, and the cell says why.
Cell latencyCell(const LatencyHistogram::Snapshot& latency, double percentile) {
    if (latency.total == 0)
        return {panel::dash(), {}};
    if (latency.max == 0)
        return {tr("0 (virtual)"),
                tr("A virtual clock as fast as possible decides each request at its scheduled "
                   "time without waiting for Redis: there is no latency to measure.")};
    return {panel::formatMs(latency.percentile(percentile)), {}};
}

QString latencyText(const LatencyHistogram::Snapshot& latency, double percentile) {
    return latencyCell(latency, percentile).text;
}

// The figures a limiter's and a group's rows share: counts, accepted share, fairness.
void fillCounts(Row& row, const OutcomeTotals& c, double fairness) {
    const qint64 counts[] = {c.fired,  c.accepted,   c.rejected,
                             c.errors, c.errorsOpen, c.errorsClosed};
    for (int k = 0; k < 6; ++k)
        row[kFired + k] = {panel::count(counts[k]), {}};
    row[kAcceptedPct] = {pctText(acceptedPct(c)), {}};
    row[kFairness] = {QLocale().toString(fairness, 'f', 3), {}};
}

// "17" under a header naming the window, "17 in 1 s" where the limiters' windows differ.
QString burstText(const BusiestInterval& b, qint64 columnWindowMs) {
    return columnWindowMs > 0 ? panel::count(b.permits)
                              : tr("%1 in %2").arg(panel::count(b.permits), windowText(b.windowMs));
}

// "+3", "−2", "0": a difference, signed.
QString signedText(double delta, const QString& magnitude) {
    if (delta == 0)
        return QStringLiteral("0");
    return (delta > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + magnitude;
}

// One baseline cell: the baseline's value and this run's difference to it, and the tooltip
// that says so in words.
Cell baselineCell(const QString& label, const QString& base, const QString& now,
                  const QString& delta) {
    if (delta.isEmpty())
        return {base, tr("baseline %1: %2; this run: %3").arg(label, base, now)};
    return {tr("%1 (\u0394 %2)").arg(base, delta),
            tr("baseline %1: %2; this run: %3; \u0394 (this run \u2212 baseline) %4")
                .arg(label, base, now, delta)};
}

Cell countCell(const QString& label, qint64 base, qint64 now) {
    return baselineCell(label, panel::count(base), panel::count(now),
                        signedText(double(now - base), panel::count(std::abs(now - base))));
}

// A baseline latency percentile (ms), as latencyCell shows this run's.
Cell baselineLatencyCell(const QString& label, const Percentiles& base, double baseMs,
                         const LatencyHistogram::Snapshot& now, double percentile) {
    const QString nowText = latencyText(now, percentile);
    if (base.count == 0)
        return {panel::dash(), tr("baseline %1: no decision timed").arg(label)};
    if (base.maxMs == 0)
        return baselineCell(label, tr("0 (virtual)"), nowText, QString());
    const qint64 baseUs = qint64(std::llround(baseMs * 1000));
    if (now.total == 0 || now.max == 0)
        return baselineCell(label, panel::formatMs(baseUs), nowText, QString());
    const qint64 deltaUs = now.percentile(percentile) - baseUs;
    return baselineCell(label, panel::formatMs(baseUs), nowText,
                        signedText(double(deltaUs), panel::formatMs(std::abs(deltaUs))));
}

// The baseline's counts, accepted share and fairness against this run's.
void fillBaselineCounts(Row& row, const QString& label, const OutcomeTotals& base,
                        double baseFairness, const OutcomeTotals& now, double nowFairness) {
    const qint64 b[] = {base.fired,  base.accepted,   base.rejected,
                        base.errors, base.errorsOpen, base.errorsClosed};
    const qint64 n[] = {now.fired,  now.accepted,   now.rejected,
                        now.errors, now.errorsOpen, now.errorsClosed};
    for (int k = 0; k < 6; ++k)
        row[kFired + k] = countCell(label, b[k], n[k]);
    const QLocale locale;
    const double basePct = acceptedPct(base);
    const double nowPct = acceptedPct(now);
    row[kAcceptedPct] =
        basePct < 0 || nowPct < 0
            ? baselineCell(label, pctText(basePct), pctText(nowPct), QString())
            : baselineCell(label, pctText(basePct), pctText(nowPct),
                           signedText(std::round((nowPct - basePct) * 10) / 10,
                                      locale.toString(std::abs(nowPct - basePct), 'f', 1)));
    const double fairDelta = std::round((nowFairness - baseFairness) * 1000) / 1000;
    row[kFairness] = baselineCell(
        label, locale.toString(baseFairness, 'f', 3), locale.toString(nowFairness, 'f', 3),
        signedText(fairDelta, locale.toString(std::abs(fairDelta), 'f', 3)));
}

// The baseline's admitted burst in the window this run's cell shows, against this run's.
Cell baselineBurstCell(const QString& label, const std::vector<BusiestInterval>& base,
                       const BusiestInterval* now, qint64 columnWindowMs) {
    if (now == nullptr)
        return {panel::dash(), {}};
    const BusiestInterval* b = panel::burstIn(base, now->windowMs);
    if (b == nullptr)
        return {panel::dash(),
                tr("baseline %1: no admitted burst in %2 ms").arg(label).arg(now->windowMs)};
    return baselineCell(label, burstText(*b, columnWindowMs), burstText(*now, columnWindowMs),
                        signedText(double(now->permits - b->permits),
                                   panel::count(std::abs(now->permits - b->permits))));
}

// Every cell of a row with nothing to show: a dash, and why in the tooltip.
Row emptyRow(const QString& name, const QString& why) {
    Row row;
    row[kLimiter] = {name, why};
    for (int c = kType; c < kColumns; ++c)
        row[c] = {panel::dash(), why};
    return row;
}

// A row that only says why it has no figures, indented under its group, across the row.
Row messageRow(const QString& why) {
    Row row = emptyRow(indented(why), why);
    row[kLimiter].span = kColumns;
    return row;
}

const BusiestInterval* groupBurst(const LimiterSnapshot& s, const GroupTotals& g) {
    const std::optional<panel::MarkedBurst> marked = panel::markedBurst(s);
    return marked ? panel::burstIn(g.admittedBurst, marked->interval.windowMs) : nullptr;
}

// "118": the decisions the reference made otherwise, of those both made (their share in the
// tooltip: the column stays narrow at 1024 px); bold in the error colour when there is any. A
// dash for a limiter without a reference.
Cell referenceCell(bool hasReference, const ReferenceCounts& r, const QString& whose) {
    if (!hasReference)
        return {panel::dash(), tr("No reference: only a script limiter with a \"reference\" is "
                                  "compared with one")};
    const QString share =
        r.compared > 0
            ? QLocale().toString(100.0 * double(r.disagreed) / double(r.compared), 'f', 1)
            : panel::dash();
    return {panel::count(r.disagreed),
            tr("%1: of %2 decisions both made, the reference decided %3 otherwise (%4 %; the "
               "triangles on the timeline)")
                .arg(whose, panel::count(r.compared), panel::count(r.disagreed), share),
            r.disagreed > 0};
}

}  // namespace

QString windowText(qint64 windowMs) {
    if (windowMs > 0 && windowMs % 60000 == 0)
        return tr("%1 min").arg(windowMs / 60000);
    if (windowMs > 0 && windowMs % 1000 == 0)
        return tr("%1 s").arg(windowMs / 1000);
    return tr("%1 ms").arg(windowMs);
}

bool reportsGateways(const LimiterSnapshot& s) {
    return !s.spec.gateway.isDefault() || s.gateways.size() > 1;
}

QString gatewaysText(const LimiterSnapshot& s) {
    const qsizetype gateways = std::max<qsizetype>(1, s.gateways.size());
    return (gateways > 1 ? tr("%1 gateways").arg(gateways) : tr("1 gateway")) +
           QStringLiteral(", ") + gatewayModeName(s.spec.gateway.mode) +
           (s.spec.gateway.cacheRefusals ? tr(", cached refusals") : QString());
}

qint64 burstColumnWindow(const RunSnapshot& run) {
    qint64 window = -1;
    for (const LimiterSnapshot& s : run.limiters) {
        const std::optional<panel::MarkedBurst> marked = panel::markedBurst(s);
        if (!marked)
            continue;
        if (window < 0)
            window = marked->interval.windowMs;
        else if (window != marked->interval.windowMs)
            return 0;
    }
    return window;
}

QString sharedScope(const RunSnapshot& run) {
    if (run.limiters.isEmpty())
        return QString();
    const Scope scope = run.limiters.first().spec.scope;
    for (const LimiterSnapshot& s : run.limiters) {
        if (s.spec.scope != scope)
            return QString();
    }
    return scope == Scope::PerClient ? QStringLiteral("per_client") : QStringLiteral("global");
}

Row limiterRow(const LimiterSnapshot& s, qint64 columnWindowMs, bool withScope) {
    Row row;
    row[kLimiter] = {s.spec.name, {}};
    QString type = limiterTypeName(s.spec.type);
    if (withScope && s.spec.scope == Scope::PerClient)
        type += QStringLiteral(" (per_client)");
    row[kType] = {type, s.spec.scope == Scope::PerClient ? tr("%1, a limit per client").arg(type)
                                                         : QString()};
    fillCounts(row, s.outcomes(), s.fairness);
    row[kP50] = latencyCell(s.latency, 50);
    row[kP99] = latencyCell(s.latency, 99);
    QString calls =
        tr("%1 of %2 decisions called Redis (%3); the others the gateway decided "
           "from its own state")
            .arg(panel::count(s.redisCalls), panel::count(s.gatewayDecisions()), gatewaysText(s));
    // Several gateways: each one's share, where the trade shows (a node-local gateway calls
    // for every decision, a cache for some).
    for (int g = 0; s.gateways.size() > 1 && g < s.gateways.size(); ++g) {
        calls += QLatin1Char('\n') + tr("gateway %1: %2 of %3 decisions called Redis")
                                         .arg(g)
                                         .arg(panel::count(s.gateways[g].redisCalls),
                                              panel::count(s.gateways[g].decisions));
    }
    row[kRedisCalls] = {panel::count(s.redisCalls), calls};
    row[kReference] = referenceCell(s.hasReference, s.outcomes().reference, s.spec.name);
    const std::optional<panel::MarkedBurst> marked = panel::markedBurst(s);
    if (!marked) {
        row[kBurst] = {panel::dash(), tr("Measured from the decisions when the run ends.")};
        return row;
    }
    const BusiestInterval& b = marked->interval;
    const QLocale locale;
    row[kBurst] = {
        burstText(b, columnWindowMs),
        tr("%1 accepted in %2 ms (from %3 s of the run, on the limiter's time); its limit admits "
           "%4 there in the steady state%5")
            .arg(panel::count(b.permits))
            .arg(b.windowMs)
            .arg(locale.toString(double(b.fromMs) / 1000.0, 'f', 3),
                 locale.toString(marked->limit, 'g', 4),
                 marked->releasedSlots
                     ? tr(" if no grant releases; its grants released their slots, so it "
                          "allows more (its limit is on requests in flight)")
                 : marked->aboveLimit() ? tr(": above it, a burst got through")
                                        : QString()),
        marked->aboveLimit()};
    return row;
}

Row groupRow(const LimiterSnapshot& s, const GroupTotals& g, qint64 columnWindowMs) {
    Row row;
    const QString about = tr("The traffic group \"%1\" at %2: its %3 clients' requests")
                              .arg(g.group, s.spec.name)
                              .arg(g.clients);
    row[kLimiter] = {indented(g.group), about};
    row[kType] = {g.clients == 1 ? tr("1 client") : tr("%1 clients").arg(g.clients), about};
    fillCounts(row, g.outcomes(), g.fairness);
    row[kFairness].toolTip = tr("Jain's index over the group's clients' accepted counts");
    const QString perLimiter = tr("Measured per limiter, not per group");
    for (int c : {kP50, kP99, kRedisCalls})
        row[c] = {panel::dash(), perLimiter};
    row[kReference] =
        referenceCell(s.hasReference, g.outcomes().reference, tr("the group \"%1\"").arg(g.group));
    const BusiestInterval* b = groupBurst(s, g);
    row[kBurst] = b == nullptr ? Cell{panel::dash(), {}}
                               : Cell{burstText(*b, columnWindowMs),
                                      tr("The group's clients had %1 accepted in %2 ms at most "
                                         "(on the limiter's time)")
                                          .arg(panel::count(b->permits))
                                          .arg(b->windowMs)};
    return row;
}

Row baselineRow(const RunBaseline& baseline, const LimiterSnapshot& s, qint64 columnWindowMs) {
    const QString label = baseline.label;
    const LimiterSummary* b = baseline.find(s.spec.name);
    if (b == nullptr)
        return emptyRow(tr("not in baseline %1").arg(label),
                        tr("The baseline %1 has no limiter named \"%2\"").arg(label, s.spec.name));
    Row row;
    row[kLimiter] = {tr("baseline %1").arg(label),
                     tr("The baseline run %1 (%2): its figures for \"%3\"")
                         .arg(label, baseline.run.scenario, s.spec.name)};
    row[kType] = {QString(), row[kLimiter].toolTip};
    fillBaselineCounts(row, label, b->counts, b->fairness, s.outcomes(), s.fairness);
    row[kP50] = baselineLatencyCell(label, b->latency, b->latency.p50Ms, s.latency, 50);
    row[kP99] = baselineLatencyCell(label, b->latency, b->latency.p99Ms, s.latency, 99);
    row[kRedisCalls] =
        b->redisCalls < 0
            ? Cell{panel::dash(),
                   tr("baseline %1: Redis calls not reported (one gateway, shared)").arg(label)}
            : countCell(label, b->redisCalls, s.redisCalls);
    row[kReference] =
        b->hasReference
            ? countCell(label, b->counts.reference.disagreed, s.outcomes().reference.disagreed)
            : Cell{panel::dash(), tr("baseline %1: no reference").arg(label)};
    const std::optional<panel::MarkedBurst> marked = panel::markedBurst(s);
    row[kBurst] = baselineBurstCell(label, b->admittedBurst, marked ? &marked->interval : nullptr,
                                    columnWindowMs);
    return row;
}

Row groupBaselineRow(const RunBaseline& baseline, const LimiterSnapshot& s, const GroupTotals& g,
                     qint64 columnWindowMs) {
    const QString label = baseline.label;
    const LimiterSummary* b = baseline.find(s.spec.name);
    if (b == nullptr)
        return emptyRow(indented(tr("not in baseline %1").arg(label)),
                        tr("The baseline %1 has no limiter named \"%2\"").arg(label, s.spec.name));
    if (b->groups.isEmpty())
        return messageRow(tr("no groups in baseline %1: its traffic had none, or its summary was "
                             "written before groups were kept")
                              .arg(label));
    const auto found = std::find_if(b->groups.begin(), b->groups.end(),
                                    [&](const GroupSummary& bg) { return bg.group == g.group; });
    if (found == b->groups.end())
        return messageRow(tr("not in baseline %1: it has no group \"%2\" at \"%3\"")
                              .arg(label, g.group, s.spec.name));
    Row row =
        emptyRow(indented(tr("baseline %1").arg(label)), tr("Measured per limiter, not per group"));
    row[kLimiter].toolTip =
        tr("The baseline run %1 (%2): the figures of its group \"%3\" at \"%4\"")
            .arg(label, baseline.run.scenario, g.group, s.spec.name);
    row[kType] = {QString(), row[kLimiter].toolTip};
    fillBaselineCounts(row, label, found->counts, found->fairness, g.outcomes(), g.fairness);
    if (b->hasReference)
        row[kReference] =
            countCell(label, found->counts.reference.disagreed, g.outcomes().reference.disagreed);
    row[kBurst] = baselineBurstCell(label, found->admittedBurst, groupBurst(s, g), columnWindowMs);
    return row;
}

}  // namespace ratelab::comparison
