// buckets.csv's traffic groups: a run with groups writes, per group, its accepted and rejected
// requests per bucket and limiter ("group.<name>.accepted", "group.<name>.rejected", after the
// limiter's columns) and the reader gives them back in each limiter's GroupSummary; a run
// without groups writes what it always wrote, byte for byte; a file without the columns (an
// older ratelab's) reads with no group series; bad group columns are named with their line.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "input_error.h"
#include "output/buckets_csv.h"
#include "output/output_folder.h"

using namespace ratelab;

namespace {

GroupTotals group(const QString& name, QVector<qint64> accepted, QVector<qint64> rejected) {
    GroupTotals g;
    g.group = name;
    g.clients = 1;
    for (int b = 0; b < accepted.size(); ++b) {
        g.accepted += accepted[b];
        g.rejected += rejected[b];
    }
    g.fired = g.accepted + g.rejected;
    g.bucketAccepted = std::move(accepted);
    g.bucketRejected = std::move(rejected);
    return g;
}

LimiterSnapshot limiter(const QString& name, QVector<qint64> accepted, QVector<qint64> rejected) {
    LimiterSnapshot l;
    l.spec.name = name;
    l.spec.rate = 10;
    l.spec.intervalMs = 1000;
    l.bucketAccepted = std::move(accepted);
    l.bucketRejected = std::move(rejected);
    l.bucketErrors = QVector<qint64>(l.bucketAccepted.size(), 0);
    for (int b = 0; b < l.bucketAccepted.size(); ++b) {
        l.accepted += l.bucketAccepted[b];
        l.rejected += l.bucketRejected[b];
    }
    l.fired = l.accepted + l.rejected;
    return l;
}

// Two limiters over two buckets of 100 ms; with groups: "users" and a name that needs quoting.
RunSnapshot run(bool withGroups) {
    RunSnapshot r;
    r.scenarioName = QStringLiteral("groups");
    r.bucketMs = 100;
    r.durationUs = 200000;
    r.elapsedUs = r.durationUs;
    r.finished = true;
    r.bucketTargetRate = {10, 20};
    LimiterSnapshot a = limiter(QStringLiteral("a"), {5, 2}, {3, 7});
    LimiterSnapshot b = limiter(QStringLiteral("b,c"), {6, 1}, {2, 8});
    if (withGroups) {
        const QString attacker = QStringLiteral("at\"tacker, 1");
        a.groups = {group(QStringLiteral("users"), {4, 2}, {1, 0}),
                    group(attacker, {1, 0}, {2, 7})};
        b.groups = {group(QStringLiteral("users"), {5, 1}, {0, 1}),
                    group(attacker, {1, 0}, {2, 7})};
    }
    r.limiters = {a, b};
    return r;
}

QByteArray readBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeBytes(const QString& path, const QByteArray& content) {
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly) && file.write(content) == content.size(),
             qPrintable(path));
}

const QByteArray kHeader =
    "bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,errors_closed";

}  // namespace

class TestOutputGroups : public QObject {
    Q_OBJECT

private slots:
    // The columns per group after the limiter's, names quoted as RFC 4180 wants; read back into
    // every limiter's groups. Failed before: buckets.csv had no group columns.
    void groupColumnsWrittenAndRead() {
        QTemporaryDir dir;
        writeOutputFiles(dir.path(), summaryOf(run(true)));
        QCOMPARE(readBytes(dir.filePath(QStringLiteral("buckets.csv"))),
                 kHeader +
                     ",group.users.accepted,group.users.rejected,"
                     "\"group.at\"\"tacker, 1.accepted\",\"group.at\"\"tacker, 1.rejected\"\n"
                     "0,0,a,5,3,0,10,0,0,4,1,1,2\n"
                     "0,0,\"b,c\",6,2,0,10,0,0,5,0,1,2\n"
                     "1,100,a,2,7,0,20,0,0,2,0,0,7\n"
                     "1,100,\"b,c\",1,8,0,20,0,0,1,1,0,7\n");
        const RunSummary read = readOutputFolder(dir.path());
        const RunSnapshot written = run(true);
        QCOMPARE(read.limiters.size(), 2);
        for (int l = 0; l < 2; ++l) {
            QCOMPARE(read.limiters[l].groups.size(), 2);
            for (int g = 0; g < 2; ++g) {
                const GroupSummary& group = read.limiters[l].groups[g];
                QCOMPARE(group.group, written.limiters[l].groups[g].group);
                QCOMPARE(group.bucketAccepted, written.limiters[l].groups[g].bucketAccepted);
                QCOMPARE(group.bucketRejected, written.limiters[l].groups[g].bucketRejected);
            }
        }
    }

    // Without groups: exactly the columns and rows ratelab always wrote.
    void withoutGroupsByteForByte() {
        QCOMPARE(bucketsToCsv(summaryOf(run(false))), kHeader +
                                                          "\n"
                                                          "0,0,a,5,3,0,10,0,0\n"
                                                          "0,0,\"b,c\",6,2,0,10,0,0\n"
                                                          "1,100,a,2,7,0,20,0,0\n"
                                                          "1,100,\"b,c\",1,8,0,20,0,0\n");
    }

    // An older buckets.csv (no group columns) beside a summary with groups reads: the limiters'
    // series as written, the groups without any; the summary alone gives none either.
    void olderFileWithoutGroupColumns() {
        QTemporaryDir dir;
        writeOutputFiles(dir.path(), summaryOf(run(true)));
        writeBytes(dir.filePath(QStringLiteral("buckets.csv")),
                   bucketsToCsv(summaryOf(run(false))));
        const RunSummary read = readOutputFolder(dir.path());
        QCOMPARE(read.limiters[0].buckets.accepted, (QVector<qint64>{5, 2}));
        QCOMPARE(read.limiters[0].groups.size(), 2);
        for (const LimiterSummary& l : read.limiters) {
            for (const GroupSummary& g : l.groups) {
                QVERIFY(g.bucketAccepted.isEmpty() && g.bucketRejected.isEmpty());
            }
        }
        const RunSummary summaryOnly = readOutputFolder(dir.path(), OutputParts::Summary);
        QVERIFY(summaryOnly.limiters[0].groups[0].bucketAccepted.isEmpty());
        // Written again, such a summary has no group columns: none are made up.
        QVERIFY(!bucketsToCsv(read).contains("group."));
    }

    // A group's missing column reads as 0; a bad count or a group summary.json lacks is named
    // with its line.
    void groupColumns_data() {
        QTest::addColumn<QByteArray>("buckets");
        QTest::addColumn<QString>("message");  // empty: reads
        const QByteArray row = "0,0,a,5,3,0,10,0,0";
        QTest::newRow("accepted only")
            << kHeader + ",group.users.accepted\n" + row + ",4\n" + "1,100,a,2,7,0,20,0,0,2\n"
            << QString();
        QTest::newRow("not a count")
            << kHeader + ",group.users.accepted,group.users.rejected\n" + row + ",x,1\n"
            << QStringLiteral(
                   "buckets.csv: line 2: group.users.accepted: expected a count (a "
                   "whole number from 0), got \"x\"");
        QTest::newRow("a negative count")
            << kHeader + ",group.users.accepted,group.users.rejected\n" + row + ",1,-1\n"
            << QStringLiteral("buckets.csv: line 2: group.users.rejected: expected a count");
        QTest::newRow("a group summary.json lacks")
            << kHeader + ",group.zz.accepted,group.zz.rejected\n" + row + ",1,1\n"
            << QStringLiteral(
                   "buckets.csv: line 2: group \"zz\" is not among limiter \"a\"'s "
                   "groups in summary.json");
    }
    void groupColumns() {
        QFETCH(QByteArray, buckets);
        QFETCH(QString, message);
        RunSnapshot r = run(true);
        r.limiters.removeLast();  // "a" alone
        QTemporaryDir dir;
        writeOutputFiles(dir.path(), summaryOf(r));
        writeBytes(dir.filePath(QStringLiteral("buckets.csv")), buckets);
        try {
            const RunSummary read = readOutputFolder(dir.path());
            QVERIFY2(message.isEmpty(), "no error");
            const GroupSummary& users = read.limiters[0].groups[0];
            QCOMPARE(users.bucketAccepted, (QVector<qint64>{4, 2}));
            QCOMPARE(users.bucketRejected, (QVector<qint64>{0, 0}));
            QVERIFY(read.limiters[0].groups[1].bucketAccepted.isEmpty());  // no columns
        } catch (const InputError& e) {
            QVERIFY2(!message.isEmpty() &&
                         e.message().startsWith(dir.path() + QLatin1Char('/') + message),
                     qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestOutputGroups)
#include "tst_output_groups.moc"
