// The Tune tab's distributed sweep as a tuner uses it, offscreen against the fixture Redis with
// real `ratelab worker` processes: the workers connected are named in the tab while it runs
// and the sweep's table equals the same sweep run locally; with no worker the window says it
// works every batch itself and Cancel ends the job; a bad queue name and a password in the
// scenario are refused in the tab as the command line refuses them.
#include <QCheckBox>
#include <QJsonDocument>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "distributed/distributed_sweep.h"
#include "output/sweep_files.h"
#include "support/queue_workers.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "tune/sweep_chart_view.h"
#include "tune/tune_view.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A fixed window's rate x interval (`rates` x 4 combinations) beside a token bucket no axis
// varies, `duration_s` of 200 requests/s from 3 clients each, in virtual time.
Scenario sweptScenario(const QString& name, const QString& rates, int durationS) {
    return parseScenarioJson(QStringLiteral(R"({"name": "%1",
  "limiters": [{"type": "fixed_window", "name": "%2", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"},
               {"type": "token_bucket", "name": "%3", "rate": 30, "interval_ms": 1000}],
  "traffic": {"shape": {"type": "poisson", "rate": 200}, "duration_s": %4, "clients": 3,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "sweep": {"vary": {"%2.rate": %5, "%2.interval": {"from": 1, "to": 4}},
            "minimize": "accepted", "constraints": ["accepted >= 300"]}})")
                                 .arg(name, uniqueName(QStringLiteral("wdist-fw")),
                                      uniqueName(QStringLiteral("wdist-tb")))
                                 .arg(durationS)
                                 .arg(rates)
                                 .toUtf8(),
                             QString());
}

// Checks Distributed (or clears it) and types the queue's name, as a user does.
void chooseQueue(TuneView* tune, bool distributed, const QString& queue = QString()) {
    if (tune->distributedCheck()->isChecked() != distributed) {
        QTest::mouseClick(tune->distributedCheck(), Qt::LeftButton, {},
                          QPoint(8, tune->distributedCheck()->height() / 2));
    }
    QCOMPARE(tune->distributedCheck()->isChecked(), distributed);
    if (distributed) {
        retype(tune->queueEdit(), queue);
    }
}

// Clicks Run sweep and waits for the sweep's end.
void sweepToTheEnd(TuneView* tune) {
    QSignalSpy swept(tune, &TuneView::sweepFinished);
    QTest::mouseClick(tune->runButton(), Qt::LeftButton);
    QVERIFY2(tune->running(), qPrintable(tune->statusText()));
    QTRY_VERIFY_WITH_TIMEOUT(swept.count() == 1, 240000);
}

// The worker's consumer name and its ratelab version, from the line it logs on joining.
QRegularExpressionMatch joined(const QByteArray& log) {
    static const QRegularExpression line(
        QStringLiteral(R"(worker: (\S+) \(ratelab ([^)]+)\) joined)"));
    return line.match(QString::fromUtf8(log));
}

}  // namespace

class TestWindowDistributed : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-distributed"));
        QSettings().clear();
    }

    // Two workers on the queue: the tab names both while the sweep runs, with the batches each
    // answered (as many as its log says it finished) and the window's own, adding up to the
    // job's batches; the table is the local sweep's, row for row; the job's keys are gone.
    void workersShownAndSameTableAsLocal() {
        const QString queue = uniqueName(QStringLiteral("wq"));
        Processes workers;
        QVector<QByteArray> logs(2);
        workers.push_back(startWorker(queue, logs[0]));
        workers.push_back(startWorker(queue, logs[1]));
        const QRegularExpressionMatch first = joined(logs[0]), second = joined(logs[1]);
        QVERIFY2(first.hasMatch() && second.hasMatch(), (logs[0] + logs[1]).constData());
        // The window publishes as the ratelab it is (main.cpp sets it); a worker refuses
        // another version's batches.
        QCoreApplication::setApplicationVersion(first.captured(2));

        MainWindow w;
        w.resize(1024, 700);
        w.show();
        connectToFixture(w);
        const Scenario scenario =
            sweptScenario(QStringLiteral("distributed"), QStringLiteral("[5, 10, 20, 40]"), 60);
        w.setScenario(scenario);
        TuneView* tune = w.tuneView();
        clickTab(w.views(), tune);

        chooseQueue(tune, false);
        sweepToTheEnd(tune);
        const SweepTable local = tune->chart()->table();
        QVERIFY2(local.complete, qPrintable(tune->statusText()));
        QVERIFY(tune->workersText().isEmpty());  // a local sweep has no workers

        chooseQueue(tune, true, queue);
        QSignalSpy swept(tune, &TuneView::sweepFinished);
        QTest::mouseClick(tune->runButton(), Qt::LeftButton);
        QVERIFY2(tune->running(), qPrintable(tune->statusText()));
        // Shown while it runs: the queue's consumers are read only then.
        QTRY_VERIFY2_WITH_TIMEOUT(
            tune->workersText().startsWith(QStringLiteral("2 workers connected")),
            qPrintable(tune->workersText()), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(swept.count() == 1, 240000);
        const QString shown = tune->workersText();
        QVERIFY2(shown.startsWith(QStringLiteral("2 workers on the queue: ")), qPrintable(shown));

        const QByteArray log = stopWorkers(workers, logs);
        QVERIFY2(log != "WORKER FAILED", log.constData());
        // Each worker named with the batches of its that were counted: no more than its log
        // says it finished (a batch it claimed from the window and finished second counts to
        // the window), and with the window's, every batch of the job once.
        const SweepPlan plan(scenario);
        const qint64 size =
            distributedBatchSize(plan, plan.batchSize(SweepRunner::kDefaultBatchBudgetBytes));
        const qint64 batches = (plan.combinations() + size - 1) / size;
        const auto countOf = [&shown](const QString& who) {
            const QRegularExpressionMatch m =
                QRegularExpression(QRegularExpression::escape(who) +
                                   QStringLiteral(R"( \([^)]*?(\d+) batch(es)? done\))"))
                    .match(shown);
            return m.hasMatch() ? m.captured(1).toLongLong() : -1;
        };
        qint64 counted = 0;
        for (int i = 0; i < 2; ++i) {
            const QString name = joined(logs[i]).captured(1);
            const qint64 mine = countOf(name);
            QVERIFY2(mine >= 0 && mine <= logs[i].count("finished batch"),
                     qPrintable(shown + QStringLiteral("\n") + QString::fromUtf8(logs[i])));
            counted += mine;
        }
        const QRegularExpressionMatch window =
            QRegularExpression(QStringLiteral(R"(; this window: (\d+) batch(es)? done\.$)"))
                .match(shown);
        QVERIFY2(window.hasMatch(), qPrintable(shown));
        const qint64 own = window.captured(1).toLongLong();
        QCOMPARE(counted + own, batches);

        const SweepTable distributed = tune->chart()->table();
        QVERIFY2(distributed.complete, qPrintable(tune->statusText()));
        QCOMPARE(sweepCsv(distributed), sweepCsv(local));
        QCOMPARE(QJsonDocument(sweepJson(distributed)).toJson(),
                 QJsonDocument(sweepJson(local)).toJson());
        checkQueueCleared(queue);
    }

    // No worker on the queue: the tab says the window works every batch itself; Cancel stops
    // the sweep between two batches, keeps what finished, and ends the job in Redis.
    void noWorkersAndCancel() {
        const QString queue = uniqueName(QStringLiteral("wq"));
        MainWindow w;
        w.show();
        connectToFixture(w);
        w.setScenario(sweptScenario(QStringLiteral("cancelled"),
                                    QStringLiteral(R"({"from": 1, "to": 64})"), 300));
        TuneView* tune = w.tuneView();
        clickTab(w.views(), tune);
        chooseQueue(tune, true, queue);
        QSignalSpy swept(tune, &TuneView::sweepFinished);
        QTest::mouseClick(tune->runButton(), Qt::LeftButton);
        QVERIFY2(tune->running(), qPrintable(tune->statusText()));
        QTRY_VERIFY2_WITH_TIMEOUT(tune->workersText().startsWith(QStringLiteral(
                                      "No workers: the window works every batch itself")),
                                  qPrintable(tune->workersText()), 30000);
        QVERIFY2(swept.isEmpty(), qPrintable(tune->statusText()));
        QVERIFY(tune->cancelButton()->isEnabled());
        QTest::mouseClick(tune->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(swept.count() == 1, 120000);
        QVERIFY2(tune->statusText().startsWith(QStringLiteral("Cancelled after")),
                 qPrintable(tune->statusText()));
        QVERIFY2(tune->workersText().startsWith(
                     QStringLiteral("No workers: the window worked every batch itself")),
                 qPrintable(tune->workersText()));
        QVERIFY(!tune->chart()->table().complete);
        QVERIFY(tune->runButton()->isEnabled());
        checkQueueCleared(queue);
    }

    // A queue name with a space or a glob character is said under the field, naming it, and
    // the sweep does not start; a password in a URL anywhere in the scenario is refused with
    // its JSON path and never shown; fixed, the name's error goes.
    void badQueueAndSecretRefused_data() {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("said");
        QTest::newRow("space") << QStringLiteral("my queue") << QStringLiteral("plain")
                               << QStringLiteral("Queue: \"my queue\" is not a queue name");
        QTest::newRow("glob") << QStringLiteral("q*") << QStringLiteral("plain")
                              << QStringLiteral("Queue: \"q*\" is not a queue name");
        QTest::newRow("password") << QStringLiteral("fine")
                                  << QStringLiteral("redis://:hunter2@cache:6379")
                                  << QStringLiteral("The scenario cannot be distributed: $.name");
    }
    void badQueueAndSecretRefused() {
        QFETCH(QString, queue);
        QFETCH(QString, name);
        QFETCH(QString, said);
        MainWindow w;
        w.show();
        connectToFixture(w);
        w.setScenario(sweptScenario(name, QStringLiteral("[5, 10]"), 2));
        TuneView* tune = w.tuneView();
        clickTab(w.views(), tune);
        chooseQueue(tune, true, queue);
        const bool badName = said.startsWith(QStringLiteral("Queue"));
        QCOMPARE(tune->queueError().isEmpty(), !badName);
        if (badName) {
            QVERIFY2(tune->queueError().startsWith(said), qPrintable(tune->queueError()));
        }
        QTest::mouseClick(tune->runButton(), Qt::LeftButton);
        QVERIFY(!tune->running());
        QVERIFY2(tune->statusText().contains(said), qPrintable(tune->statusText()));
        QVERIFY2(!tune->statusText().contains(QStringLiteral("hunter2")),
                 qPrintable(tune->statusText()));
        retype(tune->queueEdit(), QStringLiteral("fine"));
        QVERIFY2(tune->queueError().isEmpty(), qPrintable(tune->queueError()));
    }
};

QTEST_MAIN(TestWindowDistributed)
#include "tst_window_distributed.moc"
