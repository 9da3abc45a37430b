#include "limiters/script_spec.h"

#include <algorithm>

namespace ratelab {

bool ScriptSpec::operator==(const ScriptSpec& o) const {
    // What decides: the Lua itself, not the file it was read from (a self-contained copy in
    // summary.json is the same limiter).
    return source == o.source && keys == o.keys && args == o.args && reply == o.reply &&
           reference == o.reference && state == o.state && reset == o.reset && clock == o.clock;
}

QString referenceName(const QString& scriptName) {
    return scriptName + QStringLiteral(":reference");
}

std::optional<LimiterSpec> referenceSpecOf(const LimiterSpec& spec) {
    if (!spec.script || !spec.script->reference) {
        return std::nullopt;
    }
    LimiterSpec reference = *spec.script->reference;
    reference.name = referenceName(spec.name);
    reference.scope = spec.scope;
    return reference;
}

bool onRedisClock(const LimiterSpec& spec) {
    return spec.script && spec.script->clock == ScriptClock::Redis;
}

bool onRedisClock(const QVector<LimiterSpec>& specs) {
    return std::any_of(specs.begin(), specs.end(),
                       [](const LimiterSpec& spec) { return onRedisClock(spec); });
}

QString scriptClockName(ScriptClock clock) {
    return clock == ScriptClock::Redis ? QStringLiteral("redis") : QStringLiteral("args");
}

QString replyAllowedName(ReplyMapping::Allowed value) {
    switch (value) {
        case ReplyMapping::Allowed::Nil:
            return QStringLiteral("nil");
        case ReplyMapping::Allowed::NotNil:
            return QStringLiteral("not_nil");
        case ReplyMapping::Allowed::Zero:
            return QStringLiteral("0");
        case ReplyMapping::Allowed::One:
            return QStringLiteral("1");
        case ReplyMapping::Allowed::Ok:
            return QStringLiteral("ok");
    }
    return QString();
}

QString stateReadName(ScriptStateRead::Read read) {
    switch (read) {
        case ScriptStateRead::Read::None:
            return QString();
        case ScriptStateRead::Read::ZcountWindow:
            return QStringLiteral("zcount_window");
        case ScriptStateRead::Read::Integer:
            return QStringLiteral("integer");
        case ScriptStateRead::Read::HashField:
            return QStringLiteral("hash_field");
        case ScriptStateRead::Read::Zcard:
            return QStringLiteral("zcard");
    }
    return QString();
}

}  // namespace ratelab
