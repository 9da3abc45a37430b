// Script limiters on the command line (docs/your-limiter.md): `ratelab replay` row by row as the
// script called directly, --explain with the script's reply, real-time pacing of a script on
// Redis's clock; `run`, `sweep`, `explain` and `bench` with the shipped examples; every bad input
// exit 2 before any decision, naming the place.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include "redis/cluster_slot.h"
#include "redis/lua_script.h"
#include "redis/redis_reply.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestScriptCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return writeTestFileIn(dir_.path(), name, content);
    }

    // A spec of the shipped correct sliding log (by absolute path), named `name`, limit 3.
    QString logSpec(const QString& name) {
        return write(name + QStringLiteral(".json"),
                     QStringLiteral(R"({"type": "script", "name": "%1", "scope": "per_client",
                         "script": "%2", "keys": ["{{{name}}}:log:{client}"],
                         "args": ["{now_ms}", "{permits}", "{request_id}", "3", "1000"],
                         "reply": {"allowed": "1", "index": 0, "remaining": 1,
                                   "retry_after_ms": 2},
                         "reference": {"type": "sliding_window",
                                       "rules": [{"limit": 3, "window_ms": 1000}]}})")
                         .arg(name, exampleScriptPath(QStringLiteral("sliding_log.lua")))
                         .toUtf8());
    }

    // An example scenario copied beside a copy of the scripts (so that its relative paths
    // resolve), its limiters renamed so that no other test shares their keys.
    QString example(const QString& file, const QByteArray& extraTraffic = QByteArray()) {
        QDir().mkpath(dir_.filePath(QStringLiteral("scripts")));
        for (const QString& script : QDir(QFileInfo(exampleScriptPath(QStringLiteral("x"))).path())
                                         .entryList({QStringLiteral("*.lua")})) {
            QFile::copy(exampleScriptPath(script),
                        dir_.filePath(QStringLiteral("scripts/") + script));
        }
        QFile in(exampleScenarioPath(file));
        in.open(QIODevice::ReadOnly);
        QJsonObject scenario = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray limiters = scenario.value(QLatin1String("limiters")).toArray();
        QJsonObject expect = scenario.value(QLatin1String("expect")).toObject();
        QJsonObject renamedExpect;
        for (qsizetype i = 0; i < limiters.size(); ++i) {
            QJsonObject l = limiters[i].toObject();
            const QString old = l.value(QLatin1String("name")).toString();
            const QString renamed = uniqueName(old);
            l.insert(QStringLiteral("name"), renamed);
            limiters[i] = l;
            if (expect.contains(old)) {
                renamedExpect.insert(renamed, expect.value(old));
            }
        }
        scenario.insert(QStringLiteral("limiters"), limiters);
        if (!renamedExpect.isEmpty()) {
            scenario.insert(QStringLiteral("expect"), renamedExpect);
        }
        if (!extraTraffic.isEmpty()) {
            QJsonObject traffic = scenario.value(QLatin1String("traffic")).toObject();
            const QJsonObject extra = QJsonDocument::fromJson(extraTraffic).object();
            for (auto it = extra.begin(); it != extra.end(); ++it) {
                traffic.insert(it.key(), it.value());
            }
            scenario.insert(QStringLiteral("traffic"), traffic);
        }
        const QString path = dir_.filePath(QStringLiteral("scenarios/") + file);
        writeTestFile(path, QJsonDocument(scenario).toJson());
        return path;
    }

private slots:
    // The replay's CSV row by row against the script called directly (hiredis EVALSHA, the keys
    // and arguments written here), on a fresh log.
    void replayIsTheScriptCalledDirectly() {
        const QString name = uniqueName(QStringLiteral("clilog"));
        QByteArray trace = "t_ms,client,permits\n";
        QVector<std::pair<qint64, QString>> rows;
        for (int i = 0; i < 60; ++i) {
            const qint64 t = 1'700'000'000'000 + (i / 4) * 150 + (i % 4 == 3 ? 1 : 0);
            const QString client = i % 5 == 0 ? QStringLiteral("b") : QStringLiteral("a");
            rows.append({t, client});
            trace += QByteArray::number(t) + ',' + client.toUtf8() + ",1\n";
        }
        const CliResult r =
            runRatelab({QStringLiteral("replay"), QStringLiteral("--limiter"), logSpec(name),
                        QStringLiteral("--trace"), write(name + QStringLiteral(".csv"), trace)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("reference sliding_window: 0 of 60 decisions disagree"),
                 r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), rows.size() + 1);

        auto router = routeFixture();
        QFile lua(exampleScriptPath(QStringLiteral("sliding_log.lua")));
        QVERIFY(lua.open(QIODevice::ReadOnly));
        const LuaScript direct(lua.readAll().toStdString());
        std::vector<std::string> keys;
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const std::string key =
                "{" + name.toStdString() + "}:log:" + rows[i].second.toStdString();
            if (i == 0 || std::find(keys.begin(), keys.end(), key) == keys.end()) {
                router->command(keyHashSlot(key), {"DEL", key});  // replay left its keys
                keys.push_back(key);
            }
            const RedisReply reply = router->runScript(
                keyHashSlot(key), direct, {key},
                {std::to_string(rows[i].first), "1", std::to_string(i), "3", "1000"});
            const QList<QByteArray> f = lines[i + 1].split(',');
            const QByteArray expected =
                QByteArray::number(rows[i].first) + ',' + rows[i].second.toUtf8() + ",1," +
                QByteArray::number(reply->element[0]->integer) + ',' +
                QByteArray::number(reply->element[0]->integer == 1 ? 0
                                                                   : reply->element[2]->integer) +
                ',' + QByteArray::number(reply->element[1]->integer) + ",0";
            QCOMPARE(lines[i + 1], expected);
        }
        for (const std::string& key : keys) {
            router->command(keyHashSlot(key), {"DEL", key});
        }
        const std::string reference = "{" + name.toStdString() + ":reference}:log:a";
        QCOMPARE(router->command(keyHashSlot(reference), {"EXISTS", reference})->integer, 1);
        router->command(keyHashSlot(reference), {"DEL", reference});
        router->command(keyHashSlot(reference),
                        {"DEL", "{" + name.toStdString() + ":reference}:log:b"});
    }

    void replayExplainShowsTheScriptsReply() {
        const QString name = uniqueName(QStringLiteral("cliexplain"));
        const CliResult r = runRatelab({QStringLiteral("replay"), QStringLiteral("--limiter"),
                                        logSpec(name), QStringLiteral("--trace"),
                                        write(name + QStringLiteral(".csv"),
                                              "t_ms,client,permits\n0,a,1\n0,a,1\n0,a,1\n0,a,1\n"),
                                        QStringLiteral("--explain")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(
            r.out.contains("0,a,1,1,0,2,0,0,\"your script answered [1, 2, 0] → granted, 2 left\""),
            r.out.constData());
        QVERIFY2(r.out.contains("0,a,1,0,1000,0,0,0,\"your script answered [0, 0, 1000] → refused, "
                                "retry in 1000 ms, 0 left\""),
                 r.out.constData());
    }

    // A script on Redis's own clock: its trace paced in real time, so the window its TTL keeps
    // ends before the last row, as it would in production. Unpaced, Redis's clock would not
    // have moved and the last row would be refused.
    void redisClockReplayIsPacedInRealTime() {
        const QString name = uniqueName(QStringLiteral("incr"));
        const QString spec =
            write(name + QStringLiteral(".json"),
                  QStringLiteral(R"({"type": "script", "name": "%1", "scope": "per_client",
                "script": "%2", "keys": ["{{{name}}}:count:{client}"], "args": ["2", "1000"],
                "reply": {"allowed": "1", "index": 0, "remaining": 1, "retry_after_ms": 2},
                "clock": "redis"})")
                      .arg(name, exampleScriptPath(QStringLiteral("fixed_window_incr.lua")))
                      .toUtf8());
        const CliResult r = runRatelab(
            {QStringLiteral("replay"), QStringLiteral("--limiter"), spec, QStringLiteral("--trace"),
             write(name + QStringLiteral(".csv"),
                   "t_ms,client,permits\n0,a,1\n1,a,1\n2,a,1\n3000,a,1\n")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[3].startsWith("2,a,1,0,"));  // the third in the window: refused
        QVERIFY2(lines[4].startsWith("3000,a,1,1,0,1,"), r.out.constData());  // a new window
        QVERIFY(!r.err.contains("warning"));
        auto router = routeFixture();
        const std::string key = "{" + name.toStdString() + "}:count:a";
        router->command(keyHashSlot(key), {"DEL", key});
    }

    void badInputIsExit2BeforeAnyDecision_data() {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown placeholder")
            << QByteArray(R"({"type": "script", "name": "x", "script": {"inline": "return 1"},
                 "keys": ["{x}:{client}"], "reply": {"allowed": "1"}})")
            << "$.keys[0]: {x}:{client}: unknown placeholder {x}";
        QTest::newRow("a script that does not compile")
            << QByteArray(R"({"type": "script", "name": "x",
                 "script": {"inline": "local a = 1\nreturn +"}, "keys": ["{{x}}"],
                 "reply": {"allowed": "1"}})")
            << "user_script:2:";
        QTest::newRow("a key without a reset")
            << QByteArray(R"({"type": "script", "name": "x", "script": {"inline": "return 1"},
                 "keys": ["{{x}}:{uuid}"], "reply": {"allowed": "1"}})")
            << "$.keys[0]";
    }
    void badInputIsExit2BeforeAnyDecision() {
        QFETCH(QByteArray, spec);
        QFETCH(QString, message);
        const CliResult r =
            runRatelab({QStringLiteral("replay"), QStringLiteral("--limiter"),
                        write(QStringLiteral("bad.json"), spec), QStringLiteral("--trace"),
                        write(QStringLiteral("bad.csv"), "t_ms,client,permits\n0,a,1\n")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());  // not even the header
    }

    void virtualRunOfARedisClockScriptIsRefused() {
        const QString scenario = example(QStringLiteral("scripts-incr-window-real-clock.json"),
                                         R"({"clock": {"type": "virtual",
                                             "start": "2024-01-01T00:00:00Z", "speed": 0}})");
        const CliResult r = runRatelab({QStringLiteral("run"), scenario, QStringLiteral("--out"),
                                        dir_.filePath(QStringLiteral("refused"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("$.traffic.clock: script limiter") &&
                     r.err.contains("\"clock\": \"redis\": its decisions depend on Redis's own "
                                    "clock"),
                 r.err.constData());
    }

    // The shipped example end to end: its expectations measure the disagreements, summary.json,
    // the JUnit file and report.html carry them, and compare reads the folder back.
    void runTheShippedExample() {
        const QString scenario =
            example(QStringLiteral("scripts-sliding-logs.json"), R"({"duration_s": 5})");
        const QString out = dir_.filePath(QStringLiteral("logs-out"));
        const QString junit = dir_.filePath(QStringLiteral("logs.xml"));
        const CliResult r = runRatelab({QStringLiteral("run"), scenario, QStringLiteral("--out"),
                                        out, QStringLiteral("--junit"), junit});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("against its reference (sliding_window)"), r.out.constData());
        QVERIFY2(r.err.contains("warning: limiter '"), r.err.constData());  // PEXPIRE 1000 ms
        QFile summary(out + QStringLiteral("/summary.json"));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QJsonArray limiters = QJsonDocument::fromJson(summary.readAll())
                                        .object()
                                        .value(QLatin1String("limiters"))
                                        .toArray();
        QVERIFY(!limiters[0].toObject().contains(QLatin1String("disagreements_with_reference")));
        QVERIFY(
            limiters[1].toObject().value(QLatin1String("disagreements_with_reference")).toDouble() >
            0);
        QCOMPARE(
            limiters[2].toObject().value(QLatin1String("disagreements_with_reference")).toDouble(),
            0.0);
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        QVERIFY(xml.readAll().contains("disagreements_with_reference"));
        QFile html(out + QStringLiteral("/report.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(html.readAll().contains("disagreements_with_reference"));
        const CliResult c = runRatelab({QStringLiteral("compare"), out, out});
        QVERIFY2(c.exitCode == 0, (c.out + c.err).constData());
    }

    void sweepTheArgumentsAndTheReference() {
        const QString scenario =
            example(QStringLiteral("scripts-sliding-logs.json"), R"({"duration_s": 3})");
        QFile in(scenario);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject s = QJsonDocument::fromJson(in.readAll()).object();
        in.close();
        const QJsonArray limiters = s.value(QLatin1String("limiters")).toArray();
        const QString right = limiters[2].toObject().value(QLatin1String("name")).toString();
        s.insert(QStringLiteral("sweep"),
                 QJsonObject{{QStringLiteral("vary"),
                              QJsonObject{{right + QStringLiteral(".args[3]"), QJsonArray{5, 10}},
                                          {right + QStringLiteral(".reference.rules[0].limit"),
                                           QJsonArray{5, 10}}}},
                             {QStringLiteral("minimize"),
                              right + QStringLiteral(":disagreements_with_reference")}});
        s.remove(QStringLiteral("expect"));
        writeTestFile(dir_.filePath(QStringLiteral("scenarios/swept.json")),
                      QJsonDocument(s).toJson());
        const QString out = dir_.filePath(QStringLiteral("sweep-out"));
        const CliResult r = runRatelab({QStringLiteral("sweep"),
                                        dir_.filePath(QStringLiteral("scenarios/swept.json")),
                                        QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QFile csv(out + QStringLiteral("/sweep.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray table = csv.readAll();
        QVERIFY2(table.startsWith((right + QStringLiteral(".args[3],") + right +
                                   QStringLiteral(".reference.rules[0].limit,"))
                                      .toUtf8()),
                 table.constData());
        // The script at limit 10 against a reference of 10 agrees: the best combination.
        QVERIFY2(r.out.contains("best"), r.out.constData());
    }

    void explainTheScriptLimiter() {
        const QString scenario =
            example(QStringLiteral("scripts-sliding-logs.json"), R"({"duration_s": 3})");
        QFile in(scenario);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString flawed = QJsonDocument::fromJson(in.readAll())
                                   .object()
                                   .value(QLatin1String("limiters"))
                                   .toArray()[1]
                                   .toObject()
                                   .value(QLatin1String("name"))
                                   .toString();
        const CliResult r = runRatelab(
            {QStringLiteral("explain"), scenario, QStringLiteral("--limiter"), flawed,
             QStringLiteral("--request"), QStringLiteral("0"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject e = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(e.value(QLatin1String("script_reply")).toString(), QStringLiteral("[1, 9, 0]"));
        QCOMPARE(
            e.value(QLatin1String("reference")).toObject().value(QLatin1String("type")).toString(),
            QStringLiteral("sliding_window"));
    }

    void benchTheScriptBesideItsReference() {
        const QString name = uniqueName(QStringLiteral("bench"));
        const CliResult r =
            runRatelab({QStringLiteral("bench"), QStringLiteral("--limiter"), logSpec(name),
                        QStringLiteral("--requests"), QStringLiteral("2000"),
                        QStringLiteral("--pipeline"), QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("limiter: " + name.toUtf8() + " (script)"), r.out.constData());
        QVERIFY2(r.out.contains("redis_calls_per_decision: "), r.out.constData());
        QVERIFY2(r.out.contains("reference sliding_window: accepted "), r.out.constData());
        QVERIFY2(r.out.contains("same script with redis-benchmark: redis-benchmark"),
                 r.out.constData());
        QVERIFY(r.out.trimmed().split('\n').last().startsWith("decisions_per_s: "));
    }
};

QTEST_GUILESS_MAIN(TestScriptCli)
#include "tst_script_cli.moc"
