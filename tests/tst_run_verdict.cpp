// A run's verdict says what was measured: "incomplete" for a run that did not finish, a limiter
// that decided nothing, or failed decisions no expectation checks (whatever the limiter's
// on_error), in the summary, the printed table and JUnit (every expectation an error, none a
// pass); failed decisions an expectation checks are judged by it; names XML cannot hold still
// give a JUnit file that parses.
#include <QXmlStreamReader>
#include <QtTest>
#include <algorithm>

#include "output/output_format.h"
#include "output/regression_report.h"
#include "output/run_report.h"
#include "output/run_summary.h"
#include "output/run_verdict.h"
#include "output/summary_json.h"
#include "scenario/scenario.h"

using namespace ratelab;

Q_DECLARE_METATYPE(ratelab::RunSnapshot)

namespace {

LimiterSnapshot limiter(const QString& name, qint64 accepted, qint64 rejected, qint64 errors) {
    LimiterSnapshot l;
    l.spec.name = name;
    l.fired = accepted + rejected + errors;
    l.accepted = accepted;
    l.rejected = rejected;
    l.errors = errors;
    return l;
}

// A run of 4 s, its two limiters' figures given; "accepted <= 100" expected of both, and
// `alsoExpected` of both.
RunSnapshot run(bool finished, bool stopped, const LimiterSnapshot& a, const LimiterSnapshot& b,
                const QStringList& alsoExpected = {}) {
    RunSnapshot r;
    r.scenarioName = QStringLiteral("verdicts");
    r.durationUs = 4000000;
    r.elapsedUs = stopped ? 1000000 : 4000000;
    r.finishedAtUs = r.elapsedUs;
    r.finished = finished;
    r.stoppedEarly = stopped;
    r.limiters = {a, b};
    QVector<Expectation> expected;
    for (const QString& text : QStringList{QStringLiteral("accepted <= 100")} + alsoExpected) {
        expected << parseExpectation(QStringLiteral("*"), text, QStringLiteral("$"), 86400000);
    }
    r.expectations = evaluateExpectations(expected, r);
    return r;
}

// A limiter some of whose decisions failed, counted by its on_error policy.
LimiterSnapshot failing(const QString& name, FailurePolicy policy) {
    LimiterSnapshot l = limiter(name, 10, 0, 390);
    l.spec.onError = policy;
    l.errorsOpen = policy == FailurePolicy::Open ? l.errors : 0;
    l.errorsClosed = policy == FailurePolicy::Closed ? l.errors : 0;
    return l;
}

struct JUnitCounts {
    int tests = -1;
    int failures = -1;
    int errors = -1;
    QStringList errorMessages;
    QString parseError;
};

JUnitCounts readJUnit(const QByteArray& xml) {
    JUnitCounts c;
    QXmlStreamReader reader(xml);
    while (!reader.atEnd()) {
        reader.readNext();
        if (!reader.isStartElement()) {
            continue;
        }
        const QXmlStreamAttributes a = reader.attributes();
        if (reader.name() == QLatin1String("testsuite")) {
            c.tests = a.value(QLatin1String("tests")).toInt();
            c.failures = a.value(QLatin1String("failures")).toInt();
            c.errors = a.value(QLatin1String("errors")).toInt();
        } else if (reader.name() == QLatin1String("error")) {
            c.errorMessages << a.value(QLatin1String("message")).toString();
        }
    }
    if (reader.hasError()) {
        c.parseError = reader.errorString();
    }
    return c;
}

}  // namespace

class TestRunVerdict : public QObject {
    Q_OBJECT

private slots:
    void verdicts_data() {
        QTest::addColumn<RunSnapshot>("snapshot");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("reason");  // a part of it
        QTest::addColumn<bool>("byFailedDecisions");
        const LimiterSnapshot ok = limiter(QStringLiteral("api"), 50, 50, 0);
        const LimiterSnapshot ok2 = limiter(QStringLiteral("quota"), 60, 40, 0);
        QTest::newRow("finished, held") << run(true, false, ok, ok2) << "passed"
                                        << "" << false;
        QTest::newRow("finished, one failed")
            << run(true, false, ok, limiter(QStringLiteral("quota"), 150, 0, 0)) << "failed"
            << "" << false;
        QTest::newRow("stopped at 1 s of 4") << run(true, true, ok, ok2) << "incomplete"
                                             << "the run stopped after 1.000 s of 4.000 s" << false;
        QTest::newRow("not finished") << run(false, false, ok, ok2) << "incomplete"
                                      << "the run had not finished" << false;
        QTest::newRow("every decision failed (NOPERM)")
            << run(true, false, ok, limiter(QStringLiteral("quota"), 0, 0, 400)) << "incomplete"
            << "limiter \"quota\" decided nothing: 400 of 400 decisions failed" << true;
        QTest::newRow("nothing sent to a limiter")
            << run(true, false, ok, limiter(QStringLiteral("quota"), 0, 0, 0)) << "incomplete"
            << "limiter \"quota\" decided nothing: no request was sent to it" << false;
        // Failed decisions no expectation checks: what those requests got is unknown, whatever
        // the limiter's on_error says it counted them as.
        const QString unchecked = QStringLiteral(
            "limiter \"quota\": 390 of 400 decisions failed, and no expectation checks its errors");
        QTest::newRow("some decisions failed")
            << run(true, false, ok, failing(QStringLiteral("quota"), FailurePolicy::Error))
            << "incomplete" << unchecked << true;
        QTest::newRow("some failed, on_error open")
            << run(true, false, ok, failing(QStringLiteral("quota"), FailurePolicy::Open))
            << "incomplete" << unchecked << true;
        QTest::newRow("some failed, on_error closed")
            << run(true, false, ok, failing(QStringLiteral("quota"), FailurePolicy::Closed))
            << "incomplete" << unchecked << true;
        // An expectation on the errors says how many may fail: the expectations judge.
        QTest::newRow("some failed, as many as expected")
            << run(true, false, ok, failing(QStringLiteral("quota"), FailurePolicy::Error),
                   {QStringLiteral("errors <= 400")})
            << "passed"
            << "" << false;
        QTest::newRow("some failed, more than expected")
            << run(true, false, ok, failing(QStringLiteral("quota"), FailurePolicy::Open),
                   {QStringLiteral("errors == 0")})
            << "failed"
            << "" << false;
        QTest::newRow("stopped, and some failed")
            << run(true, true, ok, failing(QStringLiteral("quota"), FailurePolicy::Error))
            << "incomplete"
            << QStringLiteral("the run stopped after 1.000 s of 4.000 s; ") + unchecked << false;
    }
    void verdicts() {
        QFETCH(RunSnapshot, snapshot);
        QFETCH(QString, verdict);
        QFETCH(QString, reason);
        QFETCH(bool, byFailedDecisions);
        const RunSummary s = summaryOf(snapshot);
        QCOMPARE(s.verdict, verdict);
        if (reason.isEmpty()) {
            QCOMPARE(s.verdictReason, QString());
        } else {
            QVERIFY2(s.verdictReason.contains(reason), qPrintable(s.verdictReason));
        }
        QCOMPARE(incompleteByFailedDecisions(s), byFailedDecisions);

        // The printed verdict line says the same, with the reason.
        const QString table = expectationsTable(s);
        QVERIFY2(table.contains(QStringLiteral("verdict: ") + verdict), qPrintable(table));
        QVERIFY2(table.contains(reason), qPrintable(table));

        // JUnit: an incomplete run passes nothing, every expectation is an error with why.
        const JUnitCounts j = readJUnit(expectationsJUnit(s));
        QVERIFY2(j.parseError.isEmpty(), qPrintable(j.parseError));
        const int tests = int(s.expectations.size());
        QCOMPARE(j.tests, tests);
        const bool incomplete = verdict == output_format::verdict::kIncomplete;
        QCOMPARE(j.errors, incomplete ? tests : 0);
        QCOMPARE(j.errorMessages.size(), incomplete ? tests : 0);
        for (const QString& m : j.errorMessages) {
            QVERIFY2(m.startsWith(QStringLiteral("incomplete: ")) && m.contains(reason),
                     qPrintable(m));
        }
        const auto failed = std::count_if(s.expectations.begin(), s.expectations.end(),
                                          [](const ExpectationResult& r) { return !r.held; });
        QCOMPARE(j.failures, incomplete ? 0 : int(failed));
        if (!incomplete) {
            QCOMPARE(failed > 0, verdict == QLatin1String("failed"));
        }
    }

    // Without expectations, an incomplete run still reports one error: the run itself.
    void incompleteWithoutExpectations() {
        RunSnapshot r = run(true, true, limiter(QStringLiteral("api"), 5, 0, 0),
                            limiter(QStringLiteral("quota"), 5, 0, 0));
        r.expectations.clear();
        const RunSummary s = summaryOf(r);
        QCOMPARE(s.verdict, QString(output_format::verdict::kIncomplete));
        const JUnitCounts j = readJUnit(expectationsJUnit(s));
        QCOMPARE(j.tests, 1);
        QCOMPARE(j.errors, 1);
        QVERIFY(expectationsTable(s).startsWith(QStringLiteral("verdict: incomplete (")));
    }

    // A Sentinel failover is marked with what each limiter accepted within a second either side
    // (from the buckets), in summary.json (read back) and the printed summary.
    void failoverMarked() {
        RunSnapshot r = run(true, false, limiter(QStringLiteral("api"), 67, 0, 0),
                            limiter(QStringLiteral("quota"), 10, 0, 0));
        r.bucketMs = 100;
        r.limiters[0].bucketAccepted = QVector<qint64>(40, 1);  // 1 a bucket, 4 s
        r.limiters[0].bucketAccepted[20] = 30;                  // 2.0 - 2.1 s: a burst
        r.limiters[1].bucketAccepted = QVector<qint64>(40, 0);
        r.failovers = {FailoverEvent{2050000, QStringLiteral("10.0.0.1:6379"),
                                     QStringLiteral("10.0.0.2:6379")}};
        const RunSummary s = summaryFromJson(summaryToJson(summaryOf(r)), QString());
        QCOMPARE(s.failovers.size(), 1);
        QCOMPARE(s.failovers[0].atMs, 2050.0);
        QCOMPARE(s.failovers[0].from, QStringLiteral("10.0.0.1:6379"));
        // Buckets 10 .. 30 overlap 1.05 s .. 3.05 s: 20 of 1 and the burst's 30.
        const QVector<QPair<QString, qint64>> around{{QStringLiteral("api"), 50},
                                                     {QStringLiteral("quota"), 0}};
        QCOMPARE(s.failovers[0].acceptedAround, around);
        QVERIFY(summaryText(r).contains(
            QStringLiteral("Sentinel failover at 2050 ms: primary 10.0.0.1:6379 -> "
                           "10.0.0.2:6379; accepted within 1000 ms either side: api 50, quota 0")));
        // Without one, summary.json has no "failovers".
        r.failovers.clear();
        QVERIFY(!summaryToJson(summaryOf(r)).contains(QStringLiteral("failovers")));
    }

    // A lone surrogate or control character in a name becomes U+FFFD: the file still parses.
    void junitOfNamesXmlCannotHold_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("lone high surrogate") << QString(QChar(0xD800)) + QStringLiteral("api");
        QTest::newRow("lone low surrogate") << QStringLiteral("api") + QString(QChar(0xDC00));
        QTest::newRow("escape") << QStringLiteral("a\x1b[31mb");
        QTest::newRow("NUL") << QStringLiteral("a") + QString(QChar(0)) + QStringLiteral("b");
    }
    void junitOfNamesXmlCannotHold() {
        QFETCH(QString, name);
        RunSnapshot r = run(true, false, limiter(name, 500, 0, 0), limiter(name, 5, 0, 0));
        r.scenarioName = name;
        const JUnitCounts j = readJUnit(expectationsJUnit(summaryOf(r)));
        QVERIFY2(j.parseError.isEmpty(), qPrintable(j.parseError));
        QCOMPARE(j.failures, 1);  // the first limiter's 500 accepted
    }
};

QTEST_GUILESS_MAIN(TestRunVerdict)
#include "tst_run_verdict.moc"
