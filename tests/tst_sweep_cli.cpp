// `ratelab sweep` end to end: the binary against the fixture Redis. Its files, its exit codes,
// and its best combination run again by `ratelab run` giving the same figures.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_process.h"
#include "support/test_redis.h"

using namespace ratelab::test;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestSweepCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    // A calendar fixed window of `rates` per second against a constant 20/s for 2 s, both
    // parameters of the window varied, and `constraint`.
    QString scenario(const QString& file, const QString& constraint) {
        const QString path = dir_.filePath(file);
        QFile f(path);
        const QByteArray json = QStringLiteral(R"({"name": "cli sweep",
  "limiters": [{"type": "fixed_window", "name": "%1", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"}],
  "traffic": {"shape": {"type": "constant", "rate": 20}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
  "sweep": {"vary": {"%1.rate": [5, 10, 20], "%1.interval": {"from": 1, "to": 2}},
            "minimize": "accepted", "constraints": ["%2"]}})")
                                    .arg(uniqueName(QStringLiteral("sweep-cli")), constraint)
                                    .toUtf8();
        if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size()) {
            qFatal("cannot write %s", qPrintable(path));
        }
        return path;
    }

    QStringList redis() const {
        return {QStringLiteral("--redis"), qEnvironmentVariable("REDIS_URL")};
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Six combinations (the keys in sorted order: interval, then rate); at least 15 accepted
    // of 40, as few as can be: 10 per 1 s and 20 per 2 s both admit 20; the first wins.
    void writesFilesAndTheBestRunsAlike() {
        const QString out = dir_.filePath(QStringLiteral("out"));
        const QString junit = dir_.filePath(QStringLiteral("junit.xml"));
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("sweep"),
                        scenario(QStringLiteral("a.json"), QStringLiteral("accepted >= 15")),
                        QStringLiteral("--out"), out, QStringLiteral("--junit"), junit} +
            redis());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("6 of 6 combinations, minimize accepted"), r.out.constData());
        QVERIFY2(r.out.contains("best: ") && r.out.contains(".interval = 1, ") &&
                     r.out.contains(".rate = 10 (accepted 20"),
                 r.out.constData());
        QVERIFY2(r.out.contains("Pareto front"), r.out.constData());

        const QList<QByteArray> csv = readAll(out + QStringLiteral("/sweep.csv")).split('\n');
        QVERIFY2(csv[0].endsWith(",limiter,group,fired,accepted,rejected,errors,rejected_pct,"
                                 "max_accepted_in_any_1000ms,max_accepted_in_any_2000ms,"
                                 "max_accepted_in_any_10000ms,"
                                 "max_accepted_in_any_60000ms,feasible,best"),
                 csv[0].constData());
        // 5 per 1 s: 10 of 40; 10 per 1 s: 20 of 40 (best); 5 per 2 s: 5, infeasible.
        QVERIFY2(csv[1].startsWith("1,5,") && csv[1].contains(",*,40,10,30,0,75,"),
                 csv[1].constData());
        QVERIFY2(csv[2].startsWith("1,10,") && csv[2].endsWith(",1,1"), csv[2].constData());
        QVERIFY2(csv[4].startsWith("2,5,") && csv[4].endsWith(",0,0"), csv[4].constData());
        QVERIFY(QImage(out + QStringLiteral("/sweep.png")).width() > 100);
        QVERIFY(readAll(out + QStringLiteral("/sweep.html")).contains("<img"));
        QVERIFY(readAll(junit).contains("failures=\"0\""));

        // The best combination as sweep.json gives it, run alone: the same figures.
        const QJsonObject json =
            QJsonDocument::fromJson(readAll(out + QStringLiteral("/sweep.json"))).object();
        const QJsonObject best = json.value(QStringLiteral("best"))
                                     .toObject()
                                     .value(QStringLiteral("scenario"))
                                     .toObject();
        const QString bestFile = dir_.filePath(QStringLiteral("best.json"));
        QFile f(bestFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(best).toJson());
        f.close();
        const QString runOut = dir_.filePath(QStringLiteral("run"));
        const CliResult alone = runRatelab(
            QStringList{QStringLiteral("run"), bestFile, QStringLiteral("--out"), runOut} +
            redis());
        QVERIFY2(alone.exitCode == 0, alone.err.constData());
        QVERIFY2(alone.out.contains("fired 40 = accepted 20 + rejected 20 + errors 0"),
                 alone.out.constData());
    }

    void exitCodes_data() {
        QTest::addColumn<QString>("constraint");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("none feasible") << QStringLiteral("accepted >= 41") << 1
                                       << QByteArray("no combination holds every constraint");
        QTest::newRow("bad constraint")
            << QStringLiteral("speed >= 1") << 2 << QByteArray("$.sweep.constraints[0]");
    }
    void exitCodes() {
        QFETCH(QString, constraint);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, says);
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("sweep"), scenario(QStringLiteral("b.json"), constraint),
                        QStringLiteral("--out"), dir_.filePath(QStringLiteral("out-b"))} +
            redis());
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2((r.out + r.err).contains(says), (r.out + r.err).constData());
    }
};

QTEST_MAIN(TestSweepCli)
#include "tst_sweep_cli.moc"
