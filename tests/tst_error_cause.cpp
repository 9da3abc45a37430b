// Failed decisions by cause: the names taken from Redis's error replies and from connection
// failures, and how summary.json and the printed summary show them and an interrupted run.
#include <QJsonObject>
#include <QtTest>

#include "output/run_report.h"
#include "output/summary_json.h"
#include "redis/redis_error.h"
#include "stats/error_cause.h"
#include "traffic/redis_error_cause.h"

using namespace ratelab;

class TestErrorCause : public QObject {
    Q_OBJECT

private slots:
    void fromReply_data() {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("cause");
        auto row = [](const char* reply, const char* cause) {
            QTest::newRow(reply) << QString::fromLatin1(reply) << QString::fromLatin1(cause);
        };
        row("NOPERM this user has no permissions to run the 'evalsha' command", "NOPERM");
        row("OOM command not allowed when used memory > 'maxmemory'.", "OOM");
        row("BUSY Redis is busy running a script.", "BUSY");
        row("LOADING Redis is loading the dataset in memory", "LOADING");
        row("READONLY You can't write against a read only replica.", "READONLY");
        row("CLUSTERDOWN The cluster is down", "CLUSTERDOWN");
        row("WRONGTYPE Operation against a key holding the wrong kind of value", "WRONGTYPE");
        row("ERR max number of clients reached", "max clients");
        row("ERR Error running script", "ERR");
        row("SOMENEWWORD from a future Redis", "ERR");
        row("lower case text", "ERR");
        row("", "ERR");
    }
    void fromReply() {
        QFETCH(QString, reply);
        QFETCH(QString, cause);
        const std::string text = reply.toStdString();
        QCOMPARE(errorCauseName(errorCauseOfReply(text)), cause);
    }

    void fromError_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("given");
        QTest::addColumn<QString>("cause");
        using K = RedisError::Kind;
        QTest::newRow("refused") << int(K::Connect) << QStringLiteral("connection refused")
                                 << QStringLiteral("connection refused");
        QTest::newRow("AUTH refused")
            << int(K::Connect) << QStringLiteral("WRONGPASS") << QStringLiteral("WRONGPASS");
        QTest::newRow("interrupted")
            << int(K::Timeout) << QStringLiteral("interrupted") << QStringLiteral("interrupted");
        QTest::newRow("timeout, no cause")
            << int(K::Timeout) << QString() << QStringLiteral("timeout");
        QTest::newRow("lost, no cause")
            << int(K::Io) << QString() << QStringLiteral("connection lost");
        QTest::newRow("bad reply") << int(K::Reply) << QString() << QStringLiteral("bad reply");
        QTest::newRow("unknown text")
            << int(K::Connect) << QStringLiteral("something else") << QStringLiteral("ERR");
    }
    void fromError() {
        QFETCH(int, kind);
        QFETCH(QString, given);
        QFETCH(QString, cause);
        const RedisError error(RedisError::Kind(kind), "message", given.toStdString());
        QCOMPARE(errorCauseName(errorCauseOf(error)), cause);
    }

    // A run stopped 3.2 s into 30 s with errors of two causes: summary.json says it did not
    // finish, how long it ran, and the errors by cause (per limiter and for the run).
    void summaryOfAStoppedRun() {
        RunSnapshot run;
        run.scenarioName = QStringLiteral("stopped");
        run.durationUs = 30'000'000;
        run.finished = true;
        run.stoppedEarly = true;
        run.finishedAtUs = 3'200'000;
        run.elapsedUs = 3'200'000;
        run.scheduled = 64;
        LimiterSnapshot l;
        l.spec.name = QStringLiteral("tb");
        l.fired = 64;
        l.accepted = 10;
        l.errors = 54;
        l.errorCauses[int(ErrorCause::Noperm)] = 50;
        l.errorCauses[int(ErrorCause::UnknownOutcome)] = 4;
        run.limiters.push_back(l);

        const QJsonObject summary = summaryJson(run);
        QCOMPARE(summary.value(QStringLiteral("finished")).toBool(true), false);
        QCOMPARE(summary.value(QStringLiteral("stopped_early")).toBool(), true);
        QCOMPARE(summary.value(QStringLiteral("run_s")).toDouble(), 3.2);
        const QJsonObject causes = summary.value(QStringLiteral("errors_by_cause")).toObject();
        QCOMPARE(causes.value(QStringLiteral("NOPERM")).toInt(), 50);
        QCOMPARE(causes.value(QStringLiteral("unknown outcome")).toInt(), 4);
        QCOMPARE(causes.size(), 2);
        const QString text = summaryText(run);
        QVERIFY2(text.contains(QStringLiteral("errors by cause: NOPERM 50, unknown outcome 4")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("requests: 64 in 3.200 s")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("stopped early")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestErrorCause)
#include "tst_error_cause.moc"
