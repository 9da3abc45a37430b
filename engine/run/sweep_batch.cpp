#include "run/sweep_batch.h"

#include <QThread>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "limiters/scratch_keys.h"
#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"
#include "run/scenario_runner.h"

namespace ratelab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A sweep's metric on every limiter it applies to: the named one, or each varied limiter.
QVector<Expectation> onLimiters(const Expectation& e, const SweepSpec& sweep,
                                const RunSnapshot& run) {
    if (!e.limiter.isEmpty()) {
        return {e};
    }
    QVector<Expectation> out;
    for (int l : sweep.variedLimiters()) {
        Expectation on = e;
        on.limiter = run.limiters.value(l).spec.name;
        out.append(on);
    }
    return out;
}

// One row of sweep.csv: a limiter's figures (LimiterSnapshot) or a group's at it (GroupTotals).
template <typename Totals>
SweepFigures figuresOf(const Totals& totals, const QString& limiter, const QString& group) {
    SweepFigures row;
    row.limiter = limiter;
    row.group = group;
    row.fired = totals.fired;
    row.accepted = totals.accepted;
    row.rejected = totals.rejected;
    row.errors = totals.errors;
    row.admittedBurst = totals.admittedBurst;
    return row;
}

// Loads the scripts of a batch's limiters on every master before its first decision. A
// pipeline that meets NOSCRIPT decides those requests again once it is read, after the ones
// behind them; when another process loads the same script meanwhile (batches of one sweep
// running side by side on a fresh server), the ones behind succeed first, out of order.
void loadScripts(const Scenario& batch, const RedisUrl& url, const ConnectOptions& options) {
    RedisRouter router(url, options);
    std::set<std::string> sources;
    for (const LimiterSpec& spec : batch.limiters) {
        sources.insert(makeLimiter(spec, scratchOptions())->script().source());
    }
    for (RedisConnection* node : router.masterConnections()) {
        for (const std::string& source : sources) {
            throwIfError(node->command({"SCRIPT", "LOAD", source}).get(), "SCRIPT LOAD");
        }
    }
}

}  // namespace

SweepCombination sweepCombinationOf(const SweepSpec& sweep, const RunSnapshot& run, qint64 index) {
    SweepCombination c;
    c.index = index;
    c.values = sweep.valuesOf(index);
    for (const LimiterSnapshot& l : run.limiters) {
        c.rows.append(figuresOf(l, l.spec.name, QStringLiteral("*")));
        // Traffic with named groups: a row per group after the limiter's "*" row, its clients'
        // figures summed (the same figures "group.<name>.<metric>" names).
        for (const GroupTotals& g : l.groups) {
            c.rows.append(figuresOf(g, l.spec.name, g.group));
        }
    }
    Expectation objective;
    objective.limiter = sweep.objective.limiter;
    objective.metric = sweep.objective.metric;
    objective.op = CompareOp::GreaterEqual;
    objective.threshold = -std::numeric_limits<double>::infinity();
    c.objectiveParts = evaluateExpectations(onLimiters(objective, sweep, run), run);
    c.objective = c.objectiveParts.isEmpty() ? kNaN : c.objectiveParts.first().measured;
    for (const ExpectationResult& part : c.objectiveParts) {
        if (std::isnan(part.measured) || std::isnan(c.objective)) {
            c.objective = kNaN;
        } else {
            c.objective = sweep.objective.maximize ? std::min(c.objective, part.measured)
                                                   : std::max(c.objective, part.measured);
        }
    }
    for (const Expectation& constraint : sweep.constraints) {
        c.checks.append(evaluateExpectations(onLimiters(constraint, sweep, run), run));
    }
    return c;
}

SweepBatchRun runSweepBatch(const SweepPlan& plan, const RedisUrl& url,
                            const ConnectOptions& options, qint64 first, qint64 count,
                            const std::atomic<bool>& stop,
                            const std::function<void(double)>& reached) {
    const Scenario scenario = plan.batch(first, count);
    loadScripts(scenario, url, options);
    ScenarioRunner runner(scenario, url, options, scratchOptions());
    if (!stop.load()) {
        runner.start();
    }
    const qint64 startMs = runner.startEpochMs();
    const double durationMs = plan.scenario().traffic.durationS * 1000;
    ScratchKeepAlive keepAlive;  // a batch longer than its keys' capped TTLs
    while (!stop.load() && !runner.finished()) {
        QThread::msleep(20);
        if (keepAlive.due()) {
            try {
                RedisRouter router(url, options);
                keepAlive.keep(router, runner.limitersWithKeys());
            } catch (const RedisError&) {
                // Redis gone: the batch's decisions fail and say so.
            }
        }
        if (reached) {
            reached(durationMs > 0
                        ? std::clamp(double(runner.limiterNowMs() - startMs) / durationMs, 0.0, 1.0)
                        : 1.0);
        }
    }
    runner.requestStop();
    runner.wait();
    const RunSnapshot batch = runner.snapshot();
    SweepBatchRun out;
    if (batch.finished && !batch.stoppedEarly) {
        const QVector<RunSnapshot> runs = plan.split(batch, first, count);
        for (qint64 c = 0; c < count; ++c) {
            out.combinations.append(sweepCombinationOf(plan.sweep(), runs[c], first + c));
        }
    }
    for (const LimiterSnapshot& l : batch.limiters) {
        out.decided += l.fired;
    }
    // The batch's keys go with it, after an interrupt too: its names are scratch names, read
    // by nothing else. Redis gone now: the keys expire.
    try {
        RedisRouter router(url, options);
        deleteScratchKeys(router, runner.limitersWithKeys());
    } catch (const RedisError&) {
    }
    return out;
}

SweepTable sweepTableOf(const SweepPlan& plan, QVector<SweepCombination> combinations) {
    SweepTable t;
    const SweepSpec& sweep = plan.sweep();
    t.scenario = plan.scenario().name;
    for (const SweepAxis& axis : sweep.vary) {
        t.keys << axis.key;
        t.axisValues << axis.values;
    }
    t.objective = sweep.objective.text();
    t.maximize = sweep.objective.maximize;
    for (const Expectation& c : sweep.constraints) {
        t.constraints << sweepConstraintText(c);
    }
    t.total = plan.combinations();
    t.note = plan.clockNote();
    t.warnings = plan.warnings();
    t.combinations = std::move(combinations);
    t.complete = t.combinations.size() == t.total;
    const int best = t.best();
    if (best >= 0) {
        t.bestScenario = scenarioToJson(plan.combination(t.combinations[best].index));
    }
    return t;
}

}  // namespace ratelab
