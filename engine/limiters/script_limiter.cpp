#include "limiters/script_limiter.h"

#include <algorithm>
#include <cstdio>

#include "input_error.h"
#include "limiters/request_ids.h"
#include "limiters/script_reply.h"
#include "redis/cluster_slot.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

using Slot = ScriptTemplate::Slot;

// UNLINKs the keys one SCAN page found on one node: together on a single server, one by one
// on a cluster node (keys of different slots cannot share a command there).
long long unlinkPage(RedisConnection& node, const std::vector<std::string>& keys, bool cluster) {
    long long deleted = 0;
    if (keys.empty()) {
        return 0;
    }
    if (!cluster) {
        RedisArgs command{"UNLINK"};
        command.insert(command.end(), keys.begin(), keys.end());
        return replyInteger(node.command(command).get(), "UNLINK");
    }
    for (const std::string& key : keys) {
        deleted += replyInteger(node.command({"UNLINK", key}).get(), "UNLINK");
    }
    return deleted;
}

}  // namespace

ScriptLimiter::ScriptLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      script_(this->spec().script->source),
      name_(this->spec().name.toStdString()) {
    const ScriptSpec& s = scriptSpec();
    if (this->spec().name != s.declaredName) {
        prefix_ = name_ + ':';
    }
    for (const std::vector<ScriptTemplate>* templates : {&s.keys, &s.args}) {
        for (const ScriptTemplate& t : *templates) {
            for (int slot = 1; slot < ScriptTemplate::kSlots; ++slot) {
                uses_[slot] = uses_[slot] || t.uses(Slot(slot));
            }
        }
    }
    const bool explicitReset = !s.reset.empty();
    const std::string client = this->spec().scope == Scope::PerClient ? "*" : "global";
    for (const ScriptTemplate& t : explicitReset ? s.reset : s.keys) {
        // An explicit pattern is a glob as written; a key template's text is not.
        std::string pattern = escapeGlob(prefix_);
        if (explicitReset) {
            ScriptTemplate::Values values;
            values[std::size_t(Slot::Name)] = escapeGlob(name_);
            values[std::size_t(Slot::Client)] = client;
            t.expand(values, pattern);
        } else {
            pattern += t.globPattern(name_, client);
        }
        if (std::find(patterns_.begin(), patterns_.end(), pattern) == patterns_.end()) {
            patterns_.push_back(pattern);
        }
    }
    if (!s.keys.front().variesPerRequest()) {
        setSlot(keyHashSlot(keyFor(s.keys.front(), QString())));
    }
    if (std::optional<LimiterSpec> reference = referenceSpecOf(this->spec())) {
        reference_ = makeLimiter(*reference, options);
    }
}

ScriptLimiter::~ScriptLimiter() = default;

std::string ScriptLimiter::errorContext() const {
    const ScriptSpec& s = scriptSpec();
    return "script '" + name_ + "' (" +
           (s.file.isEmpty() ? std::string("inline") : s.file.toStdString()) + ")";
}

void ScriptLimiter::fill(const Request& request, ScriptTemplate::Values& values) const {
    values[std::size_t(Slot::Name)] = name_;
    values[std::size_t(Slot::Client)] =
        spec().scope == Scope::PerClient ? request.client.toStdString() : std::string("global");
    if (uses_[int(Slot::NowMs)]) {
        values[std::size_t(Slot::NowMs)] = std::to_string(request.nowMs);
    }
    if (uses_[int(Slot::NowUs)]) {
        values[std::size_t(Slot::NowUs)] = std::to_string(request.nowMs * 1000);
    }
    if (uses_[int(Slot::NowS)]) {
        char text[32];
        const qint64 ms = request.nowMs;
        const qint64 seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
        std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(seconds),
                      static_cast<long long>(ms - seconds * 1000));
        values[std::size_t(Slot::NowS)] = text;
    }
    if (uses_[int(Slot::Permits)]) {
        values[std::size_t(Slot::Permits)] = std::to_string(request.permits);
    }
    if (uses_[int(Slot::RequestId)]) {
        // The request's place in the schedule; a request outside any schedule (the bench) a
        // random id no schedule uses.
        values[std::size_t(Slot::RequestId)] =
            request.id >= 0 ? std::to_string(request.id) : "r" + randomRequestId();
    }
    if (uses_[int(Slot::Uuid)]) {
        values[std::size_t(Slot::Uuid)] = randomUuid();
    }
}

std::string ScriptLimiter::keyFor(const ScriptTemplate& key, const QString& client) const {
    Request request;
    request.client = client;
    ScriptTemplate::Values values;
    fill(request, values);
    std::string out = prefix_;
    key.expand(values, out);
    return out;
}

ScriptCall ScriptLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    const ScriptSpec& s = scriptSpec();
    ScriptTemplate::Values values;
    fill(request, values);
    ScriptCall call;
    call.keys.reserve(s.keys.size());
    for (const ScriptTemplate& t : s.keys) {
        call.keys.push_back(prefix_);
        t.expand(values, call.keys.back());
    }
    call.args.reserve(s.args.size());
    for (const ScriptTemplate& t : s.args) {
        call.args.emplace_back();
        t.expand(values, call.args.back());
    }
    call.atMs = request.nowMs;
    call.permits = request.permits;
    // The first key's slot: on a cluster, Redis answers CROSSSLOT when the others are not in it.
    call.slot = keyHashSlot(call.keys.front());
    return call;
}

std::optional<Decision> ScriptLimiter::decodeOwnReply(ReplyView reply,
                                                      const ScriptCall& call) const {
    std::string problem;
    std::optional<Decision> decision = decodeScriptReply(reply, scriptSpec().reply, &problem);
    if (!decision) {
        throw RedisError(RedisError::Kind::Reply,
                         errorContext() + ": the reply does not fit \"reply\": " + problem);
    }
    decision->atMs = call.atMs;
    if (options().keepRawReplies) {
        decision->reason.rawReply = describeReply(reply);
    }
    return decision;
}

// Nothing but the reply says why: the reason sentence shows it (Algorithm::reasonText).
void ScriptLimiter::explain(Decision* decision, const ScriptCall& call) const {
    decision->reason.fromMs = call.atMs;
    decision->reason.toMs = call.atMs;
}

long long ScriptLimiter::reset(RedisConnection& connection) const {
    long long deleted = 0;
    for (const std::string& pattern : patterns_) {
        scanEach(connection, pattern, [&](std::vector<std::string>& keys) {
            deleted += unlinkPage(connection, keys, false);
        });
    }
    if (reference_) {
        deleted += reference_->reset(connection);
    }
    return deleted;
}

long long ScriptLimiter::reset(RedisRouter& router,
                               std::chrono::steady_clock::time_point goOnUntil) const {
    long long deleted = 0;
    // The user's keys name their own hash tags: every master may hold some.
    for (RedisConnection* node : router.masterConnections()) {
        for (const std::string& pattern : patterns_) {
            scanEach(
                *node, pattern,
                [&](std::vector<std::string>& keys) {
                    deleted += unlinkPage(*node, keys, router.isCluster());
                },
                std::string(), goOnUntil);
        }
    }
    if (reference_) {
        deleted += reference_->reset(router, goOnUntil);
    }
    return deleted;
}

void ScriptLimiter::loadScripts(RedisRouter& router) const {
    const ScriptSpec& s = scriptSpec();
    for (RedisConnection* node : router.masterConnections()) {
        const RedisReply reply = node->command({"SCRIPT", "LOAD", s.source});
        const ReplyView view(reply.get());
        if (view.is(ReplyView::Type::Error)) {
            // A script that does not compile: Redis's message names the line
            // ("user_script:3: '=' expected near 'x'").
            throw InputError(
                s.file.isEmpty() ? QStringLiteral("$.script.inline") : s.file,
                QStringLiteral("Redis could not load the script of limiter '%1': %2")
                    .arg(spec().name,
                         QString::fromUtf8(view.text().data(), qsizetype(view.text().size()))));
        }
        if (!view.is(ReplyView::Type::String) || view.text() != script_.sha1()) {
            throw RedisError(RedisError::Kind::Reply,
                             errorContext() + ": SCRIPT LOAD answered " + describeReply(view));
        }
    }
    if (reference_) {
        reference_->loadScripts(router);
    }
}

}  // namespace ratelab
