// RedisUrl: parsing redis:// and unix:// URLs, refusing bad ones with the right InputError,
// never leaking the password, and printing a masked form that parses back.
#include <QtTest>
#include <optional>

#include "input_error.h"
#include "url/redis_url.h"

using namespace ratelab;

namespace {

// The InputError that parse() throws for `text`, or nothing when it parses.
std::optional<InputError> parseError(const QString& text) {
    try {
        RedisUrl::parse(text);
    } catch (const InputError& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace

class TestRedisUrl : public QObject {
    Q_OBJECT

private slots:
    void parsesValidUrls_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("isUnix");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("socketPath");
        QTest::addColumn<int>("db");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");

        auto tcp = [](const char* name, const QString& text, const QString& host, int port, int db,
                      const QString& user = QString(), const QString& password = QString()) {
            QTest::newRow(name) << text << false << host << port << QString() << db << user
                                << password;
        };
        auto socket = [](const char* name, const QString& text, const QString& path, int db,
                         const QString& user = QString(), const QString& password = QString()) {
            QTest::newRow(name) << text << true << QStringLiteral("127.0.0.1") << 6379 << path << db
                                << user << password;
        };
        const QString host = QStringLiteral("host");

        tcp("name only", QStringLiteral("redis://localhost"), QStringLiteral("localhost"), 6379, 0);
        tcp("ipv4 and port", QStringLiteral("redis://127.0.0.1:6380"), QStringLiteral("127.0.0.1"),
            6380, 0);
        tcp("port and db", QStringLiteral("redis://example.com:6379/3"),
            QStringLiteral("example.com"), 6379, 3);
        tcp("trailing slash", QStringLiteral("redis://host/"), host, 6379, 0);
        tcp("smallest port, largest db", QStringLiteral("redis://host:1/2147483647"), host, 1,
            2147483647);
        tcp("largest port", QStringLiteral("redis://host:65535/0"), host, 65535, 0);
        tcp("leading zeros", QStringLiteral("redis://host:06379/007"), host, 6379, 7);
        tcp("name with - and _", QStringLiteral("redis://my_host-1.internal"),
            QStringLiteral("my_host-1.internal"), 6379, 0);
        tcp("scheme in capitals", QStringLiteral("REDIS://Host"), QStringLiteral("Host"), 6379, 0);
        tcp("ipv6 loopback", QStringLiteral("redis://[::1]"), QStringLiteral("::1"), 6379, 0);
        tcp("ipv6 port db", QStringLiteral("redis://[2001:db8::7]:7000/1"),
            QStringLiteral("2001:db8::7"), 7000, 1);
        tcp("ipv6 mapped ipv4", QStringLiteral("redis://[::ffff:10.0.0.1]:6380"),
            QStringLiteral("::ffff:10.0.0.1"), 6380, 0);
        tcp("password only", QStringLiteral("redis://:secret@host"), host, 6379, 0, QString(),
            QStringLiteral("secret"));
        tcp("user and password", QStringLiteral("redis://alice:secret@host:6390/4"), host, 6390, 4,
            QStringLiteral("alice"), QStringLiteral("secret"));
        tcp("user and empty password", QStringLiteral("redis://alice:@host"), host, 6379, 0,
            QStringLiteral("alice"));
        tcp("empty user info", QStringLiteral("redis://@host"), host, 6379, 0);
        tcp("percent-encoded @", QStringLiteral("redis://:p%40ss@host"), host, 6379, 0, QString(),
            QStringLiteral("p@ss"));
        tcp("percent-encoded : / # ?", QStringLiteral("redis://us%3Aer:p%3As%2Fs%23%3f@host"), host,
            6379, 0, QStringLiteral("us:er"), QStringLiteral("p:s/s#?"));
        tcp("percent-encoded utf-8", QStringLiteral("redis://:%C3%A9t%C3%A9@host"), host, 6379, 0,
            QString(), QString::fromUtf8("\xc3\xa9t\xc3\xa9"));
        tcp("raw @ in password", QStringLiteral("redis://:p@ss@host"), host, 6379, 0, QString(),
            QStringLiteral("p@ss"));
        tcp("raw : in password", QStringLiteral("redis://u:pa:ss@host"), host, 6379, 0,
            QStringLiteral("u"), QStringLiteral("pa:ss"));
        tcp("password and ipv6", QStringLiteral("redis://:pw@[::1]:6390/2"), QStringLiteral("::1"),
            6390, 2, QString(), QStringLiteral("pw"));

        socket("socket", QStringLiteral("unix:///tmp/redis.sock"),
               QStringLiteral("/tmp/redis.sock"), 0);
        socket("socket and db", QStringLiteral("unix:///tmp/redis.sock?db=5"),
               QStringLiteral("/tmp/redis.sock"), 5);
        socket("socket and db 0", QStringLiteral("unix:///run/redis/redis-server.sock?db=0"),
               QStringLiteral("/run/redis/redis-server.sock"), 0);
        socket("empty query", QStringLiteral("unix:///tmp/redis.sock?"),
               QStringLiteral("/tmp/redis.sock"), 0);
        socket("@ in the path", QStringLiteral("unix:///tmp/a@b/redis.sock"),
               QStringLiteral("/tmp/a@b/redis.sock"), 0);
        socket("password", QStringLiteral("unix://:secret@/tmp/redis.sock?db=1"),
               QStringLiteral("/tmp/redis.sock"), 1, QString(), QStringLiteral("secret"));
        socket("user and encoded password",
               QStringLiteral("unix://alice:s%2Fecret@/tmp/redis.sock"),
               QStringLiteral("/tmp/redis.sock"), 0, QStringLiteral("alice"),
               QStringLiteral("s/ecret"));
        socket("user and empty password", QStringLiteral("unix://alice:@/tmp/redis.sock"),
               QStringLiteral("/tmp/redis.sock"), 0, QStringLiteral("alice"));
    }

    void parsesValidUrls() {
        QFETCH(QString, text);
        QFETCH(bool, isUnix);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, socketPath);
        QFETCH(int, db);
        QFETCH(QString, user);
        QFETCH(QString, password);

        const RedisUrl url = RedisUrl::parse(text);
        QCOMPARE(url.transport == RedisUrl::Transport::Unix, isUnix);
        QCOMPARE(url.host, host);
        QCOMPARE(url.port, port);
        QCOMPARE(url.socketPath, socketPath);
        QCOMPARE(url.db, db);
        QCOMPARE(url.user, user);
        QCOMPARE(url.password, password);
    }

    void refusesInvalidUrls_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("messagePart");

        auto row = [](const char* name, const QString& text, const char* where, const char* part) {
            QTest::newRow(name) << text << QString::fromLatin1(where) << QString::fromLatin1(part);
        };

        row("empty", QString(), "URL", "is empty");
        row("no scheme", QStringLiteral("localhost:6379"), "URL", "://");
        row("bare path", QStringLiteral("/tmp/redis.sock"), "URL", "://");
        row("one slash", QStringLiteral("redis:/host"), "URL", "://");
        row("rediss with a query", QStringLiteral("rediss://host:6380?db=1"), "URL query",
            "take no query");
        row("http", QStringLiteral("http://host"), "URL scheme",
            "unsupported scheme \"http\" (expected redis://, rediss://, unix://");
        row("empty scheme", QStringLiteral("://host"), "URL scheme",
            "expected redis://, rediss://, unix://, redis-cluster://, rediss-cluster:// or "
            "redis-sentinel://");
        row("malformed scheme", QStringLiteral("red!s://host"), "URL scheme", "malformed");

        row("nothing after scheme", QStringLiteral("redis://"), "URL host", "empty");
        row("port without host", QStringLiteral("redis://:6379"), "URL host", "empty");
        row("db without host", QStringLiteral("redis:///1"), "URL host", "empty");
        row("user info without host", QStringLiteral("redis://user:pw@"), "URL host", "empty");
        // User info without ':' is what a password alone looks like in some clients' URLs
        // (redis://PASSWORD@host): refused rather than sent as a user name (and shown).
        row("user info without ':'", QStringLiteral("redis://S3cr3tPw@host"), "URL user info",
            "has no ':'");
        row("user info without ':', port and db", QStringLiteral("redis://S3cr3tPw@host:6380/2"),
            "URL user info", "redis://:PASSWORD@host");
        row("unix user info without ':'", QStringLiteral("unix://S3cr3tPw@/tmp/redis.sock"),
            "URL user info", "has no ':'");
        row("cluster user info without ':'", QStringLiteral("redis-cluster://S3cr3tPw@h:7000"),
            "URL user info", "has no ':'");
        row("encoded user info without ':'", QStringLiteral("redis://S3cr%40tPw@host"),
            "URL user info", "has no ':'");
        row("bad host character", QStringLiteral("redis://bad%host"), "URL host",
            "\"bad%host\" is not a host name");
        row("unclosed bracket", QStringLiteral("redis://[::1"), "URL host", "']'");
        row("not ipv6", QStringLiteral("redis://[xyz]"), "URL host", "not an IPv6 address");
        row("empty brackets", QStringLiteral("redis://[]:6379"), "URL host", "not an IPv6 address");
        row("junk after bracket", QStringLiteral("redis://[::1]x"), "URL host", "after ']'");
        row("ipv6 without brackets", QStringLiteral("redis://::1"), "URL host", "brackets");
        row("ipv6 without brackets, port", QStringLiteral("redis://fe80::1:6379"), "URL host",
            "brackets");

        row("empty port", QStringLiteral("redis://host:"), "URL port", "empty");
        row("empty port before db", QStringLiteral("redis://host:/1"), "URL port", "empty");
        row("port 0", QStringLiteral("redis://host:0"), "URL port", "out of range");
        row("port too large", QStringLiteral("redis://host:65536"), "URL port", "out of range");
        row("port overflows", QStringLiteral("redis://host:99999999999999999999"), "URL port",
            "out of range");
        row("negative port", QStringLiteral("redis://host:-1"), "URL port", "not a number");
        row("port with sign", QStringLiteral("redis://host:+6379"), "URL port", "not a number");
        row("port not a number", QStringLiteral("redis://host:abc"), "URL port",
            "\"abc\" is not a number");
        row("ipv6 port bad", QStringLiteral("redis://[::1]:x"), "URL port", "not a number");

        row("db not a number", QStringLiteral("redis://host/abc"), "URL database", "not a number");
        row("negative db", QStringLiteral("redis://host/-1"), "URL database", "not a number");
        row("db too large", QStringLiteral("redis://host/2147483648"), "URL database",
            "out of range");
        row("db overflows", QStringLiteral("redis://host/99999999999999999999999"), "URL database",
            "out of range");
        row("db with path", QStringLiteral("redis://host/1/2"), "URL database", "not a number");

        row("query on redis", QStringLiteral("redis://host?db=1"), "URL query", "no query");
        row("query after db", QStringLiteral("redis://host/0?timeout=1"), "URL query", "no query");
        row("fragment", QStringLiteral("redis://host#frag"), "URL", "fragment");
        row("fragment on unix", QStringLiteral("unix:///tmp/s.sock#x"), "URL", "fragment");

        row("space inside", QStringLiteral("redis://ho st"), "URL", "whitespace");
        row("leading space", QStringLiteral(" redis://host"), "URL", "position 1");
        row("trailing newline", QStringLiteral("redis://host\n"), "URL", "whitespace");
        row("tab", QStringLiteral("redis://host:\t6379"), "URL", "whitespace");
        row("control character", QStringLiteral("redis://ho\x01st"), "URL", "control character");
        row("delete character", QStringLiteral("unix:///tmp/s\x7f.sock"), "URL",
            "control character");
        row("non-breaking space", QStringLiteral("redis://host\u00a0"), "URL", "whitespace");

        row("bad percent escape", QStringLiteral("redis://:p%zzss@host"), "URL password",
            "two hex digits");
        row("short percent escape", QStringLiteral("redis://:p%4@host"), "URL password",
            "two hex digits");
        row("percent at end", QStringLiteral("redis://:pass%@host"), "URL password",
            "two hex digits");
        row("bad escape in user", QStringLiteral("redis://us%ger:pw@host"), "URL user",
            "two hex digits");
        row("invalid utf-8", QStringLiteral("redis://:%FF@host"), "URL password", "UTF-8");
        row("raw / in password", QStringLiteral("redis://:pa/ss@host"), "URL", "percent-encode");
        row("raw # in password", QStringLiteral("redis://:pa#ss@host"), "URL", "percent-encode");
        row("raw ? in password", QStringLiteral("redis://:pa?ss@host"), "URL", "percent-encode");

        row("unix without path", QStringLiteral("unix://"), "URL path", "missing");
        row("unix relative path", QStringLiteral("unix://tmp/redis.sock"), "URL path",
            "must be absolute");
        row("unix bare name", QStringLiteral("unix://redis.sock"), "URL path", "must be absolute");
        row("unix user info, no path", QStringLiteral("unix://user:pw@"), "URL path", "missing");
        row("unix query, no path", QStringLiteral("unix://?db=1"), "URL path", "missing");
        row("unix directory", QStringLiteral("unix:///tmp/"), "URL path", "directory");
        row("unix raw / in password", QStringLiteral("unix://:pa/ss@/tmp/s.sock"), "URL path",
            "must be absolute");
        row("unix unknown parameter", QStringLiteral("unix:///tmp/s.sock?foo=1"), "URL query",
            "unknown parameter \"foo\"");
        row("unix password parameter", QStringLiteral("unix:///tmp/s.sock?db=1&password=x"),
            "URL query", "unknown parameter \"password\"");
        row("unix db twice", QStringLiteral("unix:///tmp/s.sock?db=1&db=2"), "URL query", "twice");
        row("unix db not a number", QStringLiteral("unix:///tmp/s.sock?db=x"), "URL database",
            "not a number");
        row("unix db empty", QStringLiteral("unix:///tmp/s.sock?db="), "URL database", "empty");
        row("unix db without value", QStringLiteral("unix:///tmp/s.sock?db"), "URL database",
            "empty");
        row("unix db too large", QStringLiteral("unix:///tmp/s.sock?db=2147483648"), "URL database",
            "out of range");
        row("cluster no seed", QStringLiteral("redis-cluster://"), "URL host", "empty");
        row("cluster empty seed", QStringLiteral("redis-cluster://a:1,,b:2"), "URL host",
            "empty seed");
        row("cluster trailing comma", QStringLiteral("redis-cluster://a:1,"), "URL host",
            "empty seed");
        row("cluster bad port", QStringLiteral("redis-cluster://a:1,b:99999"), "URL port",
            "out of range");
        row("cluster bad host", QStringLiteral("redis-cluster://a:1,b$c:2"), "URL host",
            "not a host name");
        row("cluster db", QStringLiteral("redis-cluster://a:1/3"), "URL database",
            "database 0 only");
        row("cluster query", QStringLiteral("redis-cluster://a:1?db=0"), "URL query", "no query");
        row("cluster too many seeds",
            QStringLiteral("redis-cluster://") + QStringLiteral("h:1,").repeated(64) +
                QStringLiteral("h:2"),
            "URL host", "more than 64");
    }

    void parsesClusterUrls_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("seeds");  // host:port
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        auto row = [](const char* text, const QStringList& seeds, const char* user,
                      const char* password) {
            QTest::newRow(text) << QString::fromUtf8(text) << seeds << QString::fromUtf8(user)
                                << QString::fromUtf8(password);
        };
        row("redis-cluster://127.0.0.1:7000", {QStringLiteral("127.0.0.1:7000")}, "", "");
        row("redis-cluster://a:7000,b:7001,c:7002",
            {QStringLiteral("a:7000"), QStringLiteral("b:7001"), QStringLiteral("c:7002")}, "", "");
        row("redis-cluster://host", {QStringLiteral("host:6379")}, "", "");
        row("REDIS-CLUSTER://h:1/0", {QStringLiteral("h:1")}, "", "");
        row("redis-cluster://h:1,h:1,h:2", {QStringLiteral("h:1"), QStringLiteral("h:2")}, "", "");
        row("redis-cluster://:pw@h:1,h:2", {QStringLiteral("h:1"), QStringLiteral("h:2")}, "",
            "pw");
        row("redis-cluster://app:s%2Fcret@[::1]:7000,10.0.0.2:7001",
            {QStringLiteral("::1:7000"), QStringLiteral("10.0.0.2:7001")}, "app", "s/cret");
    }
    void parsesClusterUrls() {
        QFETCH(QString, text);
        QFETCH(QStringList, seeds);
        QFETCH(QString, user);
        QFETCH(QString, password);
        const RedisUrl url = RedisUrl::parse(text);
        QVERIFY(url.isCluster());
        QStringList got;
        for (const RedisUrl::HostPort& seed : url.seeds) {
            got.push_back(seed.host + QLatin1Char(':') + QString::number(seed.port));
        }
        QCOMPARE(got, seeds);
        QCOMPARE(url.host, url.seeds.front().host);
        QCOMPARE(url.port, url.seeds.front().port);
        QCOMPARE(url.db, 0);
        QCOMPARE(url.user, user);
        QCOMPARE(url.password, password);
        // A node's own URL keeps the credentials: every master authenticates the same way.
        const RedisUrl node = url.nodeUrl(QStringLiteral("10.1.1.1"), 7005);
        QVERIFY(!node.isCluster());
        QCOMPARE(node.host, QStringLiteral("10.1.1.1"));
        QCOMPARE(node.port, 7005);
        QCOMPARE(node.user, user);
        QCOMPARE(node.password, password);
    }

    void refusesInvalidUrls() {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, messagePart);

        const std::optional<InputError> error = parseError(text);
        QVERIFY2(error.has_value(), "parse() accepted the URL");
        QCOMPARE(error->where(), where);
        QVERIFY2(error->problem().contains(messagePart), qPrintable(error->message()));
        QVERIFY(error->message().startsWith(where + QStringLiteral(": ")));
    }

    void neverQuotesThePassword_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("secrets");  // none may appear in the message

        auto row = [](const char* name, const char* text, QStringList secrets) {
            QTest::newRow(name) << QString::fromLatin1(text) << secrets;
        };
        const QStringList hunter = {QStringLiteral("hunter2")};

        row("rediss, bad port", "rediss://:hunter2@host:0", hunter);
        row("other scheme", "http://alice:hunter2@host", hunter);
        row("scheme looks like user info", "alice:hunter2@host://x", hunter);
        row("no ://", "alice:hunter2@host:6379", hunter);
        row("no host", "redis://:hunter2@", hunter);
        row("no host, port", "redis://alice:hunter2@:6379", hunter);
        row("bad host", "redis://:hunter2@bad%host", hunter);
        row("bad port", "redis://:hunter2@host:0", hunter);
        row("port not a number", "redis://:hunter2@host:x", hunter);
        row("bad db", "redis://u:hunter2@host/x", hunter);
        row("query", "redis://:hunter2@host?db=1", hunter);
        row("fragment", "redis://:hunter2@host#f", hunter);
        row("whitespace", "redis://:hunter2@ho st", hunter);
        row("whitespace in password", "redis://:hunter2 x@host", hunter);
        row("encoded password, bad port", "redis://:hq7%40zk92@host:0",
            {QStringLiteral("hq7%40zk92"), QStringLiteral("hq7@zk92")});
        row("raw @ in password, bad port", "redis://:hq7@zk92@host:0",
            {QStringLiteral("hq7@zk92"), QStringLiteral("zk92")});
        row("raw / in password", "redis://:hq7/zk92@host",
            {QStringLiteral("hq7"), QStringLiteral("zk92")});
        row("raw / and : in password", "redis://:hq7/zk9:2@host",
            {QStringLiteral("hq7"), QStringLiteral("zk9")});
        row("raw # in password", "redis://:hq7#zk92@host",
            {QStringLiteral("hq7"), QStringLiteral("zk92")});
        row("raw ? in password", "redis://:hq7?db=zk92@host",
            {QStringLiteral("hq7"), QStringLiteral("zk92")});
        row("bad escape in password", "redis://:hunter2%zz@host", hunter);
        row("invalid utf-8 in password", "redis://:hunter2%FF@host", hunter);
        row("unix bad query", "unix://:hunter2@/tmp/s.sock?foo=1", hunter);
        row("unix bad db", "unix://:hunter2@/tmp/s.sock?db=x", hunter);
        row("unix no path", "unix://:hunter2@", hunter);
        row("unix relative path", "unix://:hunter2@tmp/s.sock", hunter);
        row("unix raw / in password", "unix://:hq7/zk92@/tmp/s.sock",
            {QStringLiteral("hq7"), QStringLiteral("zk92")});
        row("unix raw ? in password", "unix://:hq7?db=zk92@/tmp/s.sock",
            {QStringLiteral("hq7"), QStringLiteral("zk92")});
        row("password without ':'", "redis://S3cr3tPw@host", {QStringLiteral("S3cr3tPw")});
        row("password without ':', bad port", "redis://S3cr3tPw@host:0",
            {QStringLiteral("S3cr3tPw")});
        row("encoded password without ':'", "redis://S3cr%40tPw@host",
            {QStringLiteral("S3cr%40tPw"), QStringLiteral("S3cr@tPw")});
        row("unix password without ':'", "unix://S3cr3tPw@/tmp/s.sock",
            {QStringLiteral("S3cr3tPw")});
        row("cluster password without ':'", "redis-cluster://S3cr3tPw@h:1,h:2",
            {QStringLiteral("S3cr3tPw")});
    }

    void neverQuotesThePassword() {
        QFETCH(QString, text);
        QFETCH(QStringList, secrets);

        const std::optional<InputError> error = parseError(text);
        QVERIFY2(error.has_value(), "parse() accepted the URL");
        const QString message = error->message();
        for (const QString& secret : secrets) {
            QVERIFY2(!message.contains(secret), qPrintable(message));
            QVERIFY(!QString::fromStdString(error->what()).contains(secret));
        }
    }

    void displayString_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("display");

        auto row = [](const char* text, const char* display) {
            QTest::newRow(text) << QString::fromLatin1(text) << QString::fromLatin1(display);
        };
        row("redis://localhost", "redis://localhost:6379/0");
        row("redis://host/", "redis://host:6379/0");
        row("redis://host:7000/2", "redis://host:7000/2");
        row("REDIS://Host", "redis://Host:6379/0");
        row("redis://:secret@host", "redis://:***@host:6379/0");
        row("redis://alice:secret@host/1", "redis://alice:***@host:6379/1");
        row("redis://alice:@host", "redis://alice:@host:6379/0");
        row("redis://us%40er:secret@host", "redis://us%40er:***@host:6379/0");
        row("redis://[::1]", "redis://[::1]:6379/0");
        row("redis://:secret@[2001:db8::7]:6380/3", "redis://:***@[2001:db8::7]:6380/3");
        row("unix:///tmp/redis.sock", "unix:///tmp/redis.sock");
        row("unix:///tmp/redis.sock?db=0", "unix:///tmp/redis.sock");
        row("unix:///tmp/redis.sock?db=3", "unix:///tmp/redis.sock?db=3");
        row("unix://:secret@/tmp/redis.sock?db=2", "unix://:***@/tmp/redis.sock?db=2");
        row("unix://bob:secret@/tmp/redis.sock", "unix://bob:***@/tmp/redis.sock");
        row("unix://bob:@/tmp/redis.sock", "unix://bob:@/tmp/redis.sock");
        row("redis-cluster://a:1,b:2", "redis-cluster://a:1,b:2");
        row("redis-cluster://alice:secret@a:1,[::1]:2/0", "redis-cluster://alice:***@a:1,[::1]:2");
        row("redis-cluster://h", "redis-cluster://h:6379");
    }

    void displayString() {
        QFETCH(QString, text);
        QFETCH(QString, display);

        const RedisUrl url = RedisUrl::parse(text);
        QCOMPARE(url.toDisplayString(), display);
        if (!url.password.isEmpty()) {
            QVERIFY(!url.toDisplayString().contains(url.password));
        }
    }

    void displayStringOfBuiltUrls() {
        QCOMPARE(RedisUrl().toDisplayString(), QStringLiteral("redis://127.0.0.1:6379/0"));

        RedisUrl ipv6;
        ipv6.host = QStringLiteral("::1");
        ipv6.password = QStringLiteral("p@ss");
        QCOMPARE(ipv6.toDisplayString(), QStringLiteral("redis://:***@[::1]:6379/0"));

        RedisUrl socket;
        socket.transport = RedisUrl::Transport::Unix;
        socket.socketPath = QStringLiteral("/run/redis.sock");
        socket.user = QStringLiteral("a:b");
        socket.password = QStringLiteral("a:b");
        socket.db = 9;
        QCOMPARE(socket.toDisplayString(), QStringLiteral("unix://a%3Ab:***@/run/redis.sock?db=9"));
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("text");

        for (const char* text :
             {"redis://localhost", "redis://127.0.0.1:6380/5", "redis://host:1/2147483647",
              "redis://[::1]:6390/1", "redis://[2001:db8::7]", "redis://alice:@host/2",
              "redis://us%40er%3A1:@host", "redis://my_host-1.internal:65535",
              "unix:///tmp/redis.sock", "unix:///tmp/redis.sock?db=4", "unix://bob:@/tmp/a@b.sock",
              "unix:///run/redis/redis-server.sock?db=0", "redis-cluster://a:1,b:2,[::1]:3",
              "redis-cluster://bob:@h:7000"}) {
            QTest::newRow(text) << QString::fromLatin1(text);
        }
    }

    void roundTrip() {
        QFETCH(QString, text);

        const RedisUrl url = RedisUrl::parse(text);
        const RedisUrl again = RedisUrl::parse(url.toDisplayString());
        QVERIFY2(again == url, qPrintable(url.toDisplayString()));
        QCOMPARE(again.toDisplayString(), url.toDisplayString());
    }

    void equality() {
        const RedisUrl base = RedisUrl::parse(QStringLiteral("redis://alice:pw@host:6380/2"));
        QVERIFY(base == RedisUrl::parse(QStringLiteral("redis://alice:p%77@host:6380/2")));

        const QStringList others = {
            QStringLiteral("redis://bob:pw@host:6380/2"),
            QStringLiteral("redis://alice:px@host:6380/2"),
            QStringLiteral("redis://alice:pw@other:6380/2"),
            QStringLiteral("redis://alice:pw@host:6381/2"),
            QStringLiteral("redis://alice:pw@host:6380/3"),
            QStringLiteral("unix://alice:pw@/host?db=2"),
            QStringLiteral("redis-cluster://alice:pw@host:6380"),
        };
        for (const QString& other : others) {
            QVERIFY2(!(base == RedisUrl::parse(other)), qPrintable(other));
        }
    }
};

QTEST_GUILESS_MAIN(TestRedisUrl)
#include "tst_redis_url.moc"
