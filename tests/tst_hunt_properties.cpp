// The hunt's properties on every built-in type: each passes `retry` and `remaining` over many
// generated traces (both scopes, the corners of their parameters), decided on the fixture Redis.
#include <QtTest>

#include "hunt/hunt.h"
#include "hunt/violation_text.h"
#include "limiters/limiter_spec.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestHuntProperties : public QObject {
    Q_OBJECT

private slots:
    void builtInTypesKeepTheirPromises_data() {
        QTest::addColumn<QByteArray>("spec");
        const char* specs[][2] = {
            {"token bucket", R"({"type": "token_bucket", "rate": 3, "interval_ms": 1000})"},
            {"token bucket of 1", R"({"type": "token_bucket", "rate": 1, "interval_ms": 250})"},
            {"fixed window, seconds",
             R"({"type": "fixed_window", "rate": 3, "interval": 1, "unit": "seconds",
                "timezone": "UTC"})"},
            {"fixed window, 7 minutes",
             R"({"type": "fixed_window", "rate": 2, "interval": 7, "unit": "minutes",
                "timezone": "Asia/Kolkata"})"},
            {"fixed window, days over DST",
             R"({"type": "fixed_window", "rate": 3, "interval": 1, "unit": "days",
                "timezone": "Europe/Berlin"})"},
            {"fixed window, hours over DST",
             R"({"type": "fixed_window", "rate": 2, "interval": 5, "unit": "hours",
                "timezone": "America/New_York"})"},
            {"sliding window, two rules",
             R"({"type": "sliding_window",
                "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 4000}]})"},
            {"sliding window of 1",
             R"({"type": "sliding_window", "rules": [{"limit": 1, "window_ms": 100}]})"},
            {"gcra", R"({"type": "gcra", "rate": 10, "period_ms": 1000, "burst": 3})"},
            {"gcra, fractional interval",
             R"({"type": "gcra", "rate": 3, "period_ms": 1000, "burst": 2})"},
            {"gcra, burst 1", R"({"type": "gcra", "rate": 7, "period_ms": 60000, "burst": 1})"},
            {"sliding counter", R"({"type": "sliding_counter", "limit": 4, "window_ms": 1000})"},
            {"sliding counter of 1",
             R"({"type": "sliding_counter", "limit": 1, "window_ms": 300})"},
            {"leaky bucket",
             R"({"type": "leaky_bucket", "rate": 10, "period_ms": 1000, "burst": 2})"},
            {"leaky bucket, nodelay, burst 0",
             R"({"type": "leaky_bucket", "rate": 3, "period_ms": 1000, "burst": 0, "nodelay": true})"},
            {"leaky bucket, fractional leak",
             R"({"type": "leaky_bucket", "rate": 7, "period_ms": 60000, "burst": 3})"},
            {"concurrency", R"({"type": "concurrency", "limit": 3, "lease_ms": 2000})"},
            // Through a gateway that keeps state: decided as a run decides it.
            {"gcra, node-local", R"({"type": "gcra", "rate": 4, "period_ms": 1000, "burst": 2,
                                     "gateway": {"mode": "local"}})"},
        };
        for (const auto& row : specs) {
            for (const char* scope : {"global", "per_client"}) {
                QJsonObject spec = QJsonDocument::fromJson(row[1]).object();
                spec.insert(QStringLiteral("name"), QStringLiteral("x"));
                spec.insert(QStringLiteral("scope"), QLatin1String(scope));
                QTest::addRow("%s, %s", row[0], scope) << QJsonDocument(spec).toJson();
            }
        }
    }

    // Every refusal's retry_after_ms and every grant's remaining hold, from the same state, on
    // traces aimed at the type's corners: no counterexample.
    void builtInTypesKeepTheirPromises() {
        QFETCH(QByteArray, spec);
        HuntConfig config;
        config.limiter = parseLimiterSpecJson(spec);
        config.properties = {HuntProperty::Retry, HuntProperty::Remaining};
        config.seed = 7;
        config.traces = 150;
        Hunt hunt(config, fixtureUrl());
        const HuntResult result = hunt.run();
        QCOMPARE(result.traces, config.traces);
        if (result.counterexample) {
            const Counterexample& c = *result.counterexample;
            QFAIL(qPrintable(
                violationText(config.limiter, config.reference, c.trace, *c.checked.violation)));
        }
    }

    // A gateway that caches refusals answers a request of at least the permits it remembers
    // with the remembered wait, without asking Redis: for more permits than that (here more
    // than the limit, which never pass) the wait is an estimate, and the hunt shows it.
    void cachedRefusalsEstimateTheWait() {
        HuntConfig config;
        config.limiter = parseLimiterSpecJson(R"({"type": "sliding_window", "name": "cr",
            "rules": [{"limit": 2, "window_ms": 500}],
            "gateway": {"mode": "shared", "cache_refusals": true}})");
        config.properties = {HuntProperty::Retry};
        config.seed = 7;
        config.traces = 300;
        const HuntResult result = Hunt(config, fixtureUrl()).run();
        QVERIFY(result.counterexample);
        const Violation& v = *result.counterexample->checked.violation;
        QCOMPARE(v.property, HuntProperty::Retry);
        QVERIFY(!v.decision.calledRedis);  // the gateway's own refusal
        QVERIFY(v.probeShouldGrant && !v.probe->allowed);
    }
};

QTEST_GUILESS_MAIN(TestHuntProperties)
#include "tst_hunt_properties.moc"
