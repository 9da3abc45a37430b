// Every command follows one rule when stdout cannot be written (a full disk: /dev/full; a reader
// that went away: `| head -1`): stderr says why and the exit code is 4 where it would have been
// 0, and no command dies by SIGPIPE. Before, explain, keys, bench, watch, sweep, compare and
// trace import exited 0 on /dev/full, and `trace import | head -1` died by SIGPIPE (141).
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/redisson_writer.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestCliStdout : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<RedissonWriter> redisson_;
    QString limiter_;  // the token bucket of the scenarios and specs below

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        writeTestFile(path, content);
        return path;
    }

    // A virtual-clock scenario of the token bucket, 100 requests; with `sweep`, its rate varied.
    QString scenario(const QString& name, bool sweep) {
        return write(name,
                     QStringLiteral(R"({"name": "stdout",
  "limiters": [{"type": "token_bucket", "name": "%1", "rate": 10, "interval_ms": 1000}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}%2})")
                         .arg(limiter_, sweep ? QStringLiteral(R"(, "sweep": {"vary": {"%1.rate":
                                        [5, 10]}, "maximize": "accepted"})")
                                                    .arg(limiter_)
                                              : QString())
                         .toUtf8());
    }

    // An access log of `lines` requests.
    QString accessLog(const QString& name, int lines) {
        QByteArray log;
        for (int i = 0; i < lines; ++i) {
            log += QStringLiteral(
                       "10.0.0.%1 - - [10/Mar/2024:13:55:%2 +0000] \"GET / HTTP/1.1\" "
                       "200 1 \"-\" \"k6\"\n")
                       .arg(i % 200)
                       .arg(10 + i * 40 / lines, 2, 10, QLatin1Char('0'))
                       .toUtf8();
        }
        return write(name, log);
    }

    QStringList runArguments(const QString& out) {
        return {QStringLiteral("run"),     scenario(QStringLiteral("run.json"), false),
                QStringLiteral("--out"),   out,
                QStringLiteral("--redis"), fixtureUrl().toDisplayString()};
    }

    // The command's arguments, with everything it reads made here.
    QStringList arguments(const QString& command) {
        const QString redis = fixtureUrl().toDisplayString();
        if (command == QLatin1String("run")) {
            return runArguments(dir_.filePath(QStringLiteral("run-out")));
        }
        if (command == QLatin1String("explain")) {
            return {command,
                    scenario(QStringLiteral("explain.json"), false),
                    QStringLiteral("--limiter"),
                    limiter_,
                    QStringLiteral("--request"),
                    QStringLiteral("40"),
                    QStringLiteral("--redis"),
                    redis};
        }
        if (command == QLatin1String("keys")) {
            return {command, limiter_, QStringLiteral("--redis"), redis};
        }
        if (command == QLatin1String("bench")) {
            return {command,
                    QStringLiteral("--limiter"),
                    write(QStringLiteral("spec.json"),
                          QStringLiteral(R"({"type": "token_bucket", "name": "%1", "rate": 10,
                              "interval_ms": 1000})")
                              .arg(limiter_)
                              .toUtf8()),
                    QStringLiteral("--requests"),
                    QStringLiteral("200"),
                    QStringLiteral("--redis"),
                    redis};
        }
        if (command == QLatin1String("watch")) {
            return {command,
                    QStringLiteral("--redisson"),
                    redisson_->name(),
                    QStringLiteral("--count"),
                    QStringLiteral("2"),
                    QStringLiteral("--interval-ms"),
                    QStringLiteral("10"),
                    QStringLiteral("--redis"),
                    redis};
        }
        if (command == QLatin1String("sweep")) {
            return {command,
                    scenario(QStringLiteral("sweep.json"), true),
                    QStringLiteral("--out"),
                    dir_.filePath(QStringLiteral("sweep-out")),
                    QStringLiteral("--redis"),
                    redis};
        }
        if (command == QLatin1String("compare")) {
            const QString folder = dir_.filePath(QStringLiteral("compared"));
            return {command, folder, folder};
        }
        return {QStringLiteral("trace"), QStringLiteral("import"), QStringLiteral("--format"),
                QStringLiteral("combined"), accessLog(QStringLiteral("access.log"), 30000)};
    }

    // ratelab with `args`, its stdout sent where `redirect` says (bash, "$@" the arguments);
    // stderr ends with the line "exit N" of ratelab's own exit status.
    static QByteArray runRedirected(const QStringList& args, const QString& redirect) {
        QProcess p;
        p.start(QStringLiteral("bash"),
                QStringList{QStringLiteral("-c"),
                            QStringLiteral("\"$RATELAB_BIN\" \"$@\" %1").arg(redirect),
                            QStringLiteral("bash")} +
                    args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return "timed out";
        }
        return p.readAllStandardError();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        limiter_ = uniqueName(QStringLiteral("stdout"));
        redisson_ = std::make_unique<RedissonWriter>(uniqueName(QStringLiteral("stdout-rrl")));
        redisson_->setRate(10, 1000, false);
        // An output folder for compare, written by run.
        const QByteArray err =
            runRedirected(runArguments(dir_.filePath(QStringLiteral("compared"))),
                          QStringLiteral("> /dev/null; echo \"exit $?\" >&2"));
        QVERIFY2(err.endsWith("exit 0\n"), err.constData());
    }

    void cleanupTestCase() {
        redisson_.reset();
        auto c = connectFixture();
        for (const std::string& key :
             {limiter_.toStdString(), "{" + limiter_.toStdString() + "}:value",
              "{" + limiter_.toStdString() + "}:permits"}) {
            c->command({"DEL", key});
        }
    }

    void fullDevice_data() {
        QTest::addColumn<QString>("command");
        for (const char* command :
             {"run", "explain", "keys", "bench", "watch", "sweep", "compare", "trace import"}) {
            QTest::newRow(command) << QString::fromLatin1(command);
        }
    }
    void fullDevice() {
        QFETCH(QString, command);
        if (QFileInfo(QStringLiteral("/dev/full")).isFile()) {
            QSKIP("/dev/full is a regular file here, not the full device");
        }
        const QByteArray err =
            runRedirected(arguments(command), QStringLiteral("> /dev/full; echo \"exit $?\" >&2"));
        QVERIFY2(err.endsWith("exit 4\n"), err.constData());
        QVERIFY2(err.contains("ratelab: stdout: cannot write: No space left on device"),
                 err.constData());
    }

    // A reader that goes away after the first line: the writer gets EPIPE, not SIGPIPE.
    void readerGone() {
        const QByteArray err = runRedirected(
            arguments(QStringLiteral("trace import")),
            QStringLiteral("| head -1 > /dev/null; echo \"exit ${PIPESTATUS[0]}\" >&2"));
        QVERIFY2(err.endsWith("exit 4\n"), err.constData());
        QVERIFY2(err.contains("ratelab: stdout: cannot write: Broken pipe"), err.constData());
        QVERIFY2(!err.contains("trace import: "), err.constData());  // no summary of a cut trace
    }
};

QTEST_GUILESS_MAIN(TestCliStdout)
#include "tst_cli_stdout.moc"
