#include "support/test_redis.h"

#include <algorithm>

#include "traffic/decision_path.h"

#include <QRandomGenerator>
#include <QtTest>

namespace ratelab::test {

Decision decide(RedisRouter& router, const Limiter& limiter, const Request& request) {
    return DecisionPath::decideAlone(router, limiter, request);
}

Decision decide(RedisConnection& connection, const Limiter& limiter, const Request& request) {
    thread_local std::vector<std::unique_ptr<RedisRouter>> routers;
    // A router to the connection's server (a cluster node's URL reaches the whole cluster).
    const RedisUrl url = fixtureUrl().isCluster() ? fixtureUrl() : connection.url();
    auto it = std::find_if(routers.begin(), routers.end(),
                           [&](const auto& r) { return r->url() == url; });
    if (it == routers.end()) {
        routers.push_back(std::make_unique<RedisRouter>(url));
        it = routers.end() - 1;
    }
    return DecisionPath::decideAlone(**it, limiter, request);
}

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
