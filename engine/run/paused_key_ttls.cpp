#include "run/paused_key_ttls.h"

#include <algorithm>
#include <limits>
#include <set>

#include "input_error.h"
#include "redis/redis_router.h"

namespace ratelab {

namespace {

// The keys `limiter` names for `client` at every time in [fromMs, toMs] (its windows'), into
// `keys`.
void collectKeys(const Limiter& limiter, const QString& client, qint64 fromMs, qint64 toMs,
                 std::vector<std::string>* keys) {
    qint64 t = fromMs;
    for (int window = 0; window < PausedKeyTtls::kMaxWindows; ++window) {
        try {
            const ScriptCall call = limiter.prepare(Request{t, client, 1});
            keys->insert(keys->end(), call.keys.begin(), call.keys.end());
        } catch (const InputError&) {
            // A time this limiter cannot decide at (GCRA's units before 1970): no state.
        }
        t = limiter.nextKeysMs(t);
        if (t > toMs) {
            break;
        }
    }
}

}  // namespace

void PausedKeyTtls::hold(RedisRouter& router, const std::vector<const Limiter*>& limiters,
                         const RequestFactory& requests, qint64 fromMs, qint64 toMs) {
    const QStringList& clients = requests.clientNames();
    qint64 aheadMs = std::numeric_limits<qint64>::min();  // the clock furthest ahead
    for (int c = 0; c < clients.size(); ++c) {
        aheadMs = std::max(aheadMs, requests.clockSkewMs(c));
    }
    for (const Limiter* limiter : limiters) {
        if (limiter->spec().time == TimeSource::Redis) {
            continue;
        }
        const bool global = limiter->spec().scope == Scope::Global;
        std::vector<std::string> keys;
        std::set<qint64> skews;  // a global limiter's keys differ by the client's skew only
        for (int c = 0; c < clients.size(); ++c) {
            const qint64 skew = requests.clockSkewMs(c);
            if (global && !skews.insert(skew).second) {
                continue;
            }
            collectKeys(*limiter, clients[c], fromMs + skew, toMs + (global ? aheadMs : skew),
                        &keys);
        }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        holdKeys(router, limiter->slot(), keys);
    }
}

void PausedKeyTtls::holdKeys(RedisRouter& router, int slot, const std::vector<std::string>& keys) {
    // Every key of a limiter shares its hash tag, so one node holds them all.
    RedisConnection& connection = router.connectionForSlot(slot);
    for (const std::string& key : keys) {
        connection.append({"PTTL", key});
    }
    std::vector<qint64> ttls;
    ttls.reserve(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
        const RedisReply reply = connection.readReply();
        // -1: no TTL (a config), -2: no key; an error (a slot that moved) leaves the key be.
        ttls.push_back(reply->type == REDIS_REPLY_INTEGER ? reply->integer : -1);
    }
    size_t sent = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (ttls[i] > 0) {
            connection.append({"PEXPIRE", keys[i], std::to_string(ttls[i] + kClockStandstillMs)});
            held_.push_back(Held{slot, keys[i], ttls[i]});
            ++sent;
        }
    }
    for (; sent > 0; --sent) {
        connection.readReply();
    }
}

void PausedKeyTtls::release(RedisRouter& router) {
    // Taken first: should Redis fail now, the keys keep the longer TTL and still go.
    const std::vector<Held> held = std::move(held_);
    held_.clear();
    for (size_t from = 0; from < held.size();) {
        RedisConnection& connection = router.connectionForSlot(held[from].slot);
        size_t to = from;
        for (; to < held.size() && held[to].slot == held[from].slot; ++to) {
            connection.append({"PEXPIRE", held[to].key, std::to_string(held[to].ttlMs)});
        }
        for (; from < to; ++from) {
            connection.readReply();
        }
    }
}

}  // namespace ratelab
