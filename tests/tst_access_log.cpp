// Real traffic: web server access logs (nginx and Apache combined and common, JSON lines)
// turned into traces by `ratelab trace import`: each line's time and client, the client
// chosen by field or header, malformed lines named by file and line, the summary of what the
// trace holds.
#include <QBuffer>
#include <QTemporaryDir>
#include <QtTest>

#include "input_error.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "traffic/access_log.h"
#include "traffic/trace.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

constexpr qint64 k1355_36 = 1710078936000;  // 10/Mar/2024:13:55:36 +0000

// nginx's default "combined", Apache's combined with ident and user, an IPv6 client, a quote
// escaped in the agent, nginx's "main" format with X-Forwarded-For after the agent.
const QByteArray kNginx =
    "203.0.113.7 - - [10/Mar/2024:13:55:36 +0000] \"GET /login HTTP/1.1\" 200 612 \"-\" "
    "\"Mozilla/5.0 (X11; Linux x86_64)\"\n"
    "198.51.100.2 - alice [10/Mar/2024:13:55:36 +0000] \"POST /login HTTP/2.0\" 401 0 "
    "\"https://example.com/\" \"curl/8.5.0\"\n"
    "2001:db8::1 - - [10/Mar/2024:19:25:38 +0530] \"GET / HTTP/1.1\" 304 - \"-\" "
    "\"say \\\"hi\\\", bot\"\n"
    "10.0.0.9 - - [10/Mar/2024:13:55:37 +0000] \"GET /api HTTP/1.1\" 200 15 \"-\" \"k6/0.49\" "
    "\"192.0.2.44, 10.0.0.1\"\n"
    "\n"
    "203.0.113.7 - - [10/Mar/2024:13:55:36 +0000] \"GET /favicon.ico HTTP/1.1\" 404 153 \"-\" "
    "\"Mozilla/5.0 (X11; Linux x86_64)\"\n";

// Apache's common log format.
const QByteArray kApacheCommon =
    "127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326\n"
    "127.0.0.2 - - [10/Oct/2000:13:55:37 -0700] \"GET /index.html HTTP/1.0\" 200 -\n";

AccessLogImport import(const QByteArray& text, AccessLogFormat format,
                       const QString& client = QString(), const QString& time = QString(),
                       bool skipBad = false) {
    QBuffer buffer;
    buffer.setData(text);
    buffer.open(QIODevice::ReadOnly);
    AccessLogOptions options;
    options.format = format;
    options.clientField = client;
    options.timeField = time;
    options.skipBad = skipBad;
    return importAccessLog(buffer, QStringLiteral("access.log"), options);
}

QStringList described(const AccessLogRows& rows) {
    QStringList out;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const TraceRow row = rows[i];
        out << QStringLiteral("%1|%2|%3").arg(row.tMs).arg(row.client).arg(row.line);
    }
    return out;
}

QStringList list(std::initializer_list<const char*> texts) {
    QStringList out;
    for (const char* text : texts) {
        out << QString::fromUtf8(text);
    }
    return out;
}

}  // namespace

class TestAccessLog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Every line's time (its offset applied) and remote address, in time order: the line
    // written after a later one moves up; lines at one time keep the log's order.
    void nginxCombined() {
        const AccessLogImport log = import(kNginx, AccessLogFormat::Combined);
        QCOMPARE(described(log.rows),
                 (QStringList{QStringLiteral("%1|203.0.113.7|1").arg(k1355_36),
                              QStringLiteral("%1|198.51.100.2|2").arg(k1355_36),
                              QStringLiteral("%1|203.0.113.7|6").arg(k1355_36),
                              QStringLiteral("%1|10.0.0.9|4").arg(k1355_36 + 1000),
                              QStringLiteral("%1|2001:db8::1|3").arg(k1355_36 + 2000)}));
        QCOMPARE(log.lines, 6);
        QCOMPARE(log.reordered, 2);  // the lines of 13:55:37 and the last 13:55:36
        QCOMPARE(log.rows.clients(), 4);
        QCOMPARE(log.clientField, QStringLiteral("remote_addr"));
        for (qsizetype i = 0; i < log.rows.size(); ++i) {
            QCOMPARE(log.rows[i].permits, 1);
        }
    }

    void clientFields_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QStringList>("clients");  // in the log's line order 1, 2, 3, 4
        QTest::newRow("remote_user") << "remote_user" << list({"-", "alice", "-", "-"});
        QTest::newRow("referer") << "referer" << list({"-", "https://example.com/", "-", "-"});
        // A trace's client holds no comma: it becomes ';'.
        QTest::newRow("user_agent") << "user_agent"
                                    << list({"Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0",
                                             "say \\\"hi\\\"; bot", "k6/0.49"});
        // The first address of X-Forwarded-For; the remote address where the log has none.
        QTest::newRow("forwarded_for")
            << "forwarded_for"
            << list({"203.0.113.7", "198.51.100.2", "2001:db8::1", "192.0.2.44"});
    }
    void clientFields() {
        QFETCH(QString, field);
        QFETCH(QStringList, clients);
        const AccessLogImport log = import(kNginx, AccessLogFormat::Combined, field);
        QStringList byLine(4);
        for (qsizetype i = 0; i < log.rows.size(); ++i) {
            const TraceRow row = log.rows[i];
            if (row.line <= 4) {
                byLine[row.line - 1] = row.client;
            }
        }
        QCOMPARE(byLine, clients);
    }

    void apacheCommon() {
        const AccessLogImport log = import(kApacheCommon, AccessLogFormat::Common);
        QCOMPARE(described(log.rows),
                 (list({"971211336000|127.0.0.1|1", "971211337000|127.0.0.2|2"})));
        QCOMPARE(import(kApacheCommon, AccessLogFormat::Common, QStringLiteral("remote_user"))
                     .rows.first()
                     .client,
                 QStringLiteral("frank"));
    }

    // JSON lines: nginx's escape=json format, Caddy's (seconds with a fraction, the client
    // inside "request", a header by its name in any case), epoch ms and $msec as a string.
    void jsonLines_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("client");  // --client, empty: the default
        QTest::addColumn<QString>("time");    // --time-field, empty: the default
        QTest::addColumn<qint64>("tMs");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nginx escape=json")
            << QByteArray(R"({"time_iso8601": "2024-03-10T14:55:36+01:00", "remote_addr":
                "203.0.113.7", "status": "200", "request_uri": "/login"})")
            << QString() << QString() << k1355_36 << "203.0.113.7";
        QTest::newRow("caddy")
            << QByteArray(R"({"level": "info", "ts": 1710078936.123, "logger": "http.log",
                "request": {"remote_ip": "198.51.100.2", "headers": {"X-Api-Key": ["k-42"]}}})")
            << QString() << QString() << k1355_36 + 123 << "198.51.100.2";
        QTest::newRow("a header, any case")
            << QByteArray(R"({"ts": 1710078936.5, "request": {"remote_ip": "198.51.100.2",
                "headers": {"X-Api-Key": ["k-42"]}}})")
            << "request.headers.x-api-key" << QString() << k1355_36 + 500 << "k-42";
        QTest::newRow("epoch ms, named fields")
            << QByteArray(R"({"at": 1710078936250, "user": {"id": 17}})") << "user.id"
            << "at" << k1355_36 + 250 << "17";
        QTest::newRow("msec as a string")
            << QByteArray(R"({"msec": "1710078936.004", "client_ip": "10.1.2.3"})") << QString()
            << QString() << k1355_36 + 4 << "10.1.2.3";
        QTest::newRow("the combined format's time")
            << QByteArray(R"({"time_local": "10/Mar/2024:13:55:36 +0000", "ip": "10.1.2.3"})")
            << QString() << QString() << k1355_36 << "10.1.2.3";
    }
    void jsonLines() {
        QFETCH(QByteArray, line);
        QFETCH(QString, client);
        QFETCH(QString, time);
        QFETCH(qint64, tMs);
        QFETCH(QString, expected);
        const AccessLogImport log =
            import(line.simplified() + "\n", AccessLogFormat::JsonLines, client, time);
        QCOMPARE(log.rows.size(), 1);
        QCOMPARE(log.rows[0].tMs, tMs);
        QCOMPARE(log.rows[0].client, expected);
    }

    // A malformed line stops the import, named by file and line, saying what was expected.
    void badLines_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        const QByteArray good = kApacheCommon.left(kApacheCommon.indexOf('\n') + 1);
        const int combined = int(AccessLogFormat::Combined), common = int(AccessLogFormat::Common),
                  json = int(AccessLogFormat::JsonLines);
        QTest::newRow("a common line read as combined")
            << combined << good << "access.log:1"
            << "expected \"REFERER\" \"USER-AGENT\" after the size, got the end of the line (a "
               "common log? --format common)";
        QTest::newRow("a combined line read as common")
            << common << kNginx << "access.log:1"
            << "expected the end of the line after the size (a combined log? --format "
               "combined), got \"\\\"-\\\" \\\"Mozilla/5.0 (X11; Linux x86_64)\\\"\"";
        QTest::newRow("no time") << common << good + "127.0.0.1 - - \"GET / HTTP/1.0\" 200 1\n"
                                 << "access.log:2"
                                 << "expected [TIME] such as [10/Oct/2000:13:55:36 -0700], got "
                                    "\"\\\"GET / HTTP/1.0\\\"";
        QTest::newRow("an unknown month")
            << common
            << good + good + "127.0.0.1 - - [10/Okt/2000:13:55:36 -0700] \"GET /\" 200 1\n"
            << "access.log:3"
            << "expected a time such as 10/Oct/2000:13:55:36 -0700 between [ and ], got "
               "\"10/Okt/2000:13:55:36 -0700\"";
        QTest::newRow("an unclosed request")
            << common << QByteArray("127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET / 200 1\n")
            << "access.log:1"
            << "expected \"REQUEST\" such as \"GET / HTTP/1.1\" closed by \"";
        QTest::newRow("a status that is not one")
            << common << QByteArray("127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /\" OK 1\n")
            << "access.log:1"
            << "expected a status of three digits, got \"OK\"";
        QTest::newRow("a cut line")
            << combined << QByteArray("127.0.0.1 - -\n") << "access.log:1"
            << "expected [TIME] such as [10/Oct/2000:13:55:36 -0700], got the end of the line";
        QTest::newRow("not a log line")
            << combined << QByteArray("garbage\n") << "access.log:1"
            << "expected [TIME] such as [10/Oct/2000:13:55:36 -0700] after the remote address, "
               "ident and user, got the end of the line";
        QTest::newRow("not JSON") << json << QByteArray("{\"ts\": 1\n") << "access.log:1"
                                  << "not JSON:";
        QTest::newRow("a JSON array") << json << QByteArray("[1, 2]\n") << "access.log:1"
                                      << "expected a JSON object, got an array";
        QTest::newRow("no time field")
            << json << QByteArray("{\"remote_addr\": \"a\"}\n") << "access.log:1"
            << "no time field: none of time, timestamp, ts, @timestamp, time_iso8601, "
               "time_local, msec; name it with --time-field";
        QTest::newRow("no client field on a later line")
            << json << QByteArray("{\"ts\": 1710078936, \"ip\": \"a\"}\n{\"ts\": 1710078937}\n")
            << "access.log:2"
            << "expected the client field ip to be a string or a number, got "
               "no such field";
        QTest::newRow("a time without an offset")
            << json << QByteArray("{\"time\": \"2024-03-10T13:55:36\", \"ip\": \"a\"}\n")
            << "access.log:1"
            << "expected time to be seconds since the epoch (or ms, µs, ns), an ISO 8601 time "
               "with an offset or the combined format's time, got \"2024-03-10T13:55:36\"";
        // The log's text in a message has its control characters escaped: an escape sequence
        // in a log line never reaches the terminal.
        QTest::newRow("a status with an escape sequence")
            << common
            << QByteArray("127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /\" \x1b[2J 1\n")
            << "access.log:1"
            << "expected a status of three digits, got \"\\u001b[2J\"";
        QTest::newRow("a JSON time with an escape sequence")
            << json << QByteArray("{\"time\": \"x\\u001b]0;owned\\u0007\", \"ip\": \"a\"}\n")
            << "access.log:1"
            << "expected time to be seconds since the epoch (or ms, µs, ns), an ISO 8601 time "
               "with an offset or the combined format's time, got \"x\\u001b]0;owned\\u0007\"";
        QTest::newRow("an empty log") << combined << QByteArray("\n\n") << "access.log"
                                      << "no request in 2 lines of a combined log";
    }
    void badLines() {
        QFETCH(int, format);
        QFETCH(QByteArray, text);
        QFETCH(QString, where);
        QFETCH(QString, message);
        try {
            import(text, AccessLogFormat(format));
            QFAIL("no error");
        } catch (const InputError& error) {
            QCOMPARE(error.where(), where);
            QVERIFY2(error.problem().startsWith(message), qPrintable(error.problem()));
        }
    }

    // --skip-bad leaves malformed lines out, counts them and names the first.
    void skipBad() {
        const QByteArray text = "garbage\n" + kApacheCommon + "also garbage\n";
        const AccessLogImport log =
            import(text, AccessLogFormat::Common, QString(), QString(), true);
        QCOMPARE(log.rows.size(), 2);
        QCOMPARE(log.skipped, 2);
        QVERIFY2(log.firstSkipped.startsWith(QStringLiteral("access.log:1: expected [TIME]")),
                 qPrintable(log.firstSkipped));
    }

    // The trace reads back as it was written (ratelab's own trace reader).
    void traceReadsBack() {
        const AccessLogImport log =
            import(kNginx, AccessLogFormat::Combined, QStringLiteral("user_agent"));
        const Trace read = parseTrace(traceCsv(log.rows), QStringLiteral("t.csv"));
        QCOMPARE(read.size(), log.rows.size());
        for (int i = 0; i < read.size(); ++i) {
            QCOMPARE(read[i].tMs, log.rows[i].tMs);
            QCOMPARE(read[i].client, log.rows[i].client);
            QCOMPARE(read[i].permits, 1);
        }
    }

    // The command: the trace on stdout, what it holds on stderr; bad input exits 2 naming the
    // file and line, or the option.
    void command() {
        const QString path = dir_.filePath(QStringLiteral("access.log"));
        writeTestFile(path, kNginx);
        const CliResult ok = runRatelab(list({"trace", "import", "--format", "combined"}) << path);
        QCOMPARE(ok.exitCode, 0);
        QVERIFY(ok.out.startsWith("t_ms,client,permits\n1710078936000,203.0.113.7,1\n"));
        QCOMPARE(parseTrace(ok.out, QStringLiteral("stdout")).size(), 5);
        const QString err = QString::fromUtf8(ok.err);
        for (const QString& line :
             {QStringLiteral("  rows: 5 (of 6 lines)\n"), QStringLiteral("  clients: 4\n"),
              QStringLiteral("  span: 2.000 s, 2024-03-10T13:55:36.000Z to "
                             "2024-03-10T13:55:38.000Z\n"),
              QStringLiteral("  busiest second: 3 requests from 2024-03-10T13:55:36.000Z "
                             "(t_ms 1710078936000)\n"),
              QStringLiteral("  out of order: 2 rows earlier than a line before them")}) {
            QVERIFY2(err.contains(line), qPrintable(err));
        }
        // From stdin, by a header's field.
        const CliResult piped =
            runRatelab(list({"trace", "import", "--format", "jsonl", "--client",
                             "request.headers.x-key", "-"}),
                       QProcessEnvironment::systemEnvironment(), 120000,
                       R"({"ts": 1710078936, "request": {"headers": {"X-Key": ["k1"]}}})"
                       "\n");
        QCOMPARE(piped.exitCode, 0);
        QCOMPARE(piped.out, QByteArray("t_ms,client,permits\n1710078936000,k1,1\n"));

        writeTestFile(dir_.filePath(QStringLiteral("bad.log")), kNginx + "oops\n");
        const CliResult bad = runRatelab(list({"trace", "import", "--format", "combined"})
                                         << dir_.filePath(QStringLiteral("bad.log")));
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("bad.log:7: expected [TIME]"), bad.err.constData());
        QVERIFY(bad.out.isEmpty());
        const CliResult format =
            runRatelab(list({"trace", "import", "--format", "apache"}) << path);
        QCOMPARE(format.exitCode, 2);
        QVERIFY2(
            format.err.contains("--format: expected combined, common or jsonl, got \"apache\""),
            format.err.constData());
        const CliResult client = runRatelab(
            list({"trace", "import", "--format", "common", "--client", "referer"}) << path);
        QCOMPARE(client.exitCode, 2);
        QVERIFY2(client.err.contains("--client: a common log names its client by remote_addr or "
                                     "remote_user; got \"referer\""),
                 client.err.constData());
        QCOMPARE(runRatelab(list({"trace", "import", "--format", "combined"})).exitCode, 2);
        QCOMPARE(runRatelab(list({"trace", "export"}) << path).exitCode, 2);
        const CliResult missing = runRatelab(list({"trace", "import", "--format", "combined"})
                                             << dir_.filePath(QStringLiteral("none.log")));
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("none.log: cannot read the file"));
    }

    // From stdin the lines counted are the log's own: the end of a pipe is no line. Counted one
    // too many before ("rows: 5 (of 7 lines)").
    void linesFromStdin() {
        const CliResult piped =
            runRatelab(list({"trace", "import", "--format", "combined", "-"}),
                       QProcessEnvironment::systemEnvironment(), 120000, kNginx);
        QCOMPARE(piped.exitCode, 0);
        QVERIFY2(piped.err.contains("  rows: 5 (of 6 lines)\n"), piped.err.constData());
        const CliResult unterminated =
            runRatelab(list({"trace", "import", "--format", "combined", "-"}),
                       QProcessEnvironment::systemEnvironment(), 120000,
                       kNginx + "\n" + kNginx.left(kNginx.indexOf('\n')));
        QCOMPARE(unterminated.exitCode, 0);
        QVERIFY2(unterminated.err.contains("  rows: 6 (of 8 lines)\n"),
                 unterminated.err.constData());
    }

    // The rows are held at 16 bytes each and bounded by --max-memory (default 1 GiB): a log
    // whose rows would need more is refused at the line it got to, naming the limit and the
    // option; within it the trace is written whole. Before, the import had no bound (680 MiB
    // held for a log of 500 MiB) and no --max-memory.
    void memoryBound_data() {
        QTest::addColumn<QString>("limit");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("rows within 4 MiB") << "4MiB" << 0;
        QTest::newRow("rows past 1 MiB") << "1MiB" << 2;
    }
    void memoryBound() {
        QFETCH(QString, limit);
        QFETCH(int, exitCode);
        constexpr int kRows = 100000;  // 1.6 MB of rows; 3.2 MB while moved into order
        const QString path = dir_.filePath(QStringLiteral("large.log"));
        if (!QFileInfo::exists(path)) {
            QByteArray log;
            for (int i = 0; i < kRows; ++i) {
                // Every 1000th line a second late: rows to move into time order.
                const int second = (i / 1000) % 60 + (i % 1000 == 999 ? 1 : 0);
                log += QStringLiteral(
                           "10.0.%1.%2 - - [10/Mar/2024:13:%3:%4 +0000] \"GET / "
                           "HTTP/1.1\" 200 1 \"-\" \"k6\"\n")
                           .arg(i % 4)
                           .arg(i % 250)
                           .arg(10 + i / 60000, 2, 10, QLatin1Char('0'))
                           .arg(second % 60, 2, 10, QLatin1Char('0'))
                           .toUtf8();
            }
            writeTestFile(path, log);
        }
        const CliResult r = runRatelab(
            list({"trace", "import", "--format", "combined", "--max-memory"}) << limit << path);
        QVERIFY2(r.exitCode == exitCode, r.err.constData());
        if (exitCode == 0) {
            QCOMPARE(parseTrace(r.out, QStringLiteral("stdout")).size(), kRows);
            QVERIFY2(r.err.contains("  out of order: "), r.err.constData());
        } else {
            QVERIFY2(r.err.contains("large.log:") &&
                         r.err.contains("the trace needs more than the 1 MiB limit by this "
                                        "line") &&
                         r.err.contains("raise the limit (--max-memory)"),
                     r.err.constData());
            QVERIFY(r.out.isEmpty());
        }
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestAccessLog)
#include "tst_access_log.moc"
