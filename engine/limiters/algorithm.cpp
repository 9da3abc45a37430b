#include "limiters/algorithm.h"

#include <cmath>
#include <numeric>

#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm_list.h"
#include "limiters/calendar_window.h"
#include "limiters/limiter.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

#include <algorithm>

namespace ratelab {

using namespace json_input;

namespace {
const QLatin1String kFlavorKey("flavor");
}

Algorithm::Algorithm(LimiterType type, QString name, std::vector<IntField> intFields,
                     std::vector<QLatin1String> otherKeys)
    : type_(type),
      name_(std::move(name)),
      intFields_(std::move(intFields)),
      otherKeys_(std::move(otherKeys)) {}

std::vector<QLatin1String> Algorithm::fieldKeys() const {
    std::vector<QLatin1String> keys;
    for (const IntField& field : intFields_) {
        keys.push_back(field.key);
    }
    keys.insert(keys.end(), otherKeys_.begin(), otherKeys_.end());
    if (!flavors().empty()) {
        keys.push_back(kFlavorKey);
    }
    return keys;
}

qint64 Algorithm::readInt(const QJsonObject& object, const QString& path, const IntField& field) {
    const QString where = memberPath(path, field.key);
    const QJsonValue value = required(object, path, field.key);
    if (!value.isDouble() && field.min >= 1) {
        throw InputError(where, QStringLiteral("must be an integer, got ") + describe(value));
    }
    const double number = value.isDouble() ? value.toDouble() : -1;
    const bool integral = std::isfinite(number) && number == std::trunc(number);
    if (!value.isDouble() || !integral || number < double(field.min) ||
        number > double(field.max)) {
        throw InputError(where, QStringLiteral("must be an integer from %1 to %2, got %3")
                                    .arg(field.min)
                                    .arg(field.max)
                                    .arg(describe(value)));
    }
    return static_cast<qint64>(number);
}

void Algorithm::readFields(const QJsonObject& object, const QString& path,
                           LimiterSpec& spec) const {
    for (const IntField& field : intFields_) {
        spec.*field.member = readInt(object, path, field);
    }
    if (object.contains(kFlavorKey)) {  // only a type with flavors knows the field
        const QString where = memberPath(path, kFlavorKey);
        const QString text = readString(object.value(kFlavorKey), where);
        std::vector<Flavor> offered = flavors();
        offered.insert(offered.begin(), Flavor::Exact);
        QStringList names;
        for (const Flavor flavor : offered) {
            if (flavorName(flavor) == text) {
                spec.flavor = flavor;
                return;
            }
            names << flavorName(flavor);
        }
        throw InputError(where, QStringLiteral("unknown flavor %1 for %2; expected %3")
                                    .arg(quoted(text), name_, oneOf(names)));
    }
}

void Algorithm::writeFields(const LimiterSpec& spec, QJsonObject& object) const {
    for (const IntField& field : intFields_) {
        object.insert(field.key, spec.*field.member);
    }
    if (spec.flavor != Flavor::Exact) {
        object.insert(kFlavorKey, flavorName(spec.flavor));
    }
}

bool Algorithm::sameFields(const LimiterSpec& a, const LimiterSpec& b) const {
    if (a.flavor != b.flavor) {
        return false;
    }
    for (const IntField& field : intFields_) {
        if (a.*field.member != b.*field.member) {
            return false;
        }
    }
    return true;
}

std::optional<CalendarWindows> Algorithm::calendarWindows(const LimiterSpec&) const {
    return std::nullopt;
}

std::vector<NumericParam> Algorithm::numericParams(const LimiterSpec& spec) const {
    std::vector<NumericParam> params;
    for (const IntField& field : intFields_) {
        params.push_back(
            {QString(field.key), spec.*field.member, field.min, field.max, field.moreAdmits});
    }
    return params;
}

bool Algorithm::setNumericParam(LimiterSpec& spec, const QString& path, qint64 value) const {
    for (const IntField& field : intFields_) {
        if (path == field.key) {
            spec.*field.member = value;
            return true;
        }
    }
    return false;
}

bool Algorithm::copyState(RedisRouter& connection, const Limiter& from, const Limiter& to,
                          const Request& request, qint64 ttlMs) const {
    copyKeys(connection, from, to, request, ttlMs);
    return true;
}

qint64 Algorithm::countedSinceMs(const LimiterSpec&, const Decision& decision) const {
    return decision.reason.fromMs + 1;  // (from, now]
}

void Algorithm::copyKeys(RedisRouter& c, const Limiter& from, const Limiter& to,
                         const Request& request, qint64 ttlMs, std::vector<int> skip) {
    RedisArgs source = from.prepare(request).keys;
    RedisArgs target = to.prepare(request).keys;
    const std::vector<std::string> fromExact = from.exactKeys();
    const std::vector<std::string> toExact = to.exactKeys();
    source.insert(source.end(), fromExact.begin(), fromExact.end());
    target.insert(target.end(), toExact.begin(), toExact.end());
    const std::string ttl = std::to_string(ttlMs);
    // Each key on its own node: the two limiters' hash tags may live in different slots.
    for (size_t i = 0; i < source.size() && i < target.size(); ++i) {
        c.command(to.slot(), {"DEL", target[i]});
        if (std::find(skip.begin(), skip.end(), int(i)) != skip.end()) {
            continue;
        }
        const RedisReply dump = c.command(from.slot(), {"DUMP", source[i]});
        if (dump->type == REDIS_REPLY_STRING) {
            const RedisReply restored = c.command(
                to.slot(),
                {"RESTORE", target[i], ttl, std::string(dump->str, dump->len), "REPLACE"});
            throwIfError(restored.get(), "RESTORE");
        }
    }
}

std::vector<HeaderQuota> rateAndBurstQuotas(qint64 rate, qint64 periodMs, qint64 burst,
                                            qint64 remaining, qint64 resetMs) {
    // rate x 1000 x w / periodMs requests in w seconds: whole for w a multiple of
    // periodMs / gcd(rate x 1000, periodMs).
    const qint64 perSecond = rate * 1000;
    const qint64 common = std::gcd(perSecond, periodMs);
    const qint64 seconds = periodMs / common;
    return {
        {QStringLiteral("default"), perSecond / common, seconds * 1000, remaining, resetMs, false},
        {QStringLiteral("burst"), burst, 0, remaining, resetMs, true}};
}

const std::vector<const Algorithm*>& algorithms() {
    static const std::vector<const Algorithm*> list = {
        &tokenBucketAlgorithm(), &fixedWindowAlgorithm(),    &slidingWindowAlgorithm(),
        &gcraAlgorithm(),        &slidingCounterAlgorithm(), &leakyBucketAlgorithm(),
        &concurrencyAlgorithm(), &scriptAlgorithm()};
    return list;
}

const Algorithm& algorithmOf(LimiterType type) {
    for (const Algorithm* algorithm : algorithms()) {
        if (algorithm->type() == type) {
            return *algorithm;
        }
    }
    throw InputError(QStringLiteral("$.type"), QStringLiteral("unknown limiter type"));
}

const Algorithm* algorithmNamed(const QString& name) {
    for (const Algorithm* algorithm : algorithms()) {
        if (algorithm->name() == name) {
            return algorithm;
        }
    }
    return nullptr;
}

}  // namespace ratelab
