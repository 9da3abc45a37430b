// Reading and writing a scenario's "sweep" (scenario/sweep_spec.h): the varied fields resolved
// through the limiters' descriptors (Algorithm::numericParams), every combination's limiters
// checked by their own parser, the objective and constraints parsed as expectations are.

#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>
#include <limits>

#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm.h"
#include "scenario/scenario_json.h"
#include "scenario/sweep_spec.h"

namespace ratelab {

using namespace json_input;

namespace {

const QLatin1String kVary("vary"), kMinimize("minimize"), kMaximize("maximize");
const QLatin1String kConstraints("constraints"), kFrom("from"), kTo("to"), kStep("step");

// The limiter and field `key` names: the longest limiter name followed by "." and one of that
// limiter's numeric fields.
SweepAxis resolveKey(const QString& key, const QString& where, const QVector<LimiterSpec>& limiters,
                     NumericParam* param) {
    int named = -1;     // the limiter with that field
    int prefixed = -1;  // a limiter whose name starts the key, without such a field
    for (int i = 0; i < limiters.size(); ++i) {
        const QString& name = limiters[i].name;
        if (!key.startsWith(name + QLatin1Char('.'))) {
            continue;
        }
        const QString path = key.mid(name.size() + 1);
        bool found = false;
        for (const NumericParam& p : algorithmOf(limiters[i]).numericParams(limiters[i])) {
            if (p.path == path && (named < 0 || name.size() > limiters[named].name.size())) {
                named = i;
                *param = p;
                found = true;
            }
        }
        if (!found && (prefixed < 0 || name.size() > limiters[prefixed].name.size())) {
            prefixed = i;
        }
    }
    if (named < 0 && prefixed >= 0) {
        const LimiterSpec& spec = limiters[prefixed];
        QStringList fields;
        for (const NumericParam& p : algorithmOf(spec).numericParams(spec)) {
            fields << quoted(spec.name + QLatin1Char('.') + p.path);
        }
        throw InputError(where, QStringLiteral("%1 has no numeric field %2; expected %3")
                                    .arg(quoted(spec.name), quoted(key.mid(spec.name.size() + 1)),
                                         oneOf(fields)));
    }
    if (named < 0) {
        QStringList names;
        for (const LimiterSpec& spec : limiters) {
            names << quoted(spec.name);
        }
        throw InputError(where, QStringLiteral("%1 names no limiter; expected "
                                               "\"<limiter name>.<field>\" with a limiter of %2")
                                    .arg(quoted(key), oneOf(names)));
    }
    SweepAxis axis;
    axis.key = key;
    axis.limiter = named;
    axis.path = param->path;
    return axis;
}

// A list of distinct integers, or {"from", "to", "step"} (step default 1), each within the
// field's range.
void readValues(const QJsonValue& value, const QString& where, const NumericParam& param,
                SweepAxis& axis) {
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        if (array.isEmpty()) {
            throw InputError(where, QStringLiteral("must hold at least one value"));
        }
        if (array.size() > scenario_limits::kMaxSweepCombinations) {
            throw InputError(where, QStringLiteral("has %1 values; a sweep has at most %2 "
                                                   "combinations")
                                        .arg(array.size())
                                        .arg(scenario_limits::kMaxSweepCombinations));
        }
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString at = elementPath(where, i);
            const qint64 v = scenario_json::readInteger(array.at(i), at, param.min, param.max);
            if (axis.values.contains(v)) {
                throw InputError(at, QStringLiteral("%1 is already in the list").arg(v));
            }
            axis.values.append(v);
        }
        return;
    }
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be a list of values or {\"from\", \"to\", "
                                               "\"step\"}, got ") +
                                    describe(value));
    }
    const QJsonObject range = value.toObject();
    refuseUnknownFields(range, where, {kFrom, kTo, kStep});
    const qint64 from = scenario_json::readInteger(range, where, kFrom, param.min, param.max);
    const qint64 to = scenario_json::readInteger(range, where, kTo, param.min, param.max);
    axis.step = range.contains(kStep) ? scenario_json::readInteger(range, where, kStep, 1,
                                                                   std::numeric_limits<int>::max())
                                      : 1;
    axis.to = to;
    if (to < from) {
        throw InputError(
            memberPath(where, kTo),
            QStringLiteral("must not be below \"from\" (%1), got %2").arg(from).arg(to));
    }
    const qint64 count = (to - from) / axis.step + 1;
    if (count > scenario_limits::kMaxSweepCombinations) {
        throw InputError(where, QStringLiteral("makes %1 values; a sweep has at most %2 "
                                               "combinations")
                                    .arg(count)
                                    .arg(scenario_limits::kMaxSweepCombinations));
    }
    for (qint64 v = from; v <= to; v += axis.step) {
        axis.values.append(v);
    }
}

// Every combination of each varied limiter's own values, through the limiter's parser (its
// checks across fields too): the first refused names the combination and the parser's path.
void checkCombinations(const SweepSpec& sweep, const QString& varyPath,
                       const QVector<LimiterSpec>& limiters) {
    for (int l : sweep.variedLimiters()) {
        SweepSpec own;
        for (const SweepAxis& axis : sweep.vary) {
            if (axis.limiter == l) {
                own.vary.append(axis);
            }
        }
        const QString limiterPath = elementPath(QStringLiteral("$.limiters"), l);
        for (qint64 c = 0; c < own.combinations(); ++c) {
            const QVector<qint64> values = own.valuesOf(c);
            QVector<LimiterSpec> changed = limiters;
            own.apply(changed, values);
            try {
                // Inline: the spec's files are read already, wherever the scenario is.
                parseLimiterSpec(limiterSpecToJson(changed[l], SpecFiles::Inline), limiterPath);
            } catch (const InputError& e) {
                QString where = varyPath;
                if (own.vary.size() == 1) {
                    where = memberPath(varyPath, own.vary[0].key);
                    if (own.vary[0].step == 0) {
                        where = elementPath(where, own.vary[0].values.indexOf(values[0]));
                    }
                }
                throw InputError(where,
                                 QStringLiteral("%1: %2").arg(own.valuesText(values), e.message()));
            }
        }
    }
}

// "[<limiter>:]<rest>": the limiter's name (empty without a prefix) and the rest.
QString splitLimiter(const QString& text, const QString& where,
                     const QVector<LimiterSpec>& limiters, QString* rest) {
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    *rest = colon < 0 ? text : text.mid(colon + 1).trimmed();
    if (colon < 0) {
        return {};
    }
    const QString name = text.left(colon).trimmed();
    QStringList names;
    for (const LimiterSpec& spec : limiters) {
        if (spec.name == name) {
            return name;
        }
        names << quoted(spec.name);
    }
    throw InputError(where, QStringLiteral("no limiter is named %1 (before the \":\" of %2); "
                                           "expected %3")
                                .arg(quoted(name), quoted(text), oneOf(names)));
}

SweepObjective readObjective(const QJsonObject& object, const QString& path,
                             const QVector<LimiterSpec>& limiters) {
    const bool min = object.contains(kMinimize), max = object.contains(kMaximize);
    if (min == max) {
        throw InputError(path, min ? QStringLiteral("has both \"minimize\" and \"maximize\"; "
                                                    "expected one of them")
                                   : QStringLiteral("needs \"minimize\" or \"maximize\": the "
                                                    "metric the best combination optimizes"));
    }
    const QString where = memberPath(path, max ? kMaximize : kMinimize);
    SweepObjective objective;
    objective.maximize = max;
    const QString text = readString(object.value(max ? kMaximize : kMinimize), where);
    objective.limiter = splitLimiter(text, where, limiters, &objective.metric);
    static const QRegularExpression metricName(QStringLiteral("^[A-Za-z0-9_.-]+$"));
    if (!metricName.match(objective.metric).hasMatch()) {
        throw InputError(where, QStringLiteral("expected a metric such as \"accepted\" or "
                                               "\"login:max_accepted_in_any_1000ms\", got %1")
                                    .arg(quoted(text)));
    }
    // The metric as an expectation would name it (the same metrics, the same messages).
    parseExpectation(objective.limiter, objective.metric + QStringLiteral(" >= 0"), where,
                     scenario_json::kMaxDurationMs);
    return objective;
}

QVector<Expectation> readConstraints(const QJsonValue& value, const QString& where,
                                     const QVector<LimiterSpec>& limiters) {
    if (!value.isArray()) {
        throw InputError(where, QStringLiteral("must be a list of checks such as "
                                               "\"max_accepted_in_any_1000ms <= 60\", got ") +
                                    describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.size() > scenario_limits::kMaxSweepConstraints) {
        throw InputError(where, QStringLiteral("has %1 constraints; at most %2 are allowed")
                                    .arg(array.size())
                                    .arg(scenario_limits::kMaxSweepConstraints));
    }
    QVector<Expectation> constraints;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = elementPath(where, i);
        QString check;
        const QString limiter = splitLimiter(readString(array.at(i), at), at, limiters, &check);
        constraints.append(parseExpectation(limiter, check, at, scenario_json::kMaxDurationMs));
    }
    return constraints;
}

}  // namespace

QString SweepObjective::text() const {
    return limiter.isEmpty() ? metric : limiter + QLatin1Char(':') + metric;
}

QString sweepConstraintText(const Expectation& constraint) {
    return constraint.limiter.isEmpty() ? constraint.text()
                                        : constraint.limiter + QLatin1Char(':') + constraint.text();
}

qint64 SweepSpec::combinations() const {
    if (vary.isEmpty()) {
        return 0;
    }
    qint64 n = 1;
    for (const SweepAxis& axis : vary) {
        n *= axis.values.size();
    }
    return n;
}

QVector<int> SweepSpec::variedLimiters() const {
    QVector<int> limiters;
    for (const SweepAxis& axis : vary) {
        if (!limiters.contains(axis.limiter)) {
            limiters.append(axis.limiter);
        }
    }
    std::sort(limiters.begin(), limiters.end());
    return limiters;
}

QVector<qint64> SweepSpec::valuesOf(qint64 index) const {
    QVector<qint64> values(vary.size());
    for (int a = int(vary.size()) - 1; a >= 0; --a) {
        const qint64 n = vary[a].values.size();
        values[a] = vary[a].values[index % n];
        index /= n;
    }
    return values;
}

QString SweepSpec::valuesText(const QVector<qint64>& values) const {
    QStringList parts;
    for (int a = 0; a < vary.size() && a < values.size(); ++a) {
        parts << QStringLiteral("%1 = %2").arg(vary[a].key).arg(values[a]);
    }
    return parts.join(QStringLiteral(", "));
}

void SweepSpec::apply(QVector<LimiterSpec>& limiters, const QVector<qint64>& values) const {
    for (int a = 0; a < vary.size(); ++a) {
        LimiterSpec& spec = limiters[vary[a].limiter];
        algorithmOf(spec).setNumericParam(spec, vary[a].path, values[a]);
    }
}

namespace scenario_json {

SweepSpec readSweep(const QJsonValue& value, const QString& where,
                    const QVector<LimiterSpec>& limiters) {
    const QJsonObject object = readObject(value, where);
    refuseUnknownFields(object, where, {kVary, kMinimize, kMaximize, kConstraints});
    SweepSpec sweep;
    const QString varyPath = memberPath(where, kVary);
    const QJsonObject vary = readObject(required(object, where, kVary), varyPath);
    if (vary.isEmpty()) {
        throw InputError(varyPath, QStringLiteral("must name at least one field, as in "
                                                  "{\"%1.rate\": [5, 10, 20]}")
                                       .arg(limiters.value(0).name));
    }
    double combinations = 1;
    for (auto it = vary.begin(); it != vary.end(); ++it) {
        const QString path = memberPath(varyPath, it.key());
        NumericParam param;
        SweepAxis axis = resolveKey(it.key(), path, limiters, &param);
        readValues(it.value(), path, param, axis);
        combinations *= double(axis.values.size());
        if (combinations > double(scenario_limits::kMaxSweepCombinations)) {
            throw InputError(varyPath, QStringLiteral("makes more than %1 combinations")
                                           .arg(scenario_limits::kMaxSweepCombinations));
        }
        sweep.vary.append(axis);
    }
    sweep.objective = readObjective(object, where, limiters);
    if (object.contains(kConstraints)) {
        sweep.constraints =
            readConstraints(object.value(kConstraints), memberPath(where, kConstraints), limiters);
    }
    checkCombinations(sweep, varyPath, limiters);
    return sweep;
}

QJsonObject sweepToJson(const SweepSpec& sweep) {
    QJsonObject vary;
    for (const SweepAxis& axis : sweep.vary) {
        if (axis.step > 0) {
            vary.insert(
                axis.key,
                QJsonObject{{kFrom, axis.values.first()}, {kTo, axis.to}, {kStep, axis.step}});
        } else {
            QJsonArray values;
            for (qint64 v : axis.values) {
                values.append(v);
            }
            vary.insert(axis.key, values);
        }
    }
    QJsonObject object{{kVary, vary}};
    object.insert(sweep.objective.maximize ? kMaximize : kMinimize, sweep.objective.text());
    if (!sweep.constraints.isEmpty()) {
        QJsonArray constraints;
        for (const Expectation& c : sweep.constraints) {
            constraints.append(sweepConstraintText(c));
        }
        object.insert(kConstraints, constraints);
    }
    return object;
}

}  // namespace scenario_json
}  // namespace ratelab
