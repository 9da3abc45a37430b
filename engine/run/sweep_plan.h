#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// How a sweep runs (`ratelab sweep`, the window's Tune tab): what each combination of the
// varied values is as a scenario of its own, and the batches that run many combinations at
// once. A batch is one run of one schedule: every combination's varied limiters under scratch
// names of their own (their own hash tags: on one Redis they share its pipeline, on a cluster
// they spread over its slots), with the limiters no axis varies beside them. A limiter's
// decisions depend on its own keys and the schedule alone, so each combination decides in the
// batch exactly as `ratelab run` of its scenario decides alone (tst_sweep asserts it).
class SweepPlan {
public:
    // `scenario` has a sweep (Scenario::sweep not empty). `scratch` starts every scratch name
    // (default: "sweep-<10 random hex digits>-").
    explicit SweepPlan(Scenario scenario, QString scratch = {});

    const Scenario& scenario() const { return scenario_; }
    const SweepSpec& sweep() const { return scenario_.sweep; }
    qint64 combinations() const { return scenario_.sweep.combinations(); }
    // A real-clock scenario runs on a virtual clock (a sweep compares combinations on the same
    // decisions): what it was changed to, for a note; empty when the scenario's clock is kept.
    QString clockNote() const { return clockNote_; }
    // One sentence per limiter whose longest window, at the largest any combination gives it,
    // is more than half the traffic (scenario/traffic_length.h): the sweep would tune it on
    // its warm-up. Empty when none is.
    const QStringList& warnings() const { return warnings_; }

    // The scenario combination `index` is, as `ratelab run` would run it alone: the values
    // set, a virtual clock as fast as possible (a real clock starts at 2024-01-01T00:00:00Z,
    // as `explain` has it), every constraint as an expectation (an unprefixed one on each
    // varied limiter) after the scenario's own, no sweep; named "<scenario> (<key> = <value>,
    // ...)".
    Scenario combination(qint64 index) const;
    // The varied values as the scenario's name carries them: "login.rate = 10, login.burst = 5".
    QString valuesText(qint64 index) const;

    // The run of combinations [first, first + count): the limiters no axis varies under
    // "<scratch>f<first>-<name>" and each combination's varied limiters under
    // "<scratch><index>-<name>", in that order; every expectation of every combination on its
    // scratch name, so each computes the admitted bursts its own run computes.
    Scenario batch(qint64 first, qint64 count) const;
    // A finished run of batch(first, count) split into one snapshot per combination, each as
    // `ratelab run` of combination(index) gives it: the limiters under their own names in the
    // scenario's order, its expectations checked (pairs of limiters are not compared: no
    // disagreements).
    QVector<RunSnapshot> split(const RunSnapshot& batch, qint64 first, qint64 count) const;

    // Combinations per batch: as many as keep the batch's memory (estimateMemory) within
    // `budgetBytes`, at least 1, at most kMaxBatch.
    qint64 batchSize(qint64 budgetBytes) const;
    static constexpr qint64 kMaxBatch = 64;

private:
    void findShortTraffic();
    QString scratchName(const QString& tag, const QString& name) const;

    Scenario scenario_;  // with the clock the sweep runs on
    QString scratch_;
    QString clockNote_;
    QStringList warnings_;
    QVector<int> varied_;  // limiter indexes an axis varies
    QVector<int> fixed_;   // the others
};

}  // namespace ratelab
