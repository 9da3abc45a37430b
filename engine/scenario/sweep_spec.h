#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QVector>

#include "limiters/limiter_spec.h"
#include "stats/expectation.h"

namespace ratelab {

// One varied parameter of a sweep: "vary": {"login.rules[1].limit": [5, 10, 20]}.
struct SweepAxis {
    QString key;             // as the file names it: "<limiter name>.<field path>"
    int limiter = 0;         // index into the scenario's limiters
    QString path;            // the field path (NumericParam::path): "rate", "rules[1].limit"
    QVector<qint64> values;  // in the file's order (a range: ascending), distinct
    // Read from {"from", "to", "step"} (written back so): its step and end (values holds
    // from, from + step, ... up to `to`); 0 for a list.
    qint64 step = 0;
    qint64 to = 0;

    bool operator==(const SweepAxis& o) const {
        return key == o.key && limiter == o.limiter && path == o.path && values == o.values &&
               step == o.step && to == o.to;
    }
};

// A metric the sweep optimizes or constrains, "[<limiter>:]<metric>": on one limiter, or
// (limiter empty) on every limiter whose parameters vary.
struct SweepObjective {
    QString limiter;  // empty: every varied limiter (the worst of them counts)
    QString metric;
    bool maximize = false;

    QString text() const;  // "login:accepted" or "accepted"
    bool operator==(const SweepObjective& o) const {
        return limiter == o.limiter && metric == o.metric && maximize == o.maximize;
    }
};

// A scenario's "sweep" (docs/scenarios.md, "Sweeps"): every combination of the varied
// parameters' values runs on the scenario's traffic; the best combination that keeps every
// constraint optimizes the objective. Empty (no axis): the scenario has no sweep.
struct SweepSpec {
    QVector<SweepAxis> vary;  // in the keys' sorted order (JSON objects have none)
    SweepObjective objective;
    // "[<limiter>:]<metric> <op> <number>"; an Expectation whose limiter is empty applies to
    // every varied limiter.
    QVector<Expectation> constraints;

    bool isEmpty() const { return vary.isEmpty(); }
    // The number of combinations (the product of the axes' value counts); 0 without a sweep.
    qint64 combinations() const;
    // The indexes of the limiters some axis varies, ascending.
    QVector<int> variedLimiters() const;
    // Combination `index` (0 to combinations() - 1): one value per axis, the first axis
    // changing slowest.
    QVector<qint64> valuesOf(qint64 index) const;
    // "login.rate = 10, login.burst = 5" for `values` (one per axis).
    QString valuesText(const QVector<qint64>& values) const;
    // `limiters` with the axes' `values` (one per axis, as valuesOf gives) set.
    void apply(QVector<LimiterSpec>& limiters, const QVector<qint64>& values) const;
    bool operator==(const SweepSpec& o) const {
        return vary == o.vary && objective == o.objective && constraints == o.constraints;
    }
};

// "login:group.users.rejected_pct <= 1", or without the prefix for every varied limiter.
QString sweepConstraintText(const Expectation& constraint);

namespace scenario_json {

// Reads "sweep" at `where` (sweep_parser.cpp): the axes resolved against `limiters` (an unknown
// limiter or field names the choices), every value of every combination checked by the
// limiter's own parser, the objective and the constraints parsed as expectations are. An
// InputError names the JSON path and, for a refused value, the combination.
SweepSpec readSweep(const QJsonValue& value, const QString& where,
                    const QVector<LimiterSpec>& limiters);
QJsonObject sweepToJson(const SweepSpec& sweep);

}  // namespace scenario_json
}  // namespace ratelab
