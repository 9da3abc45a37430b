// A scenario's traffic "hold" ({"type": "constant", "ms": N} or {"type": "exponential",
// "mean_ms": N}) and "leak_pct" (the share of grants that never release), read and written.

#include "json_input.h"
#include "scenario/scenario_json.h"

namespace ratelab::scenario_json {

using namespace json_input;

void readHold(const QJsonObject& traffic, const QString& path, TrafficSpec* spec) {
    const QLatin1String hold("hold"), leakPct("leak_pct"), type("type"), ms("ms"),
        meanMs("mean_ms");
    if (traffic.contains(hold)) {
        const QString where = memberPath(path, hold);
        const QJsonObject object = readObject(traffic.value(hold), where);
        const QString name = readString(required(object, where, type), memberPath(where, type));
        if (name == QLatin1String("constant")) {
            refuseUnknownFields(object, where, {type, ms});
            spec->hold.type = HoldSpec::Type::Constant;
            spec->hold.ms = readInteger(object, where, ms, 0, kMaxDurationMs);
        } else if (name == QLatin1String("exponential")) {
            refuseUnknownFields(object, where, {type, meanMs});
            spec->hold.type = HoldSpec::Type::Exponential;
            spec->hold.ms = readInteger(object, where, meanMs, 1, kMaxDurationMs);
        } else {
            throw InputError(memberPath(where, type),
                             QStringLiteral("unknown hold %1; expected \"constant\" or "
                                            "\"exponential\"")
                                 .arg(quoted(name)));
        }
    }
    if (traffic.contains(leakPct)) {
        const QString where = memberPath(path, leakPct);
        if (spec->hold.type == HoldSpec::Type::None) {
            throw InputError(where, QStringLiteral("only allowed with a \"hold\": without one "
                                                   "no grant releases"));
        }
        const double pct = readNumber(traffic.value(leakPct), where);
        if (pct < 0 || pct > 100) {
            throw InputError(
                where, QStringLiteral("must be from 0 to 100, got %1").arg(formatNumber(pct)));
        }
        spec->leakPct = pct;
    }
}

void holdToJson(const TrafficSpec& traffic, QJsonObject* object) {
    switch (traffic.hold.type) {
        case HoldSpec::Type::None:
            return;
        case HoldSpec::Type::Constant:
            object->insert(QLatin1String("hold"),
                           QJsonObject{{QLatin1String("type"), QLatin1String("constant")},
                                       {QLatin1String("ms"), traffic.hold.ms}});
            break;
        case HoldSpec::Type::Exponential:
            object->insert(QLatin1String("hold"),
                           QJsonObject{{QLatin1String("type"), QLatin1String("exponential")},
                                       {QLatin1String("mean_ms"), traffic.hold.ms}});
            break;
    }
    if (traffic.leakPct > 0) {
        object->insert(QLatin1String("leak_pct"), traffic.leakPct);
    }
}

}  // namespace ratelab::scenario_json
