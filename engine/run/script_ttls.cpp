#include "run/script_ttls.h"

#include "limiters/script_spec.h"
#include "redis/redis_reply.h"

namespace ratelab {

std::vector<ShortScriptTtl> shortScriptTtls(RedisRouter& router,
                                            const std::vector<const Limiter*>& limiters,
                                            qint64 spanMs, int maxKeys) {
    std::vector<ShortScriptTtl> found;
    for (const Limiter* limiter : limiters) {
        const LimiterSpec& spec = limiter->spec();
        if (!limiter->userScript() || !spec.script || spec.script->clock != ScriptClock::Args) {
            continue;
        }
        std::optional<ShortScriptTtl> shortest;
        int seen = 0;
        for (RedisConnection* node : router.masterConnections()) {
            for (const std::string& pattern : limiter->keyPatterns()) {
                std::string cursor = "0";
                do {
                    const RedisReply page =
                        node->command({"SCAN", cursor, "MATCH", pattern, "COUNT", "100"});
                    if (page->type != REDIS_REPLY_ARRAY || page->elements != 2) {
                        throwIfError(page.get(), "SCAN");
                        break;
                    }
                    cursor.assign(page->element[0]->str, page->element[0]->len);
                    const redisReply* keys = page->element[1];
                    for (size_t k = 0; k < keys->elements && seen < maxKeys; ++k, ++seen) {
                        const std::string key(keys->element[k]->str, keys->element[k]->len);
                        const RedisReply ttl = node->command({"PTTL", key});
                        if (ttl->type == REDIS_REPLY_INTEGER && ttl->integer > 0 &&
                            ttl->integer < spanMs &&
                            (!shortest || ttl->integer < shortest->ttlMs)) {
                            shortest = ShortScriptTtl{spec.name, QString::fromStdString(key),
                                                      qint64(ttl->integer)};
                        }
                    }
                } while (cursor != "0" && seen < maxKeys);
            }
        }
        if (shortest) {
            found.push_back(*shortest);
        }
    }
    return found;
}

QString shortScriptTtlWarning(const ShortScriptTtl& found, qint64 spanMs) {
    return QStringLiteral(
               "limiter '%1': key %2 holds a TTL of %3 ms, shorter than the trace's %4 ms: Redis "
               "expires keys on its own clock, which a virtual run does not move. If the "
               "script only collects old state with it, nothing changes; if its decisions "
               "depend on the expiry (a window kept by PEXPIRE), declare \"clock\": \"redis\" "
               "and run it on the real clock")
        .arg(found.limiter, found.key)
        .arg(found.ttlMs)
        .arg(spanMs);
}

}  // namespace ratelab
