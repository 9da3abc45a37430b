#include "traffic/batched_window.h"

#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

namespace ratelab {

bool BatchedWindow::sync(const Limiter& limiter, RedisRouter& router, const std::string& key) {
    bool synced = false;
    for (auto& [k, count] : counts_) {
        if (count.pending == 0) {
            continue;
        }
        RedisReply reply =
            router.command(limiter.slot(), {"INCRBY", k, std::to_string(count.pending)});
        count.known = replyInteger(reply.get(), "INCRBY");
        count.pending = 0;
        router.command(limiter.slot(), {"PEXPIRE", k, std::to_string(count.ttlMs)});
        synced = synced || k == key;
    }
    return synced;
}

Decision BatchedWindow::decide(const Limiter& limiter, RedisRouter& router, const Request& request,
                               qint64 runMs) {
    const std::optional<Limiter::CountedWindow> w = limiter.countedWindow(request);
    if (!w) {
        throw RedisError(RedisError::Kind::Reply,
                         limiter.spec().name.toStdString() + ": its counts cannot be batched");
    }
    const std::string& key = w->key;
    const qint64 rate = limiter.spec().rate;
    const qint64 syncMs = limiter.spec().gateway.syncMs;

    const std::lock_guard<std::mutex> lock(mutex_);
    Decision d;
    d.atMs = request.nowMs;
    d.calledRedis = false;
    bool read = counts_.find(key) == counts_.end();
    Count& count = counts_[key];
    count.ttlMs = limiter.ttlMs(w->endMs - w->startMs + kStateGraceMs);  // scaled, capped
    if (runMs >= nextSyncMs_) {
        const bool synced = sync(limiter, router, key);
        read = read || !synced;
        d.calledRedis = true;
        nextSyncMs_ = (runMs / syncMs + 1) * syncMs;
    }
    if (read) {
        RedisReply reply = router.command(limiter.slot(), {"GET", key});
        count.known =
            reply->type == REDIS_REPLY_NIL ? 0 : std::stoll(std::string(reply->str, reply->len));
        d.calledRedis = true;
    }
    d.reason.permits = request.permits;
    d.reason.limit = rate;
    d.reason.counted = count.known + count.pending;
    if (request.permits <= rate && count.known + count.pending + request.permits <= rate) {
        count.pending += request.permits;
        d.allowed = true;
        d.remaining = rate - count.known - count.pending;
        return d;
    }
    d.remaining = std::max<qint64>(0, rate - count.known - count.pending);
    d.retryAfterMs = request.permits > rate ? -1 : w->endMs - request.nowMs;
    return d;
}

void BatchedWindow::flush(const Limiter& limiter, RedisRouter& router) {
    const std::lock_guard<std::mutex> lock(mutex_);
    sync(limiter, router, std::string());
}

}  // namespace ratelab
