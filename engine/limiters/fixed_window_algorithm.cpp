// The natural-calendar fixed window: at most `rate` permits per window of `interval` x `unit`
// in an IANA time zone.
#include <QTimeZone>
#include <algorithm>
#include <cmath>

#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm.h"
#include "limiters/algorithm_list.h"
#include "limiters/calendar_window.h"
#include "limiters/fixed_window_limiter.h"
#include "limiters/limiter_state.h"
#include "limiters/reason_text.h"
#include "limiters/state_keys.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

using namespace json_input;

constexpr CalendarUnit kUnits[] = {CalendarUnit::Milliseconds, CalendarUnit::Seconds,
                                   CalendarUnit::Minutes,      CalendarUnit::Hours,
                                   CalendarUnit::Days,         CalendarUnit::Months};

const QLatin1String kInterval("interval"), kUnit("unit"), kTimezone("timezone");

// "interval 90 exceeds the 60 minutes in an hour; use a larger unit"
QString intervalTooLarge(const QJsonValue& value, CalendarUnit unit) {
    const char* enclosing = "";
    switch (unit) {
        case CalendarUnit::Milliseconds:
            enclosing = "a second";
            break;
        case CalendarUnit::Seconds:
            enclosing = "a minute";
            break;
        case CalendarUnit::Minutes:
            enclosing = "an hour";
            break;
        case CalendarUnit::Hours:
            enclosing = "a day";
            break;
        case CalendarUnit::Days:
            enclosing = "a month";
            break;
        case CalendarUnit::Months:
            enclosing = "a year";
            break;
    }
    QString message = QStringLiteral("interval %1 exceeds the %2 %3 in %4")
                          .arg(describe(value))
                          .arg(CalendarWindows::maxInterval(unit))
                          .arg(calendarUnitName(unit), QLatin1String(enclosing));
    if (unit != CalendarUnit::Months) {
        message += QStringLiteral("; use a larger unit");
    }
    return message;
}

class FixedWindowAlgorithm final : public Algorithm {
public:
    FixedWindowAlgorithm()
        : Algorithm(LimiterType::FixedWindow, QStringLiteral("fixed_window"),
                    {{QLatin1String("rate"), &LimiterSpec::rate, 1, spec_limits::kMaxRate}},
                    {kInterval, kUnit, kTimezone}) {}

    void readFields(const QJsonObject& object, const QString& path,
                    LimiterSpec& spec) const override {
        Algorithm::readFields(object, path, spec);  // rate
        // The unit bounds the interval, so it is read first.
        spec.unit = readChoice(required(object, path, kUnit), memberPath(path, kUnit),
                               QStringLiteral("unit"), kUnits, calendarUnitName);
        const IntField interval = intervalField(spec.unit);
        const QJsonValue value = object.value(kInterval);
        const double number = value.toDouble();
        if (value.isDouble() && std::isfinite(number) && number == std::trunc(number) &&
            number > double(interval.max)) {
            throw InputError(memberPath(path, kInterval), intervalTooLarge(value, spec.unit));
        }
        spec.interval = readInt(object, path, interval);
        if (object.contains(kTimezone)) {
            const QString where = memberPath(path, kTimezone);
            const QString id = readString(object.value(kTimezone), where);
            if (!id.isEmpty() && !QTimeZone::isTimeZoneIdAvailable(id.toUtf8())) {
                throw InputError(where, QStringLiteral("unknown time zone %1; expected an IANA id "
                                                       "such as \"Europe/Berlin\"")
                                            .arg(quoted(id)));
            }
            spec.timezone = id.toUtf8();
        }
    }
    void writeFields(const LimiterSpec& spec, QJsonObject& object) const override {
        Algorithm::writeFields(spec, object);
        object.insert(kInterval, spec.interval);
        object.insert(kUnit, calendarUnitName(spec.unit));
        if (!spec.timezone.isEmpty()) {
            object.insert(kTimezone, QString::fromUtf8(spec.timezone));
        }
    }
    bool sameFields(const LimiterSpec& a, const LimiterSpec& b) const override {
        return Algorithm::sameFields(a, b) && a.interval == b.interval && a.unit == b.unit &&
               a.timezone == b.timezone;
    }
    bool batchable() const override { return true; }

    LimiterSpec defaults(const QString& name) const override {
        LimiterSpec spec;
        spec.type = type();
        spec.name = name;
        spec.rate = 10;
        spec.interval = 1;
        spec.unit = CalendarUnit::Seconds;
        spec.timezone = QByteArrayLiteral("UTC");
        return spec;
    }

    qint64 capacity(const LimiterSpec& spec) const override { return spec.rate; }
    // A day as 24 h; calendar months have no one length and are left out.
    std::vector<qint64> windowsMs(const LimiterSpec& spec) const override {
        if (spec.unit == CalendarUnit::Months) {
            return {};
        }
        return {spec.interval * nominalUnitMs(spec.unit)};
    }
    // The nominal length interval x unit, a month counted as 30 days.
    double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs) const override {
        return permitsPerBucket(spec.rate, spec.interval * nominalUnitMs(spec.unit), bucketMs);
    }
    // None for an interval out of range (a spec being edited).
    std::optional<CalendarWindows> calendarWindows(const LimiterSpec& spec) const override {
        if (spec.interval < 1 || spec.interval > CalendarWindows::maxInterval(spec.unit)) {
            return std::nullopt;
        }
        return CalendarWindows(spec.interval, spec.unit, zoneForId(spec.timezone));
    }
    std::vector<NumericParam> numericParams(const LimiterSpec& spec) const override {
        std::vector<NumericParam> params = Algorithm::numericParams(spec);
        params.push_back(
            {QString(kInterval), spec.interval, 1, CalendarWindows::maxInterval(spec.unit), false});
        return params;
    }
    bool setNumericParam(LimiterSpec& spec, const QString& path, qint64 value) const override {
        if (path == kInterval) {
            spec.interval = value;
            return true;
        }
        return Algorithm::setNumericParam(spec, path, value);
    }
    QString reasonText(const LimiterSpec& spec, const Decision& d) const override {
        const DecisionReason& r = d.reason;
        const QTimeZone zone = zoneForId(spec.timezone);
        return QStringLiteral("%1 per %2: the window %3 (%4) held %5 of %1, asked %6 → %7")
            .arg(spec.rate)
            .arg(calendarSpanText(spec.interval, spec.unit))
            .arg(reasonInterval(r.fromMs, r.toMs, false, zone))
            .arg(spec.timezone.isEmpty() ? QStringLiteral("system zone")
                                         : QString::fromUtf8(spec.timezone))
            .arg(r.counted)
            .arg(r.permits)
            .arg(reasonOutcome(d));
    }
    std::vector<HeaderQuota> headerQuotas(const LimiterSpec& spec,
                                          const Decision& d) const override {
        const DecisionReason& r = d.reason;
        return {{QStringLiteral("default"), spec.rate, r.toMs - r.fromMs, d.remaining,
                 r.toMs - d.atMs, true}};
    }
    // What the window granted, when both count in the same calendar windows: a full window's
    // counter stands above the rate (refusals are not taken back), and granted min(it, rate).
    bool copyState(RedisRouter& c, const Limiter& from, const Limiter& to, const Request& request,
                   qint64 ttlMs) const override {
        const LimiterSpec& a = from.spec();
        const LimiterSpec& b = to.spec();
        if (a.interval != b.interval || a.unit != b.unit || a.timezone != b.timezone) {
            return false;
        }
        const RedisArgs source = from.prepare(request).keys;
        const RedisArgs target = to.prepare(request).keys;
        for (const std::string& k : target) {
            c.command(to.slot(), {"DEL", k});  // the counter, and the config check's hash
        }
        const RedisReply count = c.command(from.slot(), {"GET", source.front()});
        if (count->type == REDIS_REPLY_STRING) {
            const qint64 granted =
                std::min(QByteArray(count->str, int(count->len)).toLongLong(), a.rate);
            c.command(to.slot(), {"SET", target.front(), std::to_string(granted), "PX",
                                  std::to_string(ttlMs)});
        }
        return true;
    }
    qint64 countedSinceMs(const LimiterSpec&, const Decision& d) const override {
        return d.reason.fromMs;  // [start, end)
    }
    ChartKind chartKind() const override { return ChartKind::Windows; }
    std::unique_ptr<Limiter> make(const LimiterSpec& spec,
                                  const LimiterOptions& options) const override {
        return std::make_unique<FixedWindowLimiter>(spec, options);
    }

    // The live counters {name}:fw:<fingerprint>:<start>[:client] (not the index).
    void readChartState(RedisConnection& c, const Limiter& limiter,
                        LimiterState* state) const override {
        const LimiterSpec& spec = limiter.spec();
        const std::string tag = limiter.hashTag() + ":";
        std::vector<std::string> names = scanKeys(c, keyPattern(limiter, "fw:*"));
        names.erase(std::remove(names.begin(), names.end(), tag + "fw:index"), names.end());
        for (const std::string& k : names) {
            c.append({"GET", k});
        }
        const CalendarWindows windows = *calendarWindows(spec);
        for (const std::string& k : names) {
            const RedisReply r = c.readReply();
            if (r->type != REDIS_REPLY_STRING) {
                continue;  // expired since the SCAN, or another type
            }
            // fw:<config fingerprint>:<start>[:<client>]
            std::string body = suffixOf(k, tag).substr(3);
            body = body.substr(std::min(body.size(), body.find(':') + 1));
            const size_t colon = body.find(':');
            LimiterState::WindowCount w;
            w.startMs = std::atoll(body.substr(0, colon).c_str());
            w.endMs = windows.windowAt(w.startMs).endMs;
            if (colon != std::string::npos) {
                w.client = fromStd(body.substr(colon + 1));
            }
            // A full window's counter may stand above rate (refusals are not taken back
            // there, fixed_window.lua): it granted rate.
            w.count = std::min(QByteArray(r->str, int(r->len)).toLongLong(), spec.rate);
            state->windows.push_back(w);
        }
    }

private:
    static IntField intervalField(CalendarUnit unit) {
        return {kInterval, &LimiterSpec::interval, 1, CalendarWindows::maxInterval(unit)};
    }
};

}  // namespace

const Algorithm& fixedWindowAlgorithm() {
    static const FixedWindowAlgorithm algorithm;
    return algorithm;
}

}  // namespace ratelab
