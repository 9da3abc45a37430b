// The TLS transport (rediss://) against the redis_tls fixture's servers: replies and pipelines
// over a TLS session, a TLS cluster node, every certificate check failing the way it should,
// mutual TLS, unusable files, and the deadline and interrupt rules with a server that stops
// answering.
#include <QProcess>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>
#include <csignal>
#include <optional>

#include "input_error.h"
#include "redis/redis_connection.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "redis/redis_target.h"
#include "redis/tls_context.h"

using namespace ratelab;

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

RedisUrl tlsUrl(int portOffset, const QString& host = QStringLiteral("127.0.0.1")) {
    RedisUrl url =
        RedisUrl::parse(QStringLiteral("rediss://%1:%2").arg(host).arg(basePort() + portOffset));
    url.tlsFiles.caCert = cert(QStringLiteral("ca.crt"));
    return url;
}

std::string text(const RedisReply& reply) {
    return std::string(reply->str, reply->len);
}

}  // namespace

class TestTls : public QObject {
    Q_OBJECT

private slots:
    void parsesTlsUrls() {
        const RedisUrl single = RedisUrl::parse(QStringLiteral("rediss://:pw@example.com:6380/2"));
        QVERIFY(single.tls);
        QVERIFY(!single.isCluster());
        QCOMPARE(single.port, 6380);
        QCOMPARE(single.db, 2);
        QCOMPARE(single.toDisplayString(), QStringLiteral("rediss://:***@example.com:6380/2"));
        const RedisUrl cluster =
            RedisUrl::parse(QStringLiteral("rediss-cluster://10.0.0.1:7000,10.0.0.2:7000"));
        QVERIFY(cluster.tls);
        QVERIFY(cluster.isCluster());
        QCOMPARE(cluster.toDisplayString(),
                 QStringLiteral("rediss-cluster://10.0.0.1:7000,10.0.0.2:7000"));
        RedisUrl withFiles = cluster;
        withFiles.tlsFiles.caCert = QStringLiteral("/ca.pem");
        const RedisUrl node = withFiles.nodeUrl(QStringLiteral("10.0.0.3"), 7001);
        QVERIFY(node.tls);  // the slot map's nodes are reached with TLS too
        QCOMPARE(node.tlsFiles.caCert, QStringLiteral("/ca.pem"));
        QVERIFY(!RedisUrl::parse(QStringLiteral("redis://host")).tls);
    }

    // Replies of every shape, a deep pipeline and values larger than a TLS record (16 KiB), so
    // partial writes and replies spread over many records are exercised.
    void repliesAndPipelines_data() {
        QTest::addColumn<QString>("host");
        QTest::newRow("ip address") << QStringLiteral("127.0.0.1");
        QTest::newRow("host name (SNI)") << QStringLiteral("localhost");
    }
    void repliesAndPipelines() {
        QFETCH(QString, host);
        RedisConnection connection(tlsUrl(0, host));
        QCOMPARE(text(connection.command({"PING"})), std::string("PONG"));
        const std::string key = "tls-test:" + QUuid::createUuid().toString().toStdString();
        const std::string big(1 << 20, 'x');
        QCOMPARE(text(connection.command({"SET", key, big})), std::string("OK"));
        QCOMPARE(text(connection.command({"GET", key})), big);
        constexpr int kCommands = 2000;
        RespWriter writer;
        for (int i = 0; i < kCommands; ++i) {
            writer.begin(3);
            writer.arg("INCRBY");
            writer.arg(key + ":n");
            writer.arg(std::to_string(i));
        }
        connection.appendFormatted(writer.bytes(), kCommands);
        connection.flush();
        long long sum = 0;
        for (int i = 0; i < kCommands; ++i) {
            RedisReply reply = connection.readReply();
            QCOMPARE(reply->type, REDIS_REPLY_INTEGER);
            sum += i;
            QCOMPARE(reply->integer, sum);
        }
        QCOMPARE(connection.pendingReplies(), std::size_t(0));
        connection.command({"DEL", key, key + ":n"});
    }

    // rediss-cluster://: the slot map is read over TLS and its node reached with TLS.
    void clusterOverTls() {
        RedisUrl url =
            RedisUrl::parse(QStringLiteral("rediss-cluster://127.0.0.1:%1").arg(basePort() + 6));
        url.tlsFiles.caCert = cert(QStringLiteral("ca.crt"));
        RedisRouter router(url);
        QVERIFY(router.isCluster());
        for (int slot : {0, 5000, 16383}) {
            QVERIFY(router.nodeUrlForSlot(slot).tls);
            RedisReply reply = router.command(slot, {"PING"});
            QCOMPARE(text(reply), std::string("PONG"));
        }
        QCOMPARE(router.nodeCount(), 1);
    }

    // Each failed certificate check: a connect error (exit 3 on the command line) that says
    // which check failed.
    void refusesBadCertificates_data() {
        QTest::addColumn<int>("portOffset");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("messagePart");
        const QString ip = QStringLiteral("127.0.0.1");
        const QString ca = QStringLiteral("ca.crt");
        QTest::newRow("expired") << 3 << ip << ca << QStringLiteral("certificate has expired");
        QTest::newRow("another CA")
            << 4 << ip << ca << QStringLiteral("not signed by a trusted CA");
        QTest::newRow("wrong name, by address")
            << 5 << ip << ca << QStringLiteral("does not match the host name");
        QTest::newRow("wrong name, by name") << 5 << QStringLiteral("localhost") << ca
                                             << QStringLiteral("does not match the host name");
        QTest::newRow("system store does not know the test CA")
            << 0 << ip << QString() << QStringLiteral("not signed by a trusted CA");
        QTest::newRow("trusting only the other CA") << 0 << ip << QStringLiteral("other-ca.crt")
                                                    << QStringLiteral("not signed by a trusted CA");
    }
    void refusesBadCertificates() {
        QFETCH(int, portOffset);
        QFETCH(QString, host);
        QFETCH(QString, ca);
        QFETCH(QString, messagePart);
        RedisUrl url = tlsUrl(portOffset, host);
        url.password = QStringLiteral("s3cret-pw");
        url.tlsFiles.caCert = ca.isEmpty() ? QString() : cert(ca);
        try {
            RedisConnection connection(url);
            QFAIL("connected despite a bad certificate");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Connect);
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(messagePart), qPrintable(message));
            QVERIFY2(!message.contains(QStringLiteral("s3cret-pw")), qPrintable(message));
        }
    }

    void mutualTls() {
        RedisUrl url = tlsUrl(1);
        try {
            RedisConnection connection(url);
            QFAIL("connected without the client certificate the server requires");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Connect);
            QVERIFY2(QString::fromStdString(e.what()).contains(
                         QStringLiteral("requires a client certificate")),
                     e.what());
        }
        url.tlsFiles.cert = cert(QStringLiteral("client.crt"));
        url.tlsFiles.key = cert(QStringLiteral("client.key"));
        RedisConnection connection(url);
        QCOMPARE(text(connection.command({"PING"})), std::string("PONG"));
    }

    // Files that cannot be used: bad input (exit 2), naming the option and the file.
    void refusesUnusableFiles_data() {
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("clientCert");
        QTest::addColumn<QString>("clientKey");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("messagePart");
        const QString missing = cert(QStringLiteral("missing.crt"));
        QTest::newRow("missing CA")
            << missing << QString() << QString() << QStringLiteral("--tls-ca-cert: ") + missing
            << QStringLiteral("no such file");
        QTest::newRow("CA is a folder")
            << qEnvironmentVariable("RATELAB_TLS_DIR") << QString() << QString()
            << QStringLiteral("--tls-ca-cert: ") + qEnvironmentVariable("RATELAB_TLS_DIR")
            << QStringLiteral("cannot read the TLS CA certificate: it is a folder");
        QTest::newRow("CA is /dev/zero")
            << QStringLiteral("/dev/zero") << QString() << QString()
            << QStringLiteral("--tls-ca-cert: /dev/zero")
            << QStringLiteral("it is not a regular file (a device, pipe or socket)");
        QTest::newRow("CA is a key")
            << cert(QStringLiteral("ca.key")) << QString() << QString()
            << QStringLiteral("--tls-ca-cert: ") + cert(QStringLiteral("ca.key"))
            << QStringLiteral("is not a PEM CA certificate");
        QTest::newRow("cert without key")
            << QString() << cert(QStringLiteral("client.crt")) << QString()
            << QStringLiteral("--tls-cert: ") + cert(QStringLiteral("client.crt"))
            << QStringLiteral("needs its key");
        QTest::newRow("key of another certificate")
            << QString() << cert(QStringLiteral("client.crt")) << cert(QStringLiteral("server.key"))
            << QStringLiteral("--tls-key: ") + cert(QStringLiteral("server.key"))
            << QStringLiteral("does not match the certificate");
        QTest::newRow("missing key")
            << QString() << cert(QStringLiteral("client.crt")) << missing
            << QStringLiteral("--tls-key: ") + missing << QStringLiteral("no such file");
    }
    void refusesUnusableFiles() {
        QFETCH(QString, ca);
        QFETCH(QString, clientCert);
        QFETCH(QString, clientKey);
        QFETCH(QString, where);
        QFETCH(QString, messagePart);
        try {
            RedisTarget::resolve(QStringLiteral("rediss://127.0.0.1:%1").arg(basePort()),
                                 RedisUrl::TlsFiles{ca, clientCert, clientKey});
            QFAIL("unusable TLS files accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.where(), where);
            QVERIFY2(e.problem().contains(messagePart), qPrintable(e.message()));
        }
    }

    void tlsOptionsNeedARedissUrl_data() {
        QTest::addColumn<QString>("url");
        QTest::newRow("redis://") << QStringLiteral("redis://127.0.0.1:6379");
        QTest::newRow("unix://") << QStringLiteral("unix:///tmp/x.sock");
        QTest::newRow("redis-cluster://") << QStringLiteral("redis-cluster://127.0.0.1:7000");
    }
    void tlsOptionsNeedARedissUrl() {
        QFETCH(QString, url);
        try {
            RedisTarget::resolve(url, RedisUrl::TlsFiles{cert(QStringLiteral("ca.crt")), {}, {}});
            QFAIL("TLS options accepted with a plain URL");
        } catch (const InputError& e) {
            QVERIFY2(e.problem().contains(QStringLiteral("need a rediss://")),
                     qPrintable(e.message()));
        }
    }

    // The TLS files of a rediss:// URL come from REDIS_TLS_* when no option names them.
    void filesFromEnvironment() {
        qputenv("REDIS_TLS_CA_CERT", cert(QStringLiteral("ca.crt")).toLocal8Bit());
        qputenv("REDIS_TLS_CERT", cert(QStringLiteral("client.crt")).toLocal8Bit());
        qputenv("REDIS_TLS_KEY", cert(QStringLiteral("client.key")).toLocal8Bit());
        const RedisTarget target =
            RedisTarget::resolve(QStringLiteral("rediss://127.0.0.1:%1").arg(basePort() + 1));
        qunsetenv("REDIS_TLS_CA_CERT");
        qunsetenv("REDIS_TLS_CERT");
        qunsetenv("REDIS_TLS_KEY");
        QCOMPARE(target.url().tlsFiles.cert, cert(QStringLiteral("client.crt")));
        RedisConnection connection(target.url());  // the mutual-TLS server
        QCOMPARE(text(connection.command({"PING"})), std::string("PONG"));
    }

    // A server that stops answering (SIGSTOP): a command ends at its deadline, an interrupt
    // ends it within the grace period, and a new connection's handshake ends at the connect
    // deadline; all over TLS, like over a plain socket.
    void deadlinesAndInterruptOverTls() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const int port = basePort() + 7;
        QProcess server;
        server.start(QStringLiteral("redis-server"), {QStringLiteral("--bind"),
                                                      QStringLiteral("127.0.0.1"),
                                                      QStringLiteral("--port"),
                                                      QStringLiteral("0"),
                                                      QStringLiteral("--tls-port"),
                                                      QString::number(port),
                                                      QStringLiteral("--tls-cert-file"),
                                                      cert(QStringLiteral("server.crt")),
                                                      QStringLiteral("--tls-key-file"),
                                                      cert(QStringLiteral("server.key")),
                                                      QStringLiteral("--tls-ca-cert-file"),
                                                      cert(QStringLiteral("ca.crt")),
                                                      QStringLiteral("--tls-auth-clients"),
                                                      QStringLiteral("no"),
                                                      QStringLiteral("--save"),
                                                      QString(),
                                                      QStringLiteral("--appendonly"),
                                                      QStringLiteral("no"),
                                                      QStringLiteral("--dir"),
                                                      dir.path()});
        QVERIFY(server.waitForStarted());
        const pid_t pid = pid_t(server.processId());
        auto cleanup = qScopeGuard([&] {
            ::kill(pid, SIGCONT);
            server.terminate();
            server.waitForFinished(5000);
        });
        ConnectOptions options;
        options.connectTimeout = std::chrono::milliseconds(300);
        options.commandTimeout = std::chrono::milliseconds(300);
        std::optional<RedisConnection> connection;
        for (int attempt = 0; attempt < 100 && !connection; ++attempt) {
            try {
                connection.emplace(tlsUrl(7), options);
            } catch (const RedisError&) {
                QTest::qWait(50);
            }
        }
        QVERIFY(connection.has_value());
        QCOMPARE(text(connection->command({"PING"})), std::string("PONG"));

        QCOMPARE(::kill(pid, SIGSTOP), 0);
        try {
            connection->command({"PING"});
            QFAIL("a stopped server answered");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Timeout);
            QCOMPARE(e.cause(), std::string("timeout"));
        }
        QVERIFY(connection->broken());

        try {
            RedisConnection handshake(tlsUrl(7), options);
            QFAIL("a handshake with a stopped server completed");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Connect);
            QCOMPARE(e.cause(), std::string("connect timeout"));
        }

        QCOMPARE(::kill(pid, SIGCONT), 0);
        ConnectOptions patient = options;
        patient.commandTimeout = std::chrono::minutes(10);
        RedisConnection slow(tlsUrl(7), patient);
        QCOMPARE(::kill(pid, SIGSTOP), 0);
        std::atomic<bool> stop{true};
        RedisConnection::setInterruptFlag(&stop);
        auto clearFlag = qScopeGuard([] { RedisConnection::setInterruptFlag(nullptr); });
        try {
            slow.command({"PING"});
            QFAIL("a stopped server answered");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Timeout);
            QCOMPARE(e.cause(), std::string("interrupted"));
        }
    }

    void cleanupTestCase() {
        // The TLS contexts are shared; a context built for these files is still usable.
        QVERIFY(tlsContextFor(RedisUrl::TlsFiles{cert(QStringLiteral("ca.crt")), {}, {}}));
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
