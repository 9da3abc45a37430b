#include "limiters/fixed_window_limiter.h"

#include "limiters/request_ids.h"
#include "redis/lua_script.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_fixed_window;
}

namespace {

// "rate|interval|unit|timezone": what a changed config changes.
std::string configText(const LimiterSpec& spec) {
    return std::to_string(spec.rate) + "|" + std::to_string(spec.interval) + "|" +
           calendarUnitName(spec.unit).toStdString() + "|" + spec.timezone.toStdString();
}

}  // namespace

FixedWindowLimiter::FixedWindowLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(spec, options),
      windows_(spec.interval, spec.unit, zoneForId(spec.timezone)),
      configKey_(key("config")),
      rateArg_(std::to_string(spec.rate)),
      counterPrefix_(key("fw:" + configFingerprint(configText(spec)) + ":")) {}

const LuaScript& FixedWindowLimiter::script() const {
    static const LuaScript kScript(lua::kLua_fixed_window);
    return kScript;
}

std::string FixedWindowLimiter::configKey() const {
    return configKey_;
}

std::optional<Limiter::CountedWindow> FixedWindowLimiter::countedWindow(
    const Request& request) const {
    const CalendarWindow w = windows_.windowAt(request.nowMs);
    return CountedWindow{counterKey(w.startMs, request.client), w.startMs, w.endMs};
}

std::string FixedWindowLimiter::counterKey(qint64 windowStartMs, const QString& client) const {
    std::string k = counterPrefix_ + std::to_string(windowStartMs);
    if (spec().scope == Scope::PerClient) {
        k += ":" + client.toStdString();
    }
    return k;
}

ScriptCall FixedWindowLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    // Every decision of a window sends the same arguments (Lua keeps one copy of a string it
    // has seen; a TTL that changed with every request made each decision a new string): the
    // counter's TTL is the window's length + grace, which covers the window's end from any
    // request in it.
    // Redis's time is read by the script: the window is the one it most likely falls in, which
    // the script checks ("retime" when it misses, limiter.h). The compact reply carries no
    // time: at_ms and a refusal's wait are from the estimate of Redis's time, in the same
    // window as Redis's own.
    const bool redisTime = readsRedisTime(request);
    const qint64 at = redisTime ? redisTimeGuess(request.nowMs) : request.nowMs;
    const CalendarWindow window = windows_.windowAt(at);
    ScriptCall call{decisionKeys(window.startMs, request.client),
                    {ttlArg(window.endMs - window.startMs + kStateGraceMs)},
                    at,
                    request.permits > spec().rate ? -1 : window.endMs - at,
                    0,
                    request.permits,
                    window.startMs,
                    window.endMs};
    // A decision of one permit in the engine's time, once the config is checked, sends the TTL
    // alone (fixed_window.lua): every argument Redis puts in the script's ARGV costs it 200 to
    // 1,300 instructions, a third of what the script itself does.
    if (request.permits != 1 || call.keys.size() > 1 || redisTime) {
        call.args.push_back(std::to_string(request.permits));
        call.args.push_back(rateArg_);
    }
    if (redisTime) {
        call.args.push_back(std::to_string(window.startMs));
        call.args.push_back(std::to_string(window.endMs));
    }
    // A scratch limiter's config hash gets a TTL when this call checks it (fixed_window.lua).
    return call.keys.size() > 1 ? withConfigTtl(std::move(call)) : call;
}

qint64 FixedWindowLimiter::nextKeysMs(qint64 nowMs) const {
    return windows_.windowAt(nowMs).endMs;
}

RedisArgs FixedWindowLimiter::decisionKeys(qint64 windowStartMs, const QString& client) const {
    if (configChecked_.load(std::memory_order_relaxed)) {
        return {counterKey(windowStartMs, client)};
    }
    return {counterKey(windowStartMs, client), configKey_};
}

std::optional<Decision> FixedWindowLimiter::decodeOwnReply(ReplyView reply,
                                                           const ScriptCall& call) const {
    if (call.keys.size() > 1 && reply.is(ReplyView::Type::Integer)) {
        configChecked_.store(true, std::memory_order_relaxed);  // later calls leave it out
    }
    if (call.permits != 1 || !reply.is(ReplyView::Type::Integer) || reply.integer() < 2) {
        return std::nullopt;  // the compact reply (limiter.h), or what parseReply names
    }
    const qint64 count = reply.integer() / 2;
    Decision d;
    d.atMs = call.atMs;
    d.configReset = reply.integer() % 2 == 1;
    d.allowed = count <= spec().rate;
    d.remaining = std::max<qint64>(0, spec().rate - count);
    d.retryAfterMs = d.allowed ? 0 : call.refusedRetryMs;
    return d;
}

// The calendar window's count before the request: what it granted of its rate (a full
// window's counter may stand above the rate after refusals; it granted the rate).
void FixedWindowLimiter::explain(Decision* d, const ScriptCall& call) const {
    DecisionReason& r = d->reason;
    r.limit = spec().rate;
    r.counted = spec().rate - d->remaining - (d->allowed ? call.permits : 0);
    r.fromMs = call.fromMs;
    r.toMs = call.toMs;
}

QString FixedWindowLimiter::describeValue(const std::string& key, const QString& value) const {
    bool ok = false;
    const qint64 count = value.toLongLong(&ok);
    if (!ok || count <= spec().rate || key.compare(0, counterPrefix_.size(), counterPrefix_) != 0) {
        return value;
    }
    return QStringLiteral("%1 · %2 granted (refusals counted above the rate)")
        .arg(count)
        .arg(spec().rate);
}

}  // namespace ratelab
