#pragma once

#include <QString>
#include <memory>

#include "limiters/limiter.h"
#include "redis/redis_connection.h"

namespace ratelab::test {

// The fixture server's URL from $REDIS_URL (set by CTest). Fails the test if it is missing:
// tests that need Redis never pass silently without one.
RedisUrl fixtureUrl();
std::unique_ptr<RedisConnection> connectFixture();

// A limiter name no other test (or run) uses: "<prefix>-<random>".
QString uniqueName(const QString& prefix);

// Owns a limiter and deletes its keys (and only its keys) when the test is done.
class ScopedLimiter {
public:
    ScopedLimiter(const LimiterSpec& spec, LimiterOptions options = {});
    ~ScopedLimiter();
    const Limiter& operator*() const { return *limiter_; }
    const Limiter* operator->() const { return limiter_.get(); }
    RedisConnection& connection() { return *connection_; }

private:
    std::unique_ptr<Limiter> limiter_;
    std::unique_ptr<RedisConnection> connection_;
};

}  // namespace ratelab::test
