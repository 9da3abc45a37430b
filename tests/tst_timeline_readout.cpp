// TimelineReadout: the hover readout of a timeline as a pure function of its model and what the
// chart drew, without a chart. Each row hovers one run time over a synthetic drawing.

#include <QtTest>

#include "charts/timeline_model.h"
#include "charts/timeline_readout.h"
#include "stats/run_snapshot.h"
#include "support/scenario_documents.h"

using ratelab::LimiterSnapshot;
using ratelab::LimiterSpec;
using ratelab::LimiterType;
using ratelab::RunSnapshot;
using ratelab::TimelineDrawing;
using ratelab::TimelineModel;
using ratelab::TimelineReadout;

namespace {

constexpr qint64 kStart = 1'700'000'040'000;

// A model of a run 3 s in, with 1 s buckets: accepted 5, 6, 7, rejected 1, 2, 3; two groups.
TimelineModel model() {
    TimelineModel m;
    m.setLimiter(ratelab::test::api(), 1, 1000, kStart);
    RunSnapshot run;
    run.startEpochMs = kStart;
    run.bucketMs = 1000;
    run.elapsedUs = 3'000'000;
    run.durationUs = 6'000'000;
    LimiterSnapshot l;
    l.spec = ratelab::test::api();
    l.bucketAccepted = {5, 6, 7, 0, 0, 0};
    l.bucketRejected = {1, 2, 3, 0, 0, 0};
    l.bucketErrors = {0, 0, 0, 0, 0, 0};
    for (const auto& [name, accepted] :
         {std::pair{QStringLiteral("users"), QVector<qint64>{4, 4, 4, 0, 0, 0}},
          std::pair{QStringLiteral("a<b>"), QVector<qint64>{1, 2, 3, 0, 0, 0}}}) {
        ratelab::GroupTotals g;
        g.group = name;
        g.bucketAccepted = accepted;
        g.bucketRejected = QVector<qint64>(6, 0);
        l.groups.append(g);
    }
    run.limiters.append(l);
    m.update(run, 0, nullptr);
    m.addMarker(2.5, QStringLiteral("rate 10 → 20"));
    return m;
}

TimelineDrawing drawing(const TimelineModel& m) {
    TimelineDrawing d;
    d.counts = m.counts(0, 6, 600);
    d.limitName = QStringLiteral("limit (steady state)");
    // The permits line read at 0.5 and 1.5 s, broken until 2.5 s (decisions failed).
    d.tokenPieces = {{QPointF(0.5, 8), QPointF(1.5, 4)}, {QPointF(2.5, 9)}};
    return d;
}

}  // namespace

class TestTimelineReadout : public QObject {
    Q_OBJECT

private slots:
    void readout_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QStringList>("has");
        QTest::addColumn<QStringList>("hasNot");
        QTest::newRow("a step's counts")
            << 1.5
            << QStringList{QStringLiteral("fired 8 = accepted 6 + rejected 2 + errors 0"),
                           QStringLiteral("<b>1.00 – 2.00 s</b>"),
                           QStringLiteral("users accepted 4, a&lt;b&gt; accepted 2"),
                           QStringLiteral("limit (steady state): 10 per 1 s"),
                           QStringLiteral("permits available: 4 (read at 1.50 s)")}
            << QStringList{QStringLiteral("at 2.50 s")};
        QTest::newRow("between two pieces of the permits line")
            << 2.2
            << QStringList{QStringLiteral("permits available: unknown"),
                           QStringLiteral("fired 10 = accepted 7 + rejected 3")}
            << QStringList{QStringLiteral("read at")};
        QTest::newRow("a marker within reach")
            << 2.55
            << QStringList{QStringLiteral("at 2.50 s: rate 10 → 20"),
                           QStringLiteral("permits available: 9 (read at 2.50 s)")}
            << QStringList{};
        QTest::newRow("past the data")
            << 4.5 << QStringList{} << QStringList{QStringLiteral("fired")};
    }

    void readout() {
        QFETCH(double, seconds);
        QFETCH(QStringList, has);
        QFETCH(QStringList, hasNot);
        const TimelineModel m = model();
        const QString text = TimelineReadout::at(m, drawing(m), seconds, 0.1);
        for (const QString& part : has)
            QVERIFY2(text.contains(part), qPrintable(text + QStringLiteral(" lacks ") + part));
        for (const QString& part : hasNot)
            QVERIFY2(!text.contains(part), qPrintable(text + QStringLiteral(" has ") + part));
    }

    // A readout outside every drawn thing is empty (the chart then shows no tooltip).
    void emptyOutsideTheData() {
        const TimelineModel m = model();
        QCOMPARE(TimelineReadout::at(m, TimelineDrawing(), 1.5, 0.1), QString());
    }

    void durations_data() {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("ms") << qint64(200) << QStringLiteral("200 ms");
        QTest::newRow("s") << qint64(2000) << QStringLiteral("2 s");
        QTest::newRow("min") << qint64(300000) << QStringLiteral("5 min");
        QTest::newRow("not whole seconds") << qint64(1500) << QStringLiteral("1500 ms");
    }
    void durations() {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(TimelineReadout::durationText(ms), text);
    }
};

QTEST_MAIN(TestTimelineReadout)
#include "tst_timeline_readout.moc"
