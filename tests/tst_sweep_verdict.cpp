// Which combination a sweep names, on hand-made tables: when none holds every constraint, the
// one whose failing constraints miss by least (each miss counted in its bound's size, a bound
// of 0 in the largest figure of the sweep); of feasible combinations tied on the objective, the
// one with the most headroom, then the middle one; the verdict, sweep.json and the table say
// that it was a tie and over which values.
#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>
#include <cmath>
#include <limits>

#include "output/sweep_files.h"
#include "output/sweep_report.h"
#include "output/sweep_table.h"
#include "stats/expectation.h"

using namespace ratelab;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One constraint of a hand-made table: "<metric> <op> <bound>".
struct Bound {
    QString metric;
    CompareOp op;
    double threshold;
};

// One combination per row of `rows`: its values (one per key), its objective, then one figure
// per constraint (NaN: the run lacks it).
SweepTable table(const QStringList& keys, const QVector<QVector<qint64>>& axes,
                 const QVector<Bound>& bounds, const QVector<QVector<double>>& rows) {
    SweepTable t;
    t.scenario = QStringLiteral("hand");
    t.keys = keys;
    t.axisValues = axes;
    t.objective = QStringLiteral("group.attacker.accepted");
    for (const Bound& b : bounds) {
        Expectation e;
        e.metric = b.metric;
        e.op = b.op;
        e.threshold = b.threshold;
        t.constraints << e.text();
    }
    t.total = rows.size();
    for (int i = 0; i < rows.size(); ++i) {
        SweepCombination c;
        c.index = i;
        for (int k = 0; k < keys.size(); ++k) {
            c.values << qint64(rows[i][k]);
        }
        c.objective = rows[i][keys.size()];
        for (int k = 0; k < bounds.size(); ++k) {
            ExpectationResult r;
            r.limiter = QStringLiteral("login");
            r.expectation.limiter = r.limiter;
            r.expectation.metric = bounds[k].metric;
            r.expectation.op = bounds[k].op;
            r.expectation.threshold = bounds[k].threshold;
            r.measured = rows[i][keys.size() + 1 + k];
            r.held = !std::isnan(r.measured) &&
                     compareHolds(r.measured, bounds[k].op, bounds[k].threshold);
            c.checks.append({r});
        }
        SweepFigures row;
        row.limiter = QStringLiteral("login");
        row.fired = 100;
        c.rows = {row};
        t.combinations.append(c);
    }
    return t;
}

const QStringList kTwoKeys{QStringLiteral("login.rules[0].limit"),
                           QStringLiteral("login.rules[1].limit")};
const Bound kNoUserRefused{QStringLiteral("group.users.rejected_pct"), CompareOp::LessEqual, 0};

}  // namespace

class TestSweepVerdict : public QObject {
    Q_OBJECT

private slots:
    // No combination holds every constraint: the nearest is the one whose misses, each in its
    // bound's size, add up least; ties by the better objective.
    void nearestMissesLeast_data() {
        QTest::addColumn<QVector<Bound>>("bounds");
        QTest::addColumn<QVector<QVector<double>>>("rows");  // r0, r1, objective, figures
        QTest::addColumn<int>("nearest");
        // A bound of 0: misses counted in the largest refused share (62.264): (12, 80) misses
        // by 0.7, far less than (2, 20), which gives the attacker least.
        QTest::newRow("a bound of 0")
            << QVector<Bound>{kNoUserRefused}
            << QVector<QVector<double>>{{2, 20, 20, 62.264}, {5, 40, 40, 5.66}, {12, 80, 80, 0.7}}
            << 2;
        // Two constraints, each in its own bound's size: (4, 20) misses accepted >= 100 by
        // 10 % of it; (8, 20) holds it but misses p99_ms <= 10 by half of that bound. Both
        // hold one of two, where the better objective used to decide.
        QTest::newRow("each in its bound's size")
            << QVector<Bound>{{QStringLiteral("accepted"), CompareOp::GreaterEqual, 100},
                              {QStringLiteral("p99_ms"), CompareOp::LessEqual, 10}}
            << QVector<QVector<double>>{{8, 20, 10, 120, 15}, {4, 20, 30, 90, 9}} << 1;
        // Misses add up: two small ones (0.1 + 0.1) are nearer than one large one (0.5).
        QTest::newRow("misses add up")
            << QVector<Bound>{{QStringLiteral("accepted"), CompareOp::GreaterEqual, 100},
                              {QStringLiteral("p99_ms"), CompareOp::LessEqual, 10}}
            << QVector<QVector<double>>{{1, 20, 10, 100, 15}, {2, 20, 30, 90, 11}} << 1;
        // A figure the run lacks misses by more than any figure it has.
        QTest::newRow("a missing figure is furthest")
            << QVector<Bound>{kNoUserRefused}
            << QVector<QVector<double>>{{2, 20, 20, kNaN}, {5, 20, 40, 50}} << 1;
        // Equal misses: the better objective.
        QTest::newRow("equal misses, the better objective")
            << QVector<Bound>{kNoUserRefused}
            << QVector<QVector<double>>{{8, 20, 40, 3}, {2, 20, 20, 3}, {5, 20, 30, 6}} << 1;
        // A strict bound met exactly misses by 0, nearer than any miss past it.
        QTest::newRow("a strict bound met exactly")
            << QVector<Bound>{{QStringLiteral("accepted"), CompareOp::Greater, 50}}
            << QVector<QVector<double>>{{1, 20, 10, 49}, {2, 20, 30, 50}} << 1;
    }
    void nearestMissesLeast() {
        QFETCH(QVector<Bound>, bounds);
        QFETCH(QVector<QVector<double>>, rows);
        QFETCH(int, nearest);
        const SweepTable t = table(kTwoKeys, {}, bounds, rows);
        QCOMPARE(t.best(), -1);
        QCOMPARE(t.nearest(), nearest);
        const QString verdict = sweepVerdictText(t);
        QVERIFY2(verdict.contains(QStringLiteral("the nearest: ") +
                                  sweepValuesText(t, t.combinations[nearest])),
                 qPrintable(verdict));
    }

    // Feasible combinations tied on the objective: the one with the most headroom on the
    // constraints, then the middle of those, then the first; the verdict says it was a tie and
    // over which values.
    void tieBrokenByHeadroomThenMiddle_data() {
        QTest::addColumn<QVector<QVector<qint64>>>("axes");
        QTest::addColumn<QVector<QVector<double>>>("rows");
        QTest::addColumn<int>("best");
        QTest::addColumn<QString>("range");
        const Bound atMost5{QStringLiteral("group.users.rejected_pct"), CompareOp::LessEqual, 5};
        // r0 5 to 8 all give the attacker 20; at 5 users lose 4 % (room 0.2 of the bound), at
        // 6, 7, 8 none (room 1): the middle of 6..8 is 7.
        QTest::newRow("headroom, then the middle")
            << QVector<QVector<qint64>>{{4, 5, 6, 7, 8}, {20}}
            << QVector<QVector<double>>{{4, 20, 15, 8},
                                        {5, 20, 20, 4},
                                        {6, 20, 20, 0},
                                        {7, 20, 20, 0},
                                        {8, 20, 20, 0}}
            << 3 << QStringLiteral("login.rules[0].limit 5 to 8");
        // Equal headroom: the middle of 5..8 is between 6 and 7; the first of them.
        QTest::newRow("the middle, then the first")
            << QVector<QVector<qint64>>{{4, 5, 6, 7, 8}, {20}}
            << QVector<QVector<double>>{{4, 20, 15, 8},
                                        {5, 20, 20, 0},
                                        {6, 20, 20, 0},
                                        {7, 20, 20, 0},
                                        {8, 20, 20, 0}}
            << 2 << QStringLiteral("login.rules[0].limit 5 to 8");
        // Two keys: the middle in steps of each axis (r1 listed out of order).
        QTest::newRow("two keys")
            << QVector<QVector<qint64>>{{1, 2, 3}, {40, 20, 30}}
            << QVector<QVector<double>>{{1, 20, 20, 0}, {1, 30, 20, 0}, {2, 20, 20, 0},
                                        {2, 30, 20, 0}, {3, 40, 20, 0}, {2, 40, 20, 0},
                                        {1, 40, 9, 50}}
            << 3 << QStringLiteral("login.rules[0].limit 1 to 3, login.rules[1].limit 20 to 40");
    }
    void tieBrokenByHeadroomThenMiddle() {
        QFETCH(QVector<QVector<qint64>>, axes);
        QFETCH(QVector<QVector<double>>, rows);
        QFETCH(int, best);
        QFETCH(QString, range);
        const Bound atMost5{QStringLiteral("group.users.rejected_pct"), CompareOp::LessEqual, 5};
        const SweepTable t = table(kTwoKeys, axes, {atMost5}, rows);
        QCOMPARE(t.best(), best);
        QCOMPARE(t.nearest(), best);
        const QString verdict = sweepVerdictText(t);
        QVERIFY2(
            verdict.startsWith(QStringLiteral("best: ") + sweepValuesText(t, t.combinations[best])),
            qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("a tie")), qPrintable(verdict));
        QVERIFY2(verdict.contains(range), qPrintable(verdict));

        // The table marks the best and the others of the tie.
        const QString text = sweepTableText(t);
        QVERIFY2(text.contains(QStringLiteral("\n  best ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\n  tie ")), qPrintable(text));

        // sweep.json: the best, its tie's combinations and range.
        const QJsonObject json = sweepJson(t);
        const QJsonObject chosen = json.value(QStringLiteral("best")).toObject();
        QCOMPARE(chosen.value(QStringLiteral("index")).toInteger(), best);
        const QJsonObject tie = chosen.value(QStringLiteral("tie")).toObject();
        qint64 tied = 0;
        for (const SweepCombination& c : t.combinations) {
            tied += c.feasible() && c.objective == t.combinations[best].objective ? 1 : 0;
        }
        QCOMPARE(tie.value(QStringLiteral("combinations")).toArray().size(), tied);
        const QJsonObject from = tie.value(QStringLiteral("range")).toObject();
        QCOMPARE(from.keys().size(), 2);
        QCOMPARE(from.value(kTwoKeys[0]).toObject().value(QStringLiteral("from")).toInteger(),
                 std::min(rows[1][0], rows[2][0]));
    }

    // One feasible combination best on the objective: no tie said, "tie" null.
    void noTie() {
        const SweepTable t =
            table(kTwoKeys, {}, {kNoUserRefused}, {{4, 20, 15, 8}, {5, 20, 20, 0}, {6, 20, 25, 0}});
        QCOMPARE(t.best(), 1);
        QVERIFY(!sweepVerdictText(t).contains(QStringLiteral("tie")));
        QVERIFY(!sweepTableText(t).contains(QStringLiteral("tie")));
        const QJsonObject best = sweepJson(t).value(QStringLiteral("best")).toObject();
        QVERIFY(best.contains(QStringLiteral("tie")));
        QVERIFY(best.value(QStringLiteral("tie")).isNull());
    }
};

QTEST_GUILESS_MAIN(TestSweepVerdict)
#include "tst_sweep_verdict.moc"
