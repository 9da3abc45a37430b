#include "limiters/limiter_state.h"

#include <algorithm>
#include <optional>

#include "limiters/algorithm.h"
#include "limiters/permit_record.h"
#include "limiters/state_keys.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace {

// Binary-safe display: printable ASCII as is, everything else as \xNN.
QString printable(const char* data, size_t size) {
    QString out;
    out.reserve(int(size));
    const QString utf8 = QString::fromUtf8(data, int(size));
    if (utf8.toUtf8() == QByteArray(data, int(size)) && !utf8.contains(QChar(0))) {
        return utf8;
    }
    for (size_t i = 0; i < size; ++i) {
        const unsigned char c = static_cast<unsigned char>(data[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += QLatin1Char(char(c));
        } else {
            out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
        }
    }
    return out;
}

QString printable(const redisReply* r) {
    return printable(r->str, r->len);
}

// A Redisson permit record (shared decoder: limiters/permit_record.h).
bool decodeRecord(const redisReply* r, qint64* permits, QString* id) {
    if (r->type != REDIS_REPLY_STRING) {
        return false;
    }
    const std::optional<PermitRecord> record = decodePermitRecord(r->str, r->len);
    if (!record) {
        return false;
    }
    *permits = record->permits;
    *id = QString::fromLatin1(record->id.toHex().left(8));
    return true;
}

}  // namespace

LimiterState readLimiterChartState(RedisConnection& c, const Limiter& limiter, qint64 nowMs) {
    LimiterState state;
    state.nowMs = nowMs;
    algorithmOf(limiter.spec()).readChartState(c, limiter, &state);
    return state;
}

void readLimiterKeys(RedisConnection& c, const Limiter& limiter, LimiterState* state, int maxKeys,
                     int membersPerKey) {
    // 1. Every key the limiter owns: its exact keys (when present) and its patterns (the hash
    // tag's; a script limiter's own).
    std::vector<std::string> names;
    for (const std::string& pattern : limiter.keyPatterns()) {
        const std::vector<std::string> found = scanKeys(c, pattern);
        names.insert(names.end(), found.begin(), found.end());
    }
    for (const std::string& k : limiter.exactKeys()) {
        if (replyInteger(c.command({"EXISTS", k}).get(), "EXISTS") == 1) {
            names.push_back(k);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    state->totalKeys = int(names.size());
    // Only the first maxKeys are read: the panel shows no more.
    names.resize(std::min(names.size(), size_t(std::max(maxKeys, 0))));
    state->keys = readKeysNamed(c, limiter, names, membersPerKey);
}

QVector<KeyState> readKeysNamed(RedisConnection& c, const Limiter& limiter,
                                const std::vector<std::string>& names, int membersPerKey) {
    QVector<KeyState> keys;
    // 2. Type and TTL of each (pipelined).
    for (const std::string& k : names) {
        c.append({"TYPE", k});
        c.append({"PTTL", k});
    }
    std::vector<std::string> types(names.size());
    std::vector<qint64> ttls(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        types[i] = replyString(c.readReply().get(), "TYPE");
        ttls[i] = replyInteger(c.readReply().get(), "PTTL");
    }

    // 3. Contents (pipelined; read-only commands).
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string& k = names[i];
        const std::string& t = types[i];
        if (t == "string") {
            c.append({"GET", k});
        } else if (t == "hash") {
            c.append({"HGETALL", k});
        } else if (t == "zset") {
            c.append({"ZCARD", k});
            c.append({"ZRANGE", k, std::to_string(-membersPerKey), "-1", "WITHSCORES"});
        }
    }
    keys.reserve(int(names.size()));
    for (size_t i = 0; i < names.size(); ++i) {
        KeyState key;
        key.key = fromStd(names[i]);
        key.type = QString::fromStdString(types[i]);
        key.ttlMs = ttls[i];
        const std::string& t = types[i];
        if (t == "string") {
            RedisReply r = c.readReply();
            if (r->type == REDIS_REPLY_STRING) {
                key.value = limiter.describeValue(names[i], printable(r.get()));
                key.size = qint64(r->len);
            }
        } else if (t == "hash") {
            RedisReply r = c.readReply();
            if (r->type == REDIS_REPLY_ARRAY) {
                for (size_t f = 0; f + 1 < r->elements; f += 2) {
                    key.fields.push_back({printable(r->element[f]), printable(r->element[f + 1])});
                }
                key.size = qint64(r->elements / 2);
            }
        } else if (t == "zset") {
            RedisReply card = c.readReply();
            key.size = card->type == REDIS_REPLY_INTEGER ? card->integer : 0;
            RedisReply r = c.readReply();
            if (r->type == REDIS_REPLY_ARRAY) {
                for (size_t m = 0; m + 1 < r->elements; m += 2) {
                    qint64 permits = 0;
                    QString id;
                    const QString text =
                        decodeRecord(r->element[m], &permits, &id)
                            ? QStringLiteral("%1 permit(s) · id %2…").arg(permits).arg(id)
                            : printable(r->element[m]);
                    key.members.push_back({text, QString::fromUtf8(r->element[m + 1]->str,
                                                                   int(r->element[m + 1]->len))
                                                     .toDouble()});
                }
            }
        }
        if (key.type != QLatin1String("none")) {
            keys.push_back(std::move(key));
        }
    }
    return keys;
}

LimiterState readLimiterState(RedisConnection& c, const Limiter& limiter, qint64 nowMs, int maxKeys,
                              int membersPerKey) {
    LimiterState state = readLimiterChartState(c, limiter, nowMs);
    readLimiterKeys(c, limiter, &state, maxKeys, membersPerKey);
    return state;
}

}  // namespace ratelab
