// The Redisson tab's grant marks sit at the level of the reading that first listed the grant.
// They sat at the level of the first reading timed at or after the grant; a reading is timed
// when its poll begins, so one timed in the grant's own millisecond that read before the grant
// was written put the mark at the level from before it (tst_redisson_watch_view failed so once
// under load: the new grant's mark stayed at 4 while the line went to 0).
#include <QtTest>

#include "window/redisson_grant_marks.h"

using namespace ratelab;

namespace {

RedissonSnapshot reading(qint64 nowMs, qint64 available, const QVector<RedissonGrant>& grants) {
    RedissonSnapshot s;
    s.nowMs = nowMs;
    RedissonScope scope;
    scope.available = available;
    scope.grants = grants;
    s.scopes << scope;
    return s;
}

RedissonGrant grant(qint64 timeMs, qint64 permits, const QString& id) {
    RedissonGrant g;
    g.timeMs = timeMs;
    g.permits = permits;
    g.idHex = id;
    return g;
}

}  // namespace

class TestRedissonGrantMarks : public QObject {
    Q_OBJECT

private slots:
    void markAtTheReadingThatListedIt_data() {
        QTest::addColumn<qint64>("staleAtMs");  // the reading that read before the grant
        QTest::newRow("timed in the grant's millisecond") << qint64(2000);
        QTest::newRow("timed after it (a slow write)") << qint64(2003);
        QTest::newRow("timed before it") << qint64(1999);
    }
    void markAtTheReadingThatListedIt() {
        QFETCH(qint64, staleAtMs);
        RedissonGrantMarks marks;
        const RedissonGrant old = grant(1500, 3, QStringLiteral("aa"));
        marks.add(reading(1600, 7, {old}), 1000, 0);
        // 4 permits taken at 2000 ms; a reading timed at staleAtMs read before they were.
        marks.add(reading(staleAtMs, 7, {old}), 1000, 0);
        const RedissonGrant taken = grant(2000, 4, QStringLiteral("bb"));
        marks.add(reading(2050, 3, {old, taken}), 1000, 0);
        marks.add(reading(2100, 3, {old, taken}), 1000, 0);
        const QList<RedissonGrantMarks::Mark> drawn = marks.marks(100);
        QCOMPARE(drawn.size(), 2);
        QCOMPARE(drawn[0].x, 0.5);
        QCOMPARE(drawn[0].y, 7.0);
        QCOMPARE(drawn[1].x, 1.0);
        QCOMPARE(drawn[1].y, 3.0);
        QCOMPARE(drawn[1].permits, qint64(4));
    }

    // Marks scroll out with the window; the newest are kept when there are too many.
    void scrollOutAndKeepTheNewest() {
        RedissonGrantMarks marks;
        marks.add(reading(3000, 5,
                          {grant(1100, 1, QStringLiteral("a")), grant(1200, 1, QStringLiteral("b")),
                           grant(1300, 1, QStringLiteral("c"))}),
                  1000, 0);
        QCOMPARE(marks.marks(2).size(), 2);
        QCOMPARE(marks.marks(2).first().x, 0.2);
        marks.add(reading(3100, 5, {}), 1000, 0.15);
        QCOMPARE(marks.marks(100).size(), 2);
        marks.clear();
        QVERIFY(marks.marks(100).isEmpty());
    }
};

QTEST_MAIN(TestRedissonGrantMarks)
#include "tst_redisson_grant_marks.moc"
