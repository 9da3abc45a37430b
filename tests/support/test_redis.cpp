#include "support/test_redis.h"

#include <QRandomGenerator>
#include <QtTest>

namespace ratelab::test {

RedisUrl fixtureUrl() {
    const QString url = qEnvironmentVariable("REDIS_URL");
    if (url.isEmpty()) {
        qFatal("REDIS_URL is not set: run this test through ctest (it starts the redis fixture)");
    }
    return RedisUrl::parse(url);
}

std::unique_ptr<RedisConnection> connectFixture() {
    return std::make_unique<RedisConnection>(fixtureUrl());
}

std::unique_ptr<RedisRouter> routeFixture() {
    return std::make_unique<RedisRouter>(fixtureUrl());
}

QString uniqueName(const QString& prefix) {
    return prefix + QLatin1Char('-') +
           QString::number(QRandomGenerator::global()->generate64(), 36);
}

ScopedLimiter::ScopedLimiter(const LimiterSpec& spec, LimiterOptions options)
    : limiter_(makeLimiter(spec, options)), router_(routeFixture()) {
    limiter_->reset(*router_);
}

ScopedLimiter::~ScopedLimiter() {
    // A test may have cut the connection: the first failure marks it broken and the router
    // connects again on the second try.
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            limiter_->reset(*router_);
            return;
        } catch (const std::exception& e) {
            if (attempt == 1) {
                qWarning("could not delete the keys of %s: %s", qPrintable(limiter_->spec().name),
                         e.what());
            }
        }
    }
}

}  // namespace ratelab::test
