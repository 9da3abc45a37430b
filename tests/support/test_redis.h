#pragma once

#include <QString>
#include <memory>

#include "limiters/limiter.h"
#include "redis/redis_connection.h"
#include "redis/redis_router.h"

namespace ratelab::test {

// The fixture server's URL from $REDIS_URL (set by CTest). Fails the test if it is missing:
// tests that need Redis never pass silently without one. It may be a redis-cluster:// URL (the
// same tests run against the cluster fixture).
RedisUrl fixtureUrl();
// A plain connection: a single server, or a cluster's first seed node.
std::unique_ptr<RedisConnection> connectFixture();
// A router to the fixture: for commands that must reach the node owning a key.
std::unique_ptr<RedisRouter> routeFixture();

// One decision on its own, through the engine's decision path (DecisionPath::decideAlone).
// Throws RedisError when it fails.
Decision decide(RedisRouter& router, const Limiter& limiter, const Request& request);
// The same where a test holds a connection: decided through a router to that connection's server
// (the cluster fixture when the tests run against it), one this thread keeps per server.
Decision decide(RedisConnection& connection, const Limiter& limiter, const Request& request);

// A limiter name no other test (or run) uses: "<prefix>-<random>".
QString uniqueName(const QString& prefix);

// Owns a limiter and deletes its keys (and only its keys) when the test is done. Its keys live
// on one node; connection() is that node's (for a single server, the server's).
class ScopedLimiter {
public:
    ScopedLimiter(const LimiterSpec& spec, LimiterOptions options = {});
    ~ScopedLimiter();
    const Limiter& operator*() const { return *limiter_; }
    const Limiter* operator->() const { return limiter_.get(); }
    RedisConnection& connection() { return router_->connectionForSlot(limiter_->slot()); }
    RedisRouter& router() { return *router_; }

private:
    std::unique_ptr<Limiter> limiter_;
    std::unique_ptr<RedisRouter> router_;
};

}  // namespace ratelab::test
