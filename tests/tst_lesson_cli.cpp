// `ratelab lesson check` and `ratelab lesson export` as a user runs them: exit 0 when every
// claim holds, 1 naming the lesson, "beat N", the claim and the figure measured, 2 for bad input
// with its JSON path (before Redis is touched), 3 when Redis cannot be reached, 4 when stdout
// cannot be written, 130 on SIGINT; lesson.html written into --out with the beats' words.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include "support/cli_process.h"
#include "support/lesson_documents.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// The boundary lesson of a fixed window (limiter `name`): ten of 11 pass at once, the next ten
// 200 ms later in the next window; the second beat claims `claim`.
QByteArray lessonJson(const QString& name, const QString& claim = QStringLiteral("accepted == 20"),
                      const QString& beats = QString()) {
    return boundaryLesson(QStringLiteral("Twice the limit"),
                          beats.isEmpty() ? QStringLiteral(R"([
    {"until_ms": 50, "say": "{%1.accepted} of {%1.fired} <pass> & more",
     "expect": {"%1": ["accepted == 10"]}},
    {"ask": "And the next ten?", "answer": "All of them: {%1.accepted}.", "until_ms": 250,
     "expect": {"%1": ["%2"]}}])")
                                                .arg(name, claim)
                                          : beats,
                          name);
}

}  // namespace

class TestLessonCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return writeTestFileIn(dir_.path(), name, content);
    }
    QString lesson(const QString& claim = QStringLiteral("accepted == 20"),
                   const QString& beats = QString()) {
        const QString name = uniqueName(QStringLiteral("lesson"));
        return write(name + QStringLiteral(".json"), lessonJson(name, claim, beats));
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void everyClaimHolds() {
        const QString a = lesson();
        const QString b = lesson();
        const CliResult r = runRatelab(
            {QStringLiteral("lesson"), QStringLiteral("check"), a, b, QStringLiteral("--show")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QStringLiteral("lesson %1 (\"Twice the limit\"): passed, 2 beats, "
                                             "2 claims")
                                  .arg(a)),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("lesson %1 (").arg(b)), qPrintable(out));
        // --show: the words with their figures.
        QVERIFY2(out.contains(QStringLiteral("10 of 11 <pass> & more")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("All of them: 20.")), qPrintable(out));
    }

    void aClaimFails() {
        const QString a = lesson(QStringLiteral("accepted == 19"));
        const CliResult r = runRatelab({QStringLiteral("lesson"), QStringLiteral("check"), a});
        QCOMPARE(r.exitCode, 1);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QStringLiteral("lesson %1 (\"Twice the limit\"): failed").arg(a)),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("beat 2: ")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral(": accepted == 19: measured 20")), qPrintable(out));
        QVERIFY2(r.err.contains("1 of 1 lessons failed"), r.err.constData());
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString missing = write(QStringLiteral("missing.json"),
                                      R"({"title": "t", "scenario": "nowhere.json",
                                          "beats": [{"say": "x"}]})");
        QTest::newRow("missing scenario") << QStringList{QStringLiteral("check"), missing}
                                          << QStringLiteral("%1: $.scenario: ").arg(missing);
        const QString backwards = lesson(
            {},
            QStringLiteral(R"([{"until_ms": 900, "say": "a"}, {"until_ms": 800, "say": "b"}])"));
        QTest::newRow("back in time") << QStringList{QStringLiteral("check"), backwards}
                                      << QStringLiteral("$.beats[1].until_ms: goes back in time");
        const QString afterSteps = lesson(
            {}, QStringLiteral(R"([{"steps": 25, "say": "a"}, {"until_ms": 100, "say": "b"}])"));
        QTest::newRow("back in time after steps")
            << QStringList{QStringLiteral("check"), afterSteps}
            << QStringLiteral("$.beats[1].until_ms: goes back in time: 100 ms is before 400 ms");
        const QString metric = lesson({}, QStringLiteral(R"([{"say": "{nope.accepted}"}])"));
        QTest::newRow("unknown limiter in a placeholder")
            << QStringList{QStringLiteral("check"), metric}
            << QStringLiteral("$.beats[0].say: placeholder {nope.accepted}");
        QTest::newRow("no file") << QStringList{QStringLiteral("check")}
                                 << QStringLiteral("expected 1 argument(s), got 0");
        QTest::newRow("unknown action")
            << QStringList{QStringLiteral("play")} << QStringLiteral("expected \"lesson check\"");
        QTest::newRow("export without --out")
            << QStringList{QStringLiteral("export"), metric} << QStringLiteral("--out is required");
        QTest::newRow("export to a file")
            << QStringList{QStringLiteral("export"), lesson(), QStringLiteral("--out"), missing}
            << QStringLiteral("is not a folder");
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        // Redis is never reached for bad input: an unreachable one does not change the answer.
        const CliResult r = runRatelab(
            QStringList{QStringLiteral("lesson")} + args +
            QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1")});
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void redisUnreachable() {
        const CliResult r =
            runRatelab({QStringLiteral("lesson"), QStringLiteral("check"), lesson(),
                        QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1")});
        QVERIFY2(r.exitCode == 3, r.err.constData());
        QVERIFY2(r.err.contains("redis:"), r.err.constData());
    }

    // The verdict was 0, but stdout could not be written: exit 4, said on stderr.
    void stdoutFails() {
        if (QFileInfo(QStringLiteral("/dev/full")).isFile()) {
            QSKIP("/dev/full is a regular file here, not the full device");
        }
        QProcess p;
        p.start(QStringLiteral("bash"),
                {QStringLiteral("-c"),
                 QStringLiteral("\"$RATELAB_BIN\" lesson check '%1' > /dev/full; echo \"exit $?\" "
                                ">&2")
                     .arg(lesson())});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("exit 4")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("ratelab: stdout: ")), qPrintable(err));
    }

    // SIGINT during a long lesson (an hour of traffic at 2,000 per second, minutes to decide): it
    // stops within a piece of its decisions (LessonRun::kStopChunk), long before the guard, says
    // so and exits 130; the lesson checked before it is reported.
    void interrupted() {
        const QString name = uniqueName(QStringLiteral("long"));
        const QString longLesson = write(
            name + QStringLiteral(".json"),
            QStringLiteral(R"({"title": "Long", "scenario": {"limiters": [{"type": "fixed_window",
                "name": "%1", "rate": 10, "interval": 1, "unit": "seconds", "timezone": "UTC"}],
                "traffic": {"shape": {"type": "constant", "rate": 2000}, "duration_s": 3600,
                "mode": "try", "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z",
                "speed": 0}}, "bucket_ms": 1000},
                "beats": [{"until_ms": 3600000, "say": "{%1.accepted}"}]})")
                .arg(name)
                .toUtf8());
        auto p =
            startRatelab({QStringLiteral("lesson"), QStringLiteral("check"), lesson(), longLesson});
        QByteArray out;
        for (int i = 0; i < 600 && !out.contains("passed"); ++i) {
            p->waitForReadyRead(100);
            out += p->readAllStandardOutput();
        }
        QVERIFY2(out.contains("passed"), out.constData());
        QTest::qWait(300);  // into the long one (if not, the signal stops it before it starts)
        ::kill(pid_t(p->processId()), SIGINT);
        const CliResult f = finishRatelab(*p);
        out += f.out;
        QVERIFY2(f.exitCode == 130, (out + f.err).constData());
        QVERIFY2(out.contains("interrupted by SIGINT"), out.constData());
        if (out.contains(QStringLiteral("lesson %1").arg(longLesson).toUtf8())) {
            QVERIFY2(out.contains("stopped after 0 of 1 beats"), out.constData());
        }
    }

    void exportsThePage() {
        const QString out = dir_.filePath(QStringLiteral("page/sub"));
        const QString a = lesson();
        const CliResult r = runRatelab(
            {QStringLiteral("lesson"), QStringLiteral("export"), a, QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString page = out + QStringLiteral("/lesson.html");
        QVERIFY2(r.out.contains(
                     QStringLiteral("wrote %1").arg(QFileInfo(page).absoluteFilePath()).toUtf8()),
                 r.out.constData());
        QFile file(page);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray html = file.readAll();
        // The words, escaped in the page's data and in its list for readers without scripts.
        QVERIFY(html.contains("10 of 11 \\u003cpass\\u003e \\u0026 more"));
        QVERIFY(html.contains("<p>10 of 11 &lt;pass&gt; &amp; more</p>"));
        QVERIFY(html.contains("Content-Security-Policy"));
        QVERIFY(!html.contains("http://") && !html.contains("https://"));
    }
};

QTEST_GUILESS_MAIN(TestLessonCli)
#include "tst_lesson_cli.moc"
