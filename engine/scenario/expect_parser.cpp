// Reading and writing a scenario's "expect" (scenario/scenario.h): per limiter name or "*" a
// list of "<metric> <op> <number>" checks, parsed by stats/expectation.h.

#include <QJsonArray>
#include <algorithm>

#include "input_error.h"
#include "json_input.h"
#include "scenario/scenario.h"
#include "scenario/scenario_json.h"
#include "stats/admitted_burst.h"

namespace ratelab {

using namespace json_input;

namespace scenario_json {

QVector<Expectation> readExpectations(const QJsonValue& value, const QString& where,
                                      const QVector<LimiterSpec>& limiters) {
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an object of limiter name (or \"*\") to "
                                               "a list of checks, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    QVector<Expectation> out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString name = it.key();
        const QString path = memberPath(where, name);
        const bool known = name == QLatin1String("*") ||
                           std::any_of(limiters.begin(), limiters.end(),
                                       [&](const LimiterSpec& spec) { return spec.name == name; });
        if (!known) {
            QStringList names;
            for (const LimiterSpec& spec : limiters) {
                names << quoted(spec.name);
            }
            names << QStringLiteral("\"*\"");
            throw InputError(path, QStringLiteral("no limiter is named %1; expected %2")
                                       .arg(quoted(name), oneOf(names)));
        }
        if (!it.value().isArray()) {
            throw InputError(path, QStringLiteral("must be an array of checks such as "
                                                  "\"p99_ms < 50\", got ") +
                                       describe(it.value()));
        }
        const QJsonArray checks = it.value().toArray();
        for (qsizetype i = 0; i < checks.size(); ++i) {
            const QString at = elementPath(path, i);
            if (out.size() >= scenario_limits::kMaxExpectations) {
                throw InputError(at, QStringLiteral("more than %1 expectations")
                                         .arg(scenario_limits::kMaxExpectations));
            }
            out.append(parseExpectation(name, readString(checks.at(i), at), at, kMaxDurationMs));
        }
    }
    return out;
}

QJsonObject expectationsToJson(const QVector<Expectation>& expectations) {
    QJsonObject object;
    for (const Expectation& e : expectations) {
        QJsonArray checks = object.value(e.limiter).toArray();
        checks.append(e.text());
        object.insert(e.limiter, checks);
    }
    return object;
}

}  // namespace scenario_json

std::vector<qint64> burstWindowsFor(const Scenario& scenario, int index) {
    const LimiterSpec& spec = scenario.limiters[index];
    std::vector<qint64> windows = limiterWindowsMs(spec);
    for (const Expectation& e : scenario.expectations) {
        if (e.limiter == QLatin1String("*") || e.limiter == spec.name) {
            const qint64 n = burstMetricWindow(e.metric, scenario_json::kMaxDurationMs);
            if (n > 0) {
                windows.push_back(n);
            }
        }
    }
    return admittedBurstWindows(windows);
}

}  // namespace ratelab
