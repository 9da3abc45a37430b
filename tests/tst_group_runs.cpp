// Runs of traffic with roles ("traffic.groups") on Redis: each limiter's figures per group and
// per client — counts, and the admitted burst on both clocks — against a reference computed
// from the decisions themselves (the same schedule decided request by request by the same
// limiter under another name), and the group figures in summary.json, the printed summary
// and the expectations.
#include <QDateTime>
#include <QtTest>
#include <map>
#include <numeric>

#include "output/run_report.h"
#include "output/summary_json.h"
#include "run/scenario_runner.h"
#include "run/schedule_walk.h"
#include "support/run_checks.h"
#include "support/test_redis.h"
#include "traffic/request_factory.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 kStartMs = 1704067200000;  // 2024-01-01T00:00:00Z

// users: 6 clients, poisson 30/s; attacker: one client, constant 25/s; 3 s on a virtual clock.
// A global sliding log of 20 per second and a per-client token bucket of 4 per second.
Scenario usersAndAttacker(qint64 attackerSkewMs) {
    Scenario s;
    s.name = QStringLiteral("groups");
    LimiterSpec log;
    log.type = LimiterType::SlidingWindow;
    log.name = uniqueName(QStringLiteral("groups-log"));
    log.rules = {SlidingRule{20, 1000}};
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = uniqueName(QStringLiteral("groups-tb"));
    bucket.scope = Scope::PerClient;
    bucket.rate = 4;
    bucket.intervalMs = 1000;
    s.limiters = {log, bucket};
    ClientGroup users;
    users.name = QStringLiteral("users");
    users.clients = 6;
    users.shape.type = ShapeSpec::Type::Poisson;
    users.shape.rate = 30;
    ClientGroup attacker;
    attacker.name = QStringLiteral("attacker");
    attacker.shape.type = ShapeSpec::Type::Constant;
    attacker.shape.rate = 25;
    s.traffic.groups = {users, attacker};
    s.traffic.clients = 7;
    s.traffic.durationS = 3;
    s.traffic.seed = 11;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs = kStartMs;
    if (attackerSkewMs != 0) {
        s.traffic.clientSkewMs = {{QStringLiteral("attacker-0"), attackerSkewMs}};
    }
    // A window no config names: computed because a group's check names it.
    Expectation e;
    e.limiter = QStringLiteral("*");
    e.metric = QStringLiteral("group.attacker.max_accepted_in_any_250ms");
    e.op = CompareOp::LessEqual;
    e.threshold = 1000;
    s.expectations = {e};
    return s;
}

struct Grant {
    int client;
    qint64 runMs;
    qint64 limiterMs;
    qint64 permits;
};

// The most permits in any [t, t + window) by brute force over every start at a grant, the
// earliest start on a tie: {permits, from}.
std::pair<qint64, qint64> busiest(std::vector<std::pair<qint64, qint64>> times, qint64 window) {
    std::sort(times.begin(), times.end());
    std::pair<qint64, qint64> best{0, 0};
    for (const auto& start : times) {
        qint64 inside = 0;
        for (const auto& t : times) {
            if (t.first >= start.first && t.first < start.first + window) {
                inside += t.second;
            }
        }
        if (inside > best.first) {
            best = {inside, start.first};
        }
    }
    return best;
}

// The grants of `member` (a client or group selector) on one clock.
template <typename Pick>
std::vector<std::pair<qint64, qint64>> timesOf(const std::vector<Grant>& grants,
                                               qint64 Grant::*clock, Pick pick) {
    std::vector<std::pair<qint64, qint64>> out;
    for (const Grant& g : grants) {
        if (pick(g)) {
            out.push_back({g.*clock, g.permits});
        }
    }
    return out;
}

void compareBursts(const std::vector<BusiestInterval>& actual,
                   const std::vector<std::pair<qint64, qint64>>& times, const char* what) {
    QVERIFY2(!actual.empty(), what);
    for (const BusiestInterval& b : actual) {
        const auto expected = busiest(times, b.windowMs);
        QVERIFY2(b.permits == expected.first,
                 qPrintable(QStringLiteral("%1, %2 ms: %3, expected %4")
                                .arg(QLatin1String(what))
                                .arg(b.windowMs)
                                .arg(b.permits)
                                .arg(expected.first)));
        if (expected.first > 0) {
            QCOMPARE(b.fromMs, expected.second);
        }
    }
}

// Limiter `spec`'s grants on the scenario's schedule, decided one by one on Redis in schedule
// order (as a virtual run decides them) under a scratch name.
std::vector<Grant> decide(const Scenario& scenario, LimiterSpec spec) {
    spec.name = uniqueName(QStringLiteral("groups-reference"));
    ScopedLimiter limiter(spec);
    const RequestFactory requests(scenario.traffic);
    ScheduleWalk walk(scenario, kStartMs);
    std::vector<Grant> grants;
    for (ScheduleWalk::Step step = walk.next(); step.index >= 0; step = walk.next()) {
        const Decision d = test::decide(limiter.router(), *limiter, step.request);
        if (d.allowed) {
            grants.push_back({int(requests.clientNames().indexOf(step.request.client)),
                              step.runUs / 1000, d.atMs - kStartMs, step.request.permits});
        }
    }
    return grants;
}

}  // namespace

class TestGroupRuns : public QObject {
    Q_OBJECT

private slots:
    void figuresMatchTheDecisions_data() {
        QTest::addColumn<qint64>("skewMs");
        QTest::newRow("one clock") << qint64(0);
        QTest::newRow("the attacker 400 ms ahead") << qint64(400);
    }
    void figuresMatchTheDecisions() {
        QFETCH(qint64, skewMs);
        const Scenario scenario = usersAndAttacker(skewMs);
        const RunSnapshot run = runOnFixture(scenario);
        QVERIFY(run.finished);
        expectExactAccounting(run);
        const ClientGroups groups = RequestFactory(scenario.traffic).groups();
        for (int l = 0; l < scenario.limiters.size(); ++l) {
            const LimiterSnapshot& limiter = run.limiters[l];
            const std::vector<Grant> grants = decide(scenario, scenario.limiters[l]);
            qint64 accepted = 0;
            for (const Grant& g : grants) {
                accepted += g.permits;
            }
            QCOMPARE(limiter.accepted, accepted);
            compareBursts(limiter.admittedBurst,
                          timesOf(grants, &Grant::limiterMs, [](const Grant&) { return true; }),
                          "overall");
            // Every client's, on the limiter's time (a global limiter's too).
            QCOMPARE(limiter.clients.size(), 7);
            for (int c = 0; c < limiter.clients.size(); ++c) {
                compareBursts(limiter.clients[c].admittedBurst,
                              timesOf(grants, &Grant::limiterMs,
                                      [c](const Grant& g) { return g.client == c; }),
                              qPrintable(limiter.clients[c].client));
            }
            // Every group's, on both clocks, and its counts its clients' added up.
            QCOMPARE(limiter.groups.size(), 2);
            for (int g = 0; g < limiter.groups.size(); ++g) {
                const GroupTotals& group = limiter.groups[g];
                QCOMPARE(group.group, groups.names[g]);
                const auto inGroup = [&, g](const Grant& grant) {
                    return groups.ofClient[grant.client] == g;
                };
                compareBursts(group.admittedBurst, timesOf(grants, &Grant::limiterMs, inGroup),
                              qPrintable(group.group));
                compareBursts(group.admittedBurstRunClock, timesOf(grants, &Grant::runMs, inGroup),
                              qPrintable(group.group + QStringLiteral(" (run's clock)")));
                qint64 fired = 0, groupAccepted = 0, rejected = 0;
                for (int c = 0; c < limiter.clients.size(); ++c) {
                    if (groups.ofClient[c] == g) {
                        fired += limiter.clients[c].fired;
                        groupAccepted += limiter.clients[c].accepted;
                        rejected += limiter.clients[c].rejected;
                    }
                }
                QCOMPARE(group.clients, g == 0 ? 6 : 1);
                QCOMPARE(group.fired, fired);
                QCOMPARE(group.accepted, groupAccepted);
                QCOMPARE(group.rejected, rejected);
                // Its timeline: its grants by the bucket of their time on the run's clock.
                QVector<qint64> perBucket(limiter.bucketAccepted.size(), 0);
                for (const Grant& grant : grants) {
                    if (inGroup(grant)) {
                        perBucket[int(grant.runMs / run.bucketMs)] += grant.permits;
                    }
                }
                QCOMPARE(group.bucketAccepted, perBucket);
                QCOMPARE(std::accumulate(group.bucketRejected.cbegin(), group.bucketRejected.cend(),
                                         qint64(0)),
                         rejected);
            }
            // The groups' timelines add up to the limiter's, bucket by bucket.
            for (int b = 0; b < limiter.bucketAccepted.size(); ++b) {
                QCOMPARE(limiter.groups[0].bucketAccepted[b] + limiter.groups[1].bucketAccepted[b],
                         limiter.bucketAccepted[b]);
                QCOMPARE(limiter.groups[0].bucketRejected[b] + limiter.groups[1].bucketRejected[b],
                         limiter.bucketRejected[b]);
            }
            // The attacker's 250 ms window, which only a check names.
            bool has250 = false;
            for (const BusiestInterval& b : limiter.groups[1].admittedBurst) {
                has250 = has250 || b.windowMs == 250;
            }
            QVERIFY(has250);
            if (skewMs != 0) {
                // 400 ms ahead: its grants lie 400 ms later on the limiter's time.
                QCOMPARE(limiter.groups[1].admittedBurst.back().fromMs,
                         limiter.groups[1].admittedBurstRunClock.back().fromMs + skewMs);
            }
        }
        QCOMPARE(run.expectations.size(), 2);
        QVERIFY(run.expectations[0].held);
    }

    // The groups in summary.json, the printed summary and the checks, one run.
    void groupsInTheOutput() {
        Scenario scenario = usersAndAttacker(0);
        Expectation users;
        users.limiter = scenario.limiters[0].name;
        users.metric = QStringLiteral("group.users.rejected_pct");
        users.op = CompareOp::LessEqual;
        users.threshold = 1;
        Expectation attacker = users;
        attacker.metric = QStringLiteral("group.attacker.accepted");
        attacker.op = CompareOp::Greater;
        attacker.threshold = 0;
        scenario.expectations = {users, attacker};
        const RunSnapshot run = runOnFixture(scenario);
        const GroupTotals& u = run.limiters[0].groups[0];
        const GroupTotals& a = run.limiters[0].groups[1];
        QCOMPARE(run.expectations.size(), 2);
        QCOMPARE(run.expectations[0].measured, 100.0 * double(u.rejected) / double(u.fired));
        QVERIFY(!run.expectations[0].held);  // 55 requests/s at a limit of 20
        QCOMPARE(run.expectations[1].measured, double(a.accepted));
        QVERIFY(run.expectations[1].held);

        const QJsonObject limiter =
            summaryJson(run).value(QStringLiteral("limiters")).toArray().at(0).toObject();
        const QJsonArray groups = limiter.value(QStringLiteral("groups")).toArray();
        QCOMPARE(groups.size(), 2);
        const QJsonObject first = groups.at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("group")).toString(), QStringLiteral("users"));
        QCOMPARE(first.value(QStringLiteral("clients")).toInt(), 6);
        QCOMPARE(first.value(QStringLiteral("rejected")).toInteger(), u.rejected);
        QCOMPARE(first.value(QStringLiteral("max_accepted_in_any_1000ms")).toInteger(),
                 u.admittedBurst.front().permits);
        QVERIFY(first.contains(QStringLiteral("max_admitted_in_any_1000ms_run_clock")));
        QVERIFY(first.contains(QStringLiteral("admitted_burst_run_clock")));

        const QString text = summaryText(run);
        QVERIFY2(text.contains(QStringLiteral("  group users (6 clients): fired %1 = accepted %2")
                                   .arg(u.fired)
                                   .arg(u.accepted)),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("  group attacker (1 client): ")));
    }
};

QTEST_GUILESS_MAIN(TestGroupRuns)
#include "tst_group_runs.moc"
