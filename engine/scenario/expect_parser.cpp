// Reading and writing a scenario's "expect" (scenario/scenario.h): per limiter name or "*" a
// list of "<metric> <op> <number>" checks, parsed by stats/expectation.h.

#include <QJsonArray>
#include <algorithm>

#include "input_error.h"
#include "json_input.h"
#include "scenario/scenario.h"
#include "scenario/scenario_json.h"
#include "stats/admitted_burst.h"
#include "traffic/request_factory.h"

namespace ratelab {

using namespace json_input;

namespace scenario_json {

namespace {

// A group or client an expectation names must be one of the traffic's.
void checkScopeNames(const Expectation& e, const QString& where, const TrafficSpec& traffic,
                     const QStringList& clients) {
    const MetricScope scope = metricScope(e.metric);
    if (scope.kind == MetricScope::Kind::Group) {
        QStringList groups;
        for (const ClientGroup& group : traffic.groups) {
            groups << group.name;
        }
        if (!groups.contains(scope.name)) {
            for (QString& name : groups) {
                name = quoted(name);
            }
            throw InputError(where, groups.isEmpty()
                                        ? QStringLiteral("no group %1: this traffic has no "
                                                         "groups (traffic.groups)")
                                              .arg(quoted(scope.name))
                                        : QStringLiteral("no group %1 in this traffic; its groups "
                                                         "are %2")
                                              .arg(quoted(scope.name), oneOf(groups)));
        }
    } else if (scope.kind == MetricScope::Kind::Client && !clients.contains(scope.name)) {
        QStringList shown;
        for (const QString& client :
             clients.size() <= 6 ? clients : QStringList{clients.first(), clients.last()}) {
            shown << quoted(client);
        }
        const QString known =
            clients.size() <= 6 ? oneOf(shown) : shown.join(QStringLiteral(" ... "));
        throw InputError(where, QStringLiteral("no client %1 in this traffic; its clients are %2")
                                    .arg(quoted(scope.name), known));
    }
}

}  // namespace

QVector<Expectation> readExpectations(const QJsonValue& value, const QString& where,
                                      const QVector<LimiterSpec>& limiters,
                                      const TrafficSpec& traffic) {
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an object of limiter name (or \"*\") to "
                                               "a list of checks, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    QVector<Expectation> out;
    QStringList clients;  // the traffic's, once an expectation names a group or client
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
            const Expectation e =
                parseExpectation(name, readString(checks.at(i), at), at, kMaxDurationMs);
            if (metricScope(e.metric).kind != MetricScope::Kind::Limiter) {
                if (clients.isEmpty()) {
                    clients = RequestFactory(traffic).clientNames();
                }
                checkScopeNames(e, at, traffic, clients);
            }
            out.append(e);
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

QVector<Expectation> parseExpectations(const QJsonValue& value, const QString& where,
                                       const Scenario& scenario) {
    return scenario_json::readExpectations(value, where, scenario.limiters, scenario.traffic);
}

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
