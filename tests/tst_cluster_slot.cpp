// Redis Cluster key distribution and redirection replies, without a server: CRC16 and hash
// slots (expected values read from a real redis-server 7 with CLUSTER KEYSLOT), and the
// parsing of MOVED/ASK errors. tst_cluster compares keyHashSlot with CLUSTER KEYSLOT live.
#include <QtTest>

#include "limiters/limiter.h"
#include "redis/cluster_slot.h"

using namespace ratelab;

class TestClusterSlot : public QObject {
    Q_OBJECT

private slots:
    void crc16KnownAnswer() {
        // The cluster specification's check value for CRC16/XMODEM.
        QCOMPARE(crc16("123456789"), 0x31C3u);
        QCOMPARE(crc16(""), 0u);
    }

    void keySlot_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("slot");
        QTest::newRow("foo") << QByteArray("foo") << 12182;
        QTest::newRow("bar") << QByteArray("bar") << 5061;
        QTest::newRow("hello") << QByteArray("hello") << 866;
        QTest::newRow("digits") << QByteArray("123456789") << 12739;
        QTest::newRow("tag following") << QByteArray("{user1000}.following") << 3443;
        QTest::newRow("tag followers") << QByteArray("{user1000}.followers") << 3443;
        QTest::newRow("empty tag: whole key") << QByteArray("foo{}{bar}") << 8363;
        QTest::newRow("tag is '{bar'") << QByteArray("foo{{bar}}zap") << 4015;
        QTest::newRow("first tag wins") << QByteArray("foo{bar}{zap}") << 5061;
        QTest::newRow("redisson config hash") << QByteArray("api") << 6541;
        QTest::newRow("redisson value") << QByteArray("{api}:value") << 6541;
        QTest::newRow("redisson per-client permits") << QByteArray("{api}:permits:c1") << 6541;
        QTest::newRow("empty key") << QByteArray("") << 0;
        QTest::newRow("only braces") << QByteArray("{}") << 15257;
        QTest::newRow("unclosed brace") << QByteArray("a{b") << 13340;
        QTest::newRow("utf-8") << QByteArray("ключ") << 10303;
    }
    void keySlot() {
        QFETCH(QByteArray, key);
        QFETCH(int, slot);
        QCOMPARE(keyHashSlot(std::string_view(key.constData(), size_t(key.size()))), slot);
    }

    // Every key of a limiter, Redisson's config hash `name` included, is in one slot.
    void limiterKeysShareASlot_data() {
        QTest::addColumn<QString>("type");
        QTest::newRow("token_bucket") << QStringLiteral("token_bucket");
        QTest::newRow("fixed_window") << QStringLiteral("fixed_window");
        QTest::newRow("sliding_window") << QStringLiteral("sliding_window");
    }
    void limiterKeysShareASlot() {
        QFETCH(QString, type);
        LimiterSpec spec;
        spec.type = type == QLatin1String("token_bucket")   ? LimiterType::TokenBucket
                    : type == QLatin1String("fixed_window") ? LimiterType::FixedWindow
                                                            : LimiterType::SlidingWindow;
        spec.name = QStringLiteral("orders:eu west/ü");
        spec.scope = Scope::PerClient;
        spec.rate = 5;
        spec.intervalMs = 1000;
        spec.interval = 1;
        spec.unit = CalendarUnit::Seconds;
        spec.timezone = "UTC";
        spec.rules = {{5, 1000}};
        const auto limiter = makeLimiter(spec);
        for (const char* client : {"a", "client:with:colons", "{braces}"}) {
            const ScriptCall call =
                limiter->prepare(Request{1'700'000'000'000, QString::fromUtf8(client), 1});
            QVERIFY(!call.keys.empty());
            for (const std::string& key : call.keys) {
                QCOMPARE(keyHashSlot(key), limiter->slot());
            }
        }
        for (const std::string& key : limiter->exactKeys()) {
            QCOMPARE(keyHashSlot(key), limiter->slot());
        }
    }

    void redirect_data() {
        QTest::addColumn<QByteArray>("error");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("moved");
        QTest::addColumn<int>("slot");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("moved") << QByteArray("MOVED 3999 127.0.0.1:6381") << true << true << 3999
                               << QStringLiteral("127.0.0.1") << 6381;
        QTest::newRow("ask") << QByteArray("ASK 0 10.0.0.2:30002") << true << false << 0
                             << QStringLiteral("10.0.0.2") << 30002;
        QTest::newRow("hostname") << QByteArray("MOVED 16383 redis-2.internal:7000") << true << true
                                  << 16383 << QStringLiteral("redis-2.internal") << 7000;
        QTest::newRow("ipv6") << QByteArray("ASK 12 [::1]:7001") << true << false << 12
                              << QStringLiteral("::1") << 7001;
        QTest::newRow("ipv6 bare") << QByteArray("MOVED 12 ::1:7001") << true << true << 12
                                   << QStringLiteral("::1") << 7001;
        QTest::newRow("slot too big")
            << QByteArray("MOVED 16384 h:1") << false << false << 0 << QString() << 0;
        QTest::newRow("negative slot")
            << QByteArray("MOVED -1 h:1") << false << false << 0 << QString() << 0;
        QTest::newRow("no port") << QByteArray("MOVED 1 host") << false << false << 0 << QString()
                                 << 0;
        QTest::newRow("port zero")
            << QByteArray("MOVED 1 host:0") << false << false << 0 << QString() << 0;
        QTest::newRow("port too big")
            << QByteArray("ASK 1 host:65536") << false << false << 0 << QString() << 0;
        QTest::newRow("no host") << QByteArray("ASK 1 :6379") << false << false << 0 << QString()
                                 << 0;
        QTest::newRow("trailing junk")
            << QByteArray("MOVED 1x h:1") << false << false << 0 << QString() << 0;
        QTest::newRow("other error") << QByteArray(
                                            "TRYAGAIN Multiple keys request during "
                                            "rehashing of slot")
                                     << false << false << 0 << QString() << 0;
        QTest::newRow("lowercase")
            << QByteArray("moved 1 h:1") << false << false << 0 << QString() << 0;
        QTest::newRow("empty") << QByteArray() << false << false << 0 << QString() << 0;
    }
    void redirect() {
        QFETCH(QByteArray, error);
        QFETCH(bool, valid);
        const auto r =
            parseClusterRedirect(std::string_view(error.constData(), size_t(error.size())));
        QCOMPARE(r.has_value(), valid);
        if (!valid) {
            return;
        }
        QFETCH(bool, moved);
        QFETCH(int, slot);
        QFETCH(QString, host);
        QFETCH(int, port);
        QCOMPARE(r->kind == ClusterRedirect::Kind::Moved, moved);
        QCOMPARE(r->slot, slot);
        QCOMPARE(QString::fromStdString(r->host), host);
        QCOMPARE(r->port, port);
    }
};

QTEST_GUILESS_MAIN(TestClusterSlot)
#include "tst_cluster_slot.moc"
