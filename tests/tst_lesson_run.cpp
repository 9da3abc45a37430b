// A lesson decided beat by beat (lessons/lesson_run.h) on Redis: its last frame is the run a
// virtual run of the scenario makes (every limiter's counts per bucket and admitted bursts), slow
// motion on the way decides the same, a lesson played twice gives the same frames (Back replays
// exactly), "time": "redis" decides at the run's own unskewed clock, placeholders and claims read
// the run so far, and beats that go back in time or past the schedule are bad input.
#include <QtTest>

#include "input_error.h"
#include "lessons/lesson_check.h"
#include "lessons/lesson_run.h"
#include "run/scenario_runner.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The example scenario with limiters of names no other test uses, decided back to back.
Scenario example(const QString& file) {
    Scenario s = loadScenarioFile(exampleScenarioPath(file));
    for (LimiterSpec& spec : s.limiters) {
        spec.name = uniqueName(QStringLiteral("lr"));
    }
    s.expectations.clear();
    s.traffic.clock.speed = 0;
    return s;
}

LessonBeat until(qint64 ms, const QString& say = QStringLiteral("-")) {
    LessonBeat beat;
    beat.advance = LessonBeat::Advance::Until;
    beat.untilMs = ms;
    beat.say = LessonText::parse(say, QStringLiteral("$"), Scenario());
    return beat;
}

Lesson lessonOf(const Scenario& scenario, QVector<LessonBeat> beats) {
    Lesson lesson;
    lesson.title = QStringLiteral("t");
    lesson.scenario = scenario;
    for (int i = 0; i < beats.size(); ++i) {
        beats[i].path = QStringLiteral("$.beats[%1]").arg(i);
    }
    lesson.beats = beats;
    return lesson;
}

RunSnapshot virtualRun(const Scenario& scenario) {
    ScenarioRunner runner(scenario, fixtureUrl());
    runner.start();
    runner.wait();
    return runner.snapshot();
}

void resetKeys(const Scenario& scenario) {
    auto router = routeFixture();
    for (const LimiterSpec& spec : scenario.limiters) {
        makeLimiter(spec)->reset(*router);
    }
}

// The figures of two runs' limiters, side by side; empty when they agree.
QString differences(const RunSnapshot& a, const RunSnapshot& b, bool bursts = true) {
    QStringList out;
    if (a.limiters.size() != b.limiters.size()) {
        return QStringLiteral("%1 limiters against %2")
            .arg(a.limiters.size())
            .arg(b.limiters.size());
    }
    for (int l = 0; l < a.limiters.size(); ++l) {
        const LimiterSnapshot& x = a.limiters[l];
        const LimiterSnapshot& y = b.limiters[l];
        const auto differ = [&](const char* what, auto p, auto q) {
            if (p != q) {
                out << QStringLiteral("%1 %2 differs").arg(x.spec.name, QLatin1String(what));
            }
        };
        differ("fired", x.fired, y.fired);
        differ("accepted", x.accepted, y.accepted);
        differ("rejected", x.rejected, y.rejected);
        differ("errors", x.errors, y.errors);
        differ("accepted per bucket", x.bucketAccepted, y.bucketAccepted);
        differ("rejected per bucket", x.bucketRejected, y.bucketRejected);
        if (bursts) {
            for (size_t i = 0; i < x.admittedBurst.size() && i < y.admittedBurst.size(); ++i) {
                differ("admitted burst", x.admittedBurst[i].permits, y.admittedBurst[i].permits);
            }
        }
    }
    return out.join(QStringLiteral("; "));
}

}  // namespace

class TestLessonRun : public QObject {
    Q_OBJECT

private slots:
    void lastFrameIsTheVirtualRun_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("fixed window burst") << "fixed-window-boundary-burst.json";
        QTest::newRow("four algorithms") << "four-algorithms-compared.json";
        QTest::newRow("leases and leaks") << "concurrency-leaks.json";
        QTest::newRow("gateways") << "gateways-local-and-cached.json";
    }
    void lastFrameIsTheVirtualRun() {
        QFETCH(QString, file);
        const Scenario scenario = example(file);
        const qint64 endMs = qint64(scenario.traffic.durationS * 1000);
        const Lesson lesson = lessonOf(
            scenario, {until(endMs / 3), until(endMs / 3), until(endMs * 2 / 3), until(endMs)});
        const QVector<LessonFrame> frames = playLesson(lesson, fixtureUrl());
        QCOMPARE(frames.size(), 4);
        QCOMPARE(frames.last().runUs, endMs * 1000);
        const RunSnapshot run = virtualRun(scenario);
        resetKeys(scenario);
        const QString found = differences(frames.last().run, run);
        QVERIFY2(found.isEmpty(), qPrintable(found));
        // The beat that did not move the run shows the same run as the one before.
        QVERIFY(differences(frames[0].run, frames[1].run).isEmpty());
        QVERIFY(frames[0].run.limiters[0].fired < frames[2].run.limiters[0].fired);
    }

    void slowMotionDecidesTheSame() {
        const Scenario scenario = example(QStringLiteral("four-algorithms-compared.json"));
        const Lesson lesson = lessonOf(scenario, {until(3000), until(9000), until(20000)});
        const QVector<LessonFrame> straight = playLesson(lesson, fixtureUrl());
        QVector<LessonFrame> slow;
        {
            LessonRun run(lesson, fixtureUrl());
            while (!run.done()) {
                const qint64 from = run.reachedUs();
                const qint64 to = run.nextTargetUs();
                for (int i = 1; i < 7; ++i) {
                    run.approach(from + (to - from) * i / 7);
                    QVERIFY(run.reachedUs() <= to);
                }
                slow.append(run.next());
            }
            run.resetKeys();
        }
        QCOMPARE(slow.size(), straight.size());
        for (int i = 0; i < slow.size(); ++i) {
            const QString found = differences(slow[i].run, straight[i].run);
            QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("frame %1: ").arg(i) + found));
        }
    }

    // until_ms decides what is due before it, not only the requests: nginx's queue (delayed
    // grants) and wait-mode retries after a burst at 0 s, when no request comes for 1.5 s.
    void untilDecidesWhatIsDue() {
        const QString delay = uniqueName(QStringLiteral("lr-delay"));
        const QString nodelay = uniqueName(QStringLiteral("lr-nodelay"));
        const Scenario scenario = parseScenarioJson(QStringLiteral(R"({"limiters": [
              {"type": "leaky_bucket", "name": "%1", "rate": 10, "period_ms": 1000, "burst": 4},
              {"type": "leaky_bucket", "name": "%2", "rate": 10, "period_ms": 1000, "burst": 4,
               "nodelay": true}],
              "traffic": {"shape": {"type": "burst", "rate": 0.1, "burst": 7, "every_s": 1.5},
                          "duration_s": 3, "mode": "wait", "timeout_ms": 1000,
                          "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z"}}})")
                                                        .arg(delay, nodelay)
                                                        .toUtf8(),
                                                    QString());
        const QVector<LessonFrame> frames =
            playLesson(lessonOf(scenario, {until(1), until(450), until(1000)}), fixtureUrl());
        const auto figure = [&](int frame, int limiter, const char* metric) {
            double value = -1;
            limiterMetric(frames[frame].run.limiters[limiter], QLatin1String(metric), &value);
            return value;
        };
        // At the instant: nodelay passes 1 + burst, delay one; its next four are queued.
        QCOMPARE(figure(0, 1, "accepted"), 5.0);
        QCOMPARE(figure(0, 0, "accepted"), 1.0);
        // By 450 ms the queue has let them go, 100 ms apart; nodelay's refused three came back.
        QCOMPARE(figure(1, 0, "accepted"), 5.0);
        QCOMPARE(figure(1, 0, "max_wait_ms"), 400.0);
        QCOMPARE(figure(1, 1, "accepted"), 8.0);
        QCOMPARE(figure(1, 1, "max_wait_ms"), 300.0);
        QCOMPARE(figure(2, 0, "accepted"), 8.0);
        QCOMPARE(figure(2, 0, "max_wait_ms"), 700.0);
    }

    void playedAgainIsTheSame() {
        const Scenario scenario = example(QStringLiteral("concurrency-leaks.json"));
        QVector<LessonBeat> beats{until(2000), until(5000)};
        beats.append(LessonBeat());
        beats.last().advance = LessonBeat::Advance::Steps;
        beats.last().steps = 37;
        beats.append(until(9000));
        const Lesson lesson = lessonOf(scenario, beats);
        const QVector<LessonFrame> first = playLesson(lesson, fixtureUrl());
        // Back from the last frame: a new run played to the frame before it.
        LessonRun again(lesson, fixtureUrl());
        LessonFrame frame;
        for (int i = 0; i < first.size() - 1; ++i) {
            frame = again.next();
        }
        again.resetKeys();
        QCOMPARE(frame.runUs, first[first.size() - 2].runUs);
        const QString found = differences(frame.run, first[first.size() - 2].run);
        QVERIFY2(found.isEmpty(), qPrintable(found));
        // Steps move by requests: 37 more decided than at 5 s.
        QCOMPARE(first[2].run.limiters[0].fired - first[1].run.limiters[0].fired, qint64(37));
    }

    // "time": "redis" in a lesson decides at the run's clock, unskewed: as a client-time limiter
    // decides where no client's clock is off; the client-time limiter beside it sees the skew.
    void redisClockIsTheRunsClock() {
        Scenario skewed = example(QStringLiteral("clock-skew.json"));
        QCOMPARE(skewed.limiters[1].time, TimeSource::Redis);
        Scenario unskewed = skewed;
        unskewed.traffic.clientSkewMs.clear();
        unskewed.limiters[1].time = TimeSource::Client;
        const qint64 endMs = qint64(skewed.traffic.durationS * 1000);
        const QVector<LessonFrame> lesson =
            playLesson(lessonOf(skewed, {until(endMs / 2), until(endMs)}), fixtureUrl());
        const QVector<LessonFrame> plain =
            playLesson(lessonOf(unskewed, {until(endMs / 2), until(endMs)}), fixtureUrl());
        for (int i = 0; i < 2; ++i) {
            RunSnapshot a = lesson[i].run;
            RunSnapshot b = plain[i].run;
            a.limiters = {a.limiters[1]};
            b.limiters = {b.limiters[1]};
            a.limiters[0].spec.name = b.limiters[0].spec.name;
            const QString found = differences(a, b);
            QVERIFY2(found.isEmpty(), qPrintable(found));
        }
        // On the run's clock the Redis-time limiter holds its limit; the client-time one not.
        double redisBurst = 0, clientBurst = 0;
        const QString runClock = burstMetricName(1000, BurstClock::Run);
        QVERIFY(limiterMetric(lesson[1].run.limiters[1], runClock, &redisBurst));
        QVERIFY(limiterMetric(lesson[1].run.limiters[0], runClock, &clientBurst));
        QCOMPARE(redisBurst, 10.0);
        QVERIFY2(clientBurst > 10, qPrintable(QString::number(clientBurst)));
    }

    void fillsTextsAndChecksClaims() {
        Scenario scenario = example(QStringLiteral("fixed-window-boundary-burst.json"));
        const QString fixed = scenario.limiters[0].name;
        LessonBeat first = until(250);
        first.say = LessonText::parse(QStringLiteral("{%1.accepted} of {%1.fired}; burst "
                                                     "{%1.max_accepted_in_any_1000ms}")
                                          .arg(fixed),
                                      QStringLiteral("$"), scenario);
        first.expect = {parseExpectation(fixed, QStringLiteral("accepted == 20"), {}, 1000),
                        parseExpectation(fixed, QStringLiteral("rejected > 0"), {}, 1000),
                        parseExpectation(fixed,
                                         QStringLiteral("max_accepted_in_any_1000ms "
                                                        "== 19"),
                                         {}, 1000)};
        LessonBeat second;
        second.ask = LessonText::parse(QStringLiteral("And {%1.fired}?").arg(fixed), {}, scenario);
        second.answer = LessonText::parse(QStringLiteral("{%1.fired}").arg(fixed), {}, scenario);
        second.advance = LessonBeat::Advance::Steps;
        second.steps = 4;
        const Lesson lesson = lessonOf(scenario, {first, second});
        QCOMPARE(lessonPlaces(lesson).size(), 3);
        const QVector<LessonFrame> frames = playLesson(lesson, fixtureUrl());
        QCOMPARE(frames.size(), 3);
        const LimiterSnapshot& l = frames[0].run.limiters[0];
        QCOMPARE(frames[0].say, QStringLiteral("%1 of %2; burst 20").arg(l.accepted).arg(l.fired));
        QCOMPARE(l.accepted, qint64(20));
        // Two claims hold, the third is measured and fails.
        QCOMPARE(frames[0].checks.size(), 3);
        QVERIFY(frames[0].checks[0].held);
        QVERIFY(frames[0].checks[1].held);
        QVERIFY(!frames[0].checks[2].held);
        QCOMPARE(frames[0].checks[2].measured, 20.0);
        // The question is asked on the run as it was, answered once the run moved.
        QVERIFY(frames[1].question);
        QCOMPARE(frames[1].ask, QStringLiteral("And %1?").arg(l.fired));
        QVERIFY(frames[1].answer.isEmpty());
        QCOMPARE(frames[2].ask, frames[1].ask);
        QCOMPARE(frames[2].answer, QString::number(l.fired + 4));
        const LessonCheck check = checkLessonFrames(lesson, frames);
        QCOMPARE(check.claims, 3);
        QCOMPARE(check.failures.size(), 1);
        QCOMPARE(check.failures[0].beat, 0);
        QVERIFY(!check.passed());
        QVERIFY2(lessonCheckText(check).contains(
                     QStringLiteral("beat 1: %1: max_accepted_in_any_1000ms == 19: measured 20")
                         .arg(fixed)),
                 qPrintable(lessonCheckText(check)));
    }

    void badBeatsRefused_data() {
        QTest::addColumn<qint64>("steps");
        QTest::addColumn<qint64>("untilMs");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        // The schedule: 11 requests at 0 ms, 10 every 200 ms from 200 ms on, for 3 s.
        QTest::newRow("until before the steps' time")
            << qint64(25) << qint64(100) << "$.beats[1].until_ms"
            << "goes back in time: 100 ms is before 400 ms, where $.beats[0].steps left the run";
        QTest::newRow("steps past the end") << qint64(100000) << qint64(-1) << "$.beats[0].steps"
                                            << "100000 steps go past the schedule's end";
    }
    void badBeatsRefused() {
        QFETCH(qint64, steps);
        QFETCH(qint64, untilMs);
        QFETCH(QString, where);
        QFETCH(QString, message);
        const Scenario scenario = example(QStringLiteral("fixed-window-boundary-burst.json"));
        LessonBeat first = until(0);
        first.advance = LessonBeat::Advance::Steps;
        first.steps = steps;
        QVector<LessonBeat> beats{first};
        if (untilMs >= 0) {
            beats.append(until(untilMs));
        }
        try {
            playLesson(lessonOf(scenario, beats), fixtureUrl());
            QFAIL("played");
        } catch (const InputError& e) {
            QCOMPARE(e.where(), where);
            QVERIFY2(e.problem().contains(message), qPrintable(e.problem()));
        }
        resetKeys(scenario);
    }
};

QTEST_GUILESS_MAIN(TestLessonRun)
#include "tst_lesson_run.moc"
