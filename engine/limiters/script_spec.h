#pragma once

#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "limiters/limiter_spec.h"
#include "limiters/script_template.h"

namespace ratelab {

// How a script limiter's reply is read as a decision ("reply"; docs/scenarios.md, "Script
// limiters"): which value grants, where it sits, and where the wait and what is left are.
struct ReplyMapping {
    // The value that grants: a nil reply (Redisson, `return false`), anything but nil, the
    // integer 0 or 1, or the status OK. Any other value of a fitting type refuses.
    enum class Allowed { Nil, NotNil, Zero, One, Ok };
    Allowed allowed = Allowed::One;
    int index = -1;  // the 0-based array element that holds it; -1: the reply itself
    // Where retry_after_ms and remaining are: absent (-1 / unknown), an array element, or the
    // reply itself (an integer: a refusal's wait, Redisson style, or what is left).
    struct Field {
        enum class From { Absent, Index, Reply };
        From from = From::Absent;
        int index = 0;
        bool operator==(const Field& o) const {
            return from == o.from && (from != From::Index || index == o.index);
        }
    };
    Field retryAfterMs;
    Field remaining;
    bool operator==(const ReplyMapping& o) const {
        return allowed == o.allowed && index == o.index && retryAfterMs == o.retryAfterMs &&
               remaining == o.remaining;
    }
};

// What the timeline draws of a script limiter's state ("state"): one value per scope key, read
// from the key template at the chart's now.
struct ScriptStateRead {
    enum class Read { None, ZcountWindow, Integer, HashField, Zcard };
    Read read = Read::None;
    ScriptTemplate key;   // {name} and {client} only
    qint64 windowMs = 0;  // zcount_window: members with score in (now - window_ms, now]
    QString field;        // hash_field
    bool operator==(const ScriptStateRead& o) const {
        return read == o.read && key == o.key && windowMs == o.windowMs && field == o.field;
    }
};

// Whose clock the script's decisions run on ("clock"): the times it is given ({now_ms}: the
// run's clock, virtual or real), or Redis's own (TTL expiry, TIME), which no virtual clock
// moves: such a script runs on a real clock only.
enum class ScriptClock { Args, Redis };

// A limiter of type "script" (LimiterSpec::script): the user's Lua, run exactly as their code
// calls it (SCRIPT LOAD once, EVALSHA per decision, EVAL on NOSCRIPT).
struct ScriptSpec {
    QString file;        // "script" as written, relative to the spec's file; empty: inline
    QString resolved;    // the file read (absolute); empty: inline
    std::string source;  // the Lua
    // The name the spec was read under: a copy renamed since (a sweep's combination, an
    // explanation's scratch limiter, a local gateway's "<name>@g<g>") puts its own name before
    // every key, so that it never touches the keys of the limiter it was made from.
    QString declaredName;
    std::vector<ScriptTemplate> keys;  // 1 to kMaxScriptKeys
    std::vector<ScriptTemplate> args;  // 0 to kMaxScriptArgs
    ReplyMapping reply;
    // A built-in spec that decides every request too, on its own keys (scope inherited, name
    // referenceName()); none: no comparison.
    std::optional<LimiterSpec> reference;
    ScriptStateRead state;
    // Key patterns deleted before a run ("reset"; {name} and {client} allowed, the rest taken as
    // glob); empty: the keys templates', {client} as * (resetPatterns()).
    std::vector<ScriptTemplate> reset;
    ScriptClock clock = ScriptClock::Args;

    // The same Lua, templates, mapping, reference, state, reset and clock (not `file`).
    bool operator==(const ScriptSpec& o) const;
    bool operator!=(const ScriptSpec& o) const { return !(*this == o); }
};

namespace script_limits {
constexpr int kMaxKeys = 16;
constexpr int kMaxArgs = 64;
constexpr int kMaxResetPatterns = 16;
constexpr qint64 kMaxScriptBytes = 256 * 1024;  // a limiter's Lua
constexpr qint64 kMaxArgValue = 1LL << 53;      // a sweepable argument: exact in Lua
constexpr int kMaxReplyIndex = 63;
}  // namespace script_limits

// The name of a script limiter's reference limiter: "<name>:reference". A scenario refuses a
// limiter of that name beside the script limiter (scenario_parser.cpp), so its keys are its own.
QString referenceName(const QString& scriptName);

// The reference as the script limiter named `spec` decides with it: named referenceName(), the
// script limiter's scope. Nothing without a reference.
std::optional<LimiterSpec> referenceSpecOf(const LimiterSpec& spec);

// A script limiter that declares "clock": "redis": its decisions depend on Redis's own clock
// (TTL expiry, TIME), so it decides only on the real clock or a trace paced in real time.
bool onRedisClock(const LimiterSpec& spec);
bool onRedisClock(const QVector<LimiterSpec>& specs);

QString scriptClockName(ScriptClock clock);             // "args", "redis"
QString replyAllowedName(ReplyMapping::Allowed value);  // "nil", "not_nil", "0", "1", "ok"
QString stateReadName(ScriptStateRead::Read read);      // "zcount_window", ...

}  // namespace ratelab
