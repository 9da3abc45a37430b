// The concurrency (in-flight) limiter on a real Redis against its reference model: grants hold
// slots until released or until their lease runs out, in virtual time.
#include <QRandomGenerator>
#include <QtTest>
#include <queue>

#include "limiters/concurrency_limiter.h"
#include "support/algorithm_models.h"
#include "support/decision_steps.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"
#include "traffic/decision_path.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

LimiterSpec concurrency(qint64 limit, qint64 leaseMs, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::Concurrency;
    s.name = uniqueName(QStringLiteral("cc"));
    s.scope = scope;
    s.limit = limit;
    s.leaseMs = leaseMs;
    return s;
}

qint64 inFlight(ScopedLimiter& limiter, const QString& client, qint64 t) {
    const auto& cc = static_cast<const ConcurrencyLimiter&>(*limiter);
    RedisReply reply = limiter.connection().command(
        {"ZCOUNT", cc.leaseKey(client), "(" + std::to_string(t), "+inf"});
    return replyInteger(reply.get(), "ZCOUNT");
}

}  // namespace

class TestConcurrencyLimiter : public QObject {
    Q_OBJECT

private slots:
    // Nothing released: a slot comes back when its lease runs out (its expiry <= now).
    void edges_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("leaseMs");
        QTest::addColumn<DecisionSteps>("steps");
        // {t, permits, allowed, retry_after_ms, remaining, delay_ms}
        QTest::newRow("two slots, leases of a second")
            << 2LL << 1000LL
            << DecisionSteps{{0, 1, true, 0, 1, 0},     {0, 1, true, 0, 0, 0},
                             {0, 1, false, 1000, 0, 0}, {999, 1, false, 1, 0, 0},
                             {1000, 1, true, 0, 1, 0},  {1000, 2, false, 1000, 1, 0}};
        QTest::newRow("the k-th lease to run out") << 3LL << 100LL
                                                   << DecisionSteps{{0, 1, true, 0, 2, 0},
                                                                    {10, 1, true, 0, 1, 0},
                                                                    {20, 1, true, 0, 0, 0},
                                                                    {30, 2, false, 80, 0, 0},
                                                                    {30, 3, false, 90, 0, 0}};
        QTest::newRow("permits above the limit: never")
            << 2LL << 1000LL << DecisionSteps{{0, 3, false, -1, 2, 0}, {0, 2, true, 0, 0, 0}};
    }
    void edges() {
        QFETCH(qint64, limit);
        QFETCH(qint64, leaseMs);
        QFETCH(DecisionSteps, steps);
        expectSteps(concurrency(limit, leaseMs), steps);
    }

    // Grants never released: every lease runs out, as the model's.
    void matchesModel_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("leaseMs");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("5 slots, 1 s leases") << 5LL << 1000LL << 1 << 150LL << 61u;
        QTest::newRow("1 slot, 7 ms leases") << 1LL << 7LL << 1 << 3LL << 62u;
        QTest::newRow("3 slots per client, 2 s") << 3LL << 2000LL << 3 << 200LL << 63u;
    }
    void matchesModel() {
        QFETCH(qint64, limit);
        QFETCH(qint64, leaseMs);
        QFETCH(int, clients);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 1500;
        shape.clients = clients;
        shape.maxPermits = limit;
        shape.edgeMs = leaseMs;
        shape.meanGapMs = meanGapMs;
        expectMatchesModel(
            concurrency(limit, leaseMs, clients > 1 ? Scope::PerClient : Scope::Global),
            generateTrace(shape));
    }

    // Granted requests release after a random hold (some never, some after their lease): the
    // decisions, the leases found run out and the late releases are the model's, releases at
    // an instant come before requests at it, and the slots Redis holds are the model's.
    void releasesMatchModel_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("leaseMs");
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("leakPct");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("4 slots, nothing leaks") << 4LL << 500LL << 1 << 0 << 71u;
        QTest::newRow("4 slots, a fifth leak") << 4LL << 500LL << 1 << 20 << 72u;
        QTest::newRow("2 per client, a tenth leak") << 2LL << 300LL << 3 << 10 << 73u;
    }
    void releasesMatchModel() {
        QFETCH(qint64, limit);
        QFETCH(qint64, leaseMs);
        QFETCH(int, clients);
        QFETCH(int, leakPct);
        QFETCH(quint32, seed);
        const LimiterSpec spec =
            concurrency(limit, leaseMs, clients > 1 ? Scope::PerClient : Scope::Global);
        LimiterOptions options;
        options.ttlExtraMs = 60'000;  // virtual time runs ahead of the TTLs' real time
        ScopedLimiter limiter(spec, options);
        ConcurrencyModel model(spec);
        QRandomGenerator rng(seed);
        // Releases due, earliest first (ties: the earlier grant).
        using Due = std::pair<qint64, qint64>;  // release time, request index
        std::priority_queue<Due, std::vector<Due>, std::greater<Due>> releases;
        QVector<Request> requests;
        qint64 t = kStart;
        int granted = 0, refused = 0, late = 0, expired = 0;
        bool inFlightAboveLimit = false;
        for (int i = 0; i < 1200; ++i) {
            t += rng.bounded(3) == 0 ? 0 : rng.bounded(60);
            while (!releases.empty() && releases.top().first <= t) {
                Request grant = requests[int(releases.top().second)];
                grant.nowMs = releases.top().first;
                releases.pop();
                const bool got = DecisionPath::release(limiter.router(), *limiter, grant);
                QCOMPARE(got, model.release(grant));
                late += got;
            }
            Request r;
            r.nowMs = t;
            r.client = QStringLiteral("c%1").arg(rng.bounded(clients));
            r.permits = rng.bounded(4) == 0 ? 1 + rng.bounded(int(limit)) : 1;
            r.id = i;
            requests.push_back(r);
            const Decision got = test::decide(limiter.router(), *limiter, r);
            const Decision want = model.decide(r);
            QVERIFY2(got.allowed == want.allowed && got.retryAfterMs == want.retryAfterMs &&
                         got.remaining == want.remaining &&
                         got.expiredLeases == want.expiredLeases &&
                         got.reason.counted == want.reason.counted,
                     qPrintable(QStringLiteral("request %1 at %2: redis %3/%4/%5/%6, model "
                                               "%7/%8/%9/%10")
                                    .arg(i)
                                    .arg(t - kStart)
                                    .arg(got.allowed)
                                    .arg(got.retryAfterMs)
                                    .arg(got.remaining)
                                    .arg(got.expiredLeases)
                                    .arg(want.allowed)
                                    .arg(want.retryAfterMs)
                                    .arg(want.remaining)
                                    .arg(want.expiredLeases)));
            expired += int(got.expiredLeases);
            if (got.allowed) {
                ++granted;
                // Holds mostly shorter than the lease, some longer (late), some never.
                if (int(rng.bounded(100)) >= leakPct) {
                    const qint64 hold = rng.bounded(10) == 0 ? leaseMs + rng.bounded(int(leaseMs))
                                                             : rng.bounded(int(leaseMs));
                    releases.push({t + hold, i});
                }
            } else {
                ++refused;
            }
            const qint64 held = inFlight(limiter, r.client, t);
            QCOMPARE(held, model.inFlight(r.client, t));
            inFlightAboveLimit = inFlightAboveLimit || held > limit;
        }
        QVERIFY(!inFlightAboveLimit);
        QVERIFY2(granted > 0 && refused > 0 && late > 0,
                 qPrintable(QStringLiteral("granted %1, refused %2, late %3")
                                .arg(granted)
                                .arg(refused)
                                .arg(late)));
        if (leakPct > 0) {
            QVERIFY(expired > 0);  // leaked leases ran out and were removed
        }
    }

    // A lease nobody releases holds its slot until exactly lease end: a request one ms before
    // waits 1 ms, one at lease end removes it (counted as run out) and takes the slot.
    void leakedLeaseExpiresAtLeaseEnd() {
        ScopedLimiter limiter(concurrency(1, 1000));
        QVERIFY(test::decide(limiter.router(), *limiter, {kStart, QString(), 1, false, 1}).allowed);
        const Decision before =
            test::decide(limiter.router(), *limiter, {kStart + 999, QString(), 1, false, 2});
        QVERIFY(!before.allowed);
        QCOMPARE(before.retryAfterMs, 1);
        QCOMPARE(before.expiredLeases, 0);
        const Decision at =
            test::decide(limiter.router(), *limiter, {kStart + 1000, QString(), 1, false, 3});
        QVERIFY(at.allowed);
        QCOMPARE(at.expiredLeases, 1);
        QCOMPARE(at.remaining, 0);
        // The leaked request's own release, late: its slot is gone.
        QVERIFY(DecisionPath::release(limiter.router(), *limiter,
                                      {kStart + 1200, QString(), 1, false, 1}));
        QCOMPARE(inFlight(limiter, QString(), kStart + 1200), 1);
    }

    // A release frees every slot of its grant at once; one at or after its lease's end is late.
    void releaseFreesItsSlots_data() {
        QTest::addColumn<qint64>("releaseAt");
        QTest::addColumn<bool>("late");
        QTest::newRow("in time") << 400LL << false;
        QTest::newRow("at lease end") << 1000LL << true;
    }
    void releaseFreesItsSlots() {
        QFETCH(qint64, releaseAt);
        QFETCH(bool, late);
        ScopedLimiter limiter(concurrency(3, 1000));
        QVERIFY(test::decide(limiter.router(), *limiter, {kStart, QString(), 3, false, 7}).allowed);
        QCOMPARE(inFlight(limiter, QString(), kStart), 3);
        QCOMPARE(DecisionPath::release(limiter.router(), *limiter,
                                       {kStart + releaseAt, QString(), 3, false, 7}),
                 late);
        QCOMPARE(inFlight(limiter, QString(), kStart + releaseAt), 0);
        const Decision after =
            test::decide(limiter.router(), *limiter, {kStart + releaseAt, QString(), 3, false, 8});
        QVERIFY(after.allowed);
        QCOMPARE(after.expiredLeases, 0);
    }

    // time: redis decides at Redis's clock and answers its text form.
    void redisTime() {
        LimiterSpec spec = concurrency(1, 60'000);
        spec.time = TimeSource::Redis;
        ScopedLimiter limiter(spec);
        const Decision first =
            test::decide(limiter.router(), *limiter, {0, QString(), 1, false, 1});
        QVERIFY(first.allowed);
        QVERIFY(first.atMs > kStart);
        const Decision second =
            test::decide(limiter.router(), *limiter, {0, QString(), 1, false, 2});
        QVERIFY(!second.allowed);
        QVERIFY(second.retryAfterMs > 59'000 && second.retryAfterMs <= 60'000);
        QVERIFY(!DecisionPath::release(limiter.router(), *limiter, {0, QString(), 1, false, 1}));
        QVERIFY(test::decide(limiter.router(), *limiter, {0, QString(), 1, false, 3}).allowed);
    }
};

QTEST_GUILESS_MAIN(TestConcurrencyLimiter)
#include "tst_concurrency_limiter.moc"
