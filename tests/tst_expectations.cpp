// Expectations: a scenario's "expect" parsed and validated with its JSON path, written back,
// checked against a run's figures, and written as JUnit XML.
#include <QJsonArray>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>

#include "input_error.h"
#include "output/regression_report.h"
#include "output/summary_json.h"
#include "scenario/scenario.h"

using namespace ratelab;

namespace {

QByteArray withExpect(const QByteArray& expect) {
    return QByteArray(R"({"limiters": [
        {"type": "token_bucket", "name": "api", "rate": 10, "interval_ms": 1000},
        {"type": "fixed_window", "name": "quota", "rate": 10, "interval": 1, "unit": "seconds"}],
      "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2},
      "expect": )") +
           expect + "}";
}

// A finished run with two limiters whose figures are known.
RunSnapshot twoLimiters() {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("a <b> & \"c\"");
    run.finished = true;
    LimiterSnapshot api;
    api.spec.name = QStringLiteral("api");
    api.fired = 100;
    api.accepted = 20;
    api.rejected = 80;
    LatencyHistogram latency;
    latency.record(2000);  // 2 ms
    api.latency = latency.snapshot();
    api.admittedBurst = {BusiestInterval{20, 0, 1000, 0, 680}};
    api.admittedBurstRunClock = {BusiestInterval{23, 0, 1000, 0, 690}};
    LimiterSnapshot quota;
    quota.spec.name = QStringLiteral("quota");
    quota.fired = 100;
    quota.accepted = 30;
    quota.rejected = 70;
    quota.admittedBurst = {BusiestInterval{10, 0, 1000, 0, 180}};
    quota.admittedBurstRunClock = {BusiestInterval{10, 0, 1000, 0, 180}};
    // Two traffic groups of api's clients: users (u-0, u-1) and attacker (a-0).
    const auto client = [](const char* name, qint64 accepted, qint64 rejected, qint64 burst) {
        ClientTotals c;
        c.client = QString::fromLatin1(name);
        c.accepted = accepted;
        c.rejected = rejected;
        c.fired = accepted + rejected;
        c.admittedBurst = {BusiestInterval{burst, 0, 1000, 0, 100}};
        return c;
    };
    api.clients = {client("u-0", 6, 1, 3), client("u-1", 4, 0, 2), client("10.0.0.7", 10, 79, 9)};
    GroupTotals users;
    users.group = QStringLiteral("users");
    users.clients = 2;
    users.accepted = 10;
    users.rejected = 1;
    users.fired = 11;
    users.admittedBurst = {BusiestInterval{5, 0, 1000, 0, 100}};
    users.admittedBurstRunClock = {BusiestInterval{6, 0, 1000, 0, 100}};
    GroupTotals attacker;
    attacker.group = QStringLiteral("attacker");
    attacker.clients = 1;
    attacker.accepted = 10;
    attacker.rejected = 79;
    attacker.fired = 89;
    attacker.admittedBurst = {BusiestInterval{9, 0, 1000, 0, 100}};
    attacker.admittedBurstRunClock = {BusiestInterval{9, 0, 1000, 0, 100}};
    api.groups = {users, attacker};
    run.limiters = {api, quota};
    return run;
}

Expectation expectation(const QString& limiter, const QString& text) {
    return parseExpectation(limiter, text, QStringLiteral("$"), 86400000);
}

}  // namespace

class TestExpectations : public QObject {
    Q_OBJECT

private slots:
    void parses_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<int>("op");
        QTest::addColumn<double>("threshold");
        QTest::newRow("p99") << "p99_ms < 50"
                             << "p99_ms" << int(CompareOp::Less) << 50.0;
        QTest::newRow("no spaces") << "accepted<=20"
                                   << "accepted" << int(CompareOp::LessEqual) << 20.0;
        QTest::newRow("equal") << "errors == 0"
                               << "errors" << int(CompareOp::Equal) << 0.0;
        QTest::newRow("ratio") << " accepted_ratio >= 0.25 "
                               << "accepted_ratio" << int(CompareOp::GreaterEqual) << 0.25;
        QTest::newRow("burst") << "max_accepted_in_any_1000ms > 19"
                               << "max_accepted_in_any_1000ms" << int(CompareOp::Greater) << 19.0;
        QTest::newRow("burst on the run's clock")
            << "max_admitted_in_any_100ms_run_clock <= 20"
            << "max_admitted_in_any_100ms_run_clock" << int(CompareOp::LessEqual) << 20.0;
        QTest::newRow("negative") << "max_wait_ms > -1"
                                  << "max_wait_ms" << int(CompareOp::Greater) << -1.0;
        QTest::newRow("rejected_pct") << "rejected_pct <= 1"
                                      << "rejected_pct" << int(CompareOp::LessEqual) << 1.0;
        QTest::newRow("a group's")
            << "group.users.rejected_pct<=1"
            << "group.users.rejected_pct" << int(CompareOp::LessEqual) << 1.0;
        QTest::newRow("a group's burst on the run's clock")
            << "group.attacker.max_admitted_in_any_1000ms_run_clock <= 50"
            << "group.attacker.max_admitted_in_any_1000ms_run_clock" << int(CompareOp::LessEqual)
            << 50.0;
        QTest::newRow("a client's, dots and a dash in its name")
            << "client.10.0.0-7.max_accepted_in_any_1000ms > 3"
            << "client.10.0.0-7.max_accepted_in_any_1000ms" << int(CompareOp::Greater) << 3.0;
    }
    void parses() {
        QFETCH(QString, text);
        QFETCH(QString, metric);
        QFETCH(int, op);
        QFETCH(double, threshold);
        const Expectation e = expectation(QStringLiteral("api"), text);
        QCOMPARE(e.metric, metric);
        QCOMPARE(int(e.op), op);
        QCOMPARE(e.threshold, threshold);
    }

    void badExpect_data() {
        QTest::addColumn<QByteArray>("expect");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown metric")
            << QByteArray(R"({"api": ["p99_ms < 5", "p98_ms < 5"]})")
            << R"($.expect.api[1]: unknown metric "p98_ms"; expected fired, accepted)";
        QTest::newRow("unknown limiter")
            << QByteArray(R"({"apl": ["p99_ms < 5"]})")
            << R"($.expect.apl: no limiter is named "apl"; expected "api", "quota" or "*")";
        QTest::newRow("not an object")
            << QByteArray(R"(["p99_ms < 5"])") << "$.expect: must be an object of limiter name";
        QTest::newRow("not an array") << QByteArray(R"({"*": "p99_ms < 5"})")
                                      << R"($.expect["*"]: must be an array of checks)";
        QTest::newRow("not a string") << QByteArray(R"({"api": [5]})") << "$.expect.api[0]:";
        QTest::newRow("no operator") << QByteArray(R"({"api": ["p99_ms 5"]})")
                                     << R"($.expect.api[0]: expected "<metric> <op> <number>")";
        QTest::newRow("single =") << QByteArray(R"({"api": ["errors = 0"]})")
                                  << R"($.expect.api[0]: unknown operator "=")";
        QTest::newRow("!=") << QByteArray(R"({"api": ["errors != 0"]})")
                            << R"($.expect.api[0]: unknown operator "!=")";
        QTest::newRow("not a number") << QByteArray(R"({"quota": ["accepted < ten"]})")
                                      << R"($.expect.quota[0]: "ten" after "<" is not a number)";
        QTest::newRow("no number") << QByteArray(R"({"quota": ["accepted <"]})")
                                   << R"($.expect.quota[0]: "" after "<" is not a number)";
        QTest::newRow("burst window 0")
            << QByteArray(R"({"api": ["max_accepted_in_any_0ms < 5"]})")
            << R"($.expect.api[0]: "max_accepted_in_any_0ms": expected max_accepted_in_any_<N>ms )"
               R"(with the window N a whole number of ms)";
        QTest::newRow("burst window in seconds")
            << QByteArray(R"({"api": ["max_accepted_in_any_1s < 5"]})")
            << R"($.expect.api[0]: "max_accepted_in_any_1s": expected max_accepted_in_any_<N>ms)";
        QTest::newRow("burst window above a day")
            << QByteArray(R"({"api": ["max_accepted_in_any_86400001ms < 5"]})")
            << "from 1 to 86400000";
        QTest::newRow("run-clock burst window 0")
            << QByteArray(R"({"api": ["max_admitted_in_any_0ms_run_clock < 5"]})")
            << R"($.expect.api[0]: "max_admitted_in_any_0ms_run_clock": expected )"
               R"(max_admitted_in_any_<N>ms_run_clock with the window N a whole number of ms from )"
               R"(1 to 86400000, as in max_admitted_in_any_1000ms_run_clock)";
        QTest::newRow("run clock without its suffix")
            << QByteArray(R"({"api": ["max_admitted_in_any_1000ms < 5"]})")
            << R"("max_admitted_in_any_1000ms": expected max_admitted_in_any_<N>ms_run_clock)";
        QTest::newRow("unknown metric lists both bursts")
            << QByteArray(R"({"api": ["max_burst < 5"]})")
            << R"(unknown metric "max_burst"; expected fired, accepted, )"
               R"(rejected, errors, accepted_ratio, rejected_pct, disagreements_with_reference, )"
               R"(disagreements_with_reference_pct, p50_ms, p99_ms, max_wait_ms, )"
               R"(max_accepted_in_any_<N>ms, max_admitted_in_any_<N>ms_run_clock, )"
               R"(group.<group>.<metric> or client.<client>.<metric>)";
        QTest::newRow("empty") << QByteArray(R"({"api": [""]})")
                               << R"($.expect.api[0]: expected "<metric> <op> <number>")";
    }
    void badExpect() {
        QFETCH(QByteArray, expect);
        QFETCH(QString, message);
        try {
            parseScenarioJson(withExpect(expect), QString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.message().contains(message), qPrintable(e.message()));
        }
    }

    // The writer writes "expect" back; the parser reads the same expectations.
    void roundTrips() {
        const Scenario s = parseScenarioJson(
            withExpect(R"({"*": ["errors == 0"], "api": ["p99_ms<50", "accepted_ratio >= 0.2",
                "max_accepted_in_any_1000ms <= 20"]})"),
            QString());
        QCOMPARE(s.expectations.size(), 4);
        const QJsonObject written = scenarioToJson(s);
        QCOMPARE(written.value(QStringLiteral("expect"))
                     .toObject()
                     .value(QStringLiteral("api"))
                     .toArray()
                     .at(0)
                     .toString(),
                 QStringLiteral("p99_ms < 50"));
        const Scenario again = parseScenario(written, QString());
        QCOMPARE(again.expectations, s.expectations);
        // No expectations: no "expect" written.
        Scenario none = s;
        none.expectations.clear();
        QVERIFY(!scenarioToJson(none).contains(QStringLiteral("expect")));
    }

    // An expectation window the config does not name is computed (burstWindowsFor).
    void burstWindows() {
        const Scenario s = parseScenarioJson(withExpect(R"({"*": ["max_accepted_in_any_250ms < 50"],
                           "quota": ["max_accepted_in_any_2000ms < 50",
                                     "max_admitted_in_any_300ms_run_clock < 50"]})"),
                                             QString());
        QCOMPARE(burstWindowsFor(s, 0), (std::vector<qint64>{250, 1000, 10000, 60000}));
        QCOMPARE(burstWindowsFor(s, 1), (std::vector<qint64>{250, 300, 1000, 2000, 10000, 60000}));
    }

    void verdicts_data() {
        QTest::addColumn<QString>("limiter");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<bool>>("held");  // per checked limiter, in run order
        QTest::addColumn<QList<double>>("measured");
        QTest::newRow("accepted <= 20 on api")
            << "api"
            << "accepted <= 20" << QList<bool>{true} << QList<double>{20};
        QTest::newRow("accepted < 20 on api")
            << "api"
            << "accepted < 20" << QList<bool>{false} << QList<double>{20};
        QTest::newRow("star expands")
            << "*"
            << "accepted >= 25" << QList<bool>{false, true} << QList<double>{20, 30};
        QTest::newRow("ratio") << "quota"
                               << "accepted_ratio == 0.3" << QList<bool>{true}
                               << QList<double>{0.3};
        QTest::newRow("burst") << "*"
                               << "max_accepted_in_any_1000ms <= 10" << QList<bool>{false, true}
                               << QList<double>{20, 10};
        QTest::newRow("burst on the run's clock")
            << "*"
            << "max_admitted_in_any_1000ms_run_clock <= 20" << QList<bool>{false, true}
            << QList<double>{23, 10};
        QTest::newRow("p50 latency") << "api"
                                     << "p50_ms < 3" << QList<bool>{true} << QList<double>{2};
        QTest::newRow("a window the run lacks fails")
            << "api"
            << "max_accepted_in_any_5ms < 99" << QList<bool>{false} << QList<double>{qQNaN()};
        QTest::newRow("rejected_pct")
            << "quota"
            << "rejected_pct < 70.5" << QList<bool>{true} << QList<double>{70};
        QTest::newRow("a group's share refused")
            << "api"
            << "group.users.rejected_pct <= 10" << QList<bool>{true} << QList<double>{100.0 / 11};
        QTest::newRow("a group's counts")
            << "api"
            << "group.attacker.accepted <= 5" << QList<bool>{false} << QList<double>{10};
        QTest::newRow("a group's ratio") << "api"
                                         << "group.attacker.accepted_ratio < 0.2"
                                         << QList<bool>{true} << QList<double>{10.0 / 89};
        QTest::newRow("a group's burst, each clock")
            << "api"
            << "group.users.max_admitted_in_any_1000ms_run_clock == 6" << QList<bool>{true}
            << QList<double>{6};
        QTest::newRow("a group's burst, limiter's time")
            << "api"
            << "group.users.max_accepted_in_any_1000ms == 5" << QList<bool>{true}
            << QList<double>{5};
        QTest::newRow("a group a limiter lacks fails")
            << "quota"
            << "group.users.accepted >= 0" << QList<bool>{false} << QList<double>{qQNaN()};
        QTest::newRow("a client's")
            << "api"
            << "client.u-0.accepted == 6" << QList<bool>{true} << QList<double>{6};
        QTest::newRow("a client's burst") << "api"
                                          << "client.10.0.0.7.max_accepted_in_any_1000ms <= 8"
                                          << QList<bool>{false} << QList<double>{9};
        QTest::newRow("a client's share refused")
            << "api"
            << "client.u-1.rejected_pct == 0" << QList<bool>{true} << QList<double>{0};
    }
    void verdicts() {
        QFETCH(QString, limiter);
        QFETCH(QString, text);
        QFETCH(QList<bool>, held);
        QFETCH(QList<double>, measured);
        const RunSnapshot run = twoLimiters();
        const QVector<ExpectationResult> results =
            evaluateExpectations({expectation(limiter, text)}, run);
        QCOMPARE(results.size(), held.size());
        bool all = true;
        for (int i = 0; i < results.size(); ++i) {
            QCOMPARE(results[i].held, held[i]);
            if (std::isnan(measured[i])) {
                QVERIFY(std::isnan(results[i].measured));
            } else {
                QCOMPARE(results[i].measured, measured[i]);
            }
            all = all && held[i];
        }
        QCOMPARE(expectationVerdict(results),
                 all ? QStringLiteral("passed") : QStringLiteral("failed"));
    }

    void summaryCarriesVerdict() {
        RunSnapshot run = twoLimiters();
        QCOMPARE(summaryJson(run).value(QStringLiteral("verdict")).toString(),
                 QStringLiteral("none"));
        run.expectations = evaluateExpectations(
            {expectation(QStringLiteral("*"), QStringLiteral("p99_ms < 50"))}, run);
        const QJsonObject summary = summaryJson(run);
        QCOMPARE(summary.value(QStringLiteral("verdict")).toString(), QStringLiteral("passed"));
        // Both admitted bursts, each under its own name.
        const QJsonObject api =
            summary.value(QStringLiteral("limiters")).toArray().at(0).toObject();
        QCOMPARE(api.value(QStringLiteral("max_accepted_in_any_1000ms")).toDouble(), 20.0);
        QCOMPARE(api.value(QStringLiteral("max_admitted_in_any_1000ms_run_clock")).toDouble(),
                 23.0);
        QCOMPARE(api.value(QStringLiteral("admitted_burst_run_clock"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("last_ms"))
                     .toDouble(),
                 690.0);
        const QJsonArray list = summary.value(QStringLiteral("expectations")).toArray();
        QCOMPARE(list.size(), 2);
        const QJsonObject first = list.at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("limiter")).toString(), QStringLiteral("api"));
        QCOMPARE(first.value(QStringLiteral("expression")).toString(),
                 QStringLiteral("p99_ms < 50"));
        QCOMPARE(first.value(QStringLiteral("metric")).toString(), QStringLiteral("p99_ms"));
        QCOMPARE(first.value(QStringLiteral("op")).toString(), QStringLiteral("<"));
        QCOMPARE(first.value(QStringLiteral("threshold")).toDouble(), 50.0);
        QCOMPARE(first.value(QStringLiteral("measured")).toDouble(), 2.0);
        QVERIFY(first.value(QStringLiteral("held")).toBool());
        QCOMPARE(list.at(1).toObject().value(QStringLiteral("limiter")).toString(),
                 QStringLiteral("quota"));
    }

    void failureMessages_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("<=") << "accepted <= 10"
                            << "measured 20 > 10";
        QTest::newRow("<") << "accepted < 20"
                           << "measured 20 >= 20";
        QTest::newRow("==") << "accepted == 21"
                            << "measured 20 != 21";
        QTest::newRow(">=") << "accepted >= 21.5"
                            << "measured 20 < 21.5";
        QTest::newRow(">") << "accepted > 20"
                           << "measured 20 <= 20";
    }
    void failureMessages() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QVector<ExpectationResult> results =
            evaluateExpectations({expectation(QStringLiteral("api"), text)}, twoLimiters());
        QCOMPARE(results.size(), 1);
        QVERIFY(!results[0].held);
        QCOMPARE(failureMessage(results[0]), message);
    }

    // One testsuite, one testcase per expectation, a failure with its message; names with
    // XML's special characters come out escaped and read back as they were.
    void junit() {
        RunSnapshot run = twoLimiters();
        run.limiters[1].spec.name = QStringLiteral("q<&>\"");
        run.expectations = evaluateExpectations(
            {expectation(QStringLiteral("*"), QStringLiteral("accepted <= 25"))}, run);
        const QByteArray xml = expectationsJUnit(run.scenarioName, 2.0, run.expectations);
        QXmlStreamReader reader(xml);
        int suites = 0;
        QStringList cases;
        QStringList failures;
        while (!reader.atEnd()) {
            reader.readNext();
            if (!reader.isStartElement()) {
                continue;
            }
            const QXmlStreamAttributes a = reader.attributes();
            if (reader.name() == QLatin1String("testsuite")) {
                ++suites;
                QCOMPARE(a.value(QLatin1String("name")).toString(), run.scenarioName);
                QCOMPARE(a.value(QLatin1String("tests")).toString(), QStringLiteral("2"));
                QCOMPARE(a.value(QLatin1String("failures")).toString(), QStringLiteral("1"));
            } else if (reader.name() == QLatin1String("testcase")) {
                cases << a.value(QLatin1String("name")).toString();
            } else if (reader.name() == QLatin1String("failure")) {
                failures << a.value(QLatin1String("message")).toString();
            }
        }
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QCOMPARE(suites, 1);
        QCOMPARE(cases, (QStringList{QStringLiteral("api: accepted <= 25"),
                                     QStringLiteral("q<&>\": accepted <= 25")}));
        QCOMPARE(failures, QStringList{QStringLiteral("measured 30 > 25")});
    }

    void printedTable() {
        RunSnapshot run = twoLimiters();
        run.expectations = evaluateExpectations(
            {expectation(QStringLiteral("*"), QStringLiteral("accepted <= 25"))}, run);
        const QString table = expectationsTable(run.expectations);
        QVERIFY2(table.contains(QStringLiteral("api      accepted <= 25        20  held")),
                 qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("quota    accepted <= 25        30  FAILED")),
                 qPrintable(table));
        QVERIFY(table.contains(QStringLiteral("verdict: failed (1 of 2 held)")));
        QVERIFY(expectationsTable(QVector<ExpectationResult>{}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestExpectations)
#include "tst_expectations.moc"
