// The window's "Redisson limiter" view: attaches to a limiter the test writes in Redisson's
// layout and draws the same available permits the reader computes, and the grants as points.
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

#include <QChart>
#include <QChartView>
#include <QValueAxis>

#include "redisson/redisson_limiter_reader.h"
#include "style/palette_colors.h"
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
        // Every grant record is a mark on its scope's permits line (all were taken before
        // attaching: at the first reading's level), sized by its permits.
        QScatterSeries* grants = view.grantSeries();
        QCOMPARE(grants->count(), perClient ? 4 : 3);
        // The marks in time order: the grants at now-300, -200, -100 (and -50 for "second").
        const QList<qint64> permits =
            perClient ? QList<qint64>{3, 2, 1, 5} : QList<qint64>{3, 2, 1};
        QMap<qint64, double> sizeOf;  // permits -> mark size
        for (int i = 0; i < grants->count(); ++i) {
            QCOMPARE(grants->at(i).y(), permits[i] == 5 ? 5.0 : 4.0);
            const QVariant size =
                grants->pointConfiguration(i).value(QXYSeries::PointConfiguration::Size);
            QVERIFY(size.isValid());
            sizeOf[permits[i]] = size.toDouble();
        }
        QVERIFY2(sizeOf[1] >= 10, qPrintable(QString::number(sizeOf[1])));  // no tiny dot
        QVERIFY(sizeOf[1] < sizeOf[2] && sizeOf[2] < sizeOf[3]);
        QVERIFY(view.summaryText().contains(QStringLiteral("available 4/10")));
        QVERIFY(view.statusText().contains(QStringLiteral("attached")));

        // A change in Redis shows up live.
        // (Redisson writes both in one script; here the value goes first, so that no reading
        // lists the grant with the value from before it.)
        w.setValue(0, client);
        w.grant(QDateTime::currentMSecsSinceEpoch(), 4, client);
        QTRY_COMPARE(view.availableSeries(client)->points().last().y(), 0.0);
        // A step, not a slope: the level holds until the reading that changed it.
        const QList<QPointF> line = view.availableSeries(client)->points();
        bool stepped = false;
        for (int i = 1; i < line.size(); ++i) {
            QVERIFY2(line[i].y() == line[i - 1].y() || line[i].x() == line[i - 1].x(),
                     qPrintable(QStringLiteral("slope at %1").arg(i)));
            stepped = stepped || (line[i - 1].y() == 4.0 && line[i].y() == 0.0);
        }
        QVERIFY(stepped);
        // The new grant's mark sits where the line took it (at 0).
        QTRY_COMPARE(view.grantSeries()->count(), perClient ? 5 : 4);
        QTRY_COMPARE(view.grantSeries()->points().last().y(), 0.0);

        view.detach();
        QVERIFY(!view.attached());
        QCOMPARE(view.grantSeries()->count(), 0);
    }

    // Before data the time axis read -30…0 and the grants were pale dots: now the first half
    // minute after attaching, and marks in a colour that stands out of the background, light
    // or dark.
    void axisAndColoursBeforeData_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void axisAndColoursBeforeData() {
        QFETCH(bool, dark);
        RedissonWatchView view;
        QPalette pal = view.palette();
        if (dark) {
            pal.setColor(QPalette::Window, QColor(0x30, 0x30, 0x30));
            pal.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
            pal.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
            pal.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        } else {
            pal.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
            pal.setColor(QPalette::Base, Qt::white);
            pal.setColor(QPalette::Text, Qt::black);
            pal.setColor(QPalette::WindowText, Qt::black);
        }
        view.setPalette(pal);
        QChart* chart = view.findChild<QChartView*>()->chart();
        auto* time = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        auto* permits = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(time && permits);
        QCOMPARE(time->min(), 0.0);
        QCOMPARE(time->max(), RedissonWatchView::kWindowSeconds);
        QCOMPARE(permits->min(), 0.0);
        QVERIFY(permits->max() >= 1.0);
        const QColor mark = view.grantSeries()->color();
        QCOMPARE(mark.alpha(), 255);
        QVERIFY2(style::contrastRatio(mark, pal.color(QPalette::Base)) >= 2.0,
                 qPrintable(mark.name()));
        QCOMPARE(view.grantSeries()->borderColor(), pal.color(QPalette::Text));
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
