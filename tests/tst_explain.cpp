// One decision explained (engine/explain): the decision and reason are the reference model's
// for the same schedule; passes_at_ms and every counterfactual are checked by deciding again on
// Redis, apart from the explainer (the request at passes_at_ms is granted and 1 ms earlier
// refused; the value found grants from the same state and one step less refuses), and the
// capacity counterfactuals against the reason's own numbers; the headers say what the draft
// says; the explainer's scratch keys are gone afterwards.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include <cmath>

#include "input_error.h"
#include "run/scenario_explainer.h"
#include "run/schedule_walk.h"
#include "support/reference_models.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStartMs = 1'709'280'000'000;  // 2024-03-01T08:00:00Z

Scenario scenarioWith(const QByteArray& limiter, double rate, int clients) {
    Scenario s = parseScenarioJson(
        QByteArray(R"({"name": "explained", "limiters": [)") + limiter +
            R"(], "traffic": {"shape": {"type": "constant", "rate": )" + QByteArray::number(rate) +
            R"(}, "duration_s": 3, "clients": )" + QByteArray::number(clients) +
            R"(, "clock": {"type": "virtual", "start": "2024-03-01T08:00:00.000Z", "speed": 0}}})",
        QString());
    s.limiters[0].name = uniqueName(s.limiters[0].name);
    return s;
}

// The schedule's requests up to and including `index`, as the explainer walks them.
QVector<Request> requestsUpTo(const Scenario& scenario, qint64 index) {
    QVector<Request> out;
    ScheduleWalk walk(scenario, kStartMs);
    for (ScheduleWalk::Step s = walk.next(); s.index >= 0 && s.index <= index; s = walk.next()) {
        out << s.request;
    }
    return out;
}

// A fresh limiter of `spec` that decided every request before the last one.
struct Replayed {
    ScopedLimiter limiter;
    Replayed(const LimiterSpec& spec, const QVector<Request>& requests) : limiter(named(spec)) {
        for (int i = 0; i + 1 < requests.size(); ++i) {
            test::decide(limiter.router(), *limiter, requests[i]);
        }
    }
    static LimiterSpec named(LimiterSpec spec) {
        spec.name = uniqueName(QStringLiteral("again"));
        return spec;
    }
};

// Decided again from the state the request found, with one field changed: a fresh replay
// under the user's config, its state copied to a limiter of the changed config.
bool grantsWith(const LimiterSpec& spec, const QVector<Request>& requests, const QString& path,
                qint64 value) {
    Replayed replayed(spec, requests);
    LimiterSpec changed = Replayed::named(spec);
    algorithmOf(spec).setNumericParam(changed, path, value);
    ScopedLimiter probe(changed);
    if (!algorithmOf(spec).copyState(replayed.limiter.router(), *replayed.limiter, *probe,
                                     requests.last(), 60000)) {
        qFatal("state not comparable for %s", qPrintable(path));
    }
    return test::decide(probe.router(), *probe, requests.last()).allowed;
}

bool grantsAt(const LimiterSpec& spec, const QVector<Request>& requests, qint64 atMs) {
    Replayed replayed(spec, requests);
    Request at = requests.last();
    at.nowMs = atMs;
    return test::decide(replayed.limiter.router(), *replayed.limiter, at).allowed;
}

// What the reason's own numbers say the capacity field must reach, where it is one formula.
std::optional<qint64> capacityNeeded(const LimiterSpec& spec, const QString& path,
                                     const Decision& d) {
    const DecisionReason& r = d.reason;
    const qint64 p = r.permits;
    const QString capacity =
        spec.type == LimiterType::SlidingWindow ? QStringLiteral("rules[%1].limit").arg(r.rule)
        : spec.type == LimiterType::Gcra || spec.type == LimiterType::LeakyBucket
            ? QStringLiteral("burst")
        : spec.type == LimiterType::SlidingCounter || spec.type == LimiterType::Concurrency
            ? QStringLiteral("limit")
            : QStringLiteral("rate");
    if (path != capacity) {
        return std::nullopt;
    }
    switch (spec.type) {
        case LimiterType::Gcra: {
            // allow_at = tat + p T - burst T <= now, T = period / rate ms.
            const __int128 now = __int128(d.atMs) * r.unitsPerMs;
            const __int128 t = __int128(spec.periodMs) * r.unitsPerMs / spec.rate;
            const __int128 need = r.tat + p * t - now;
            return qint64((need + t - 1) / t);
        }
        case LimiterType::LeakyBucket:
            // e = x + 1000 (p - 1) <= 1000 burst.
            return (r.levelMilli + 1000 * (p - 1) + 999) / 1000;
        default:
            return r.counted + p;
    }
}

}  // namespace

class TestExplain : public QObject {
    Q_OBJECT

private slots:
    void explains_data() {
        QTest::addColumn<QByteArray>("limiter");
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("index");
        const auto row = [](const char* name, const char* spec, double rate, int clients,
                            qint64 index) {
            QTest::newRow(name) << QByteArray(spec) << rate << clients << index;
        };
        row("token bucket, refused",
            R"({"type": "token_bucket", "name": "tb", "rate": 5, "interval_ms": 1000})", 20, 3, 9);
        row("token bucket, granted",
            R"({"type": "token_bucket", "name": "tb", "rate": 5, "interval_ms": 1000})", 20, 3, 2);
        row("fixed window, refused",
            R"({"type": "fixed_window", "name": "fw", "rate": 5, "interval": 1,
                "unit": "seconds", "timezone": "Europe/Berlin"})",
            20, 3, 9);
        row("two-rule log per client, refused",
            R"({"type": "sliding_window", "name": "sw", "scope": "per_client",
                "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 10000}]})",
            20, 2, 29);
        row("two-rule log, granted",
            R"({"type": "sliding_window", "name": "sw",
                "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 10000}]})",
            20, 2, 20);
        row("gcra, refused",
            R"({"type": "gcra", "name": "g", "rate": 5, "period_ms": 1000, "burst": 3})", 20, 3, 9);
        row("gcra, fractional T",
            R"({"type": "gcra", "name": "g", "rate": 3, "period_ms": 1000, "burst": 2})", 20, 1,
            13);
        row("sliding counter, refused",
            R"({"type": "sliding_counter", "name": "sc", "limit": 5, "window_ms": 1000})", 20, 3,
            27);
        row("leaky bucket, refused",
            R"({"type": "leaky_bucket", "name": "lb", "rate": 5, "period_ms": 1000,
                "burst": 3})",
            20, 3, 9);
        row("leaky bucket nodelay, granted",
            R"({"type": "leaky_bucket", "name": "lb", "rate": 5, "period_ms": 1000,
                "burst": 3, "nodelay": true})",
            20, 3, 1);
        row("concurrency, refused",
            R"({"type": "concurrency", "name": "cc", "limit": 3, "lease_ms": 1000})", 20, 3, 9);
        row("concurrency per client, granted as a lease runs out",
            R"({"type": "concurrency", "name": "cc", "scope": "per_client", "limit": 2,
                "lease_ms": 200})",
            20, 1, 4);
    }
    void explains() {
        QFETCH(QByteArray, limiter);
        QFETCH(double, rate);
        QFETCH(int, clients);
        QFETCH(qint64, index);
        const Scenario scenario = scenarioWith(limiter, rate, clients);
        const LimiterSpec& spec = scenario.limiters[0];
        auto router = routeFixture();
        ExplainTarget target;
        target.index = index;
        const Explanation e = explainDecision(scenario, spec.name, target, *router);
        const QVector<Request> requests = requestsUpTo(scenario, index);
        QCOMPARE(e.index, index);
        QCOMPARE(e.request.nowMs, requests.last().nowMs);

        // The decision and its reason are the reference model's.
        ReferenceModel model(spec);
        Decision want;
        for (const Request& r : requests) {
            want = model.decide(r);
        }
        QCOMPARE(e.decision.allowed, want.allowed);
        QCOMPARE(e.decision.retryAfterMs, want.retryAfterMs);
        QCOMPARE(e.decision.remaining, want.remaining);
        QCOMPARE(e.decision.reason.rule, want.reason.rule);
        QCOMPARE(e.decision.reason.counted, want.reason.counted);
        QVERIFY(!e.reason.isEmpty());

        // passes_at_ms: granted then, refused 1 ms before (deciding again, apart).
        if (e.decision.allowed) {
            QCOMPARE(e.passesAtMs, e.request.nowMs);
        } else {
            QCOMPARE(e.passesAtMs, e.request.nowMs + e.decision.retryAfterMs);
            QVERIFY(grantsAt(spec, requests, e.passesAtMs));
            QVERIFY(!grantsAt(spec, requests, e.passesAtMs - 1));
        }

        // Each value found grants from the same state; one step towards the current value
        // (less for a rate or limit, more for a window) decides as configured.
        int found = 0;
        for (const Counterfactual& c : e.counterfactuals) {
            if (!c.found) {
                QVERIFY2(!c.note.isEmpty(), qPrintable(c.path));
                continue;
            }
            ++found;
            QVERIFY2(grantsWith(spec, requests, c.path, c.value), qPrintable(c.path));
            const qint64 step = c.moreAdmits ? c.value - 1 : c.value + 1;
            const NumericParam bounds = [&] {
                for (const NumericParam& p : algorithmOf(spec).numericParams(spec)) {
                    if (p.path == c.path) {
                        return p;
                    }
                }
                return NumericParam{};
            }();
            if (step >= bounds.min && step <= bounds.max) {
                QVERIFY2(!grantsWith(spec, requests, c.path, step),
                         qPrintable(QStringLiteral("%1 = %2 grants too").arg(c.path).arg(step)));
            }
            if (const std::optional<qint64> need = capacityNeeded(spec, c.path, e.decision)) {
                QCOMPARE(c.value, std::max<qint64>(*need, bounds.min));
            }
        }
        QVERIFY2(found > 0, "no counterfactual found");

        // Nothing of the explainer stays in Redis (its scratch names end in the limiter's).
        const RedisReply left =
            connectFixture()->command({"KEYS", "*explain-*" + spec.name.toStdString() + "*"});
        QCOMPARE(left->elements, size_t(0));
    }

    // RateLimit-Policy lists every rule, RateLimit the deciding one, Retry-After whole seconds;
    // a per-client limiter names its partition. GCRA and the leaky bucket give the rate they
    // enforce in whole seconds and their burst as a policy of its own (a tolerance of a third of
    // a second is not "1 per second"); their remaining is the burst's.
    void headers_data() {
        QTest::addColumn<QByteArray>("limiter");
        QTest::addColumn<qint64>("index");
        QTest::addColumn<qint64>("retryAfterMs");
        QTest::addColumn<QStringList>("headers");
        // 0..2 granted at 0, 50, 100 ms; 3 refused; 4 at 200 ms refused.
        QTest::newRow("sliding window")
            << QByteArray(R"({"type": "sliding_window", "name": "h", "scope": "per_client",
                "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 10000}]})")
            << qint64(4) << qint64(800)
            << QStringList{QStringLiteral("RateLimit-Policy: \"rule-1\";q=3;w=1;pk=:YzA=:, "
                                          "\"rule-2\";q=5;w=10;pk=:YzA=:"),
                           QStringLiteral("RateLimit: \"rule-1\";r=0;t=1;pk=:YzA=:"),
                           QStringLiteral("Retry-After: 1")};
        // 3 per second, one at a time: the second request, 50 ms after the first, waits until
        // 333 1/3 ms.
        QTest::newRow("gcra 3/s, burst 1")
            << QByteArray(R"({"type": "gcra", "name": "h", "rate": 3, "period_ms": 1000,
                              "burst": 1})")
            << qint64(1) << qint64(284)
            << QStringList{QStringLiteral("RateLimit-Policy: \"default\";q=3;w=1, "
                                          "\"burst\";q=1"),
                           QStringLiteral("RateLimit: \"burst\";r=0;t=1"),
                           QStringLiteral("Retry-After: 1")};
        // 30 per 10 s is 3 per second; 4 at once (burst 3 + the one the bucket holds).
        QTest::newRow("gcra 30 per 10 s, burst 4")
            << QByteArray(R"({"type": "gcra", "name": "h", "rate": 30, "period_ms": 10000,
                              "burst": 4})")
            << qint64(4) << qint64(134)
            << QStringList{QStringLiteral("RateLimit-Policy: \"default\";q=3;w=1, "
                                          "\"burst\";q=4"),
                           QStringLiteral("RateLimit: \"burst\";r=0;t=1"),
                           QStringLiteral("Retry-After: 1")};
        QTest::newRow("leaky bucket 3/s, burst 0")
            << QByteArray(R"({"type": "leaky_bucket", "name": "h", "rate": 3, "period_ms": 1000,
                              "burst": 0, "nodelay": true})")
            << qint64(1) << qint64(284)
            << QStringList{QStringLiteral("RateLimit-Policy: \"default\";q=3;w=1, "
                                          "\"burst\";q=1"),
                           QStringLiteral("RateLimit: \"burst\";r=0;t=1"),
                           QStringLiteral("Retry-After: 1")};
    }
    void headers() {
        QFETCH(QByteArray, limiter);
        QFETCH(qint64, index);
        QFETCH(qint64, retryAfterMs);
        QFETCH(QStringList, headers);
        const Scenario scenario = scenarioWith(limiter, 20, 1);
        auto router = routeFixture();
        ExplainTarget target;
        target.index = index;
        const Explanation e = explainDecision(scenario, scenario.limiters[0].name, target, *router);
        QVERIFY(!e.decision.allowed);
        QCOMPARE(e.decision.retryAfterMs, retryAfterMs);
        QCOMPARE(e.headers, headers);
    }

    // --at picks the nearest request (of a client, when named); bad targets name what is wrong.
    void targets_data() {
        QTest::addColumn<qint64>("index");
        QTest::addColumn<qint64>("atMs");
        QTest::addColumn<QString>("client");
        QTest::addColumn<qint64>("chosen");  // -1: InputError
        QTest::newRow("by index") << qint64(7) << qint64(0) << QString() << qint64(7);
        QTest::newRow("at a request's time") << qint64(-1) << qint64(350) << QString() << qint64(7);
        QTest::newRow("between two: the nearer")
            << qint64(-1) << qint64(369) << QString() << qint64(7);
        QTest::newRow("halfway: the earlier")
            << qint64(-1) << qint64(375) << QString() << qint64(7);
        QTest::newRow("absolute time") << qint64(-1) << kStartMs + 400 << QString() << qint64(8);
        QTest::newRow("one client's: c2 sends at 200 and 450 ms")
            << qint64(-1) << qint64(350) << QStringLiteral("c2") << qint64(9);
        QTest::newRow("past the end") << qint64(60) << qint64(0) << QString() << qint64(-1);
        QTest::newRow("a client with no request")
            << qint64(-1) << qint64(0) << QStringLiteral("c9") << qint64(-1);
    }
    void targets() {
        QFETCH(qint64, index);
        QFETCH(qint64, atMs);
        QFETCH(QString, client);
        QFETCH(qint64, chosen);
        const Scenario scenario = scenarioWith(
            R"({"type": "token_bucket", "name": "t", "rate": 5, "interval_ms": 1000})", 20, 3);
        ExplainTarget target{index, atMs, client};
        if (chosen < 0) {
            QVERIFY_THROWS_EXCEPTION(InputError, explainedRequest(scenario, target));
            return;
        }
        QCOMPARE(explainedRequest(scenario, target), chosen);
    }

    // The command: the JSON object's fields; bad input exits 2 naming it, before Redis is
    // touched (REDIS_URL points nowhere for those).
    void command_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("redis");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("says");
        const auto args = [](const char* spaced) {
            return QString::fromLatin1(spaced).split(QLatin1Char(' '));
        };
        QTest::newRow("json") << args("SCENARIO --limiter LIMITER --request 9 --json") << true << 0
                              << "\"passes_at_ms\"";
        QTest::newRow("text") << args("SCENARIO --limiter LIMITER --at 460") << true << 0
                              << "why: 5 per 1000 ms: 5 of 5 permits held";
        QTest::newRow("unknown limiter")
            << args("SCENARIO --limiter nope --request 1") << false << 2
            << "--limiter: no limiter is named \"nope\"; expected \"";
        QTest::newRow("past the end")
            << args("SCENARIO --limiter LIMITER --request 60") << false << 2
            << "--request: request 60 is past the end of the schedule";
        QTest::newRow("both targets") << args("SCENARIO --limiter LIMITER --request 1 --at 5")
                                      << false << 2 << "give either --request N or --at T_MS";
        QTest::newRow("neither target") << args("SCENARIO --limiter LIMITER") << false << 2
                                        << "give either --request N or --at T_MS";
        QTest::newRow("client without --at")
            << args("SCENARIO --limiter LIMITER --request 1 --client c0") << false << 2
            << "--client: goes with --at";
        QTest::newRow("negative index")
            << args("SCENARIO --limiter LIMITER --request -1") << false << 2 << "--request";
        QTest::newRow("no scenario file") << args("/nonexistent.json --limiter LIMITER --request 1")
                                          << false << 2 << "/nonexistent.json";
    }
    void command() {
        QFETCH(QStringList, args);
        QFETCH(bool, redis);
        QFETCH(int, exitCode);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString name = uniqueName(QStringLiteral("cli-tb"));
        const QString path = dir.filePath(QStringLiteral("s.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(
                       R"({"name": "cli", "limiters": [{"type": "token_bucket", "name": "%1",
            "rate": 5, "interval_ms": 1000}], "traffic": {"shape": {"type": "constant",
            "rate": 20}, "duration_s": 3, "clients": 3, "clock": {"type": "virtual",
            "start": "2024-03-01T08:00:00.000Z", "speed": 0}}})")
                       .arg(name)
                       .toUtf8());
        file.close();
        args.replaceInStrings(QStringLiteral("SCENARIO"), path);
        args.replaceInStrings(QStringLiteral("LIMITER"), name);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!redis) {
            env.insert(QStringLiteral("REDIS_URL"), QStringLiteral("redis://127.0.0.1:1"));
        }
        p.setProcessEnvironment(env);
        p.start(qEnvironmentVariable("RATELAB_BIN"), QStringList{QStringLiteral("explain")} + args);
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), exitCode);
        QVERIFY2((exitCode == 0 ? out : err).contains(says), qPrintable(out + err));
        if (exitCode == 0 && args.contains(QStringLiteral("--json"))) {
            const QJsonObject json = QJsonDocument::fromJson(out.toUtf8()).object();
            for (const char* key : {"allowed", "rule", "reason", "retry_after_ms", "passes_at_ms",
                                    "state_before", "state_after", "headers", "counterfactuals"}) {
                QVERIFY2(json.contains(QLatin1String(key)), key);
            }
            QCOMPARE(json.value(QStringLiteral("retry_after_ms")).toInt(), 550);
            QCOMPARE(json.value(QStringLiteral("passes_at_ms")).toDouble(),
                     double(kStartMs + 1000));
            QCOMPARE(json.value(QStringLiteral("counterfactuals"))
                         .toObject()
                         .value(QStringLiteral("rate"))
                         .toInt(),
                     6);
        }
    }
};

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
