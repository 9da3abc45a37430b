#include "limiters/limiter_state.h"

#include <algorithm>
#include <optional>

#include "limiters/calendar_window.h"
#include "limiters/fixed_window_limiter.h"
#include "limiters/permit_record.h"
#include "limiters/sliding_counter_limiter.h"
#include "redis/redis_error.h"
#include "redis/redis_scan.h"

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

// Every key matching `pattern` (SCAN, read-only), sorted by name without duplicates.
std::vector<std::string> scanKeys(RedisConnection& c, const std::string& pattern) {
    std::vector<std::string> names;
    scanEach(c, pattern, [&](std::vector<std::string>& keys) {
        names.insert(names.end(), keys.begin(), keys.end());
    });
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

QString fromStd(const std::string& text) {
    return QString::fromUtf8(text.data(), int(text.size()));
}

}  // namespace

LimiterState readLimiterChartState(RedisConnection& c, const Limiter& limiter, qint64 nowMs) {
    const LimiterSpec& spec = limiter.spec();
    LimiterState state;
    state.nowMs = nowMs;
    if (spec.type == LimiterType::Gcra || spec.type == LimiterType::SlidingCounter ||
        spec.type == LimiterType::LeakyBucket) {
        readLimiterLevels(c, limiter, &state);
        return state;
    }
    for (const SlidingRule& rule : spec.rules) {
        state.spans.push_back({rule.limit, rule.windowMs, 0, 0, QString()});
    }

    // "{name}:" with the name's glob characters escaped, then the suffix of the keys wanted.
    std::string base = limiter.scanPattern();
    base.pop_back();  // the trailing '*'
    const std::string tag = limiter.hashTag() + ":";
    std::string kind;
    switch (spec.type) {
        case LimiterType::TokenBucket:
            kind = "permits";  // {name}:permits[:client], zsets of grants
            break;
        case LimiterType::FixedWindow:
            kind = "fw:";  // {name}:fw:<fingerprint>:<start>[:client], counters (and the index)
            break;
        case LimiterType::SlidingWindow:
            kind = "log";  // {name}:log[:client], zsets of grants
            break;
        case LimiterType::Gcra:
        case LimiterType::SlidingCounter:
        case LimiterType::LeakyBucket:
            break;  // readLimiterLevels
    }
    std::vector<std::string> names = scanKeys(c, base + kind + "*");
    if (spec.type == LimiterType::FixedWindow) {
        names.erase(std::remove(names.begin(), names.end(), tag + "fw:index"), names.end());
    }

    // One pipelined read per key. A key of another type answers WRONGTYPE and one that expired
    // since the SCAN answers nil: neither counts, as with the key listing's TYPE.
    const std::string since = "(" + std::to_string(nowMs - spec.intervalMs);
    for (const std::string& k : names) {
        switch (spec.type) {
            case LimiterType::TokenBucket:
                c.append({"ZRANGEBYSCORE", k, since, "+inf"});
                break;
            case LimiterType::FixedWindow:
                c.append({"GET", k});
                break;
            case LimiterType::SlidingWindow:
                for (const SlidingRule& rule : spec.rules) {
                    c.append({"ZCOUNT", k, "(" + std::to_string(nowMs - rule.windowMs), "+inf"});
                }
                break;
            case LimiterType::Gcra:
            case LimiterType::SlidingCounter:
            case LimiterType::LeakyBucket:
                break;
        }
    }

    std::optional<CalendarWindows> windows;
    if (spec.type == LimiterType::FixedWindow) {
        windows.emplace(spec.interval, spec.unit, zoneForId(spec.timezone));
    }
    for (const std::string& k : names) {
        const std::string rest = suffixOf(k, tag);
        switch (spec.type) {
            case LimiterType::TokenBucket: {
                RedisReply r = c.readReply();
                if (r->type != REDIS_REPLY_ARRAY) {
                    break;
                }
                qint64 held = 0;
                for (size_t m = 0; m < r->elements; ++m) {
                    const redisReply* e = r->element[m];
                    if (e->type != REDIS_REPLY_STRING) {
                        continue;
                    }
                    if (const std::optional<PermitRecord> record =
                            decodePermitRecord(e->str, e->len)) {
                        held += record->permits;
                    }
                }
                const std::string client = rest.size() > 8 ? rest.substr(8) : std::string();
                state.tokensAvailable.push_back({fromStd(client), spec.rate - held});
                break;
            }
            case LimiterType::FixedWindow: {
                RedisReply r = c.readReply();
                if (r->type != REDIS_REPLY_STRING) {
                    break;
                }
                // fw:<config fingerprint>:<start>[:<client>]
                std::string body = rest.substr(3);
                body = body.substr(std::min(body.size(), body.find(':') + 1));
                const size_t colon = body.find(':');
                LimiterState::WindowCount w;
                w.startMs = std::atoll(body.substr(0, colon).c_str());
                w.endMs = windows->windowAt(w.startMs).endMs;
                if (colon != std::string::npos) {
                    w.client = fromStd(body.substr(colon + 1));
                }
                // A full window's counter may stand above rate (refusals are not taken back
                // there, fixed_window.lua): it granted rate.
                w.count = std::min(QByteArray(r->str, int(r->len)).toLongLong(), spec.rate);
                state.windows.push_back(w);
                break;
            }
            case LimiterType::SlidingWindow: {
                const std::string client = rest.size() > 4 ? rest.substr(4) : std::string();
                for (LimiterState::RuleSpan& span : state.spans) {
                    RedisReply r = c.readReply();
                    if (r->type != REDIS_REPLY_INTEGER) {
                        continue;
                    }
                    span.total += r->integer;
                    if (r->integer > span.busiest) {
                        span.busiest = r->integer;
                        span.busiestClient = fromStd(client);
                    }
                }
                break;
            }
            case LimiterType::Gcra:
            case LimiterType::SlidingCounter:
            case LimiterType::LeakyBucket:
                break;
        }
    }
    if (spec.type == LimiterType::TokenBucket && state.tokensAvailable.isEmpty()) {
        state.tokensAvailable.push_back({QString(), spec.rate});  // no grants held: full bucket
    }
    return state;
}

void readLimiterKeys(RedisConnection& c, const Limiter& limiter, LimiterState* state, int maxKeys,
                     int membersPerKey) {
    // 1. Every key the limiter owns: its exact keys (when present) and its hash-tag pattern.
    std::vector<std::string> names = scanKeys(c, limiter.scanPattern());
    for (const std::string& k : limiter.exactKeys()) {
        if (replyInteger(c.command({"EXISTS", k}).get(), "EXISTS") == 1) {
            names.push_back(k);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    state->totalKeys = int(names.size());
    state->keys.clear();
    // The sliding-window counter's window keys are shown with their count read out.
    const auto* counterWindows = limiter.spec().type == LimiterType::SlidingCounter
                                     ? static_cast<const SlidingCounterLimiter*>(&limiter)
                                     : nullptr;
    // Only the first maxKeys are read: the panel shows no more.
    names.resize(std::min(names.size(), size_t(std::max(maxKeys, 0))));

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
    state->keys.reserve(int(names.size()));
    for (size_t i = 0; i < names.size(); ++i) {
        KeyState key;
        key.key = fromStd(names[i]);
        key.type = QString::fromStdString(types[i]);
        key.ttlMs = ttls[i];
        const std::string& t = types[i];
        if (t == "string") {
            RedisReply r = c.readReply();
            if (r->type == REDIS_REPLY_STRING) {
                key.value = printable(r.get());
                key.size = qint64(r->len);
                if (counterWindows != nullptr &&
                    names[i].compare(0, counterWindows->windowKeyPrefix().size(),
                                     counterWindows->windowKeyPrefix()) == 0) {
                    key.value = SlidingCounterLimiter::describeCount(key.value);
                }
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
        state->keys.push_back(std::move(key));
    }
}

LimiterState readLimiterState(RedisConnection& c, const Limiter& limiter, qint64 nowMs, int maxKeys,
                              int membersPerKey) {
    LimiterState state = readLimiterChartState(c, limiter, nowMs);
    readLimiterKeys(c, limiter, &state, maxKeys, membersPerKey);
    return state;
}

}  // namespace ratelab
