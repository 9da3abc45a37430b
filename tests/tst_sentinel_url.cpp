// redis-sentinel:// URLs: the sentinels, the master name, the query (db, the sentinels' own
// AUTH), refusals naming the part that is wrong, passwords never quoted, a masked display form
// that parses back.
#include <QtTest>
#include <optional>

#include "input_error.h"
#include "url/redis_url.h"
#include "url/sentinel_url.h"

using namespace ratelab;

namespace {

std::optional<InputError> parseError(const QString& text) {
    try {
        RedisUrl::parse(text);
    } catch (const InputError& e) {
        return e;
    }
    return std::nullopt;
}

using HostPorts = QVector<RedisUrl::HostPort>;

}  // namespace

Q_DECLARE_METATYPE(HostPorts)

class TestSentinelUrl : public QObject {
    Q_OBJECT

private slots:
    void parsesSentinelUrls_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<HostPorts>("sentinels");
        QTest::addColumn<QString>("masterName");
        QTest::addColumn<int>("db");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("sentinelUser");
        QTest::addColumn<QString>("sentinelPassword");

        const QString none;
        auto hp = [](const char* host, int port) {
            return RedisUrl::HostPort{QString::fromLatin1(host), port};
        };
        QTest::newRow("one sentinel")
            << QStringLiteral("redis-sentinel://127.0.0.1:26379/mymaster")
            << HostPorts{hp("127.0.0.1", 26379)} << QStringLiteral("mymaster") << 0 << none << none
            << none << none;
        QTest::newRow("default port 26379, db in the query")
            << QStringLiteral("redis-sentinel://s1,s2:26380/cache?db=3")
            << HostPorts{hp("s1", 26379), hp("s2", 26380)} << QStringLiteral("cache") << 3 << none
            << none << none << none;
        QTest::newRow("scheme in capitals, duplicate sentinel dropped")
            << QStringLiteral("REDIS-SENTINEL://h:1,h:1,[::1]/m")
            << HostPorts{hp("h", 1), hp("::1", 26379)} << QStringLiteral("m") << 0 << none << none
            << none << none;
        QTest::newRow("data node user and password")
            << QStringLiteral("redis-sentinel://app:p%40ss@h:26379/m") << HostPorts{hp("h", 26379)}
            << QStringLiteral("m") << 0 << QStringLiteral("app") << QStringLiteral("p@ss") << none
            << none;
        QTest::newRow("sentinel credentials in the query")
            << QStringLiteral("redis-sentinel://:pw@h/m?sentinel_user=sen&sentinel_password=s%26p")
            << HostPorts{hp("h", 26379)} << QStringLiteral("m") << 0 << none << QStringLiteral("pw")
            << QStringLiteral("sen") << QStringLiteral("s&p");
        QTest::newRow("percent-encoded master name")
            << QStringLiteral("redis-sentinel://h:2/team%2Fcache?&db=1&") << HostPorts{hp("h", 2)}
            << QStringLiteral("team/cache") << 1 << none << none << none << none;
    }

    void parsesSentinelUrls() {
        QFETCH(QString, text);
        QFETCH(HostPorts, sentinels);
        QFETCH(QString, masterName);
        QFETCH(int, db);
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(QString, sentinelUser);
        QFETCH(QString, sentinelPassword);

        const RedisUrl url = RedisUrl::parse(text);
        QVERIFY(url.isSentinel());
        QVERIFY(!url.isCluster());
        QCOMPARE(url.seeds, sentinels);
        QCOMPARE(url.host, sentinels.front().host);
        QCOMPARE(url.port, sentinels.front().port);
        QCOMPARE(url.masterName, masterName);
        QCOMPARE(url.db, db);
        QCOMPARE(url.user, user);
        QCOMPARE(url.password, password);
        QCOMPARE(url.sentinelUser, sentinelUser);
        QCOMPARE(url.sentinelPassword, sentinelPassword);

        // Sentinels are asked with the sentinels' credentials, not the primary's.
        const RedisUrl asked = sentinelNodeUrl(url, int(sentinels.size()) - 1);
        QCOMPARE(asked.transport, RedisUrl::Transport::Tcp);
        QCOMPARE(asked.host, sentinels.back().host);
        QCOMPARE(asked.port, sentinels.back().port);
        QCOMPARE(asked.db, 0);
        QCOMPARE(asked.user, sentinelUser);
        QCOMPARE(asked.password, sentinelPassword);
    }

    void refusesInvalidUrls_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("messagePart");

        auto row = [](const char* text, const char* where, const char* part) {
            QTest::newRow(text) << QString::fromLatin1(text) << QString::fromLatin1(where)
                                << QString::fromLatin1(part);
        };
        row("redis-sentinel://h:26379", "URL master name", "is missing");
        row("redis-sentinel://h:26379/", "URL master name", "is missing");
        row("redis-sentinel://h:26379?db=1", "URL master name", "is missing");
        row("redis-sentinel://h:26379/m/2", "URL master name", "give the database as ?db=N");
        row("redis-sentinel://h/m%zz", "URL master name", "'%' not followed by two hex digits");
        row("redis-sentinel://h:99999/m", "URL port", "99999 is out of range (expected 1..65535)");
        row("redis-sentinel://h:abc/m", "URL port", "\"abc\" is not a number");
        row("redis-sentinel://h:/m", "URL port", "is empty");
        row("redis-sentinel:///m", "URL host", "empty sentinel address");
        row("redis-sentinel://h1,,h2/m", "URL host", "empty sentinel address");
        row("redis-sentinel://h1,/m", "URL host", "empty sentinel address");
        row("redis-sentinel://::1/m", "URL host", "IPv6 address must be in brackets");
        row("redis-sentinel://h!/m", "URL host", "\"h!\" is not a host name");
        row("redis-sentinel://h/m?db=x", "URL database", "\"x\" is not a number");
        row("redis-sentinel://h/m?db=-1", "URL database", "is not a number");
        row("redis-sentinel://h/m?db=99999999999", "URL database", "out of range");
        row("redis-sentinel://h/m?db=", "URL query", "db has no value");
        row("redis-sentinel://h/m?db=1&db=2", "URL query", "db is given twice");
        row("redis-sentinel://h/m?tls=1", "URL query", "unknown parameter \"tls\"");
        row("redis-sentinel://h/m?sentinel_user=u", "URL query", "needs sentinel_password");
        row("redis-sentinel://h/m?sentinel_password=%G0", "URL sentinel_password",
            "'%' not followed");
        row("redis-sentinel://h/m#frag", "URL", "fragment");
        row("redis-sentinel://S3cr3tPw@h/m", "URL user info", "has no ':'");
        row("redis-sentinel://:pw@h/m?x=@", "URL", "'@' after the host");
    }

    void refusesInvalidUrls() {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, messagePart);

        const std::optional<InputError> error = parseError(text);
        QVERIFY2(error.has_value(), "parse() accepted the URL");
        QCOMPARE(error->where(), where);
        QVERIFY2(error->problem().contains(messagePart), qPrintable(error->message()));
    }

    void neverQuotesThePassword_data() {
        QTest::addColumn<QString>("text");

        for (const char* text : {
                 "redis-sentinel://S3cr3tPw@h/m",
                 "redis-sentinel://:S3cr3tPw@h:99999/m",
                 "redis-sentinel://:S3cr3tPw@h/m?db=x",
                 "redis-sentinel://:S3cr3tPw@h",
                 "redis-sentinel://:S3cr/3tPw@h/m",
                 "redis-sentinel://:S3cr%zz3tPw@h/m",
                 "redis-sentinel://h/m?sentinel_password=S3cr3tPw&db=x",
                 "redis-sentinel://h/m?sentinel_password=S3cr3tPw&sentinel_password=S3cr3tPw",
                 "redis-sentinel://h/m?sentinel_password=S3cr3tPw%zz",
                 "redis-sentinel://h/m?sentinel_user=u&sentinel_pasword=S3cr3tPw",
             }) {
            QTest::newRow(text) << QString::fromLatin1(text);
        }
    }

    void neverQuotesThePassword() {
        QFETCH(QString, text);

        const std::optional<InputError> error = parseError(text);
        QVERIFY2(error.has_value(), "parse() accepted the URL");
        QVERIFY2(!error->message().contains(QLatin1String("S3cr")), qPrintable(error->message()));
    }

    void displayString_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("display");

        auto row = [](const char* text, const char* display) {
            QTest::newRow(text) << QString::fromLatin1(text) << QString::fromLatin1(display);
        };
        row("redis-sentinel://h/m", "redis-sentinel://h:26379/m");
        row("redis-sentinel://a:1,[::1]:2/m?db=0", "redis-sentinel://a:1,[::1]:2/m");
        row("redis-sentinel://alice:secret@h:1/m?db=4", "redis-sentinel://alice:***@h:1/m?db=4");
        row("redis-sentinel://bob:@h:1/team%2Fcache", "redis-sentinel://bob:@h:1/team%2Fcache");
        row("redis-sentinel://:secret@h:1/m?sentinel_password=other&sentinel_user=s%40n",
            "redis-sentinel://:***@h:1/m?sentinel_user=s%40n&sentinel_password=***");
    }

    void displayString() {
        QFETCH(QString, text);
        QFETCH(QString, display);

        const RedisUrl url = RedisUrl::parse(text);
        QCOMPARE(url.toDisplayString(), display);
        QVERIFY(!display.contains(QLatin1String("secret")));
        QVERIFY(!display.contains(QLatin1String("other")));
        // The masked form parses back to the same URL but for the passwords.
        RedisUrl again = RedisUrl::parse(display);
        if (!url.password.isEmpty()) {
            again.password = url.password;
        }
        if (!url.sentinelPassword.isEmpty()) {
            again.sentinelPassword = url.sentinelPassword;
        }
        QVERIFY2(again == url, qPrintable(again.toDisplayString()));
    }

    void equalityCoversSentinelFields() {
        const RedisUrl base = RedisUrl::parse(QStringLiteral("redis-sentinel://h:1/m"));
        QVERIFY(base == RedisUrl::parse(QStringLiteral("redis-sentinel://h:1/m")));
        QVERIFY(!(base == RedisUrl::parse(QStringLiteral("redis-sentinel://h:1/n"))));
        QVERIFY(!(base == RedisUrl::parse(QStringLiteral("redis-sentinel://h:1/m?db=1"))));
        QVERIFY(!(base ==
                  RedisUrl::parse(QStringLiteral("redis-sentinel://h:1/m?sentinel_password=x"))));
        QVERIFY(!(base == RedisUrl::parse(QStringLiteral("redis://h:1"))));
    }
};

QTEST_GUILESS_MAIN(TestSentinelUrl)
#include "tst_sentinel_url.moc"
