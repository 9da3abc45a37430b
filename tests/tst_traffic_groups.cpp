// Traffic with roles ("traffic.groups"): named groups of clients, each with its own client
// count and shape, read and written back, merged into one schedule whose sends carry their
// group, drawn from each group's own clients; their errors named by JSON path; their share of
// the memory budget.
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "input_error.h"
#include "scenario/scenario.h"
#include "scenario/scenario_budget.h"
#include "support/scenario_documents.h"
#include "support/test_files.h"
#include "traffic/request_factory.h"
#include "traffic/traffic_schedule.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// users: 5 clients, poisson 40/s; attacker: 1 client, constant 30/s.
QByteArray usersAndAttacker(const QByteArray& more = QByteArray(), int attackerRate = 30) {
    return doc(R"("groups": [
        {"name": "users", "clients": 5, "shape": {"type": "poisson", "rate": 40}},
        {"name": "attacker", "shape": {"type": "constant", "rate": )" +
               QByteArray::number(attackerRate) + R"(}}], "duration_s": 4, "seed": 7)" + more);
}

Scenario parsed(const QByteArray& json, const QString& dir = QString()) {
    try {
        return parseScenarioJson(json, dir);
    } catch (const InputError& error) {
        qWarning("%s", qPrintable(error.message()));
        throw;
    }
}

struct Send {
    qint64 us;
    QString client;
    qint64 permits;
    bool operator==(const Send& o) const {
        return us == o.us && client == o.client && permits == o.permits;
    }
};

// The whole schedule: each send's time, client and permits, as a run draws them.
QVector<Send> schedule(const TrafficSpec& traffic) {
    const RequestFactory requests(traffic);
    auto pacer = makeSchedule(traffic, qint64(traffic.durationS * 1e6));
    QVector<Send> sends;
    for (qint64 at = pacer->next(); at != Pacer::kNoMore; at = pacer->next()) {
        const RequestFactory::Draw draw = requests.draw(sends.size(), pacer->origin());
        sends.push_back({at, requests.clientNames()[draw.client], draw.permits});
    }
    return sends;
}

// The sends of one group's clients.
QVector<Send> sendsOf(const QVector<Send>& sends, const QString& group) {
    QVector<Send> out;
    for (const Send& s : sends) {
        if (s.client.startsWith(group + QLatin1Char('-'))) {
            out.push_back(s);
        }
    }
    return out;
}

}  // namespace

class TestTrafficGroups : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeTestFile(dir_.filePath(QStringLiteral("office.csv")),
                      "t_ms,client,permits\n1000,10.0.0.1,1\n1000,10.0.0.2,2\n1250,10.0.0.1,1\n"
                      "3499,10.0.0.3,1\n");
        // Cut from the same access log as office.csv: its rows 5 s after office's first.
        writeTestFile(dir_.filePath(QStringLiteral("crawler.csv")),
                      "t_ms,client,permits\n6000,crawler,1\n6000,crawler,1\n6500,crawler,2\n");
    }

    void parsesAndWritesBack() {
        const Scenario s = parsed(usersAndAttacker(R"(, "permits": {"min": 1, "max": 2})"));
        QCOMPARE(s.traffic.groups.size(), 2);
        QCOMPARE(s.traffic.groups[0].name, QStringLiteral("users"));
        QCOMPARE(s.traffic.groups[0].clients, 5);
        QCOMPARE(s.traffic.groups[0].shape.type, ShapeSpec::Type::Poisson);
        QCOMPARE(s.traffic.groups[1].clients, 1);  // the default
        QCOMPARE(s.traffic.groups[1].shape.rate, 30.0);
        QCOMPARE(s.traffic.clients, 6);  // the groups' clients added up
        QCOMPARE(RequestFactory(s.traffic).clientNames(),
                 QStringLiteral("users-0 users-1 users-2 users-3 users-4 attacker-0")
                     .split(QLatin1Char(' ')));
        QCOMPARE(RequestFactory(s.traffic).groups().ofClient, (QVector<int>{0, 0, 0, 0, 0, 1}));
        const QJsonObject json = scenarioToJson(s);
        const QJsonObject traffic = json.value(QStringLiteral("traffic")).toObject();
        QVERIFY(!traffic.contains(QStringLiteral("shape")));
        QVERIFY(!traffic.contains(QStringLiteral("clients")));
        QCOMPARE(traffic.value(QStringLiteral("groups")).toArray().size(), 2);
        // Read back, it writes the same again.
        const Scenario again = parseScenario(json, QString());
        QCOMPARE(scenarioToJson(again), json);
    }

    // Each group's sends are its own shape's, merged in time order; each send drawn from its
    // group's clients; the same seed, the same schedule.
    void mergedSchedule() {
        const Scenario s = parsed(usersAndAttacker());
        const QVector<Send> sends = schedule(s.traffic);
        QCOMPARE(sends, schedule(s.traffic));
        for (int i = 1; i < sends.size(); ++i) {
            QVERIFY(sends[i - 1].us <= sends[i].us);
        }
        const qint64 durationUs = 4'000'000;
        for (const ClientGroup& group : s.traffic.groups) {
            auto own = makePacer(group.shape, durationUs, groupSeed(s.traffic.seed, group.name));
            QVector<qint64> expected;
            for (qint64 at = own->next(); at != Pacer::kNoMore; at = own->next()) {
                expected.push_back(at);
            }
            QVector<qint64> actual;
            for (const Send& send : sendsOf(sends, group.name)) {
                actual.push_back(send.us);
            }
            QCOMPARE(actual, expected);
        }
        QCOMPARE(sendsOf(sends, QStringLiteral("attacker")).size(), 120);  // 30/s for 4 s
        QCOMPARE(sends.size(), 120 + sendsOf(sends, QStringLiteral("users")).size());
        // Every user is drawn, none more than the others by far.
        std::map<QString, int> perUser;
        for (const Send& send : sendsOf(sends, QStringLiteral("users"))) {
            ++perUser[send.client];
        }
        QCOMPARE(int(perUser.size()), 5);
        // The schedule's target rate is the groups' added up.
        auto pacer = makeSchedule(s.traffic, durationUs);
        QCOMPARE(pacer->targetRate(0), 70.0);
        QCOMPARE(scheduleExpectedSends(s.traffic, durationUs), 280.0);
        QCOMPARE(schedulePeakRate(s.traffic), 70.0);
        // A clone starts over.
        pacer->next();
        auto clone = pacer->clone();
        QCOMPARE(clone->next(), sends.front().us);
    }

    // A group's sends and clients depend only on the seed and the group itself: the attacker's
    // rate leaves the users' schedule as it was.
    void groupsDrawApart() {
        const QVector<Send> slow = schedule(parsed(usersAndAttacker({}, 30)).traffic);
        const QVector<Send> fast = schedule(parsed(usersAndAttacker({}, 90)).traffic);
        QCOMPARE(sendsOf(fast, QStringLiteral("users")), sendsOf(slow, QStringLiteral("users")));
        QCOMPARE(sendsOf(fast, QStringLiteral("attacker")).size(), 360);
        // Another seed, another schedule.
        const QVector<Send> other = schedule(parsed(usersAndAttacker(R"(, "threads": 1)")).traffic);
        QCOMPARE(other, slow);
        Scenario reseeded = parsed(usersAndAttacker());
        reseeded.traffic.seed = 8;
        QVERIFY(sendsOf(schedule(reseeded.traffic), QStringLiteral("users")) !=
                sendsOf(slow, QStringLiteral("users")));
    }

    // A replay group's clients and permits are its trace's; a run of step and replay groups
    // lasts as long as the longest.
    void replayAndStepGroups() {
        const Scenario s = parsed(doc(R"("groups": [
            {"name": "office", "shape": {"type": "replay", "trace": "office.csv"}},
            {"name": "batch", "clients": 2, "shape": {"type": "step", "stages": [
                {"rate": 0, "duration_s": 1}, {"rate": 4, "duration_s": 1}]}}])"),
                                  dir_.path());
        QCOMPARE(s.traffic.durationS, 2.5);  // the trace spans 2499 ms (+ 1 ms), the steps 2 s
        QCOMPARE(
            RequestFactory(s.traffic).clientNames(),
            QStringLiteral("10.0.0.1 10.0.0.2 10.0.0.3 batch-0 batch-1").split(QLatin1Char(' ')));
        const QVector<Send> sends = schedule(s.traffic);
        QCOMPARE(sends.size(), 4 + 4);
        QCOMPARE(sends[0], (Send{0, QStringLiteral("10.0.0.1"), 1}));
        QCOMPARE(sends[1], (Send{0, QStringLiteral("10.0.0.2"), 2}));
        QCOMPARE(sends[2], (Send{250'000, QStringLiteral("10.0.0.1"), 1}));
        QCOMPARE(sends[3].us, 1'000'000);  // the batch's second stage: 4/s from 1 s
        QCOMPARE(sends[3].client.left(6), QStringLiteral("batch-"));
        QCOMPARE(sends.last(), (Send{2'499'000, QStringLiteral("10.0.0.3"), 1}));
        QCOMPARE(scenarioToJson(s)
                     .value(QStringLiteral("traffic"))
                     .toObject()
                     .value(QStringLiteral("groups"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("shape"))
                     .toObject()
                     .value(QStringLiteral("trace"))
                     .toString(),
                 QStringLiteral("office.csv"));
    }

    // Replay groups cut from one log keep their times relative to the earliest row of all of
    // them (not each its own first row): the crawler's rows come 5 s after office's first, and
    // the run lasts until the crawler's last row.
    void replayGroupsKeepTheirRelativeTimes() {
        const Scenario s = parsed(doc(R"("groups": [
            {"name": "office", "shape": {"type": "replay", "trace": "office.csv"}},
            {"name": "crawler", "shape": {"type": "replay", "trace": "crawler.csv"}},
            {"name": "batch", "clients": 1, "shape": {"type": "step", "stages": [
                {"rate": 1, "duration_s": 1}]}}])"),
                                  dir_.path());
        QCOMPARE(s.traffic.durationS, 5.501);  // the crawler's last row, 5500 ms, + 1 ms
        const QVector<Send> sends = schedule(s.traffic);
        QVector<Send> crawler;
        for (const Send& send : sends) {
            if (send.client == QLatin1String("crawler")) {
                crawler.push_back(send);
            }
        }
        QCOMPARE(crawler, (QVector<Send>{{5'000'000, QStringLiteral("crawler"), 1},
                                         {5'000'000, QStringLiteral("crawler"), 1},
                                         {5'500'000, QStringLiteral("crawler"), 2}}));
        QCOMPARE(sends.first(), (Send{0, QStringLiteral("10.0.0.1"), 1}));
        QCOMPARE(sends[2].client, QStringLiteral("batch-0"));  // the step group starts at 0 too
        QCOMPARE(sends[2].us, 0);
        QCOMPARE(sends.last(), crawler.last());
        // Written back and read again: the same schedule.
        const Scenario again = parseScenario(scenarioToJson(s), dir_.path());
        QCOMPARE(schedule(again.traffic), sends);
    }

    void badGroups_data() {
        QTest::addColumn<QByteArray>("traffic");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        const QByteArray users = R"({"name": "users", "shape": {"type": "constant", "rate": 5}})";
        QTest::newRow("shape beside groups")
            << QByteArray(R"("groups": [)" + users + R"(], "shape": {"type": "constant",
                "rate": 1}, "duration_s": 1)")
            << "$.traffic.shape"
            << "not allowed with groups: each group has its own shape";
        QTest::newRow("clients beside groups")
            << QByteArray(R"("groups": [)" + users + R"(], "clients": 3, "duration_s": 1)")
            << "$.traffic.clients"
            << "not allowed with groups";
        QTest::newRow("not an array")
            << QByteArray(R"("groups": {}, "duration_s": 1)") << "$.traffic.groups"
            << "must be an array of";
        QTest::newRow("empty") << QByteArray(R"("groups": [], "duration_s": 1)")
                               << "$.traffic.groups"
                               << "has 0 groups; expected 1 to 64";
        QTest::newRow("no name") << QByteArray(
                                        R"("groups": [{"shape": {"type": "constant", "rate": 5}}],
                "duration_s": 1)")
                                 << "$.traffic.groups[0].name"
                                 << "missing";
        QTest::newRow("a dot in the name")
            << QByteArray(R"("groups": [{"name": "a.b", "shape": {"type": "constant",
                "rate": 5}}], "duration_s": 1)")
            << "$.traffic.groups[0].name"
            << "must be 1 to 64 letters, digits, '_' or '-'";
        QTest::newRow("duplicate name")
            << QByteArray(R"("groups": [)" + users + "," + users + R"(], "duration_s": 1)")
            << "$.traffic.groups[1].name"
            << R"(duplicate name "users" (also $.traffic.groups[0]))";
        QTest::newRow("no shape") << QByteArray(R"("groups": [{"name": "u"}], "duration_s": 1)")
                                  << "$.traffic.groups[0].shape"
                                  << "missing";
        QTest::newRow("a bad shape")
            << QByteArray(R"("groups": [{"name": "u", "shape": {"type": "constant",
                "rate": 0}}], "duration_s": 1)")
            << "$.traffic.groups[0].shape.rate"
            << "";
        QTest::newRow("unknown field")
            << QByteArray(R"("groups": [{"name": "u", "weight": 2, "shape": {"type":
                "constant", "rate": 5}}], "duration_s": 1)")
            << "$.traffic.groups[0].weight"
            << "";
        QTest::newRow("clients with a replay")
            << QByteArray(R"("groups": [{"name": "u", "clients": 2, "shape": {"type": "replay",
                "trace": "office.csv"}}])")
            << "$.traffic.groups[0].clients"
            << "not allowed with a replay shape";
        QTest::newRow("too many clients")
            << QByteArray(R"("groups": [{"name": "a", "clients": 6000, "shape": {"type":
                "constant", "rate": 5}}, {"name": "b", "clients": 4001, "shape": {"type":
                "constant", "rate": 5}}], "duration_s": 1)")
            << "$.traffic.groups[1].clients"
            << "the groups have 10001 clients up to here; at most 10000";
        QTest::newRow("no duration for a constant group")
            << QByteArray(R"("groups": [)" + users + "]") << "$.traffic.duration_s"
            << "missing: group \"users\" has a constant shape, which lasts as long as the run "
               "(only step and replay groups have a length of their own)";
        QTest::newRow("a client in two groups")
            << QByteArray(R"("groups": [{"name": "x", "clients": 2, "shape": {"type":
                "constant", "rate": 5}}, {"name": "b", "shape": {"type": "replay", "trace":
                "office.csv"}}, {"name": "c", "shape": {"type": "replay", "trace":
                "office.csv"}}], "duration_s": 3)")
            << "$.traffic.groups[2]"
            << R"(its client "10.0.0.1" is also a client of group "b" ($.traffic.groups[1]))";
        QTest::newRow("above the ceiling together")
            << QByteArray(R"("groups": [{"name": "a", "shape": {"type": "constant", "rate":
                600000}}, {"name": "b", "shape": {"type": "constant", "rate": 600000}}],
                "duration_s": 1)")
            << "$.traffic.groups"
            << "the groups together peak at up to 1200000 requests/s";
        QTest::newRow("a skewed client that is not one")
            << QByteArray(R"("groups": [)" + users + R"(], "duration_s": 1,
                "clock_skew_ms": {"c0": 5})")
            << "$.traffic.clock_skew_ms.c0"
            << R"(no client "c0" in this traffic)";
    }
    void badGroups() {
        QFETCH(QByteArray, traffic);
        QFETCH(QString, where);
        QFETCH(QString, message);
        expectError([&] { parseScenarioJson(doc(traffic), dir_.path()); }, where, message);
    }

    void groupExpectations_data() {
        QTest::addColumn<QByteArray>("expect");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");  // empty: accepted
        QTest::newRow("a group's count")
            << QByteArray(R"(["group.users.rejected_pct <= 1"])") << QString() << QString();
        QTest::newRow("a group's burst on both clocks")
            << QByteArray(R"(["group.attacker.max_accepted_in_any_250ms <= 8",
                "group.attacker.max_admitted_in_any_250ms_run_clock <= 8"])")
            << QString() << QString();
        QTest::newRow("a client's") << QByteArray(R"(["client.users-3.accepted >= 1",
                "client.attacker-0.max_accepted_in_any_1000ms <= 10"])")
                                    << QString() << QString();
        QTest::newRow("an unknown group")
            << QByteArray(R"(["group.atacker.accepted < 5"])") << "$.expect.api[0]"
            << R"(no group "atacker" in this traffic; its groups are "users" or "attacker")";
        QTest::newRow("an unknown client")
            << QByteArray(R"(["client.users-5.accepted < 5"])") << "$.expect.api[0]"
            << R"(no client "users-5" in this traffic; its clients are "users-0")";
        QTest::newRow("an unknown figure of a group")
            << QByteArray(R"(["group.users.p99_ms < 5"])") << "$.expect.api[0]"
            << R"(unknown metric "p99_ms" of a group; expected fired, accepted, rejected, )"
               R"(errors, accepted_ratio, rejected_pct, disagreements_with_reference, )"
               R"(disagreements_with_reference_pct, max_accepted_in_any_<N>ms or )"
               R"(max_admitted_in_any_<N>ms_run_clock)";
        QTest::newRow("a client's burst on the run's clock")
            << QByteArray(R"(["client.users-0.max_admitted_in_any_1000ms_run_clock < 5"])")
            << "$.expect.api[0]"
            << "a client's admitted burst is counted on the limiter's time";
        QTest::newRow("a group without a figure")
            << QByteArray(R"(["group.users < 5"])") << "$.expect.api[0]"
            << R"("group.users": expected group.<group>.<metric>, as in group.users.rejected_pct)";
        QTest::newRow("a group's burst window 0")
            << QByteArray(R"(["group.users.max_accepted_in_any_0ms < 5"])") << "$.expect.api[0]"
            << R"("group.users.max_accepted_in_any_0ms": expected max_accepted_in_any_<N>ms)";
    }
    void groupExpectations() {
        QFETCH(QByteArray, expect);
        QFETCH(QString, where);
        QFETCH(QString, message);
        const QByteArray json =
            usersAndAttacker().chopped(1) + R"(, "expect": {"api": )" + expect + "}}";
        if (message.isEmpty()) {
            const Scenario s = parsed(json);
            QVERIFY(!s.expectations.isEmpty());
            // The windows a group's or a client's check names are computed too.
            const std::vector<qint64> windows = burstWindowsFor(s, 0);
            QVERIFY(std::find(windows.begin(), windows.end(), 1000) != windows.end());
            if (expect.contains("250ms")) {
                QVERIFY(std::find(windows.begin(), windows.end(), 250) != windows.end());
            }
            return;
        }
        expectError([&] { parseScenarioJson(json, QString()); }, where, message);
    }

    // A group's check on a traffic without groups names what is missing.
    void groupExpectationWithoutGroups() {
        expectError(
            [] {
                parseScenarioJson(doc(kConstant, R"(, "expect": {"*": ["group.users.fired > 1"]})"),
                                  QString());
            },
            QStringLiteral("$.expect[\"*\"][0]"),
            QStringLiteral(R"(no group "users": this traffic has no groups)"));
    }

    // The budget counts the groups' clients and every client's and group's admitted bursts.
    void budgetCountsGroups() {
        const auto estimate = [](int users) {
            return estimateMemory(parsed(doc(R"("groups": [{"name": "users", "clients": )" +
                                             QByteArray::number(users) +
                                             R"(, "shape": {"type": "constant", "rate": 10}},
                {"name": "attacker", "shape": {"type": "constant", "rate": 10}}],
                "duration_s": 1)")));
        };
        const MemoryEstimate few = estimate(10);
        const MemoryEstimate many = estimate(9000);
        QCOMPARE(few.clients, 11);
        QCOMPARE(many.clients, 9001);
        QVERIFY(few.burstFigures > 0);
        QVERIFY(many.burstFigures > few.burstFigures);
        QVERIFY(many.clientTables > few.clientTables);
        QCOMPARE(few.requests, 20);
        try {
            checkMemoryBudget(parsed(doc(R"("groups": [{"name": "users", "clients": 10000,
                "shape": {"type": "constant", "rate": 10}}], "duration_s": 1)")),
                              1 << 20);
            QFAIL("no error");
        } catch (const InputError& error) {
            QCOMPARE(error.where(), QStringLiteral("$.traffic.groups"));
            QVERIFY2(error.problem().contains(QStringLiteral("admitted bursts per client")),
                     qPrintable(error.problem()));
        }
    }

private:
    QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestTrafficGroups)
#include "tst_traffic_groups.moc"
