#include "redisson/redisson_limiter_reader.h"

#include <QByteArray>
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "input_error.h"
#include "limiters/permit_record.h"
#include "redis/cluster_slot.h"
#include "redis/redis_router.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

[[noreturn]] void invalid(const std::string& message) {
    throw RedisError(RedisError::Kind::Reply, message);
}

std::string quoted(const std::string& key) {
    // Keys are shown as Redis shows them; non-printable bytes escaped.
    std::string out = "\"";
    for (const unsigned char c : key) {
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            out += char(c);
        } else {
            static const char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out + "\"";
}

std::string text(const redisReply* r) {
    return std::string(r->str, r->len);
}

// A base-10 integer, as Redisson (LongCodec) and Redis's INCRBY/DECRBY write them.
bool parseInteger(const std::string& s, qint64* out) {
    if (s.empty() || s.size() > 20) {
        return false;
    }
    bool ok = false;
    const qint64 v = QByteArray::fromStdString(s).toLongLong(&ok, 10);
    if (!ok) {
        return false;
    }
    *out = v;
    return true;
}

std::string shortValue(const std::string& s) {
    return quoted(s.size() > 40 ? s.substr(0, 40) + "..." : s);
}

std::string typeOf(const redisReply* r, const std::string& key) {
    return replyString(r, ("TYPE " + quoted(key)).c_str());
}

// The replies of one scope's grant reads, in the order read() sends them.
struct GrantReplies {
    const redisReply* heldCount;      // ZCOUNT (cutoff +inf
    const redisReply* expiredCount;   // ZCOUNT -inf cutoff
    const redisReply* newest;         // ZRANGE -N -1 WITHSCORES
    const redisReply* oldestExpired;  // ZRANGEBYSCORE -inf cutoff WITHSCORES LIMIT 0 M
    const redisReply* oldestHeld;     // ZRANGEBYSCORE (cutoff +inf WITHSCORES LIMIT 0 1
};

struct GrantSummary {
    qint64 held = 0;                // records with score > cutoff
    qint64 expired = 0;             // records with score <= cutoff
    QVector<RedissonGrant> newest;  // oldest first
    QVector<RedissonGrant> oldestExpired;
    qint64 oldestHeldMs = -1;
};

// Records of a WITHSCORES reply, each checked as Redisson packs it; `firstNumber` is the first
// record's 1-based place in the zset, for messages.
QVector<RedissonGrant> decodeGrants(const redisReply* reply, const std::string& who,
                                    const std::string& key, qint64 cutoff, qint64 firstNumber,
                                    const char* command) {
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements % 2 != 0) {
        invalid(who + command + " " + quoted(key) + ": unexpected reply");
    }
    QVector<RedissonGrant> grants;
    grants.reserve(qsizetype(reply->elements / 2));
    for (size_t m = 0; m < reply->elements / 2; ++m) {
        const redisReply* member = reply->element[2 * m];
        const redisReply* score = reply->element[2 * m + 1];
        if (member->type != REDIS_REPLY_STRING || score->type != REDIS_REPLY_STRING) {
            invalid(who + command + " " + quoted(key) + ": unexpected reply");
        }
        const std::string number = std::to_string(firstNumber + qint64(m));
        const std::optional<PermitRecord> record = decodePermitRecord(member->str, member->len);
        if (!record) {
            invalid(who + "key " + quoted(key) + " record #" + number + " (" +
                    std::to_string(member->len) +
                    " bytes) is not a struct.pack('Bc0I', n, id, permits) record");
        }
        bool ok = false;
        const double t = QByteArray(score->str, int(score->len)).toDouble(&ok);
        if (!ok || !std::isfinite(t) || std::fabs(t) > 9.0e15) {
            invalid(who + "key " + quoted(key) + " record #" + number + " has the score " +
                    shortValue(text(score)) + ", not a time in ms");
        }
        RedissonGrant grant;
        grant.timeMs = qint64(std::floor(t));
        grant.permits = record->permits;
        grant.idHex = QString::fromLatin1(record->id.toHex());
        grant.inWindow = t > double(cutoff);
        grants.push_back(std::move(grant));
    }
    return grants;
}

GrantSummary summarise(const GrantReplies& r, const std::string& who, const std::string& key,
                       qint64 cutoff) {
    GrantSummary s;
    s.held = replyInteger(r.heldCount, "ZCOUNT");
    s.expired = replyInteger(r.expiredCount, "ZCOUNT");
    const qint64 total = s.held + s.expired;
    const qint64 newestCount =
        r.newest->type == REDIS_REPLY_ARRAY ? qint64(r.newest->elements / 2) : 0;
    s.newest = decodeGrants(r.newest, who, key, cutoff,
                            std::max<qint64>(1, total - newestCount + 1), "ZRANGE");
    s.oldestExpired = decodeGrants(r.oldestExpired, who, key, cutoff, 1, "ZRANGEBYSCORE");
    const QVector<RedissonGrant> oldestHeld =
        decodeGrants(r.oldestHeld, who, key, cutoff, s.expired + 1, "ZRANGEBYSCORE");
    if (!oldestHeld.isEmpty()) {
        s.oldestHeldMs = oldestHeld.front().timeMs;
    }
    return s;
}

// What Redisson's next tryAcquire sees, from the summary. Sums are exact when every record of
// their kind was read; otherwise they are derived from the bucket value (value + held +
// expired permits = rate while the state is consistent) within what the records read allow,
// and the scope is marked estimated.
void applySummary(const GrantSummary& s, qint64 rate, qint64 intervalMs, RedissonScope* scope) {
    scope->storedGrants = int(std::min<qint64>(s.held + s.expired, INT_MAX));
    scope->grantsInWindow = int(std::min<qint64>(s.held, INT_MAX));
    scope->expiredGrants = int(std::min<qint64>(s.expired, INT_MAX));
    scope->grants = s.newest;
    if (!s.newest.isEmpty()) {
        scope->lastGrantMs = s.newest.back().timeMs;
    }
    if (s.held > 0 && s.oldestHeldMs >= 0) {
        scope->nextReleaseMs = s.oldestHeldMs + intervalMs;
    }

    // Held records are the newest: all of them were read when the newest read holds that many.
    qint64 heldRead = 0;
    qint64 heldPermits = 0;
    for (const RedissonGrant& g : s.newest) {
        if (g.inWindow) {
            ++heldRead;
            heldPermits += g.permits;
        }
    }
    const bool heldExact = heldRead >= s.held;
    qint64 expiredPermits = 0;
    for (const RedissonGrant& g : s.oldestExpired) {
        expiredPermits += g.permits;
    }
    const bool expiredExact = qint64(s.oldestExpired.size()) >= s.expired;
    // Every record holds at least one permit.
    const qint64 heldAtLeast = heldPermits + std::max<qint64>(0, s.held - heldRead);
    const qint64 expiredAtLeast =
        expiredPermits + std::max<qint64>(0, s.expired - qint64(s.oldestExpired.size()));

    qint64 held = heldAtLeast;
    qint64 released = expiredAtLeast;
    if (!heldExact && expiredExact && scope->hasValue) {
        held = std::max(heldAtLeast, rate - scope->storedValue - released);
    } else if (heldExact && !expiredExact && scope->hasValue) {
        released = std::max(expiredAtLeast, rate - scope->storedValue - held);
    }
    scope->estimated = !heldExact || !expiredExact;
    scope->unreadGrants = (s.held - std::min(heldRead, s.held)) +
                          (s.expired - std::min<qint64>(s.oldestExpired.size(), s.expired));
    scope->permitsInWindow = held;
    scope->expiredPermits = released;
    scope->availableFromGrants = rate - held;
    // RedissonRateLimiter's script: a missing value starts at rate; released permits come back,
    // and a value that would pass rate is repaired to rate minus the permits still held.
    if (!scope->hasValue) {
        scope->available = rate;
    } else if (released > 0 && scope->storedValue + released > rate) {
        scope->available = rate - held;
    } else {
        scope->available = scope->storedValue + released;
    }
}

}  // namespace

std::string redissonSuffixName(const std::string& name, const std::string& suffix) {
    if (name.find('{') != std::string::npos) {
        return name + ":" + suffix;
    }
    return "{" + name + "}:" + suffix;
}

std::unique_ptr<RedisConnection> openRedissonConnection(const RedisUrl& url,
                                                        const RedissonLimiterReader& reader) {
    // Single node (redis://, unix://): any connection serves. The watcher's keys all hash to
    // the slot of reader.configKey() (Redisson's "{name}" tag), so with a cluster the
    // connection goes to the master that owns that slot (read with CLUSTER SLOTS; a read-only
    // ACL user needs +cluster|slots for it). A later MOVED shows as an error and the watcher
    // connects again, reading the slot map anew.
    if (!url.isCluster()) {
        return std::make_unique<RedisConnection>(url);
    }
    RedisRouter router(url);
    return std::make_unique<RedisConnection>(
        router.nodeUrlForSlot(keyHashSlot(reader.configKey())));
}

RedissonLimiterReader::RedissonLimiterReader(const QString& name)
    : RedissonLimiterReader(name, Options{}) {}

RedissonLimiterReader::RedissonLimiterReader(const QString& name, Options options)
    : name_(name), raw_(name.toStdString()), options_(options) {
    const QString where = QStringLiteral("--redisson");
    if (name.isEmpty()) {
        throw InputError(where, QStringLiteral("the limiter name is empty"));
    }
    if (raw_.size() > 1024) {
        throw InputError(where, QStringLiteral("the limiter name is longer than 1024 bytes"));
    }
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control) {
            throw InputError(where, QStringLiteral("the limiter name holds a control character"));
        }
    }
    options_.maxGrantsPerScope = std::max(0, options_.maxGrantsPerScope);
    options_.maxExpiredRecords = std::max(1, options_.maxExpiredRecords);
    options_.maxScopes = std::max(1, options_.maxScopes);
}

std::string RedissonLimiterReader::configKey() const {
    return raw_;
}

std::string RedissonLimiterReader::suffixed(const std::string& suffix) const {
    return redissonSuffixName(raw_, suffix);
}

std::string RedissonLimiterReader::valueKey(const QString& clientId) const {
    return clientId.isEmpty() ? suffixed("value") : suffixed("value:" + clientId.toStdString());
}

std::string RedissonLimiterReader::permitsKey(const QString& clientId) const {
    return clientId.isEmpty() ? suffixed("permits") : suffixed("permits:" + clientId.toStdString());
}

std::string RedissonLimiterReader::scanPattern() const {
    return escapeGlob(suffixed("")) + "*";
}

const QStringList& RedissonLimiterReader::readCommands() {
    static const QStringList kCommands = {
        QStringLiteral("TYPE"),          QStringLiteral("HGETALL"), QStringLiteral("PTTL"),
        QStringLiteral("GET"),           QStringLiteral("ZCOUNT"),  QStringLiteral("ZRANGE"),
        QStringLiteral("ZRANGEBYSCORE"), QStringLiteral("SCAN")};
    return kCommands;
}

RedissonSnapshot RedissonLimiterReader::read(RedisConnection& c, qint64 nowMs) const {
    RedissonSnapshot snap;
    snap.name = name_;
    snap.nowMs = nowMs;
    const std::string cfgKey = configKey();
    const std::string who = "Redisson limiter " + quoted(raw_) + ": ";

    // 1. The config hash.
    c.append({"TYPE", cfgKey});
    c.append({"HGETALL", cfgKey});
    c.append({"PTTL", cfgKey});
    RedisReply typeReply = c.readReply();
    RedisReply all = c.readReply();
    RedisReply ttlReply = c.readReply();
    const std::string cfgType = typeOf(typeReply.get(), cfgKey);
    snap.configTtlMs = replyInteger(ttlReply.get(), "PTTL");
    if (cfgType == "none") {
        throw RedissonNotFound("no Redisson rate limiter named " + quoted(raw_) +
                               " (its config hash " + quoted(cfgKey) + " does not exist)");
    }
    if (cfgType != "hash") {
        invalid(who + "key " + quoted(cfgKey) + " is a " + cfgType +
                ", not a rate limiter's config hash");
    }
    throwIfError(all.get(), ("HGETALL " + quoted(cfgKey)).c_str());
    if (all->type != REDIS_REPLY_ARRAY || all->elements % 2 != 0) {
        invalid(who + "HGETALL " + quoted(cfgKey) + ": unexpected reply");
    }
    std::map<std::string, std::string> fields;
    for (size_t i = 0; i + 1 < all->elements; i += 2) {
        const redisReply* f = all->element[i];
        const redisReply* v = all->element[i + 1];
        if (f->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING) {
            invalid(who + "HGETALL " + quoted(cfgKey) + ": unexpected reply");
        }
        fields[text(f)] = text(v);
    }
    auto field = [&](const char* name, bool required, qint64 min, qint64 fallback) {
        const auto it = fields.find(name);
        if (it == fields.end()) {
            if (required) {
                invalid(who + "key " + quoted(cfgKey) + " has no field \"" + name +
                        "\" (not a Redisson rate limiter, or not initialized by trySetRate)");
            }
            return fallback;
        }
        qint64 v = 0;
        if (!parseInteger(it->second, &v)) {
            invalid(who + "key " + quoted(cfgKey) + " field \"" + name + "\" is " +
                    shortValue(it->second) + ", not an integer");
        }
        if (v < min) {
            invalid(who + "key " + quoted(cfgKey) + " field \"" + name + "\" is " +
                    std::to_string(v) + ", below " + std::to_string(min));
        }
        return v;
    };
    snap.rate = field("rate", true, 1, 0);
    snap.intervalMs = field("interval", true, 1, 0);
    const qint64 type = field("type", true, 0, 0);
    if (type > 1) {
        invalid(who + "key " + quoted(cfgKey) + " field \"type\" is " + std::to_string(type) +
                ", expected 0 (OVERALL) or 1 (PER_CLIENT)");
    }
    snap.perClient = type == 1;
    snap.keepAliveTimeMs = field("keepAliveTime", false, 0, 0);

    // 2. The scopes: one, or every client found under the hash tag.
    QStringList clients;
    if (!snap.perClient) {
        clients.push_back(QString());
    } else {
        const std::string valuePrefix = suffixed("value:");
        const std::string permitsPrefix = suffixed("permits:");
        std::set<std::string> ids;
        scanEach(
            c, scanPattern(),
            [&](std::vector<std::string>& keys) {
                for (const std::string& key : keys) {
                    for (const std::string* prefix : {&valuePrefix, &permitsPrefix}) {
                        if (key.size() > prefix->size() &&
                            key.compare(0, prefix->size(), *prefix) == 0) {
                            ids.insert(key.substr(prefix->size()));
                        }
                    }
                }
            },
            who);
        snap.totalScopes = int(ids.size());
        for (const std::string& id : ids) {
            if (clients.size() >= options_.maxScopes) {
                break;
            }
            clients.push_back(QString::fromStdString(id));
        }
    }
    if (!snap.perClient) {
        snap.totalScopes = 1;
    }

    // 3. Value and grants of every scope, pipelined. The grants are summarised with bounded
    // reads whatever their number (Redisson keeps one record per grant, so a busy limiter has
    // millions): counts by ZCOUNT, the newest records for the chart, the oldest expired ones
    // for the permits the next acquire releases, and the oldest record still held.
    const std::string cutoffArg = std::to_string(nowMs - snap.intervalMs);
    const std::string heldFrom = "(" + cutoffArg;  // score > cutoff: still held
    const std::string newest = std::to_string(-std::max(1, options_.maxGrantsPerScope));
    const std::string expiredLimit = std::to_string(std::max(1, options_.maxExpiredRecords));
    for (const QString& client : clients) {
        const std::string v = valueKey(client);
        const std::string p = permitsKey(client);
        c.append({"TYPE", v});
        c.append({"GET", v});
        c.append({"PTTL", v});
        c.append({"TYPE", p});
        c.append({"PTTL", p});
        c.append({"ZCOUNT", p, heldFrom, "+inf"});
        c.append({"ZCOUNT", p, "-inf", cutoffArg});
        c.append({"ZRANGE", p, newest, "-1", "WITHSCORES"});
        c.append({"ZRANGEBYSCORE", p, "-inf", cutoffArg, "WITHSCORES", "LIMIT", "0", expiredLimit});
        c.append({"ZRANGEBYSCORE", p, heldFrom, "+inf", "WITHSCORES", "LIMIT", "0", "1"});
    }
    // Read every reply before judging any, so the connection stays in step after an error.
    constexpr size_t kPerScope = 10;
    std::vector<RedisReply> raw;
    raw.reserve(size_t(clients.size()) * kPerScope);
    for (size_t i = 0; i < size_t(clients.size()) * kPerScope; ++i) {
        raw.push_back(c.readReply());
    }

    for (qsizetype i = 0; i < clients.size(); ++i) {
        RedisReply* at = &raw[size_t(i) * kPerScope];
        RedissonScope scope;
        scope.clientId = clients[i];
        const std::string v = valueKey(clients[i]);
        const std::string p = permitsKey(clients[i]);
        scope.valueKey = QString::fromStdString(v);
        scope.permitsKey = QString::fromStdString(p);
        const std::string valueType = typeOf(at[0].get(), v);
        const redisReply* value = at[1].get();
        scope.valueTtlMs = replyInteger(at[2].get(), "PTTL");
        const std::string permitsType = typeOf(at[3].get(), p);
        scope.permitsTtlMs = replyInteger(at[4].get(), "PTTL");

        if (value->type == REDIS_REPLY_ERROR) {
            invalid(who + "key " + quoted(v) + " is a " + valueType +
                    ", expected a string (the bucket value)");
        }
        if (value->type == REDIS_REPLY_STRING) {
            if (!parseInteger(text(value), &scope.storedValue)) {
                invalid(who + "key " + quoted(v) + " holds " + shortValue(text(value)) +
                        ", not an integer");
            }
            scope.hasValue = true;
        } else if (value->type != REDIS_REPLY_NIL) {
            invalid(who + "GET " + quoted(v) + ": unexpected reply");
        }
        if (at[5]->type == REDIS_REPLY_ERROR) {
            invalid(who + "key " + quoted(p) + " is a " + permitsType +
                    ", expected a zset (the grants)");
        }
        const GrantSummary summary =
            summarise(GrantReplies{at[5].get(), at[6].get(), at[7].get(), at[8].get(), at[9].get()},
                      who, p, nowMs - snap.intervalMs);
        applySummary(summary, snap.rate, snap.intervalMs, &scope);
        if (options_.maxGrantsPerScope == 0) {
            scope.grants.clear();
        }
        snap.scopes.push_back(std::move(scope));
    }
    return snap;
}

}  // namespace ratelab
