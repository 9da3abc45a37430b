#include "redisson/redisson_limiter_reader.h"

#include <QByteArray>
#include <algorithm>
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
    static const QStringList kCommands = {QStringLiteral("TYPE"),   QStringLiteral("HGETALL"),
                                          QStringLiteral("PTTL"),   QStringLiteral("GET"),
                                          QStringLiteral("ZRANGE"), QStringLiteral("SCAN")};
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

    // 3. Value and permits of every scope, pipelined.
    for (const QString& client : clients) {
        const std::string v = valueKey(client);
        const std::string p = permitsKey(client);
        c.append({"TYPE", v});
        c.append({"GET", v});
        c.append({"PTTL", v});
        c.append({"TYPE", p});
        c.append({"ZRANGE", p, "0", "-1", "WITHSCORES"});
        c.append({"PTTL", p});
    }
    // Read every reply before judging any, so the connection stays in step after an error.
    std::vector<RedisReply> raw;
    raw.reserve(size_t(clients.size()) * 6);
    for (qsizetype i = 0; i < clients.size() * 6; ++i) {
        raw.push_back(c.readReply());
    }
    struct Replies {
        std::string valueType, permitsType;
        redisReply* value = nullptr;
        redisReply* permits = nullptr;
        qint64 valueTtl = -2, permitsTtl = -2;
    };
    std::vector<Replies> replies(size_t(clients.size()));
    for (qsizetype i = 0; i < clients.size(); ++i) {
        Replies& r = replies[size_t(i)];
        RedisReply* at = &raw[size_t(i) * 6];
        r.valueType = typeOf(at[0].get(), valueKey(clients[i]));
        r.value = at[1].get();
        r.valueTtl = replyInteger(at[2].get(), "PTTL");
        r.permitsType = typeOf(at[3].get(), permitsKey(clients[i]));
        r.permits = at[4].get();
        r.permitsTtl = replyInteger(at[5].get(), "PTTL");
    }

    const qint64 cutoff = nowMs - snap.intervalMs;  // records at or before it are released
    for (qsizetype i = 0; i < clients.size(); ++i) {
        Replies& r = replies[size_t(i)];
        RedissonScope scope;
        scope.clientId = clients[i];
        const std::string v = valueKey(clients[i]);
        const std::string p = permitsKey(clients[i]);
        scope.valueKey = QString::fromStdString(v);
        scope.permitsKey = QString::fromStdString(p);
        scope.valueTtlMs = r.valueTtl;
        scope.permitsTtlMs = r.permitsTtl;

        if (r.value->type == REDIS_REPLY_ERROR) {
            invalid(who + "key " + quoted(v) + " is a " + r.valueType +
                    ", expected a string (the bucket value)");
        }
        if (r.value->type == REDIS_REPLY_STRING) {
            if (!parseInteger(text(r.value), &scope.storedValue)) {
                invalid(who + "key " + quoted(v) + " holds " + shortValue(text(r.value)) +
                        ", not an integer");
            }
            scope.hasValue = true;
        } else if (r.value->type != REDIS_REPLY_NIL) {
            invalid(who + "GET " + quoted(v) + ": unexpected reply");
        }

        if (r.permits->type == REDIS_REPLY_ERROR) {
            invalid(who + "key " + quoted(p) + " is a " + r.permitsType +
                    ", expected a zset (the grants)");
        }
        if (r.permits->type != REDIS_REPLY_ARRAY || r.permits->elements % 2 != 0) {
            invalid(who + "ZRANGE " + quoted(p) + ": unexpected reply");
        }
        const size_t records = r.permits->elements / 2;
        scope.storedGrants = int(records);
        const size_t keepFrom = records > size_t(options_.maxGrantsPerScope)
                                    ? records - size_t(options_.maxGrantsPerScope)
                                    : 0;
        qint64 oldestInWindow = std::numeric_limits<qint64>::max();
        for (size_t m = 0; m < records; ++m) {
            const redisReply* member = r.permits->element[2 * m];
            const redisReply* score = r.permits->element[2 * m + 1];
            if (member->type != REDIS_REPLY_STRING || score->type != REDIS_REPLY_STRING) {
                invalid(who + "ZRANGE " + quoted(p) + ": unexpected reply");
            }
            const std::optional<PermitRecord> record = decodePermitRecord(member->str, member->len);
            if (!record) {
                invalid(who + "key " + quoted(p) + " record #" + std::to_string(m + 1) + " (" +
                        std::to_string(member->len) +
                        " bytes) is not a struct.pack('Bc0I', n, id, permits) record");
            }
            bool ok = false;
            const double t = QByteArray(score->str, int(score->len)).toDouble(&ok);
            if (!ok || !std::isfinite(t) || std::fabs(t) > 9.0e15) {
                invalid(who + "key " + quoted(p) + " record #" + std::to_string(m + 1) +
                        " has the score " + shortValue(text(score)) + ", not a time in ms");
            }
            RedissonGrant grant;
            grant.timeMs = qint64(std::floor(t));
            grant.permits = record->permits;
            grant.idHex = QString::fromLatin1(record->id.toHex());
            grant.inWindow = t > double(cutoff);
            if (grant.inWindow) {
                ++scope.grantsInWindow;
                scope.permitsInWindow += grant.permits;
                oldestInWindow = std::min(oldestInWindow, grant.timeMs);
            } else {
                ++scope.expiredGrants;
                scope.expiredPermits += grant.permits;
            }
            scope.lastGrantMs = std::max(scope.lastGrantMs, grant.timeMs);
            if (m >= keepFrom) {
                scope.grants.push_back(std::move(grant));
            }
        }
        if (scope.grantsInWindow > 0) {
            scope.nextReleaseMs = oldestInWindow + snap.intervalMs;
        }
        scope.availableFromGrants = snap.rate - scope.permitsInWindow;
        if (!scope.hasValue) {
            scope.available = snap.rate;
        } else if (scope.expiredPermits > 0 &&
                   scope.storedValue + scope.expiredPermits > snap.rate) {
            scope.available = snap.rate - scope.permitsInWindow;
        } else {
            scope.available = scope.storedValue + scope.expiredPermits;
        }
        snap.scopes.push_back(std::move(scope));
    }
    return snap;
}

}  // namespace ratelab
