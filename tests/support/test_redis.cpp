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

QString uniqueName(const QString& prefix) {
    return prefix + QLatin1Char('-') +
           QString::number(QRandomGenerator::global()->generate64(), 36);
}

ScopedLimiter::ScopedLimiter(const LimiterSpec& spec, LimiterOptions options)
    : limiter_(makeLimiter(spec, options)), connection_(connectFixture()) {
    limiter_->reset(*connection_);
}

ScopedLimiter::~ScopedLimiter() {
    try {
        connection_->reconnect();
        limiter_->reset(*connection_);
    } catch (const std::exception& e) {
        qWarning("could not delete the keys of %s: %s", qPrintable(limiter_->spec().name),
                 e.what());
    }
}

}  // namespace ratelab::test
