// A limiter's "gateway" option: {"mode": "shared" | "local" | "batched", "cache_refusals",
// "sync_ms"}, read and written.

#include "json_input.h"
#include "limiters/algorithm.h"
#include "limiters/limiter_spec.h"

namespace ratelab {

using namespace json_input;

namespace {

constexpr GatewayMode kModes[] = {GatewayMode::Shared, GatewayMode::Local, GatewayMode::Batched};

}  // namespace

QString gatewayModeName(GatewayMode mode) {
    switch (mode) {
        case GatewayMode::Shared:
            return QStringLiteral("shared");
        case GatewayMode::Local:
            return QStringLiteral("local");
        case GatewayMode::Batched:
            return QStringLiteral("batched");
    }
    return {};
}

GatewayUse readGatewayUse(const QJsonValue& value, const QString& where, LimiterType type) {
    const QLatin1String mode("mode"), cacheRefusals("cache_refusals"), syncMs("sync_ms");
    if (!value.isObject()) {
        throw InputError(where,
                         QStringLiteral("must be an object {\"mode\", …}, got ") + describe(value));
    }
    const QJsonObject object = value.toObject();
    refuseUnknownFields(object, where, {mode, cacheRefusals, syncMs});
    GatewayUse use;
    if (object.contains(mode)) {
        use.mode = readChoice(object.value(mode), memberPath(where, mode),
                              QStringLiteral("gateway mode"), kModes, gatewayModeName);
    }
    if (object.contains(cacheRefusals)) {
        const QString at = memberPath(where, cacheRefusals);
        if (!object.value(cacheRefusals).isBool()) {
            throw InputError(at, QStringLiteral("must be true or false, got ") +
                                     describe(object.value(cacheRefusals)));
        }
        use.cacheRefusals = object.value(cacheRefusals).toBool();
        if (use.cacheRefusals && use.mode != GatewayMode::Shared) {
            throw InputError(at, QStringLiteral("only with the mode \"shared\""));
        }
    }
    const QString syncPath = memberPath(where, syncMs);
    if (use.mode == GatewayMode::Batched) {
        if (!algorithmOf(type).batchable()) {
            throw InputError(memberPath(where, mode),
                             QStringLiteral("\"batched\" is for the fixed window only"));
        }
        const QJsonValue sync = required(object, where, syncMs);
        const double ms = sync.toDouble(-1);
        if (!sync.isDouble() || ms != double(qint64(ms)) || ms < 1 ||
            ms > double(spec_limits::kMaxAlgoPeriodMs)) {
            throw InputError(syncPath, QStringLiteral("must be an integer from 1 to %1 (ms), got ")
                                               .arg(spec_limits::kMaxAlgoPeriodMs) +
                                           describe(sync));
        }
        use.syncMs = qint64(ms);
    } else if (object.contains(syncMs)) {
        throw InputError(syncPath, QStringLiteral("only with the mode \"batched\""));
    }
    return use;
}

QJsonObject gatewayUseToJson(const GatewayUse& use) {
    QJsonObject object{{QLatin1String("mode"), gatewayModeName(use.mode)}};
    if (use.cacheRefusals) {
        object.insert(QLatin1String("cache_refusals"), true);
    }
    if (use.mode == GatewayMode::Batched) {
        object.insert(QLatin1String("sync_ms"), use.syncMs);
    }
    return object;
}

}  // namespace ratelab
