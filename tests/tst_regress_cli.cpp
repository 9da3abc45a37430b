// Regression checks on the command line: `ratelab run` with "expect" (the table, exit codes,
// --junit, summary.json's verdict) and `ratelab compare` of two output folders.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <functional>

#include "support/test_redis.h"

using namespace ratelab::test;

class TestRegressCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    struct Result {
        int exitCode;
        QByteArray out;
        QByteArray err;
    };

    static Result run(const QStringList& args) {
        QProcess p;
        p.start(qEnvironmentVariable("RATELAB_BIN"), args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return {-1, {}, "timed out"};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                p.readAllStandardOutput(), p.readAllStandardError()};
    }

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size()) {
            qFatal("cannot write %s", qPrintable(path));
        }
        return path;
    }

    // A fixed window of `rate` per second, 50 requests/s for 2 s from half a second before a
    // boundary (virtual clock): accepted 3 × rate, 2 × rate in the busiest second.
    QString scenario(const QString& file, const QString& limiter, int rate,
                     const QByteArray& expect = QByteArray()) {
        QByteArray json = QStringLiteral(R"({
  "name": "regress",
  "limiters": [{"type": "fixed_window", "name": "%1", "rate": %2, "interval": 1,
                "unit": "seconds", "timezone": "UTC"}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00.500Z", "speed": 0}})")
                              .arg(limiter)
                              .arg(rate)
                              .toUtf8();
        if (!expect.isEmpty()) {
            json += ",\n  \"expect\": " + expect;
        }
        return write(file, json + "\n}\n");
    }

    static QJsonObject summary(const QString& out) {
        QFile file(out + QStringLiteral("/summary.json"));
        if (!file.open(QIODevice::ReadOnly)) {
            return {};
        }
        return QJsonDocument::fromJson(file.readAll()).object();
    }

    // The summary.json of a fixed window of 10 per second, global (or per client), three
    // clients at 50 requests/s in all for 2 s on a virtual clock; `edit` changes its object.
    QString splitRun(const QString& folder, const QString& scope,
                     const std::function<void(QJsonObject&)>& edit) {
        const QString base = dir_.filePath(QStringLiteral("split-run-") + scope);
        if (!QFileInfo::exists(base + QStringLiteral("/summary.json"))) {
            const QString spec = write(QStringLiteral("split-") + scope + QStringLiteral(".json"),
                                       QStringLiteral(R"({"name": "split",
  "limiters": [{"type": "fixed_window", "name": "%1", "scope": "%2", "rate": 10, "interval": 1,
                "unit": "seconds", "timezone": "UTC"}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2, "clients": 3,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00.500Z", "speed": 0}}})")
                                           .arg(uniqueName(QStringLiteral("regress-split")), scope)
                                           .toUtf8());
            if (run({QStringLiteral("run"), spec, QStringLiteral("--out"), base}).exitCode != 0) {
                return {};
            }
        }
        QJsonObject s = summary(base);
        edit(s);
        QDir().mkpath(dir_.filePath(folder));
        write(folder + QStringLiteral("/summary.json"), QJsonDocument(s).toJson());
        return dir_.filePath(folder);
    }

    static void setClock(QJsonObject& s, const QString& clock) {
        s.insert(QStringLiteral("clock"), clock);
    }

    // Three grants moved from client c0 to c1 (the limiter's totals as they were): how a global
    // limiter's grants split among its clients on a real clock.
    static void moveAGrant(QJsonObject& s) {
        QJsonArray limiters = s.value(QStringLiteral("limiters")).toArray();
        QJsonObject limiter = limiters.at(0).toObject();
        QJsonArray clients = limiter.value(QStringLiteral("clients")).toArray();
        for (int c = 0; c < 2; ++c) {
            QJsonObject client = clients.at(c).toObject();
            const int by = c == 0 ? -3 : 3;
            client.insert(QStringLiteral("accepted"),
                          client.value(QStringLiteral("accepted")).toInt() + by);
            client.insert(QStringLiteral("rejected"),
                          client.value(QStringLiteral("rejected")).toInt() - by);
            clients.replace(c, client);
        }
        limiter.insert(QStringLiteral("clients"), clients);
        limiters.replace(0, limiter);
        s.insert(QStringLiteral("limiters"), limiters);
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void expectations_data() {
        QTest::addColumn<QByteArray>("expect");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<int>("checks");
        QTest::newRow("all held")
            << QByteArray(R"({"*": ["errors == 0", "max_accepted_in_any_1000ms == 20"],
                              "L": ["accepted == 30"]})")
            << 0 << "passed"
            << QStringList{QStringLiteral("errors == 0"),
                           QStringLiteral("max_accepted_in_any_1000ms == 20"),
                           QStringLiteral("verdict: passed (3 of 3 held)")}
            << 3;
        QTest::newRow("the 2x burst fails a check for the limit")
            << QByteArray(R"({"L": ["max_accepted_in_any_1000ms <= 10", "accepted_ratio > 0.2"]})")
            << 1 << "failed"
            << QStringList{QStringLiteral("max_accepted_in_any_1000ms <= 10        20  FAILED"),
                           QStringLiteral("accepted_ratio > 0.2                   0.3  held"),
                           QStringLiteral("verdict: failed (1 of 2 held)")}
            << 2;
        QTest::newRow("no expectations") << QByteArray() << 0 << "none" << QStringList{} << 0;
    }
    void expectations() {
        QFETCH(QByteArray, expect);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        QFETCH(QStringList, lines);
        QFETCH(int, checks);
        const QString name = uniqueName(QStringLiteral("regress"));
        expect.replace("\"L\"", "\"" + name.toUtf8() + "\"");
        const QString file = scenario(QStringLiteral("expect.json"), name, 10, expect);
        const QString out = dir_.filePath(QStringLiteral("expect-out"));
        const QString junit = dir_.filePath(QStringLiteral("junit.xml"));
        QFile::remove(junit);
        const Result r = run({QStringLiteral("run"), file, QStringLiteral("--out"), out,
                              QStringLiteral("--junit"), junit});
        QVERIFY2(r.exitCode == exitCode, r.out + r.err);
        for (const QString& line : lines) {
            QVERIFY2(r.out.contains(line.toUtf8()), r.out);
        }
        QVERIFY2(lines.isEmpty() == !r.out.contains("expectations:"), r.out);
        const QJsonObject s = summary(out);
        QCOMPARE(s.value(QStringLiteral("verdict")).toString(), verdict);
        QCOMPARE(s.value(QStringLiteral("clock")).toString(), QStringLiteral("virtual"));
        QCOMPARE(s.value(QStringLiteral("expectations")).toArray().size(), checks);
        QVERIFY(QFile::exists(junit));
    }

    // --junit: one testcase per expectation, the failed one with its measured value.
    void junitFile() {
        const QString name = uniqueName(QStringLiteral("regress"));
        const QString file = scenario(
            QStringLiteral("junit.json"), name, 10,
            QStringLiteral(R"({"%1": ["accepted <= 25", "rejected > 0"]})").arg(name).toUtf8());
        const QString junit = dir_.filePath(QStringLiteral("report.xml"));
        const Result r =
            run({QStringLiteral("run"), file, QStringLiteral("--out"),
                 dir_.filePath(QStringLiteral("junit-out")), QStringLiteral("--junit"), junit});
        QCOMPARE(r.exitCode, 1);
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        QXmlStreamReader reader(&xml);
        QStringList cases;
        QStringList failures;
        while (!reader.atEnd()) {
            if (reader.readNext() != QXmlStreamReader::StartElement) {
                continue;
            }
            if (reader.name() == QLatin1String("testsuite")) {
                QCOMPARE(reader.attributes().value(QLatin1String("name")).toString(),
                         QStringLiteral("regress"));
            } else if (reader.name() == QLatin1String("testcase")) {
                cases << reader.attributes().value(QLatin1String("name")).toString();
            } else if (reader.name() == QLatin1String("failure")) {
                failures << reader.attributes().value(QLatin1String("message")).toString();
            }
        }
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QCOMPARE(cases, (QStringList{name + QStringLiteral(": accepted <= 25"),
                                     name + QStringLiteral(": rejected > 0")}));
        QCOMPARE(failures, QStringList{QStringLiteral("measured 30 > 25")});
    }

    void badExpect_data() {
        QTest::addColumn<QByteArray>("expect");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown metric") << QByteArray(R"({"*": ["p99_ms < 5", "p98_ms < 5"]})")
                                        << R"($.expect["*"][1]: unknown metric "p98_ms")";
        QTest::newRow("unknown limiter") << QByteArray(R"({"nope": ["p99_ms < 5"]})")
                                         << R"($.expect.nope: no limiter is named "nope")";
    }
    void badExpect() {
        QFETCH(QByteArray, expect);
        QFETCH(QString, message);
        const QString file = scenario(QStringLiteral("bad.json"), QStringLiteral("x"), 10, expect);
        const Result r = run({QStringLiteral("run"), file, QStringLiteral("--out"),
                              dir_.filePath(QStringLiteral("bad-out"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err);
        QVERIFY2(r.err.contains("bad.json"), r.err);
    }

    // Two identical virtual runs compare equal; a changed limit differs, naming the metrics.
    void compareRuns() {
        const QString name = uniqueName(QStringLiteral("regress"));
        const QString base = dir_.filePath(QStringLiteral("base"));
        const QString same = dir_.filePath(QStringLiteral("same"));
        const QString changed = dir_.filePath(QStringLiteral("changed"));
        const QString ten = scenario(QStringLiteral("ten.json"), name, 10);
        const QString eleven = scenario(QStringLiteral("eleven.json"), name, 11);
        QCOMPARE(run({QStringLiteral("run"), ten, QStringLiteral("--out"), base}).exitCode, 0);
        QCOMPARE(run({QStringLiteral("run"), ten, QStringLiteral("--out"), same}).exitCode, 0);
        QCOMPARE(run({QStringLiteral("run"), eleven, QStringLiteral("--out"), changed}).exitCode,
                 0);

        const Result equal = run({QStringLiteral("compare"), base, same});
        QVERIFY2(equal.exitCode == 0, equal.out + equal.err);
        QVERIFY2(equal.out.contains("no differences"), equal.out);
        QVERIFY2(equal.out.contains("tolerance: 0 %"), equal.out);

        const Result differ = run({QStringLiteral("compare"), base, changed});
        QVERIFY2(differ.exitCode == 1, differ.out + differ.err);
        // 30 -> 33 accepted, 20 -> 22 in the busiest second.
        QVERIFY2(differ.out.contains("accepted "), differ.out);
        QVERIFY2(differ.out.contains("max_accepted_in_any_1000ms"), differ.out);
        QVERIFY2(differ.out.contains("10.00 %  OVER"), differ.out);
        QVERIFY2(differ.out.contains("verdict: different"), differ.out);

        // A 10 % change is within a 10 % tolerance.
        const Result tolerated = run({QStringLiteral("compare"), base, changed,
                                      QStringLiteral("--tolerance"), QStringLiteral("10")});
        QVERIFY2(tolerated.exitCode == 0, tolerated.out + tolerated.err);
        QVERIFY2(tolerated.out.contains("verdict: same"), tolerated.out);
    }

    // Latencies differ between two runs of one scenario on a busy machine: shown, and checked
    // only with --latency-tolerance.
    void compareLatencyOnlyWhenAsked() {
        const QString name = uniqueName(QStringLiteral("regress-lat"));
        const QString base = dir_.filePath(QStringLiteral("lat-base"));
        const QString slower = dir_.filePath(QStringLiteral("lat-slower"));
        QCOMPARE(run({QStringLiteral("run"), scenario(QStringLiteral("lat.json"), name, 10),
                      QStringLiteral("--out"), base})
                     .exitCode,
                 0);
        QVERIFY(QDir().mkpath(slower));
        QFile in(QDir(base).filePath(QStringLiteral("summary.json")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject summary = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray limiters = summary.value(QStringLiteral("limiters")).toArray();
        QJsonObject limiter = limiters.at(0).toObject();
        QJsonObject latency = limiter.value(QStringLiteral("latency")).toObject();
        latency.insert(QStringLiteral("p99_ms"),
                       latency.value(QStringLiteral("p99_ms")).toDouble() * 3 + 1);
        limiter.insert(QStringLiteral("latency"), latency);
        limiters.replace(0, limiter);
        summary.insert(QStringLiteral("limiters"), limiters);
        QFile out(QDir(slower).filePath(QStringLiteral("summary.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(summary).toJson());
        out.close();

        const Result shown = run({QStringLiteral("compare"), base, slower});
        QVERIFY2(shown.exitCode == 0, shown.out + shown.err);
        QVERIFY2(shown.out.contains("(latency, not checked)"), shown.out);
        const Result checked = run({QStringLiteral("compare"), base, slower,
                                    QStringLiteral("--latency-tolerance"), QStringLiteral("50")});
        QVERIFY2(checked.exitCode == 1, checked.out + checked.err);
        QVERIFY2(checked.out.contains("p99_ms"), checked.out);
        QVERIFY2(checked.out.contains("OVER"), checked.out);

        // Timed on round trips of each limiter's own: said, and refused when latencies count.
        summary.insert(QStringLiteral("round_trips"), QStringLiteral("per_limiter"));
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(QJsonDocument(summary).toJson());
        out.close();
        const Result said = run({QStringLiteral("compare"), base, slower});
        QVERIFY2(said.out.contains("latencies: base timed shared round trips, new per_limiter "
                                   "ones"),
                 said.out);
        const Result refused = run({QStringLiteral("compare"), base, slower,
                                    QStringLiteral("--latency-tolerance"), QStringLiteral("50")});
        QVERIFY2(refused.exitCode == 2, refused.out + refused.err);
        QVERIFY2(refused.err.contains("$.round_trips: shared in base, per_limiter in new"),
                 refused.err);
    }

    // Which client a global limiter's grants go to depends on timing on a real clock: two
    // real-clock runs are not failed on it (shown, said why); two virtual runs are, and so are a
    // per-client limiter's clients, whose grants are their own.
    void compareClientSplits_data() {
        QTest::addColumn<QString>("clock");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("real clock, global") << "real"
                                            << "global" << 0;
        QTest::newRow("virtual clock, global") << "virtual"
                                               << "global" << 1;
        QTest::newRow("real clock, per client") << "real"
                                                << "per_client" << 1;
    }
    void compareClientSplits() {
        QFETCH(QString, clock);
        QFETCH(QString, scope);
        QFETCH(int, exitCode);
        const QString tag = QStringLiteral("split-%1-%2-").arg(clock, scope);
        const QString base = splitRun(tag + QStringLiteral("base"), scope,
                                      [&](QJsonObject& s) { setClock(s, clock); });
        const QString now = splitRun(tag + QStringLiteral("new"), scope, [&](QJsonObject& s) {
            setClock(s, clock);
            moveAGrant(s);
        });
        QVERIFY(!base.isEmpty() && !now.isEmpty());
        const Result r = run({QStringLiteral("compare"), base, now});
        QVERIFY2(r.exitCode == exitCode, r.out + r.err);
        QVERIFY2(r.out.contains(" c0 "), r.out);  // the difference is shown either way
        const bool unchecked = exitCode == 0;
        QVERIFY2(
            r.out.contains("(a global limiter's client, not checked on a real clock)") == unchecked,
            r.out);
        QVERIFY2(r.out.contains("clients of global limiters: shown, not checked") == unchecked,
                 r.out);
    }

    // A real-clock run against a virtual-clock one: said, and latencies are not compared even
    // when asked (a virtual clock's measure as fast as Redis answers).
    void compareRealWithVirtual() {
        const QString base =
            splitRun(QStringLiteral("mixed-base"), QStringLiteral("global"), [](QJsonObject&) {});
        const QString now =
            splitRun(QStringLiteral("mixed-new"), QStringLiteral("global"), [](QJsonObject& s) {
                setClock(s, QStringLiteral("real"));
                QJsonArray limiters = s.value(QStringLiteral("limiters")).toArray();
                QJsonObject limiter = limiters.at(0).toObject();
                QJsonObject latency = limiter.value(QStringLiteral("latency")).toObject();
                latency.insert(QStringLiteral("p99_ms"),
                               latency.value(QStringLiteral("p99_ms")).toDouble() * 3 + 1);
                limiter.insert(QStringLiteral("latency"), latency);
                limiters.replace(0, limiter);
                s.insert(QStringLiteral("limiters"), limiters);
            });
        const Result r = run({QStringLiteral("compare"), base, now,
                              QStringLiteral("--latency-tolerance"), QStringLiteral("0")});
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QVERIFY2(r.out.contains("clocks: base virtual, new real"), r.out);
        QVERIFY2(r.out.contains("latencies: not compared"), r.out);
        QVERIFY2(r.out.contains("(latency, not checked)"), r.out);
    }

    // A limiter in only one of the runs is reported and fails the comparison.
    void compareLimiterOnOneSide() {
        const QString a = uniqueName(QStringLiteral("regress-a"));
        const QString b = uniqueName(QStringLiteral("regress-b"));
        const QString outA = dir_.filePath(QStringLiteral("side-a"));
        const QString outB = dir_.filePath(QStringLiteral("side-b"));
        QCOMPARE(run({QStringLiteral("run"), scenario(QStringLiteral("a.json"), a, 10),
                      QStringLiteral("--out"), outA})
                     .exitCode,
                 0);
        QCOMPARE(run({QStringLiteral("run"), scenario(QStringLiteral("b.json"), b, 10),
                      QStringLiteral("--out"), outB})
                     .exitCode,
                 0);
        const Result r = run({QStringLiteral("compare"), outA, outB});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("limiter \"%1\" only in base").arg(a).toUtf8()),
                 r.out);
        QVERIFY2(r.out.contains(QStringLiteral("limiter \"%1\" only in new").arg(b).toUtf8()),
                 r.out);
    }

    // Runs unfit to compare are refused (exit 2) unless --force: one that did not finish, runs
    // of different scenarios, a limiter name twice. A summary.json over the size compare reads
    // is refused even with --force.
    void compareRefusesUnfitRuns_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("forced");  // the exit code with --force
        QTest::newRow("unfinished") << "unfinished"
                                    << "$.finished: false: the run did not finish" << 0;
        QTest::newRow("other scenario")
            << "scenario"
            << "different scenarios: \"regress\" in base, \"other\" in new" << 0;
        QTest::newRow("limiter twice") << "twice"
                                       << "appears twice" << 0;
        QTest::newRow("too large") << "large"
                                   << "more than compare reads (64 MiB)" << 2;
    }
    void compareRefusesUnfitRuns() {
        QFETCH(QString, edit);
        QFETCH(QString, message);
        QFETCH(int, forced);
        const QString base = dir_.filePath(QStringLiteral("unfit-base"));
        if (!QFileInfo::exists(base + QStringLiteral("/summary.json"))) {
            const QString spec = scenario(QStringLiteral("unfit.json"),
                                          uniqueName(QStringLiteral("regress-unfit")), 10);
            QCOMPARE(run({QStringLiteral("run"), spec, QStringLiteral("--out"), base}).exitCode, 0);
        }
        QJsonObject s = summary(base);
        QVERIFY(s.value(QStringLiteral("finished")).toBool());
        if (edit == QLatin1String("unfinished")) {
            s.insert(QStringLiteral("finished"), false);
        } else if (edit == QLatin1String("scenario")) {
            s.insert(QStringLiteral("scenario"), QStringLiteral("other"));
        } else if (edit == QLatin1String("twice")) {
            QJsonArray limiters = s.value(QStringLiteral("limiters")).toArray();
            limiters.append(limiters.at(0));
            s.insert(QStringLiteral("limiters"), limiters);
        }
        const QString folder = QStringLiteral("unfit-") + edit;
        QVERIFY(QDir().mkpath(dir_.filePath(folder)));
        const QString file =
            write(folder + QStringLiteral("/summary.json"), QJsonDocument(s).toJson());
        if (edit == QLatin1String("large")) {
            QFile grown(file);
            QVERIFY(grown.resize(65LL * 1024 * 1024));  // sparse: no disk written
        }
        const QString now = dir_.filePath(folder);
        const Result refused = run({QStringLiteral("compare"), base, now});
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.out, QByteArray());
        QVERIFY2(refused.err.contains(message.toUtf8()), refused.err);
        const Result r = run({QStringLiteral("compare"), base, now, QStringLiteral("--force")});
        QVERIFY2(r.exitCode == forced, r.out + r.err);
        if (forced == 0) {
            QVERIFY2(r.out.contains("verdict: same"), r.out);
            QVERIFY2(r.err.contains(message.toUtf8()), r.err);  // still said, as a note
        }
    }

    void compareBadInput_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QByteArray>("summary");  // empty: no summary.json
        QTest::addColumn<QString>("message");
        QTest::newRow("missing folder") << "nowhere" << QByteArray() << "no such output folder";
        QTest::newRow("no summary.json") << "empty" << QByteArray() << "summary.json: missing";
        QTest::newRow("not JSON") << "broken" << QByteArray("{\"limiters\": [")
                                  << "summary.json: line 1";
        QTest::newRow("no limiters")
            << "nolimiters" << QByteArray("{}") << "summary.json: $.limiters: missing";
        QTest::newRow("bad tolerance")
            << "tolerance" << QByteArray("{\"limiters\": []}") << "--tolerance: must be a number";
    }
    void compareBadInput() {
        QFETCH(QString, folder);
        QFETCH(QByteArray, summary);
        QFETCH(QString, message);
        const QString path = dir_.filePath(folder);
        if (folder != QLatin1String("nowhere")) {
            QVERIFY(QDir().mkpath(path));
        }
        if (!summary.isEmpty()) {
            write(folder + QStringLiteral("/summary.json"), summary);
        }
        QStringList args{QStringLiteral("compare"), path, path};
        if (folder == QLatin1String("tolerance")) {
            args << QStringLiteral("--tolerance") << QStringLiteral("-1");
        }
        const Result r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err);
        if (folder != QLatin1String("tolerance")) {
            QVERIFY2(r.err.contains(folder.toUtf8()), r.err);
        }
    }
};

QTEST_GUILESS_MAIN(TestRegressCli)
#include "tst_regress_cli.moc"
