// `ratelab replay`, `run`, `watch` and `bench` through TLS (rediss://) against the redis_tls
// fixture: the same decisions as over plain TCP to the same server, every certificate problem
// with its exit code and message, mutual TLS, and passwords never printed.
#include <QDateTime>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/redisson_writer.h"
#include "support/test_redis.h"

using namespace ratelab::test;

namespace {

int basePort() {
    const int port = qEnvironmentVariableIntValue("RATELAB_TLS_PORT");
    if (port == 0) {
        qFatal("RATELAB_TLS_PORT is not set: run this test through ctest (redis_tls fixture)");
    }
    return port;
}

QString cert(const QString& name) {
    return qEnvironmentVariable("RATELAB_TLS_DIR") + QLatin1Char('/') + name;
}

QString tlsUrl(int portOffset = 0) {
    return QStringLiteral("rediss://127.0.0.1:%1").arg(basePort() + portOffset);
}

// The fixture's main server also listens on plain TCP (BASE+2).
QString plainUrl() {
    return QStringLiteral("redis://127.0.0.1:%1").arg(basePort() + 2);
}

struct Result {
    int exitCode;
    QByteArray out;
    QByteArray err;
};

Result run(const QStringList& args,
           const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("RATELAB_BIN"), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QStringList withCa() {
    return {QStringLiteral("--tls-ca-cert"), cert(QStringLiteral("ca.crt"))};
}

}  // namespace

class TestTlsCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size()) {
            qFatal("cannot write %s", qPrintable(path));
        }
        return path;
    }

    QString trace() {
        return write(QStringLiteral("trace.csv"),
                     "t_ms,client,permits\n0,a,1\n0,a,1\n10,a,1\n400,b,1\n1000,a,2\n1000,a,1\n"
                     "1500,b,1\n2500,a,3\n2600,a,1\n");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // RedissonWriter and the limiters' cleanup reach the same server over plain TCP.
        qputenv("REDIS_URL", plainUrl().toLatin1());
    }

    // Every limiter decides the same over TLS as over plain TCP (replay resets its keys first).
    void replayEachLimiter_data() {
        QTest::addColumn<QString>("spec");
        QTest::newRow("token bucket") << QStringLiteral(
            R"({"type": "token_bucket", "name": "%1", "rate": 2, "interval_ms": 1000})");
        QTest::newRow("fixed window") << QStringLiteral(
            R"({"type": "fixed_window", "name": "%1", "rate": 2, "interval": 1, "unit": "seconds", "timezone": "UTC"})");
        QTest::newRow("sliding window") << QStringLiteral(
            R"({"type": "sliding_window", "name": "%1", "rules": [{"limit": 2, "window_ms": 1000}, {"limit": 4, "window_ms": 60000}]})");
        QTest::newRow("gcra") << QStringLiteral(
            R"({"type": "gcra", "name": "%1", "rate": 2, "period_ms": 1000, "burst": 1})");
        QTest::newRow("sliding counter") << QStringLiteral(
            R"({"type": "sliding_counter", "name": "%1", "limit": 2, "window_ms": 1000})");
        QTest::newRow("leaky bucket") << QStringLiteral(
            R"({"type": "leaky_bucket", "name": "%1", "rate": 2, "period_ms": 1000, "burst": 1})");
    }
    void replayEachLimiter() {
        QFETCH(QString, spec);
        const QString name = uniqueName(QStringLiteral("tls"));
        const QString specPath = write(name + QStringLiteral(".json"), spec.arg(name).toUtf8());
        const QStringList args = {QStringLiteral("replay"), QStringLiteral("--limiter"), specPath,
                                  QStringLiteral("--trace"), trace()};
        const Result overTls =
            run(args + withCa() + QStringList{QStringLiteral("--redis"), tlsUrl()});
        QCOMPARE(overTls.err, QByteArray());
        QCOMPARE(overTls.exitCode, 0);
        const Result overTcp = run(args + QStringList{QStringLiteral("--redis"), plainUrl()});
        QCOMPARE(overTcp.exitCode, 0);
        QCOMPARE(overTls.out, overTcp.out);
        QCOMPARE(overTls.out.count('\n'), 10);  // header and nine decisions
        QVERIFY(overTls.out.contains(",1,"));   // some accepted
        QVERIFY(overTls.out.contains(",0,"));   // some rejected
        ScopedLimiter cleanup(ratelab::loadLimiterSpecFile(specPath));
    }

    void runScenario() {
        const QString tb = uniqueName(QStringLiteral("tls-run"));
        const QString scenario = write(QStringLiteral("scenario.json"), QStringLiteral(R"({
  "name": "tls",
  "limiters": [{"type": "token_bucket", "name": "%1", "rate": 10, "interval_ms": 1000}],
  "traffic": {"shape": {"type": "constant", "rate": 50}, "duration_s": 2,
              "clock": {"type": "virtual", "start": "2024-01-01T00:00:00.500Z", "speed": 0}}
})")
                                                                            .arg(tb)
                                                                            .toUtf8());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REDIS_URL"), tlsUrl());
        env.insert(QStringLiteral("REDIS_TLS_CA_CERT"), cert(QStringLiteral("ca.crt")));
        const Result r = run({QStringLiteral("run"), scenario, QStringLiteral("--out"),
                              dir_.filePath(QStringLiteral("out"))},
                             env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("fired 100 = accepted 20 + rejected 80 + errors 0"), r.out);
    }

    void watchRedisson() {
        RedissonWriter w(uniqueName(QStringLiteral("tls-rr")));
        w.setRate(10, 3600000, false);
        w.grant(QDateTime::currentMSecsSinceEpoch() - 10, 3);
        w.setValue(7);
        const Result r = run(QStringList{QStringLiteral("watch"), QStringLiteral("--redis"),
                                         tlsUrl(), QStringLiteral("--redisson"), w.name(),
                                         QStringLiteral("--count"), QStringLiteral("2"),
                                         QStringLiteral("--interval-ms"), QStringLiteral("10")} +
                             withCa());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("config rate=10 interval_ms=3600000 type=OVERALL"), r.out);
        QVERIFY2(r.out.contains("available=7/10 window_grants=1 window_permits=3 value=7"), r.out);
        QVERIFY2(r.out.contains(tlsUrl().toLatin1()), r.out);
    }

    void benchOverTls() {
        const QString name = uniqueName(QStringLiteral("tls-bench"));
        const QString spec = write(name + QStringLiteral(".json"),
                                   QStringLiteral(R"({"type": "gcra", "name": "%1", "rate": 100,
                                                      "period_ms": 1000, "burst": 10})")
                                       .arg(name)
                                       .toUtf8());
        const Result r = run(QStringList{QStringLiteral("bench"), QStringLiteral("--limiter"), spec,
                                         QStringLiteral("--requests"), QStringLiteral("2000"),
                                         QStringLiteral("--redis"), tlsUrl()} +
                             withCa());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("redis: rediss://127.0.0.1"), r.out);
        ScopedLimiter cleanup(ratelab::loadLimiterSpecFile(spec));
    }

    // What goes wrong, its exit code (3: Redis could not be used, 2: bad input) and the message
    // that says which; the URL's password is never printed.
    void failures_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("messagePart");
        const auto ca = [](const char* file) {
            return QStringList{QStringLiteral("--tls-ca-cert"), cert(QString::fromLatin1(file))};
        };
        const auto url = [](int offset) {
            return QStringList{
                QStringLiteral("--redis"),
                QStringLiteral("rediss://:Pa55-word@127.0.0.1:%1").arg(basePort() + offset)};
        };
        QTest::newRow("expired") << url(3) + ca("ca.crt") << 3
                                 << QStringLiteral("the server's certificate has expired");
        QTest::newRow("another CA")
            << url(4) + ca("ca.crt") << 3 << QStringLiteral("not signed by a trusted CA");
        QTest::newRow("wrong name")
            << url(5) + ca("ca.crt") << 3 << QStringLiteral("does not match the host name");
        QTest::newRow("mutual TLS without a client certificate")
            << url(1) + ca("ca.crt") << 3 << QStringLiteral("requires a client certificate");
        QTest::newRow("missing CA file")
            << url(0) + ca("nonexistent.crt") << 2 << QStringLiteral("--tls-ca-cert: ");
        QTest::newRow("key without certificate")
            << url(0) + ca("ca.crt") +
                   QStringList{QStringLiteral("--tls-key"), cert(QStringLiteral("client.key"))}
            << 2 << QStringLiteral("needs its key");
        QTest::newRow("TLS options with a redis:// URL")
            << QStringList{QStringLiteral("--redis"), plainUrl()} + ca("ca.crt") << 2
            << QStringLiteral("need a rediss://");
        QTest::newRow("plain client to a TLS port")
            << QStringList{QStringLiteral("--redis"),
                           QStringLiteral("redis://:Pa55-word@127.0.0.1:%1").arg(basePort())}
            << 3 << QStringLiteral("redis: ");
        // The password reaches the server only after verification: here it is refused.
        QTest::newRow("wrong password over TLS")
            << url(0) + ca("ca.crt") << 3 << QStringLiteral("AUTH on rediss://:***@");
    }
    void failures() {
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, messagePart);
        const QString name = uniqueName(QStringLiteral("tls-bad"));
        const QString spec =
            write(name + QStringLiteral(".json"),
                  QStringLiteral(
                      R"({"type": "token_bucket", "name": "%1", "rate": 2, "interval_ms": 1000})")
                      .arg(name)
                      .toUtf8());
        const Result r = run(QStringList{QStringLiteral("replay"), QStringLiteral("--limiter"),
                                         spec, QStringLiteral("--trace"), trace()} +
                             options);
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(r.out, QByteArray());
        QVERIFY2(r.err.contains(messagePart.toUtf8()), r.err);
        QVERIFY2(!r.err.contains("Pa55-word"), r.err);
    }

    void mutualTls() {
        const QString name = uniqueName(QStringLiteral("tls-mutual"));
        const QString spec =
            write(name + QStringLiteral(".json"),
                  QStringLiteral(
                      R"({"type": "token_bucket", "name": "%1", "rate": 2, "interval_ms": 1000})")
                      .arg(name)
                      .toUtf8());
        const Result r = run(
            QStringList{QStringLiteral("replay"), QStringLiteral("--limiter"), spec,
                        QStringLiteral("--trace"), trace(), QStringLiteral("--redis"), tlsUrl(1),
                        QStringLiteral("--tls-cert"), cert(QStringLiteral("client.crt")),
                        QStringLiteral("--tls-key"), cert(QStringLiteral("client.key"))} +
            withCa());
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count('\n'), 10);
        ScopedLimiter cleanup(ratelab::loadLimiterSpecFile(spec));
    }
};

QTEST_GUILESS_MAIN(TestTlsCli)
#include "tst_tls_cli.moc"
