// A scenario's traffic "gateways": {"count": G, "balance": "round_robin" | "sticky",
// "clock_skew_ms": [s0, s1, …]}, read and written.

#include <QJsonArray>

#include "json_input.h"
#include "scenario/scenario_json.h"

namespace ratelab::scenario_json {

using namespace json_input;

namespace {

using Balance = GatewaysSpec::Balance;
constexpr Balance kBalances[] = {Balance::RoundRobin, Balance::Sticky};

QString balanceName(Balance balance) {
    return balance == Balance::Sticky ? QStringLiteral("sticky") : QStringLiteral("round_robin");
}

}  // namespace

void readGateways(const QJsonObject& traffic, const QString& path, TrafficSpec* spec) {
    const QLatin1String gateways("gateways"), count("count"), balance("balance"),
        clockSkewMs("clock_skew_ms");
    if (!traffic.contains(gateways)) {
        return;
    }
    const QString where = memberPath(path, gateways);
    const QJsonObject object = readObject(traffic.value(gateways), where);
    refuseUnknownFields(object, where, {count, balance, clockSkewMs});
    GatewaysSpec& out = spec->gateways;
    out.count = int(readInteger(required(object, where, count), memberPath(where, count), 1,
                                scenario_limits::kMaxGateways));
    if (object.contains(balance)) {
        out.balance = readChoice(object.value(balance), memberPath(where, balance),
                                 QStringLiteral("balance"), kBalances, balanceName);
    }
    if (object.contains(clockSkewMs)) {
        const QString skewPath = memberPath(where, clockSkewMs);
        const QJsonValue list = object.value(clockSkewMs);
        if (!list.isArray() || list.toArray().size() != out.count) {
            throw InputError(skewPath, QStringLiteral("must be an array of %1 integers (ms), one "
                                                      "per gateway, got ")
                                               .arg(out.count) +
                                           describe(list));
        }
        const QJsonArray array = list.toArray();
        for (qsizetype g = 0; g < array.size(); ++g) {
            out.clockSkewMs.append(readInteger(array.at(g), elementPath(skewPath, g),
                                               -scenario_limits::kMaxClockSkewMs,
                                               scenario_limits::kMaxClockSkewMs));
        }
    }
}

void gatewaysToJson(const TrafficSpec& traffic, QJsonObject* object) {
    const GatewaysSpec& g = traffic.gateways;
    if (g.count == 1 && g.clockSkewMs.isEmpty()) {
        return;
    }
    QJsonObject out{{QLatin1String("count"), g.count},
                    {QLatin1String("balance"), balanceName(g.balance)}};
    if (!g.clockSkewMs.isEmpty()) {
        QJsonArray skews;
        for (qint64 s : g.clockSkewMs) {
            skews.append(s);
        }
        out.insert(QLatin1String("clock_skew_ms"), skews);
    }
    object->insert(QLatin1String("gateways"), out);
}

}  // namespace ratelab::scenario_json
