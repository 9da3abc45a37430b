// The window's "Redisson limiter" view: attaches to a limiter the test writes in Redisson's
// layout and draws the same available permits the reader computes, and the grants as points.
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

#include "redisson/redisson_limiter_reader.h"
#include "support/redisson_writer.h"
#include "support/test_redis.h"
#include "window/main_window.h"
#include "window/redisson_watch_view.h"

using namespace ratelab;
using namespace ratelab::test;

class TestRedissonWatchView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-redisson"));
    }

    void drawsReaderFigures_data() {
        QTest::addColumn<bool>("perClient");
        QTest::newRow("overall") << false;
        QTest::newRow("per client") << true;
    }
    void drawsReaderFigures() {
        QFETCH(bool, perClient);
        RedissonWriter w(uniqueName(QStringLiteral("rw-view")));
        // An hour-long interval: nothing is released while the test runs, so the figures stay.
        w.setRate(10, 3600000, perClient);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QString client = perClient ? QStringLiteral("9f1c-client") : QString();
        w.grant(now - 300, 3, client);
        w.grant(now - 200, 2, client);
        w.grant(now - 100, 1, client);
        w.setValue(4, client);
        if (perClient) {
            w.grant(now - 50, 5, QStringLiteral("second"));
            w.setValue(5, QStringLiteral("second"));
        }
        const RedissonSnapshot expected = RedissonLimiterReader(w.name()).read(w.connection(), now);
        QCOMPARE(expected.scopes.size(), perClient ? 2 : 1);

        RedissonWatchView view;
        view.resize(900, 500);
        view.show();
        view.setLimiterName(w.name());
        view.attach();  // no URL yet: an inline error, no dialog
        QVERIFY(!view.attached());
        QVERIFY(view.statusText().contains(QStringLiteral("connect")));
        view.setRedisUrl(fixtureUrl());
        view.attach();
        QVERIFY(view.attached());
        QTRY_VERIFY(view.availableSeries(client) != nullptr &&
                    view.availableSeries(client)->count() >= 3);
        for (const RedissonScope& scope : expected.scopes) {
            QLineSeries* line = view.availableSeries(scope.clientId);
            QVERIFY2(line != nullptr, qPrintable(scope.clientId));
            QTRY_VERIFY(line->count() >= 1);
            for (const QPointF& p : line->points()) {
                QCOMPARE(p.y(), double(scope.available));
            }
        }
        QCOMPARE(view.availableSeries(client)->points().last().y(), 4.0);
        // Every grant record is a point at (its time, its permits).
        QScatterSeries* grants = view.grantSeries();
        QCOMPARE(grants->count(), perClient ? 4 : 3);
        QList<double> ys;
        for (const QPointF& p : grants->points()) {
            ys.push_back(p.y());
        }
        std::sort(ys.begin(), ys.end());
        QCOMPARE(ys, perClient ? (QList<double>{1, 2, 3, 5}) : (QList<double>{1, 2, 3}));
        QVERIFY(view.summaryText().contains(QStringLiteral("available 4/10")));
        QVERIFY(view.statusText().contains(QStringLiteral("attached")));

        // A change in Redis shows up live.
        w.grant(QDateTime::currentMSecsSinceEpoch(), 4, client);
        w.setValue(0, client);
        QTRY_COMPARE(view.availableSeries(client)->points().last().y(), 0.0);

        view.detach();
        QVERIFY(!view.attached());
        QCOMPARE(view.grantSeries()->count(), 0);
    }

    void missingLimiterIsInline() {
        RedissonWatchView view;
        view.setRedisUrl(fixtureUrl());
        view.setLimiterName(uniqueName(QStringLiteral("rw-none")));
        view.attach();
        QTRY_VERIFY(view.statusText().contains(QStringLiteral("no Redisson rate limiter named")));
        QVERIFY(!view.lastSnapshot().has_value());
        view.setLimiterName(QString());
        view.attach();
        QVERIFY(!view.attached());
        QVERIFY(view.statusText().contains(QStringLiteral("empty")));
    }

    // The main window holds the view as a tab fed by the connection bar.
    void mainWindowTab() {
        MainWindow window;
        auto* view = window.findChild<RedissonWatchView*>(QStringLiteral("redissonWatch"));
        QVERIFY(view != nullptr);
        QVERIFY(window.views()->indexOf(view) >= 0);
    }
};

QTEST_MAIN(TestRedissonWatchView)
#include "tst_redisson_watch_view.moc"
