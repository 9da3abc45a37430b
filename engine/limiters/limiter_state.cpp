#include "limiters/limiter_state.h"

#include <algorithm>

#include "limiters/calendar_window.h"
#include "limiters/fixed_window_limiter.h"
#include "limiters/permit_record.h"
#include "redis/redis_error.h"

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

std::string suffixOf(const std::string& key, const std::string& prefix) {
    return key.compare(0, prefix.size(), prefix) == 0 ? key.substr(prefix.size()) : std::string();
}

}  // namespace

LimiterState readLimiterState(RedisConnection& c, const Limiter& limiter, qint64 nowMs, int maxKeys,
                              int membersPerKey) {
    const LimiterSpec& spec = limiter.spec();
    LimiterState state;
    state.nowMs = nowMs;

    // 1. Every key the limiter owns: its exact keys (when present) and its hash-tag pattern.
    std::vector<std::string> names;
    for (const std::string& k : limiter.exactKeys()) {
        if (replyInteger(c.command({"EXISTS", k}).get(), "EXISTS") == 1) {
            names.push_back(k);
        }
    }
    std::string cursor = "0";
    do {
        RedisReply r = c.command({"SCAN", cursor, "MATCH", limiter.scanPattern(), "COUNT", "1000"});
        throwIfError(r.get(), "SCAN");
        if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
            r->element[1]->type != REDIS_REPLY_ARRAY) {
            throw RedisError(RedisError::Kind::Reply, "SCAN: unexpected reply");
        }
        cursor = replyString(r->element[0], "SCAN cursor");
        for (size_t i = 0; i < r->element[1]->elements; ++i) {
            names.push_back(replyString(r->element[1]->element[i], "SCAN key"));
        }
    } while (cursor != "0");
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    state.totalKeys = int(names.size());

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

    // 3. Contents, and what the charts need, by key kind (pipelined; read-only commands).
    const std::string tag = limiter.hashTag() + ":";
    const qint64 since = spec.type == LimiterType::TokenBucket ? nowMs - spec.intervalMs : nowMs;
    enum class Derive { None, Tokens, Window, Log };
    std::vector<Derive> derive(names.size(), Derive::None);
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
        } else {
            c.append({"PING"});  // keeps the reply count simple for other types
        }
        const std::string rest = suffixOf(k, tag);
        if (spec.type == LimiterType::TokenBucket && rest.rfind("permits", 0) == 0 && t == "zset") {
            derive[i] = Derive::Tokens;
            c.append({"ZRANGEBYSCORE", k, "(" + std::to_string(since), "+inf"});
        } else if (spec.type == LimiterType::FixedWindow && rest.rfind("fw:", 0) == 0 &&
                   rest != "fw:index" && t == "string") {
            derive[i] = Derive::Window;
        } else if (spec.type == LimiterType::SlidingWindow && rest.rfind("log", 0) == 0 &&
                   t == "zset") {
            derive[i] = Derive::Log;
            for (const SlidingRule& rule : spec.rules) {
                c.append({"ZCOUNT", k, "(" + std::to_string(nowMs - rule.windowMs), "+inf"});
            }
        }
    }

    std::unique_ptr<CalendarWindows> windows;
    if (spec.type == LimiterType::FixedWindow) {
        windows =
            std::make_unique<CalendarWindows>(spec.interval, spec.unit, zoneForId(spec.timezone));
    }
    for (const SlidingRule& rule : spec.rules) {
        state.spans.push_back({rule.limit, rule.windowMs, 0, 0, QString()});
    }
    for (size_t i = 0; i < names.size(); ++i) {
        KeyState key;
        key.key = QString::fromUtf8(names[i].data(), int(names[i].size()));
        key.type = QString::fromStdString(types[i]);
        key.ttlMs = ttls[i];
        const std::string& t = types[i];
        if (t == "string") {
            RedisReply r = c.readReply();
            if (r->type == REDIS_REPLY_STRING) {
                key.value = printable(r.get());
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
        } else {
            c.readReply();
        }

        const std::string rest = suffixOf(names[i], tag);
        if (derive[i] == Derive::Tokens) {
            RedisReply r = c.readReply();
            qint64 held = 0;
            if (r->type == REDIS_REPLY_ARRAY) {
                for (size_t m = 0; m < r->elements; ++m) {
                    qint64 permits = 0;
                    QString id;
                    if (decodeRecord(r->element[m], &permits, &id)) {
                        held += permits;
                    }
                }
            }
            const std::string client = rest.size() > 8 ? rest.substr(8) : std::string();
            state.tokensAvailable.push_back(
                {QString::fromUtf8(client.data(), int(client.size())), spec.rate - held});
        } else if (derive[i] == Derive::Window) {
            // fw:<start>[:<client>]
            const std::string body = rest.substr(3);
            const size_t colon = body.find(':');
            LimiterState::WindowCount w;
            w.startMs = std::atoll(body.substr(0, colon).c_str());
            w.endMs = windows->windowAt(w.startMs).endMs;
            if (colon != std::string::npos) {
                w.client = QString::fromUtf8(body.substr(colon + 1).c_str());
            }
            w.count = key.value.toLongLong();
            state.windows.push_back(w);
        } else if (derive[i] == Derive::Log) {
            const std::string client = rest.size() > 4 ? rest.substr(4) : std::string();
            for (LimiterState::RuleSpan& span : state.spans) {
                const qint64 count = replyInteger(c.readReply().get(), "ZCOUNT");
                span.total += count;
                if (count > span.busiest) {
                    span.busiest = count;
                    span.busiestClient = QString::fromUtf8(client.data(), int(client.size()));
                }
            }
        }
        if (int(state.keys.size()) < maxKeys) {
            state.keys.push_back(std::move(key));
        }
    }
    if (spec.type == LimiterType::TokenBucket && state.tokensAvailable.isEmpty()) {
        state.tokensAvailable.push_back({QString(), spec.rate});  // no grants held: full bucket
    }
    return state;
}

}  // namespace ratelab
