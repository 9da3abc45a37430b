// The hunt's traces (no Redis): the same seed and index give the same trace; over a few hundred
// traces every corner of the limiter's parameters is reached: same-millisecond bursts, times on
// and 1 ms either side of every window's multiples, the calendar's boundaries on DST days,
// permits from 1 to the capacity + 1, idle gaps past the longest window, 1 to 3 clients.
#include <QtTest>
#include <set>

#include "hunt/hunt_corners.h"
#include "hunt/hunt_generator.h"
#include "limiters/algorithm.h"
#include "limiters/limiter_spec.h"

using namespace ratelab;

namespace {

LimiterSpec spec(const char* json) {
    return parseLimiterSpecJson(QByteArray(json));
}

QByteArray rowsOf(const Trace& trace) {
    QByteArray out;
    for (const TraceRow& row : trace) {
        out += QByteArray::number(row.tMs) + ',' + row.client.toUtf8() + ',' +
               QByteArray::number(row.permits) + '\n';
    }
    return out;
}

constexpr int kTraces = 400;

}  // namespace

class TestHuntGenerator : public QObject {
    Q_OBJECT

private slots:
    void sameSeedSameTraces() {
        const LimiterSpec s = spec(R"({"type": "gcra", "name": "g", "rate": 3, "period_ms": 1000,
                                      "burst": 2})");
        const HuntGenerator a(huntCorners(s, nullptr), 5, 12);
        const HuntGenerator b(huntCorners(s, nullptr), 5, 12);
        const HuntGenerator other(huntCorners(s, nullptr), 6, 12);
        int differ = 0;
        for (qint64 i = 0; i < 50; ++i) {
            QCOMPARE(rowsOf(a.trace(i)), rowsOf(b.trace(i)));
            differ += rowsOf(a.trace(i)) != rowsOf(other.trace(i)) ? 1 : 0;
        }
        QVERIFY(differ >= 45);
        // A trace does not depend on the ones before it: trace 30 alone is trace 30.
        QCOMPARE(rowsOf(HuntGenerator(huntCorners(s, nullptr), 5, 12).trace(30)),
                 rowsOf(a.trace(30)));
    }

    void rowsAreTraceRows() {
        const LimiterSpec s = spec(R"({"type": "sliding_window", "name": "w",
                                      "rules": [{"limit": 20000, "window_ms": 1000}]})");
        const HuntGenerator g(huntCorners(s, nullptr), 1, 7);
        for (qint64 i = 0; i < kTraces; ++i) {
            const Trace t = g.trace(i);
            QVERIFY(t.size() >= 1 && t.size() <= 7);
            for (qsizetype r = 0; r < t.size(); ++r) {
                QVERIFY(t[r].permits >= 1);
                // A log takes at most 10,000 permits a request, whatever its limit.
                QVERIFY(t[r].permits <= 10000);
                QVERIFY(r == 0 || t.tMsAt(r) >= t.tMsAt(r - 1));
            }
        }
    }

    void reachesEveryCorner_data() {
        QTest::addColumn<QByteArray>("spec");
        QTest::newRow("log of two rules") << QByteArray(R"({"type": "sliding_window", "name": "w",
            "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 60000}]})");
        QTest::newRow("gcra") << QByteArray(R"({"type": "gcra", "name": "g", "rate": 3,
            "period_ms": 1000, "burst": 4})");
        QTest::newRow("counter") << QByteArray(R"({"type": "sliding_counter", "name": "c",
            "limit": 4, "window_ms": 250})");
        QTest::newRow("fixed window in days") << QByteArray(R"({"type": "fixed_window",
            "name": "f", "rate": 3, "interval": 1, "unit": "days", "timezone": "Europe/Berlin"})");
    }

    void reachesEveryCorner() {
        QFETCH(QByteArray, spec);
        const LimiterSpec s = parseLimiterSpecJson(spec);
        const HuntCorners corners = huntCorners(s, nullptr);
        const qint64 capacity = algorithmOf(s).capacity(s);
        const HuntGenerator g(corners, 3, 12);
        std::set<qint64> permits;
        std::set<int> clientCounts;
        std::map<qint64, std::set<qint64>> edges;  // window -> offsets from its multiples seen
        bool burst = false;
        bool idle = false;
        for (qint64 i = 0; i < kTraces; ++i) {
            const Trace t = g.trace(i);
            clientCounts.insert(int(t.clients().size()));
            for (qsizetype r = 0; r < t.size(); ++r) {
                permits.insert(t.permitsAt(r));
                for (const qint64 w : corners.windowsMs) {
                    const qint64 off = t.tMsAt(r) % w;
                    if (off == 0 || off == 1 || off == w - 1) {
                        edges[w].insert(off == w - 1 ? -1 : off);
                    }
                }
                if (r > 0) {
                    burst = burst || t.tMsAt(r) == t.tMsAt(r - 1);
                    idle = idle || t.tMsAt(r) - t.tMsAt(r - 1) > corners.windowsMs.back();
                }
            }
        }
        for (qint64 p = 1; p <= capacity + 1; ++p) {
            QVERIFY2(permits.count(p) == 1, qPrintable(QStringLiteral("permits %1").arg(p)));
        }
        QCOMPARE(clientCounts, (std::set<int>{1, 2, 3}));
        QVERIFY(burst);
        QVERIFY(idle);
        for (const qint64 w : corners.windowsMs) {
            if (w % 1000 == 0 || s.type != LimiterType::FixedWindow) {
                QVERIFY2(edges[w] == (std::set<qint64>{-1, 0, 1}),
                         qPrintable(QStringLiteral("window %1 ms").arg(w)));
            }
        }
    }

    // A calendar window in a zone with DST: traces start at the windows around each of its
    // transitions near the start, and reach the boundaries of the 23- and 25-hour days.
    void calendarWindowsOnDstDays() {
        const LimiterSpec s = spec(R"({"type": "fixed_window", "name": "f", "rate": 3,
            "interval": 1, "unit": "days", "timezone": "Europe/Berlin"})");
        const HuntCorners corners = huntCorners(s, nullptr);
        QVERIFY(corners.calendar);
        // 2023-03-26 and 2023-10-29 (Berlin's transitions around the start) and 2024's.
        const CalendarWindow shortDay = corners.calendar->windowAt(1679800000000);  // 03-26
        QCOMPARE(shortDay.endMs - shortDay.startMs, qint64(23) * 3600 * 1000);
        const CalendarWindow longDay = corners.calendar->windowAt(1698570000000);  // 10-29
        QCOMPARE(longDay.endMs - longDay.startMs, qint64(25) * 3600 * 1000);
        const auto anchored = [&](qint64 ms) {
            return std::find(corners.anchorsMs.begin(), corners.anchorsMs.end(), ms) !=
                   corners.anchorsMs.end();
        };
        QVERIFY(anchored(shortDay.startMs));
        QVERIFY(anchored(longDay.startMs));
        QVERIFY(anchored(longDay.endMs - 1));

        const HuntGenerator g(corners, 1, 12);
        bool crossesShort = false;
        bool crossesLong = false;
        for (qint64 i = 0; i < kTraces; ++i) {
            const Trace t = g.trace(i);
            for (qsizetype r = 0; r < t.size(); ++r) {
                crossesShort = crossesShort || t.tMsAt(r) == shortDay.endMs ||
                               t.tMsAt(r) == shortDay.endMs - 1;
                crossesLong =
                    crossesLong || t.tMsAt(r) == longDay.endMs || t.tMsAt(r) == longDay.endMs - 1;
            }
        }
        QVERIFY(crossesShort);
        QVERIFY(crossesLong);
    }

    // The spacings come from the descriptors' parameters: GCRA's emission interval (a window
    // over the rate) and tolerance (a window times the burst over the rate).
    void spacingsOfGcra() {
        const LimiterSpec s = spec(R"({"type": "gcra", "name": "g", "rate": 4, "period_ms": 1000,
                                      "burst": 3})");
        const HuntCorners corners = huntCorners(s, nullptr);
        const auto has = [&](qint64 ms) {
            return std::find(corners.spacingsMs.begin(), corners.spacingsMs.end(), ms) !=
                   corners.spacingsMs.end();
        };
        QVERIFY(has(250));  // T = 1000 / 4
        QVERIFY(has(750));  // tolerance = 3 x 1000 / 4
        QCOMPARE(corners.capacities, (std::vector<qint64>{3}));
        QCOMPARE(corners.maxPermits, qint64(4));
        QVERIFY(corners.idleGapMs > 1000);
    }
};

QTEST_GUILESS_MAIN(TestHuntGenerator)
#include "tst_hunt_generator.moc"
