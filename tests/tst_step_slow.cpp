// A limiter's clock may stand still while Redis's time goes on: between two Steps, and while a
// virtual run is paused. Key TTLs run in Redis's time, so state the stepped (or paused) clock
// still needs must not expire meanwhile: steps taken seconds apart decide exactly as steps
// taken back to back, a run that continues them ends as a run that was never stepped, and a
// paused run ends as one that was never paused. Every limiter type, global and per client,
// with windows of about 100 ms so that each one's keys (TTL: its window + kStateGraceMs, the
// token bucket's and the log's up to twice that) would expire within the 2.6 s the test sleeps.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

#include "run/paused_key_ttls.h"
#include "run/scenario_runner.h"
#include "run/step_session.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::LimiterType)
Q_DECLARE_METATYPE(ratelab::Scope)

namespace {

// Longer than every key's TTL below once both have passed (the token bucket's and the log's
// keys live up to 2 x (100 + 1000) ms after their first grant; refusals do not renew them).
constexpr std::chrono::milliseconds kSlowStep{1300};
constexpr int kSteps = 4;
constexpr int kPausedAtUs = 2000;  // the paused run stops before its third request (t = 2 ms)

// Every limiter lets two requests through at once and frees them within 100 ms.
LimiterSpec limiter(LimiterType type, Scope scope, const QString& prefix) {
    LimiterSpec s;
    s.type = type;
    s.scope = scope;
    s.name = uniqueName(prefix);
    switch (type) {
        case LimiterType::TokenBucket:
            s.rate = 2;
            s.intervalMs = 100;
            break;
        case LimiterType::FixedWindow:
            s.rate = 2;
            s.interval = 100;
            s.unit = CalendarUnit::Milliseconds;
            s.timezone = "UTC";
            break;
        case LimiterType::SlidingWindow:
            s.rules = {{2, 100}};
            break;
        case LimiterType::Gcra:
            s.rate = 1;
            s.periodMs = 50;
            s.burst = 2;
            break;
        case LimiterType::SlidingCounter:
            s.limit = 2;
            s.windowMs = 100;
            break;
        case LimiterType::LeakyBucket:
            s.rate = 1;
            s.periodMs = 50;
            s.burst = 1;
            s.nodelay = true;
            break;
        case LimiterType::Concurrency:
            s.limit = 2;
            s.leaseMs = 100;
            break;
        case LimiterType::Script:  // the user's keys keep their own TTLs: tst_script_runs
            break;
    }
    return s;
}

const LimiterType kTypes[] = {LimiterType::TokenBucket,    LimiterType::FixedWindow,
                              LimiterType::SlidingWindow,  LimiterType::Gcra,
                              LimiterType::SlidingCounter, LimiterType::LeakyBucket};

// Client a asks four times within 3 ms (the last two after the slow steps' pauses), then b,
// then a again in the same windows and once more after every window has passed.
Scenario scenarioOf(const QString& prefix, double speed) {
    Scenario s;
    s.name = QStringLiteral("slow steps");
    for (const Scope scope : {Scope::Global, Scope::PerClient}) {
        for (const LimiterType type : kTypes) {
            s.limiters.append(limiter(type, scope, prefix));
        }
    }
    const QVector<QPair<qint64, char>> rows = {{0, 'a'}, {1, 'a'},  {2, 'a'},  {3, 'a'},
                                               {4, 'b'}, {40, 'a'}, {300, 'a'}};
    for (const auto& [tMs, client] : rows) {
        s.traffic.trace.append(TraceRow{tMs, QString(QLatin1Char(client)), 1, 0});
        s.traffic.shape.replayOffsetsMs.append(tMs);
    }
    s.traffic.shape.type = ShapeSpec::Type::Replay;
    s.traffic.durationS = 0.4;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = speed;
    s.traffic.clock.startMs =
        QDateTime::fromString(QStringLiteral("2024-03-01T10:00:00.000Z"), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    s.bucketMs = 50;
    return s;
}

QString describe(const StepSession::Step& step, int limiter) {
    const Decision& d = step.decisions[size_t(limiter)];
    return QStringLiteral(
               "step %1 at %2 (%3): allowed %4, retry_after_ms %5, remaining %6, "
               "delay_ms %7, at_ms %8%9")
        .arg(step.index)
        .arg(step.nowMs)
        .arg(step.client)
        .arg(int(d.allowed))
        .arg(d.retryAfterMs)
        .arg(d.remaining)
        .arg(d.delayMs)
        .arg(d.atMs)
        .arg(step.errors[limiter].isEmpty() ? QString()
                                            : QStringLiteral(", ") + step.errors[limiter]);
}

QStringList countsOf(const LimiterSnapshot& l) {
    QStringList out{QStringLiteral("fired %1 accepted %2 rejected %3 errors %4")
                        .arg(l.fired)
                        .arg(l.accepted)
                        .arg(l.rejected)
                        .arg(l.errors)};
    for (int b = 0; b < l.bucketAccepted.size(); ++b) {
        out << QStringLiteral("bucket %1: accepted %2 rejected %3")
                   .arg(b)
                   .arg(l.bucketAccepted[b])
                   .arg(l.bucketRejected.value(b));
    }
    for (int c = 0; c < l.clients.size(); ++c) {
        out << QStringLiteral("client %1: accepted %2 rejected %3")
                   .arg(l.clients[c].client)
                   .arg(l.clients[c].accepted)
                   .arg(l.clients[c].rejected);
    }
    return out;
}

void deleteKeys(const Scenario& scenario) {
    std::unique_ptr<RedisRouter> router = routeFixture();
    for (const LimiterSpec& spec : scenario.limiters) {
        makeLimiter(spec)->reset(*router);
    }
}

// A request written straight to a limiter (limiter time, offset from kPauseAtMs; client).
struct Write {
    qint64 tMs = 0;
    int client = 0;
};
using Writes = QVector<Write>;

// Aligned to every window below: window starts are offsets that are multiples of 100 ms.
constexpr qint64 kPauseAtMs = 1709287200000;

// The TTLs (PTTL) of the keys that `limiter` names for each of `at` and that have one.
QVector<qint64> ttlsOf(RedisRouter& router, const Limiter& limiter, const Writes& at,
                       const QStringList& clients) {
    QVector<qint64> ttls;
    for (const Write& w : at) {
        const ScriptCall call = limiter.prepare(Request{kPauseAtMs + w.tMs, clients[w.client], 1});
        for (const std::string& key : call.keys) {
            const qint64 ttl =
                replyInteger(router.command(limiter.slot(), {"PTTL", key}).get(), "PTTL");
            if (ttl >= 0) {  // not a config without a TTL (-1) or a key never written (-2)
                ttls.append(ttl);
            }
        }
    }
    return ttls;
}

QString rowName(int limiter) {
    return QStringLiteral("%1 %2").arg(
        limiterTypeName(kTypes[limiter % 6]),
        limiter < 6 ? QStringLiteral("global") : QStringLiteral("per client"));
}

}  // namespace

Q_DECLARE_METATYPE(Writes)

class TestStepSlow : public QObject {
    Q_OBJECT

    Scenario stepped_ = scenarioOf(QStringLiteral("slow"), 0);
    Scenario paused_ = scenarioOf(QStringLiteral("paused"), 1);
    QVector<StepSession::Step> slow_, fast_;
    RunSnapshot continued_, pausedRun_, straight_;

    void addLimiterRows() {
        QTest::addColumn<int>("limiter");
        for (int l = 0; l < stepped_.limiters.size(); ++l) {
            QTest::newRow(qPrintable(rowName(l))) << l;
        }
    }

private slots:
    // One slow step session and one paused run share the same real sleeps.
    void initTestCase() {
        // The paused run stops on its own clock, before its third request, from its state
        // sampler (called on its worker with the clock held, before the decisions due then).
        ScenarioRunner paused(paused_, fixtureUrl());
        std::atomic<bool> pausedNow{false};
        paused.setStateSampler(200, [&](qint64 runUs) {
            if (runUs == kPausedAtUs) {
                paused.setPaused(true);
                pausedNow = true;
            }
        });
        paused.start();

        {
            StepSession session(stepped_, fixtureUrl());
            slow_.append(session.next());
            slow_.append(session.next());
            QTRY_VERIFY_WITH_TIMEOUT(pausedNow.load(), 10000);
            for (int i = 2; i < kSteps; ++i) {
                std::this_thread::sleep_for(kSlowStep);
                slow_.append(session.next());
            }
            paused.setPaused(false);
            ScenarioRunner runner(stepped_, fixtureUrl());
            runner.continueFrom(session);
            runner.start();
            runner.wait();
            continued_ = runner.snapshot();
        }
        paused.wait();
        pausedRun_ = paused.snapshot();
        QCOMPARE(pausedRun_.limiters.value(0).fired, stepped_.traffic.trace.size());

        {
            StepSession session(stepped_, fixtureUrl());  // resets the keys
            for (int i = 0; i < kSteps; ++i) {
                fast_.append(session.next());
            }
        }
        ScenarioRunner straight(stepped_, fixtureUrl());
        straight.start();
        straight.wait();
        straight_ = straight.snapshot();
        expectExactAccounting(straight_);
        expectExactAccounting(continued_);
        expectExactAccounting(pausedRun_);
    }

    void cleanupTestCase() {
        deleteKeys(stepped_);
        deleteKeys(paused_);
    }

    // Steps 1.3 s apart decide as steps taken back to back: every field of every decision.
    void slowStepsDecideAsFastSteps_data() { addLimiterRows(); }
    void slowStepsDecideAsFastSteps() {
        QFETCH(int, limiter);
        QCOMPARE(slow_.size(), kSteps);
        QCOMPARE(fast_.size(), kSteps);
        QStringList slow, fast;
        for (int i = 0; i < kSteps; ++i) {
            slow << describe(slow_[i], limiter);
            fast << describe(fast_[i], limiter);
        }
        QCOMPARE(slow, fast);
        // The third and fourth requests find the first two's state (a limit of 2 at once).
        QVERIFY(!fast_[2].decisions[size_t(limiter)].allowed);
        QVERIFY(!fast_[3].decisions[size_t(limiter)].allowed);
    }

    // The run that continues the slow steps ends as a run that was never stepped.
    void continuedRunEqualsStraightRun_data() { addLimiterRows(); }
    void continuedRunEqualsStraightRun() {
        QFETCH(int, limiter);
        QCOMPARE(countsOf(continued_.limiters.value(limiter)),
                 countsOf(straight_.limiters.value(limiter)));
    }

    // The keys a paused run holds: those its later decisions may read, from the time of its
    // last decisions on each client's own clock (c1 is 250 ms ahead), for a global limiter up
    // to the keys of the clock furthest ahead; not older ones. Released, they have their own
    // TTL again.
    void pauseHoldsTheKeysLaterDecisionsRead_data() {
        QTest::addColumn<LimiterType>("type");
        QTest::addColumn<Scope>("scope");
        QTest::addColumn<bool>("redisTime");
        QTest::addColumn<Writes>("held");
        QTest::addColumn<Writes>("left");
        QTest::newRow("fixed window global: windows up to the clock ahead")
            << LimiterType::FixedWindow << Scope::Global << false
            << Writes{{0, 0}, {120, 1}, {250, 1}} << Writes{{-200, 0}};
        QTest::newRow("fixed window per client: each client's own")
            << LimiterType::FixedWindow << Scope::PerClient << false << Writes{{0, 0}, {250, 1}}
            << Writes{{-200, 0}, {-50, 1}};
        QTest::newRow("sliding counter global: windows and the ones before")
            << LimiterType::SlidingCounter << Scope::Global << false
            << Writes{{0, 0}, {120, 1}, {250, 1}} << Writes{{-300, 0}};
        QTest::newRow("sliding counter per client")
            << LimiterType::SlidingCounter << Scope::PerClient << false << Writes{{0, 0}, {250, 1}}
            << Writes{{-300, 0}};
        QTest::newRow("token bucket per client") << LimiterType::TokenBucket << Scope::PerClient
                                                 << false << Writes{{0, 0}, {250, 1}} << Writes{};
        QTest::newRow("sliding log global")
            << LimiterType::SlidingWindow << Scope::Global << false << Writes{{0, 0}} << Writes{};
        QTest::newRow("gcra per client") << LimiterType::Gcra << Scope::PerClient << false
                                         << Writes{{0, 0}, {250, 1}} << Writes{};
        QTest::newRow("leaky bucket global")
            << LimiterType::LeakyBucket << Scope::Global << false << Writes{{0, 0}} << Writes{};
        QTest::newRow("gcra on Redis's time: its clock goes on")
            << LimiterType::Gcra << Scope::Global << true << Writes{} << Writes{{0, 0}};
    }
    void pauseHoldsTheKeysLaterDecisionsRead() {
        QFETCH(LimiterType, type);
        QFETCH(Scope, scope);
        QFETCH(bool, redisTime);
        QFETCH(Writes, held);
        QFETCH(Writes, left);
        LimiterSpec spec = limiter(type, scope, QStringLiteral("hold"));
        spec.time = redisTime ? TimeSource::Redis : TimeSource::Client;
        ScopedLimiter scoped(spec);
        TrafficSpec traffic;
        traffic.clients = 2;
        traffic.clientSkewMs.insert(QStringLiteral("c1"), 250);
        const RequestFactory requests(traffic);
        const QStringList& clients = requests.clientNames();
        Writes all = held + left;
        std::sort(all.begin(), all.end(),
                  [](const Write& a, const Write& b) { return a.tMs < b.tMs; });
        for (const Write& w : all) {
            test::decide(scoped.router(), *scoped,
                         Request{kPauseAtMs + w.tMs, clients[w.client], 1});
        }
        const QVector<qint64> before = ttlsOf(scoped.router(), *scoped, held, clients);
        QCOMPARE(before.size() > 0, !held.isEmpty());

        // The last decisions were at 0 (c1's at 250 on its clock); none is to come before 0.
        PausedKeyTtls pause;
        pause.hold(scoped.router(), {&*scoped}, requests, kPauseAtMs, kPauseAtMs);
        for (const qint64 ttl : ttlsOf(scoped.router(), *scoped, held, clients)) {
            QVERIFY2(ttl > kClockStandstillMs, qPrintable(QString::number(ttl)));
        }
        const QVector<qint64> untouched = ttlsOf(scoped.router(), *scoped, left, clients);
        QCOMPARE(untouched.size() > 0, !left.isEmpty());
        for (const qint64 ttl : untouched) {
            QVERIFY2(ttl > 0 && ttl < kClockStandstillMs, qPrintable(QString::number(ttl)));
        }

        pause.release(scoped.router());
        const QVector<qint64> after = ttlsOf(scoped.router(), *scoped, held, clients);
        QCOMPARE(after.size(), before.size());
        for (int i = 0; i < after.size(); ++i) {
            QVERIFY2(
                after[i] > 0 && after[i] <= before[i],
                qPrintable(QStringLiteral("%1 after, %2 before").arg(after[i]).arg(before[i])));
        }
    }

    // A run paused for 2.6 s between two requests ends as a run that was never paused.
    void pausedRunEqualsStraightRun_data() { addLimiterRows(); }
    void pausedRunEqualsStraightRun() {
        QFETCH(int, limiter);
        QCOMPARE(countsOf(pausedRun_.limiters.value(limiter)),
                 countsOf(straight_.limiters.value(limiter)));
    }
};

QTEST_GUILESS_MAIN(TestStepSlow)
#include "tst_step_slow.moc"
