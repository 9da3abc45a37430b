// What the timeline draws of a script limiter: its "state" read at the chart's now, one level
// per scope key (the script's own layout is the user's; the spec names the key and the read).
#include <QJsonObject>

#include "limiters/limiter_state.h"
#include "limiters/script_limiter.h"
#include "redis/redis_reply.h"
#include "redis/redis_scan.h"

namespace ratelab {

void readScriptLevels(RedisConnection& c, const ScriptLimiter& limiter, qint64 capacity,
                      LimiterState* state) {
    const ScriptSpec& s = limiter.scriptSpec();
    const ScriptStateRead& read = s.state;
    if (read.read == ScriptStateRead::Read::None) {
        return;
    }
    // The key of each client around its name: "<before><client><after>".
    const bool perClient = limiter.spec().scope == Scope::PerClient;
    const QString marker = QStringLiteral("\x01");
    const std::string shaped = limiter.keyFor(read.key, marker);
    const std::size_t at = shaped.find('\x01');
    std::vector<std::pair<std::string, QString>> keys;  // key, client
    if (!perClient || at == std::string::npos ||
        read.key.text().count(QStringLiteral("{client}")) != 1) {
        keys.push_back({limiter.keyFor(read.key, QString()), QString()});
    } else {
        const std::string before = shaped.substr(0, at);
        const std::string after = shaped.substr(at + 1);
        scanEach(
            c, escapeGlob(before) + "*" + escapeGlob(after), [&](std::vector<std::string>& page) {
                for (const std::string& key : page) {
                    if (key.size() >= before.size() + after.size()) {
                        keys.push_back(
                            {key, QString::fromStdString(key.substr(
                                      before.size(), key.size() - before.size() - after.size()))});
                    }
                }
            });
    }
    for (const auto& [key, client] : keys) {
        RedisReply reply;
        switch (read.read) {
            case ScriptStateRead::Read::ZcountWindow:
                reply =
                    c.command({"ZCOUNT", key, "(" + std::to_string(state->nowMs - read.windowMs),
                               std::to_string(state->nowMs)});
                break;
            case ScriptStateRead::Read::Integer:
                reply = c.command({"GET", key});
                break;
            case ScriptStateRead::Read::HashField:
                reply = c.command({"HGET", key, read.field.toStdString()});
                break;
            case ScriptStateRead::Read::Zcard:
                reply = c.command({"ZCARD", key});
                break;
            case ScriptStateRead::Read::None:
                break;
        }
        const redisReply* r = reply.get();
        double used = 0;
        if (r != nullptr && r->type == REDIS_REPLY_INTEGER) {
            used = double(r->integer);
        } else if (r != nullptr && r->type == REDIS_REPLY_STRING) {
            bool ok = false;
            used = QByteArray(r->str, int(r->len)).toDouble(&ok);
            if (!ok) {
                continue;  // not a number: nothing to draw
            }
        } else {
            continue;  // absent, or another type (WRONGTYPE): nothing to draw
        }
        if (read.read != ScriptStateRead::Read::Integer &&
            read.read != ScriptStateRead::Read::HashField && used == 0) {
            continue;  // an empty log draws nothing, as the built-in levels
        }
        LimiterState::Level level;
        level.client = client;
        level.used = used;
        level.capacity = capacity;
        state->levels.push_back(level);
    }
}

}  // namespace ratelab
