#include "run/sweep_plan.h"

#include <QRandomGenerator>
#include <QStringList>
#include <algorithm>

#include "input_limits.h"
#include "scenario/scenario_budget.h"
#include "scenario/traffic_length.h"

namespace ratelab {
namespace {

// A real-clock scenario's virtual start, as `explain` has it: a round instant, so sweeps repeat.
constexpr qint64 kRealClockStartMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

}  // namespace

SweepPlan::SweepPlan(Scenario scenario, QString scratch)
    : scenario_(std::move(scenario)), scratch_(std::move(scratch)) {
    if (scratch_.isEmpty()) {
        scratch_ = QStringLiteral("sweep-%1-")
                       .arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 10, 16,
                            QLatin1Char('0'));
    }
    ClockSpec& clock = scenario_.traffic.clock;
    if (!clock.isVirtual) {
        clock.isVirtual = true;
        clock.startMs = kRealClockStartMs;
        clockNote_ = QStringLiteral(
            "the scenario's clock is real; the sweep runs it on a virtual "
            "clock from 2024-01-01T00:00:00Z, as fast as possible");
    }
    clock.speed = 0;
    varied_ = scenario_.sweep.variedLimiters();
    for (int l = 0; l < scenario_.limiters.size(); ++l) {
        if (!varied_.contains(l)) {
            fixed_.append(l);
        }
    }
    findShortTraffic();
}

void SweepPlan::findShortTraffic() {
    QVector<qint64> longest(scenario_.limiters.size(), 0);
    for (qint64 index = 0; index < combinations(); ++index) {
        QVector<LimiterSpec> limiters = scenario_.limiters;
        sweep().apply(limiters, sweep().valuesOf(index));
        for (int l = 0; l < limiters.size(); ++l) {
            longest[l] = std::max(longest[l], longestWindowMs(limiters[l]));
        }
    }
    const double durationS = scenario_.traffic.durationS;
    for (int l = 0; l < longest.size(); ++l) {
        if (durationS * 1000 < 2.0 * double(longest[l])) {
            warnings_ << shortTrafficWarning(durationS, scenario_.limiters[l].name, longest[l]);
        }
    }
}

QString SweepPlan::valuesText(qint64 index) const {
    return sweep().valuesText(sweep().valuesOf(index));
}

Scenario SweepPlan::combination(qint64 index) const {
    Scenario s = scenario_;
    s.sweep = SweepSpec();
    s.name = QStringLiteral("%1 (%2)").arg(scenario_.name, valuesText(index));
    sweep().apply(s.limiters, sweep().valuesOf(index));
    for (const Expectation& c : sweep().constraints) {
        if (!c.limiter.isEmpty()) {
            s.expectations.append(c);
            continue;
        }
        for (int l : varied_) {
            Expectation e = c;
            e.limiter = scenario_.limiters[l].name;
            s.expectations.append(e);
        }
    }
    return s;
}

QString SweepPlan::scratchName(const QString& tag, const QString& name) const {
    const QString prefix = scratch_ + tag + QLatin1Char('-');
    return prefix + name.left(spec_limits::kMaxNameLength - prefix.size());
}

Scenario SweepPlan::batch(qint64 first, qint64 count) const {
    Scenario b = scenario_;
    b.sweep = SweepSpec();
    // A virtual clock decides the same whatever the pipeline (the worker ends a batch where a
    // decision depends on a reply not yet read), so a batch's requests share round trips as
    // far as the engine allows.
    b.traffic.pipeline = scenario_limits::kMaxPipeline;
    b.limiters.clear();
    b.expectations.clear();
    const auto addChecks = [&b](const Scenario& of, const QString& name, const QString& as) {
        for (const Expectation& e : of.expectations) {
            if (e.limiter == name) {
                Expectation renamed = e;
                renamed.limiter = as;
                b.expectations.append(renamed);
            }
        }
    };
    const Scenario firstCombination = combination(first);
    for (int l : fixed_) {
        LimiterSpec spec = scenario_.limiters[l];
        spec.name = scratchName(QStringLiteral("f%1").arg(first), spec.name);
        addChecks(firstCombination, scenario_.limiters[l].name, spec.name);
        b.limiters.append(spec);
    }
    for (const Expectation& e : firstCombination.expectations) {
        if (e.limiter == QLatin1String("*")) {
            b.expectations.append(e);
        }
    }
    for (qint64 c = first; c < first + count; ++c) {
        const Scenario alone = combination(c);
        for (int l : varied_) {
            LimiterSpec spec = alone.limiters[l];
            spec.name = scratchName(QString::number(c), spec.name);
            addChecks(alone, alone.limiters[l].name, spec.name);
            b.limiters.append(spec);
        }
    }
    return b;
}

QVector<RunSnapshot> SweepPlan::split(const RunSnapshot& batch, qint64 first, qint64 count) const {
    RunSnapshot shared = batch;
    shared.limiters.clear();
    shared.disagreements.clear();
    shared.expectations.clear();
    QVector<RunSnapshot> out;
    for (qint64 c = first; c < first + count; ++c) {
        const Scenario alone = combination(c);
        RunSnapshot s = shared;
        s.scenarioName = alone.name;
        for (int l = 0; l < alone.limiters.size(); ++l) {
            const qsizetype fixedAt = fixed_.indexOf(l);
            const qsizetype slot =
                fixedAt >= 0 ? fixedAt
                             : fixed_.size() + (c - first) * varied_.size() + varied_.indexOf(l);
            LimiterSnapshot limiter = batch.limiters.value(slot);
            limiter.spec = alone.limiters[l];
            s.limiters.append(limiter);
        }
        if (s.finished) {
            s.expectations = evaluateExpectations(alone.expectations, s);
        }
        out.append(s);
    }
    return out;
}

qint64 SweepPlan::batchSize(qint64 budgetBytes) const {
    const qint64 n = combinations();
    if (n <= 1) {
        return 1;
    }
    const qint64 one = estimateMemory(batch(0, 1)).total();
    const qint64 each = std::max<qint64>(1, estimateMemory(batch(0, 2)).total() - one);
    const qint64 fit = 1 + std::max<qint64>(0, budgetBytes - one) / each;
    return std::clamp<qint64>(fit, 1, std::min(kMaxBatch, n));
}

}  // namespace ratelab
