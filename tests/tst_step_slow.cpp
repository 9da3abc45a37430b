// A step session's clock stands still between two Steps while Redis's time goes on. Key TTLs
// run in Redis's time, so state the stepped clock still needs must not expire meanwhile: steps
// taken seconds apart decide exactly as steps taken back to back, and a run that continues them
// ends as a run that was never stepped. Every limiter type, global and per client, with windows
// of about 100 ms so that each one's keys (TTL: its window + kStateGraceMs, the token bucket's
// and the log's up to twice that) would expire within the 2.6 s the test sleeps.
#include <QtTest>

#include <chrono>
#include <thread>

#include "scenario/scenario_runner.h"
#include "scenario/step_session.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// Longer than every key's TTL below once both have passed (the token bucket's and the log's
// keys live up to 2 x (100 + 1000) ms after their first grant; refusals do not renew them).
constexpr std::chrono::milliseconds kSlowStep{1300};
constexpr int kSteps = 4;

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

QString rowName(int limiter) {
    return QStringLiteral("%1 %2").arg(
        limiterTypeName(kTypes[limiter % 6]),
        limiter < 6 ? QStringLiteral("global") : QStringLiteral("per client"));
}

}  // namespace

class TestStepSlow : public QObject {
    Q_OBJECT

    Scenario stepped_ = scenarioOf(QStringLiteral("slow"), 0);
    QVector<StepSession::Step> slow_, fast_;
    RunSnapshot continued_, straight_;

    void addLimiterRows() {
        QTest::addColumn<int>("limiter");
        for (int l = 0; l < stepped_.limiters.size(); ++l) {
            QTest::newRow(qPrintable(rowName(l))) << l;
        }
    }

private slots:
    void initTestCase() {
        {
            StepSession session(stepped_, fixtureUrl());
            slow_.append(session.next());
            slow_.append(session.next());
            for (int i = 2; i < kSteps; ++i) {
                std::this_thread::sleep_for(kSlowStep);
                slow_.append(session.next());
            }
            ScenarioRunner runner(stepped_, fixtureUrl());
            runner.continueFrom(session);
            runner.start();
            runner.wait();
            continued_ = runner.snapshot();
        }
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
    }

    void cleanupTestCase() { deleteKeys(stepped_); }

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
};

QTEST_GUILESS_MAIN(TestStepSlow)
#include "tst_step_slow.moc"
