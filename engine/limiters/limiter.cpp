#include "limiters/limiter.h"

#include "input_error.h"
#include "json_input.h"
#include "limiters/algorithm.h"
#include "redis/cluster_slot.h"
#include "redis/redis_connection.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "redis/redis_scan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

namespace ratelab {
namespace {

constexpr std::size_t kDecisionFields = 5;
constexpr std::size_t kDelayedDecisionFields = 6;  // + delay_ms

}  // namespace

Limiter::Limiter(LimiterSpec spec, LimiterOptions options)
    : spec_(std::move(spec)),
      options_(options),
      tag_("{" + spec_.name.toStdString() + "}"),
      slot_(keyHashSlot(tag_)) {}

Limiter::~Limiter() = default;

std::string Limiter::key(const std::string& suffix) const {
    std::string k;
    k.reserve(tag_.size() + 1 + suffix.size());
    k += tag_;
    k += ':';
    k += suffix;
    return k;
}

std::string Limiter::errorContext() const {
    return limiterTypeName(spec_.type).toStdString() + " '" + spec_.name.toStdString() +
           "' (keys " + tag_ + ":*)";
}

std::string Limiter::scanPattern() const {
    return "{" + escapeGlob(spec_.name.toStdString()) + "}:*";
}

std::vector<std::string> Limiter::exactKeys() const {
    return {};
}

std::optional<Limiter::CountedWindow> Limiter::countedWindow(const Request&) const {
    return std::nullopt;
}

Limiter::KeyLayout Limiter::exactKeyLayout(const std::string&) const {
    return {};
}

qint64 Limiter::nextKeysMs(qint64) const {
    return std::numeric_limits<qint64>::max();
}

std::string Limiter::configFingerprint(const std::string& text) {
    quint32 hash = 2166136261u;
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    }
    static const char kHex[] = "0123456789abcdef";
    std::string out(8, '0');
    for (int i = 7; i >= 0; --i) {
        out[size_t(i)] = kHex[hash & 0xf];
        hash >>= 4;
    }
    return out;
}

qint64 Limiter::ttlMs(qint64 ms) const {
    const double scaled = std::ceil(static_cast<double>(ms) * options_.ttlScale);
    const qint64 ttl = static_cast<qint64>(std::max(1.0, scaled)) + options_.ttlExtraMs;
    return options_.ttlCapMs > 0 ? std::clamp<qint64>(ttl, 1, options_.ttlCapMs / 2) : ttl;
}

ScriptCall Limiter::withConfigTtl(ScriptCall call) const {
    if (options_.ttlCapMs > 0) {
        call.args.push_back(std::to_string(options_.ttlCapMs));
    }
    return call;
}

std::string Limiter::scopedKey(const char* suffix, const QString& client) const {
    if (spec_.scope == Scope::PerClient) {
        return key(std::string(suffix) + ":" + client.toStdString());
    }
    return key(suffix);
}

// "allowed retry remaining at reset" and, from the scripts that delay, " delay".
Decision Limiter::parseTextReply(const std::string& text) const {
    long long fields[kDelayedDecisionFields] = {};
    const char* at = text.c_str();
    for (std::size_t count = 0; count < kDelayedDecisionFields;) {
        char* end = nullptr;
        fields[count] = std::strtoll(at, &end, 10);
        if (end == at) {
            break;  // not a number
        }
        ++count;
        if (*end == '\0') {
            if (count >= kDecisionFields) {
                return decisionOf(fields);
            }
            break;
        }
        if (*end != ' ') {
            break;
        }
        at = end + 1;
    }
    throw RedisError(RedisError::Kind::Reply, errorContext() + ": unexpected script reply \"" +
                                                  text.substr(0, 64) +
                                                  "\" (expected 5 or 6 integers)");
}

Decision Limiter::parseCompactReply(long long value, const ScriptCall& call) {
    Decision decision;
    decision.atMs = call.atMs;
    if (call.radix > 0) {
        decision.allowed = value >= 0;
        long long packed = decision.allowed ? value : -(value + 1);
        decision.configReset = packed % 2 == 1;
        packed /= 2;
        decision.remaining = packed % call.radix;
        if (decision.allowed) {
            decision.delayMs = packed / call.radix;
        } else {
            decision.retryAfterMs = packed / call.radix - 1;
        }
        return decision;
    }
    if (value >= 0) {
        decision.allowed = true;
        decision.remaining = value / 2;
        decision.configReset = value % 2 == 1;
    } else {
        decision.remaining = -(value + 1) / 2;
        decision.configReset = -(value + 1) % 2 == 1;
        decision.retryAfterMs = call.refusedRetryMs;
    }
    return decision;
}

std::optional<Decision> Limiter::decodeOwnReply(ReplyView, const ScriptCall&) const {
    return std::nullopt;
}

Decision Limiter::parseReply(ReplyView reply, const ScriptCall& call) const {
    Decision decision = decodeReply(reply, call);
    decision.reason.permits = call.permits;
    explain(&decision, call);
    return decision;
}

Decision Limiter::decodeReply(ReplyView reply, const ScriptCall& call) const {
    if (reply.is(ReplyView::Type::Missing) || reply.is(ReplyView::Type::Error)) {
        reply.throwIfError(errorContext());
    }
    if (std::optional<Decision> own = decodeOwnReply(reply, call)) {
        return *own;
    }
    if (reply.is(ReplyView::Type::Integer)) {
        return parseCompactReply(reply.integer(), call);
    }
    if (reply.is(ReplyView::Type::String)) {
        return parseTextReply(std::string(reply.text()));
    }
    if (!reply.is(ReplyView::Type::Array) ||
        (reply.size() != kDecisionFields && reply.size() != kDelayedDecisionFields)) {
        throw RedisError(RedisError::Kind::Reply,
                         errorContext() + ": unexpected script reply (" + reply.typeName() +
                             (reply.is(ReplyView::Type::Array)
                                  ? " of " + std::to_string(reply.size()) + " elements"
                                  : std::string()) +
                             ", expected an array of 5 integers)");
    }
    long long fields[kDelayedDecisionFields] = {};
    for (std::size_t i = 0; i < reply.size(); ++i) {
        const ReplyView element = reply.element(i);
        // at_ms may come as its decimal text: scripts pass the engine's own text back rather
        // than pay Redis for a conversion.
        if (i == 3 && element.is(ReplyView::Type::String)) {
            const std::string text(element.text());
            char* end = nullptr;
            fields[i] = std::strtoll(text.c_str(), &end, 10);
            if (!text.empty() && *end == '\0') {
                continue;
            }
        }
        if (!element.is(ReplyView::Type::Integer)) {
            throw RedisError(RedisError::Kind::Reply,
                             errorContext() + ": unexpected script reply (element " +
                                 std::to_string(i) + " is " + element.typeName() +
                                 ", expected an integer)");
        }
        fields[i] = element.integer();
    }
    return decisionOf(fields);
}

Decision Limiter::decisionOf(const long long* fields) const {
    if ((fields[0] != 0 && fields[0] != 1) || (fields[4] != 0 && fields[4] != 1) || fields[5] < 0) {
        throw RedisError(RedisError::Kind::Reply,
                         errorContext() + ": unexpected script reply (flags)");
    }
    Decision decision;
    decision.allowed = fields[0] == 1;
    decision.retryAfterMs = fields[1];
    decision.remaining = fields[2];
    decision.atMs = fields[3];
    decision.configReset = fields[4] == 1;
    decision.delayMs = fields[5];
    return decision;
}

bool Limiter::retimed(ReplyView reply, qint64 clientNowMs, qint64* redisNowMs) const {
    long long ms = 0;
    if (!reply.integers("retime ", &ms, 1)) {
        return false;  // not a retime (or not a number: parseReply reports the garbage)
    }
    *redisNowMs = ms;
    redisOffsetMs_.store(ms - clientNowMs, std::memory_order_relaxed);
    return true;
}

ScriptCall Limiter::prepareRelease(const Request&) const {
    throw InputError(
        QStringLiteral("type"),
        QStringLiteral("%1 grants hold nothing to release").arg(limiterTypeName(spec_.type)));
}

bool Limiter::parseRelease(ReplyView reply) const {
    if (reply.is(ReplyView::Type::Missing) || reply.is(ReplyView::Type::Error)) {
        reply.throwIfError(errorContext());
    }
    if (!reply.is(ReplyView::Type::Integer) || (reply.integer() != 0 && reply.integer() != 1)) {
        throw RedisError(RedisError::Kind::Reply, errorContext() + ": unexpected release reply (" +
                                                      reply.typeName() + ", expected 0 or 1)");
    }
    return reply.integer() == 1;
}

namespace {

// One command to the node holding the limiter's keys.
using KeyCommand = std::function<RedisReply(const RedisArgs&)>;

// Whether `key`, of Redis type `type`, holds `layout`.
bool holdsLayout(const KeyCommand& run, const std::string& key, const std::string& type,
                 const Limiter::KeyLayout& layout) {
    if (layout.type.empty()) {
        return true;
    }
    if (type != layout.type) {
        return false;
    }
    if (layout.fields.empty()) {
        return true;
    }
    RedisArgs hmget{"HMGET", key};
    hmget.insert(hmget.end(), layout.fields.begin(), layout.fields.end());
    const RedisReply fields = run(hmget);
    throwIfError(fields.get(), "HMGET");
    if (fields->type != REDIS_REPLY_ARRAY || fields->elements != layout.fields.size()) {
        return false;
    }
    for (std::size_t i = 0; i < fields->elements; ++i) {
        if (fields->element[i]->type == REDIS_REPLY_NIL) {
            return false;
        }
    }
    return true;
}

// Throws the InputError of reset() when one of `limiter`'s exact keys exists in a layout that
// is not the limiter's own.
void refuseForeignKeys(const Limiter& limiter, const KeyCommand& run) {
    for (const std::string& key : limiter.exactKeys()) {
        const std::string type = replyString(run({"TYPE", key}).get(), "TYPE");
        if (type == "none" || holdsLayout(run, key, type, limiter.exactKeyLayout(key))) {
            continue;
        }
        const QString name = json_input::quoted(limiter.spec().name);
        throw InputError(
            QStringLiteral("key %1").arg(json_input::quoted(QString::fromStdString(key))),
            QStringLiteral("a %1 that ratelab did not create has the name %2 %3 keeps its "
                           "state under; ratelab neither changes nor deletes it: rename the "
                           "limiter, or delete the key yourself")
                .arg(QString::fromStdString(type), limiterTypeName(limiter.spec().type), name));
    }
}

// Deletes the exact keys, then every key SCAN finds for the pattern on `node` (the one that
// holds the limiter's slot); `run` sends one command to where the limiter's keys live.
long long deleteKeys(const Limiter& limiter, const KeyCommand& run, RedisConnection& node,
                     std::chrono::steady_clock::time_point goOnUntil = {}) {
    refuseForeignKeys(limiter, run);
    const std::vector<std::string> exact = limiter.exactKeys();
    const std::string pattern = limiter.scanPattern();
    long long deleted = 0;
    auto unlink = [&](const RedisArgs& keys) {
        if (keys.empty()) {
            return;
        }
        RedisArgs command{"UNLINK"};
        command.insert(command.end(), keys.begin(), keys.end());
        RedisReply reply = run(command);
        deleted += replyInteger(reply.get(), "UNLINK");
    };
    unlink(exact);

    scanEach(
        node, pattern, [&](std::vector<std::string>& keys) { unlink(keys); }, std::string(),
        goOnUntil);
    return deleted;
}

}  // namespace

long long Limiter::reset(RedisConnection& connection) const {
    return deleteKeys(
        *this, [&](const RedisArgs& args) { return connection.command(args); }, connection);
}

long long Limiter::reset(RedisRouter& router,
                         std::chrono::steady_clock::time_point goOnUntil) const {
    // Every key of the limiter is in one slot, so one node holds them all: SCAN that node.
    return deleteKeys(
        *this, [&](const RedisArgs& args) { return router.command(slot_, args); },
        router.connectionForSlot(slot_), goOnUntil);
}

std::unique_ptr<Limiter> makeLimiter(const LimiterSpec& spec, LimiterOptions options) {
    return algorithmOf(spec).make(spec, options);
}

bool keyHoldsLayout(RedisRouter& router, int slot, const std::string& key,
                    const Limiter::KeyLayout& layout) {
    const KeyCommand run = [&](const RedisArgs& args) { return router.command(slot, args); };
    const std::string type = replyString(run({"TYPE", key}).get(), "TYPE");
    return type != "none" && holdsLayout(run, key, type, layout);
}

}  // namespace ratelab
