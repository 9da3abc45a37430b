#include "run/sweep_runner.h"

#include <QThread>
#include <algorithm>
#include <cmath>
#include <limits>

#include "limiters/scratch_keys.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "run/scenario_runner.h"
#include "traffic/pacer.h"

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

SweepRunner::SweepRunner(SweepPlan plan, RedisUrl url, ConnectOptions options,
                         qint64 memoryBudgetBytes)
    : plan_(std::move(plan)), url_(std::move(url)), options_(options) {
    batchSize_ = plan_.batchSize(memoryBudgetBytes);
    const TrafficSpec& traffic = plan_.scenario().traffic;
    requestsPerRun_ = static_cast<qint64>(std::llround(
        expectedSends(traffic.shape, static_cast<qint64>(std::llround(traffic.durationS * 1e6)))));
}

SweepRunner::~SweepRunner() {
    requestStop();
    wait();
}

void SweepRunner::start() {
    if (thread_.joinable() || finished_.load()) {
        return;
    }
    started_ = std::chrono::steady_clock::now();
    thread_ = std::thread([this] { runAll(); });
}

void SweepRunner::requestStop() {
    stop_ = true;
    std::lock_guard<std::mutex> lock(mutex_);
    if (current_ != nullptr) {
        current_->requestStop();
    }
}

void SweepRunner::wait() {
    if (thread_.joinable()) {
        thread_.join();
    }
}

QString SweepRunner::error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

void SweepRunner::runAll() {
    const qint64 total = plan_.combinations();
    try {
        for (qint64 first = 0; first < total && !stop_.load(); first += batchSize_) {
            runBatch(first, std::min(batchSize_, total - first));
        }
    } catch (const RedisError& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = QString::fromStdString(e.what());
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = done_.size() < total;
    }
    finished_ = true;
}

void SweepRunner::runBatch(qint64 first, qint64 count) {
    ScenarioRunner runner(plan_.batch(first, count), url_, options_, scratchOptions());
    const qint64 limiters = runner.scenario().limiters.size();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        current_ = &runner;
    }
    const auto detach = [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        current_ = nullptr;
    };
    try {
        if (!stop_.load()) {
            runner.start();
        }
    } catch (...) {
        detach();
        throw;
    }
    const qint64 startMs = runner.startEpochMs();
    const double durationMs = plan_.scenario().traffic.durationS * 1000;
    ScratchKeepAlive keepAlive;  // a batch longer than its keys' capped TTLs
    while (!stop_.load() && !runner.finished()) {
        QThread::msleep(20);
        if (keepAlive.due()) {
            try {
                RedisRouter router(url_, options_);
                keepAlive.keep(router, runner.limitersWithKeys());
            } catch (const RedisError&) {
                // Redis gone: the batch's decisions fail and say so.
            }
        }
        const double reached =
            durationMs > 0
                ? std::clamp(double(runner.limiterNowMs() - startMs) / durationMs, 0.0, 1.0)
                : 1.0;
        std::lock_guard<std::mutex> lock(mutex_);
        currentDecisions_ = qint64(reached * double(requestsPerRun_ * limiters));
    }
    detach();
    runner.requestStop();
    runner.wait();
    const RunSnapshot batch = runner.snapshot();
    QVector<SweepCombination> finished;
    if (batch.finished && !batch.stoppedEarly) {
        const QVector<RunSnapshot> runs = plan_.split(batch, first, count);
        for (qint64 c = 0; c < count; ++c) {
            finished.append(sweepCombinationOf(plan_.sweep(), runs[c], first + c));
        }
    }
    qint64 decided = 0;
    for (const LimiterSnapshot& l : batch.limiters) {
        decided += l.fired;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        decidedBefore_ += decided;
        currentDecisions_ = 0;
        done_ += finished;
    }
    // The batch's keys go with it, after an interrupt too: its names are scratch names, read
    // by nothing else. Redis gone now: the keys expire; the next batch reports the failure.
    try {
        RedisRouter router(url_, options_);
        deleteScratchKeys(router, runner.limitersWithKeys());
    } catch (const RedisError&) {
    }
}

SweepProgress SweepRunner::progress() const {
    SweepProgress p;
    p.total = plan_.combinations();
    p.finished = finished_.load();
    const qint64 fixed = plan_.scenario().limiters.size() - plan_.sweep().variedLimiters().size();
    const qint64 batches = (p.total + batchSize_ - 1) / batchSize_;
    p.plannedDecisions =
        requestsPerRun_ * (p.total * plan_.sweep().variedLimiters().size() + batches * fixed);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p.done = done_.size();
        p.decisions = decidedBefore_ + currentDecisions_;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (seconds > 0 && started_ != std::chrono::steady_clock::time_point{}) {
        p.decisionsPerS = double(p.decisions) / seconds;
    }
    if (p.finished) {
        p.secondsLeft = 0;
    } else if (p.decisionsPerS > 0) {
        p.secondsLeft =
            double(std::max<qint64>(0, p.plannedDecisions - p.decisions)) / p.decisionsPerS;
    }
    return p;
}

QVector<SweepCombination> SweepRunner::takeFinished() {
    std::lock_guard<std::mutex> lock(mutex_);
    QVector<SweepCombination> out = done_.mid(taken_);
    taken_ = done_.size();
    return out;
}

SweepTable SweepRunner::table() const {
    SweepTable t;
    const SweepSpec& sweep = plan_.sweep();
    t.scenario = plan_.scenario().name;
    for (const SweepAxis& axis : sweep.vary) {
        t.keys << axis.key;
        t.axisValues << axis.values;
    }
    t.objective = sweep.objective.text();
    t.maximize = sweep.objective.maximize;
    for (const Expectation& c : sweep.constraints) {
        t.constraints << sweepConstraintText(c);
    }
    t.total = plan_.combinations();
    t.note = plan_.clockNote();
    t.warnings = plan_.warnings();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        t.combinations = done_;
    }
    t.complete = t.combinations.size() == t.total;
    const int best = t.best();
    if (best >= 0) {
        t.bestScenario = scenarioToJson(plan_.combination(t.combinations[best].index));
    }
    return t;
}

}  // namespace ratelab
