#pragma once

#include <QString>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "limiters/decision.h"
#include "limiters/limiter_spec.h"
#include "limiters/script_call.h"
#include "redis/reply_view.h"

namespace ratelab {

class LuaScript;
class RedisConnection;
class RedisRouter;

// State keys outlive the last window they matter to by this much (server time), so that a worker
// whose clock lags behind by less than this still finds them.
constexpr qint64 kStateGraceMs = 1000;

// A clock that stands still while Redis's time goes on (a step session between two Steps, a
// virtual run while paused) would let state its next decisions need expire. Such a clock keeps
// its keys this much longer in server time: a step session's limiters add it to every TTL
// (LimiterOptions::ttlExtraMs), a paused run to the keys its next decisions read (PausedKeyTtls).
// Bounded, so that the keys of a session left behind still go: a day after they were last
// written (the token bucket's and the sliding log's, which are set to twice their TTL, two).
constexpr qint64 kClockStandstillMs = 24LL * 3600 * 1000;

struct LimiterOptions {
    // Key TTLs are in server (real) time while scores are in the engine's clock. A virtual clock
    // in slow motion (speed < 1) needs TTLs stretched by 1/speed so state outlives its windows.
    double ttlScale = 1.0;
    // Server time added to every TTL after scaling (kClockStandstillMs for a step session). A
    // TTL only collects state no later decision can need (every script compares its state with
    // its now, never with whether a key is there), so a longer one decides the same: state
    // outlives a clock that stands still for up to this long, and only a left session's keys
    // stay longer.
    qint64 ttlExtraMs = 0;
    // When above 0: every key the limiter writes lives at most this long in server time (a
    // scratch limiter's, limiters/scratch_keys.h). The TTLs the engine passes are capped at half
    // of it (the token bucket and the sliding log set twice theirs) and a config key, which has
    // no TTL otherwise, gets all of it.
    qint64 ttlCapMs = 0;
    // A script limiter keeps each reply's text in its decision's reason (DecisionReason::
    // rawReply), for an explanation to show; off for runs, where nobody reads it.
    bool keepRawReplies = false;
};

// A limiter whose whole state lives in Redis. Stateless on the client: one instance may be used
// from many threads at once, each with its own RedisConnection. Each decision is one atomic Lua
// script call whose "now" is an argument.
//
// Workers whose clocks interleave, or whose requests arrive late, cannot admit more than the
// limit: the token bucket keeps a clock key per scope and decides at max(now, latest time a
// decision released grants) (`Decision::atMs` is that effective time); the sliding window
// counts grants newer than now too and keeps grants for kStateGraceMs beyond its longest
// window, so a worker lagging by less than that decides at its own time and still sees every
// grant that shares a window with its own.
class Limiter {
public:
    virtual ~Limiter();
    Limiter(const Limiter&) = delete;
    Limiter& operator=(const Limiter&) = delete;

    const LimiterSpec& spec() const { return spec_; }
    const LimiterOptions& options() const { return options_; }
    // A limiter that decides every request beside this one, on its own keys, to compare
    // with (a script limiter's "reference"); null for the built-in types.
    virtual const Limiter* reference() const { return nullptr; }
    // Whether its script is the user's own Lua (a script limiter's), which may run past Redis's
    // busy limit (lua-time-limit): a run then stops (Worker), never the built-in scripts.
    virtual bool userScript() const { return false; }

    virtual const LuaScript& script() const = 0;
    // The keys and arguments of one decision. Throws InputError for permits < 1.
    virtual ScriptCall prepare(const Request& request) const = 0;
    // The first time after nowMs at which prepare() names other keys (the fixed window's next
    // window, the counter's); never (the largest qint64) for keys that do not depend on the time.
    virtual qint64 nextKeysMs(qint64 nowMs) const;

    // Checks and decodes the reply to `call`: {allowed, retry_after_ms, remaining, at_ms, reset}
    // and, from the scripts that delay (gcra, sliding_counter, leaky_bucket), a 6th: delay_ms;
    // as an array of integers or as the text "allowed retry remaining at reset [delay]" (a table
    // reply costs Redis more than the rest of a cheap decision: scripts answer with one integer
    // below, or with the text).
    // A compact reply is one integer (the fixed window's): 2 x remaining + reset when granted,
    // -(2 x remaining + reset) - 1 when refused; at_ms and a refusal's wait then come from
    // `call`.
    // A packed reply (call.radix > 0) is one integer too: 2 x (delay x radix + remaining) + reset
    // when granted, -(2 x ((retry + 1) x radix + remaining) + reset) - 1 when refused; at_ms is
    // call.atMs. Scripts answer with the text when they decided at a time the engine does not
    // know (Redis's TIME, a lagging request moved to a later time), for a negative remaining, or
    // when the packed value would pass 2^53.
    // Anything else (an error reply, wrong types or sizes) throws RedisError(Kind::Reply) that
    // names this limiter.
    Decision parseReply(ReplyView reply, const ScriptCall& call) const;

    // time: redis. Scripts read Redis's TIME when their now argument is "redis"; every other
    // time argument is then prepared at now 0 (relative) and shifted by the script. The fixed
    // window needs its calendar window from the engine: it guesses the window at the client's
    // now plus the last offset to Redis seen, and a script that finds Redis's time outside it
    // answers "retime <redis ms>". retimed() recognises that answer (and learns the offset);
    // the caller then prepares the request again at that time (Request::nowFromRedis) and runs
    // it once more, so the decision is at Redis's time, exactly.
    bool readsRedisTime(const Request& request) const {
        return spec_.time == TimeSource::Redis && !request.nowFromRedis;
    }
    bool retimed(ReplyView reply, qint64 clientNowMs, qint64* redisNowMs) const;
    // The client's now shifted by the last offset to Redis's clock seen (0 before any).
    qint64 redisTimeGuess(qint64 clientNowMs) const {
        return clientNowMs + redisOffsetMs_.load(std::memory_order_relaxed);
    }

    // A gateway that keeps this limiter's counts itself (gateway mode "batched",
    // Algorithm::batchable: the fixed window) counts a request under its window's counter key
    // until the window ends; none for a limiter whose counts cannot be batched.
    struct CountedWindow {
        std::string key;
        qint64 startMs = 0;
        qint64 endMs = 0;
    };
    virtual std::optional<CountedWindow> countedWindow(const Request& request) const;

    // Leases (the concurrency limiter): a grant holds its permits until the request releases
    // them or its lease runs out. The release script (null: grants hold nothing), the call
    // that releases `grant` (the granted request, at the release's now) and its reply: true
    // when the release came late (its lease had run out already).
    virtual const LuaScript* releaseScript() const { return nullptr; }
    virtual ScriptCall prepareRelease(const Request& grant) const;
    bool parseRelease(ReplyView reply) const;
    bool holdsGrants() const { return releaseScript() != nullptr; }

    // The exact names of keys this limiter may own outside its hash-tag pattern, and the SCAN
    // pattern ("{name}:*", glob characters escaped) covering all the others.
    virtual std::vector<std::string> exactKeys() const;
    std::string scanPattern() const;
    // The TTL in server time of state that must outlive `ms` of the limiter's clock: scaled,
    // extended and capped as LimiterOptions says (at least 1).
    qint64 ttlMs(qint64 ms) const;

    // What one of exactKeys() holds when it is this limiter's: its Redis type and, for a hash,
    // the fields it always has (an empty type: anything). A key of that name in another layout
    // was made by someone else, and ratelab never changes or deletes it (reset refuses, the
    // script answers an error).
    struct KeyLayout {
        std::string type;
        std::vector<std::string> fields;
    };
    virtual KeyLayout exactKeyLayout(const std::string& key) const;
    // Deletes this limiter's keys and nothing else (no FLUSHDB); returns how many were deleted.
    // An exact key in another layout (exactKeyLayout) stops it before anything is deleted:
    // InputError naming the key and its type.
    // A script limiter deletes by its own patterns, and its reference's keys too.
    virtual long long reset(RedisConnection& connection) const;
    long long reset(RedisRouter& router) const { return reset(router, {}); }
    // As reset(router), after an interrupt too: its SCAN goes on until `goOnUntil`
    // (redis/redis_scan.h), where reset stops at once.
    virtual long long reset(RedisRouter& router,
                            std::chrono::steady_clock::time_point goOnUntil) const;
    // Every SCAN pattern of this limiter's keys: scanPattern() for the built-in types, a
    // script limiter's reset patterns. With keysInOneSlot() false they may live on any node
    // of a cluster (the user's key templates name their own hash tags).
    virtual std::vector<std::string> keyPatterns() const { return {scanPattern()}; }
    virtual bool keysInOneSlot() const { return true; }
    // Makes its script known to every node before the first decision (SCRIPT LOAD), so that a
    // script that does not compile is bad input before any decision: an InputError with
    // Redis's message. Nothing for the built-in types (EVALSHA falls back to EVAL). Throws
    // RedisError when Redis fails.
    virtual void loadScripts(RedisRouter& router) const { (void)router; }

    // A string key's value as the state panel shows it (the value itself unless the limiter
    // stores something a reader must decode).
    virtual QString describeValue(const std::string& key, const QString& value) const {
        (void)key;
        return value;
    }

    // "{name}", the hash tag every key of this limiter shares.
    const std::string& hashTag() const { return tag_; }
    // The Redis Cluster hash slot of every key of this limiter (Redisson's config hash `name`
    // hashes like "{name}" too).
    int slot() const { return slot_; }
    // The slot one call goes to (ScriptCall::slot, or slot()).
    int slotOf(const ScriptCall& call) const { return call.slot >= 0 ? call.slot : slot_; }

protected:
    Limiter(LimiterSpec spec, LimiterOptions options);
    std::string key(const std::string& suffix) const;  // "{name}:suffix"
    std::string ttlArg(qint64 ms) const { return std::to_string(ttlMs(ms)); }
    // `call` with the TTL its script gives a config key it writes as its last argument
    // (ttlCapMs), for a limiter with a cap; unchanged otherwise (config keys without a TTL).
    ScriptCall withConfigTtl(ScriptCall call) const;
    static qint64 ceilDiv(qint64 a, qint64 b) { return (a + b - 1) / b; }  // a >= 0, b > 0
    // 8 hex digits (FNV-1a) naming a config in key names: a changed config uses new keys.
    static std::string configFingerprint(const std::string& text);
    // Decodes a reply only this limiter's script gives (before parseReply's own forms).
    virtual std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const;
    // Completes decision->reason from the decision and the call (parseReply calls it last);
    // what only the reply carries, the decoder has set already.
    virtual void explain(Decision* decision, const ScriptCall& call) const = 0;
    // "{name}:suffix" for a global limiter, "{name}:suffix:client" for a per-client one.
    std::string scopedKey(const char* suffix, const QString& client) const;
    // time: redis (readsRedisTime): the now argument is "redis" and the other time arguments
    // are formed at timeBase() 0, relative to the now the script reads.
    std::string nowArg(const Request& request) const {
        return readsRedisTime(request) ? std::string("redis") : std::to_string(request.nowMs);
    }
    qint64 timeBase(const Request& request) const {
        return readsRedisTime(request) ? 0 : request.nowMs;
    }
    // A call to a script that answers with a packed integer (parseReply) of radix capacity + 2:
    // it decides at the request's own now.
    // A limiter whose keys do not share "{name}" (a script limiter's) names the slot its keys
    // usually live in.
    void setSlot(int slot) { slot_ = slot; }
    static ScriptCall packedCall(ScriptArgs keys, ScriptArgs args, const Request& request,
                                 qint64 capacity) {
        return ScriptCall{std::move(keys), std::move(args), request.nowMs, 0,
                          capacity + 2,    request.permits};
    }

    // "token_bucket 'api' (keys {api}:*)": names the limiter in errors; built only on error.
    virtual std::string errorContext() const;

private:
    Decision decodeReply(ReplyView reply, const ScriptCall& call) const;
    Decision parseTextReply(const std::string& text) const;
    static Decision parseCompactReply(long long value, const ScriptCall& call);
    Decision decisionOf(const long long* fields) const;  // 6 fields (delay 0), flags checked

    LimiterSpec spec_;
    LimiterOptions options_;
    mutable std::atomic<qint64> redisOffsetMs_{0};  // time: redis, fixed window (retimed)
    std::string tag_;                               // cached: keys are built on every decision
    int slot_;
};

// Builds the limiter for a validated spec.
std::unique_ptr<Limiter> makeLimiter(const LimiterSpec& spec, LimiterOptions options = {});

// Whether `key` (on the node of hash slot `slot`) exists and holds `layout`: `ratelab keys`
// recognises a token bucket's config hash by this, as reset does.
bool keyHoldsLayout(RedisRouter& router, int slot, const std::string& key,
                    const Limiter::KeyLayout& layout);

}  // namespace ratelab
