// The hiredis connection: commands, pipelining, AUTH (password and ACL user), SELECT,
// timeouts and reconnecting, replies larger than a reply may be.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QThread>
#include <QtTest>

#include "redis/local_redis_server.h"
#include "redis/redis_connection.h"
#include "redis/redis_error.h"
#include "support/fake_redis_server.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A TCP port that accepts connections (the kernel's backlog does) but never answers.
class SilentServer {
public:
    SilentServer() {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
        ::listen(fd_, 8);
        socklen_t len = sizeof(addr);
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
    }
    ~SilentServer() { ::close(fd_); }
    int port() const { return port_; }

private:
    int fd_ = -1;
    int port_ = 0;
};

}  // namespace

class TestRedisConnection : public QObject {
    Q_OBJECT

private slots:
    void commandAndPipeline() {
        auto c = connectFixture();
        const std::string key = "{" + uniqueName(QStringLiteral("conn")).toStdString() + "}:n";
        const int depth = 100;
        for (int i = 0; i < depth; ++i) {
            c->append({"INCR", key});
        }
        QCOMPARE(c->pendingReplies(), size_t(depth));
        for (int i = 1; i <= depth; ++i) {
            QCOMPARE(replyInteger(c->readReply().get(), "INCR"), static_cast<long long>(i));
        }
        QCOMPARE(c->pendingReplies(), size_t(0));
        // Binary-safe arguments.
        const std::string binary("a\0b\r\nc", 6);
        c->command({"SET", key + "b", binary});
        QCOMPARE(replyString(c->command({"GET", key + "b"}).get(), "GET"), binary);
        c->command({"DEL", key, key + "b"});
    }

    void errorRepliesAreReturned() {
        auto c = connectFixture();
        RedisReply r = c->command({"NOSUCHCOMMAND"});
        QCOMPARE(r->type, REDIS_REPLY_ERROR);
        QVERIFY_THROWS_EXCEPTION(RedisError, throwIfError(r.get(), "x"));
        QVERIFY(!c->broken());
    }

    void selectDatabase() {
        RedisUrl url = fixtureUrl();
        url.db = 3;
        RedisConnection c(url);
        const std::string key = "{" + uniqueName(QStringLiteral("db")).toStdString() + "}:k";
        c.command({"SET", key, "in-db-3"});
        auto zero = connectFixture();
        QCOMPARE(replyInteger(zero->command({"EXISTS", key}).get(), "EXISTS"), 0LL);
        QCOMPARE(replyString(c.command({"GET", key}).get(), "GET"), std::string("in-db-3"));
        c.command({"DEL", key});
    }

    // ACL user with a password; a wrong password fails to connect without showing it.
    void authentication() {
        auto admin = connectFixture();
        const std::string user = uniqueName(QStringLiteral("user")).toStdString();
        const std::string password = "s3cret-" + uniqueName(QStringLiteral("pw")).toStdString();
        expectStatusOk(
            admin->command({"ACL", "SETUSER", user, "on", ">" + password, "~*", "+@all"}).get(),
            "ACL SETUSER");
        RedisUrl url = fixtureUrl();
        url.user = QString::fromStdString(user);
        url.password = QString::fromStdString(password);
        RedisConnection ok(url);
        QCOMPARE(replyString(ok.command({"ACL", "WHOAMI"}).get(), "WHOAMI"), user);

        url.password = QStringLiteral("wrong-password-xyz");
        try {
            RedisConnection bad(url);
            QFAIL("connected with a wrong password");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Connect);
            QVERIFY(!QString::fromStdString(e.what()).contains(QStringLiteral("wrong-password")));
        }
        admin->command({"ACL", "DELUSER", user});
    }

    void unreachable() {
        RedisUrl url;
        url.transport = RedisUrl::Transport::Unix;
        url.socketPath = QStringLiteral("/nonexistent/ratelab.sock");
        try {
            RedisConnection c(url);
            QFAIL("connected to nothing");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Connect);
            QVERIFY(QString::fromStdString(e.what()).contains(url.socketPath));
        }
    }

    void commandTimeout() {
        SilentServer silent;
        RedisUrl url;
        url.host = QStringLiteral("127.0.0.1");
        url.port = silent.port();
        ConnectOptions options;
        options.commandTimeout = std::chrono::milliseconds(100);
        RedisConnection c(url, options);
        try {
            c.command({"PING"});
            QFAIL("a silent server answered");
        } catch (const RedisError& e) {
            QCOMPARE(e.kind(), RedisError::Kind::Timeout);
        }
        QVERIFY(c.broken());
        QVERIFY_THROWS_EXCEPTION(RedisError, c.command({"PING"}));
    }

    // A peer that sends one byte every 200 ms never lets a single read time out: the deadline
    // holds for the whole command, so it fails as a timeout (it used to wait until the peer
    // closed, 20 s later, and then fail as a lost connection).
    void tricklingPeerTimesOut() {
        FakeRedisServer trickle(&FakeRedisServer::stallEverything);
        RedisUrl url = RedisUrl::parse(trickle.url());
        ConnectOptions options;
        options.commandTimeout = std::chrono::milliseconds(1000);
        RedisConnection c(url, options);
        try {
            c.command({"PING"});
            QFAIL("a trickling server answered");
        } catch (const RedisError& e) {
            QVERIFY2(e.kind() == RedisError::Kind::Timeout, e.what());
        }
        QVERIFY(c.broken());
    }

    // A server with an idle timeout (`timeout 1`) closes a connection left idle for 2.5 s;
    // the next command still succeeds: an idle connection is checked before it is used.
    void idleConnectionRenewed() {
        LocalRedisServer server;
        server.setExtraArguments({QStringLiteral("--timeout"), QStringLiteral("1")});
        server.start();
        RedisConnection c(server.url());
        const std::string id =
            std::to_string(replyInteger(c.command({"CLIENT", "ID"}).get(), "CLIENT ID"));
        QThread::msleep(2500);
        RedisConnection admin(server.url());
        // The server did drop it (otherwise this test would prove nothing).
        QCOMPARE(replyString(admin.command({"CLIENT", "LIST", "ID", id}).get(), "CLIENT LIST"),
                 std::string());
        QCOMPARE(replyString(c.command({"PING"}).get(), "PING"), std::string("PONG"));
    }

    // A peer that announces an array or a bulk larger than a reply may hold (ReplyLimits) is
    // refused as soon as the header arrives: a protocol error, the connection broken. Failed
    // before: hiredis allocated the announced array (2^31 slots) or waited for the bulk's bytes
    // until the command timed out, buffering what came. Replies within the bounds read as ever.
    void oversizedRepliesRefused_data() {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("maxElements");  // 0: the default limits
        QTest::addColumn<int>("maxBytes");
        QTest::addColumn<QString>("refusal");  // empty: the reply is read
        const QByteArray junk(1 << 20, 'x');
        QTest::newRow("array of 2^31 - 1")
            << QByteArray("*2147483647\r\n") << 0 << 0 << QStringLiteral("2147483647 elements");
        QTest::newRow("bulk of 10^12 bytes") << QByteArray("$999999999999\r\n") + junk << 0 << 0
                                             << QStringLiteral("999999999999 bytes");
        QTest::newRow("bulk of 20 digits") << QByteArray("$99999999999999999999\r\n") << 0 << 0
                                           << QStringLiteral("99999999999999999999 bytes");
        QTest::newRow("nested arrays past the elements")
            << QByteArray("*2\r\n*3\r\n:1\r\n:2\r\n:3\r\n*6\r\n") << 10 << 1000
            << QStringLiteral("6 elements");
        QTest::newRow("a long status line") << QByteArray("+") + QByteArray(2000, 'a') + "\r\n"
                                            << 10 << 1000 << QStringLiteral("1000 bytes");
        QTest::newRow("a negative length")
            << QByteArray("*-7\r\n") << 0 << 0 << QStringLiteral("not a length");
        QTest::newRow("not RESP") << QByteArray("HTTP/1.1 400\r\n") << 0 << 0
                                  << QStringLiteral("not RESP");
        QTest::newRow("within the bounds")
            << QByteArray("*4\r\n$3\r\nabc\r\n:5\r\n*-1\r\n*2\r\n$-1\r\n+OK\r\n") << 10 << 41
            << QString();
    }
    void oversizedRepliesRefused() {
        QFETCH(QByteArray, reply);
        QFETCH(int, maxElements);
        QFETCH(int, maxBytes);
        QFETCH(QString, refusal);
        FakeRedisServer peer([reply](const FakeRedisServer::Command&) {
            return std::optional<std::string>(reply.toStdString());
        });
        ConnectOptions options;
        if (maxElements > 0) {
            options.replyLimits = ReplyLimits{std::uint64_t(maxBytes), std::uint64_t(maxElements)};
        }
        RedisConnection c(RedisUrl::parse(peer.url()), options);
        if (refusal.isEmpty()) {
            const RedisReply r = c.command({"PING"});
            QCOMPARE(r->type, REDIS_REPLY_ARRAY);
            QCOMPARE(r->elements, std::size_t(4));
            QCOMPARE(replyString(r->element[0], "bulk"), std::string("abc"));
            QCOMPARE(r->element[3]->elements, std::size_t(2));
            QVERIFY(!c.broken());
            return;
        }
        try {
            c.command({"PING"});
            QFAIL("the reply was read");
        } catch (const RedisError& e) {
            QVERIFY2(e.kind() == RedisError::Kind::Protocol, e.what());
            QVERIFY2(QString::fromStdString(e.what()).contains(refusal), e.what());
            QCOMPARE(e.cause(), std::string("protocol error"));
        }
        QVERIFY(c.broken());
    }

    void reconnectAfterKill() {
        auto c = connectFixture();
        const std::string id =
            std::to_string(replyInteger(c->command({"CLIENT", "ID"}).get(), "ID"));
        auto killer = connectFixture();
        killer->command({"CLIENT", "KILL", "ID", id});
        QVERIFY_THROWS_EXCEPTION(RedisError, c->command({"PING"}));
        QVERIFY(c->broken());
        c->reconnect();
        QCOMPARE(replyString(c->command({"PING"}).get(), "PING"), std::string("PONG"));
    }
};

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redis_connection.moc"
