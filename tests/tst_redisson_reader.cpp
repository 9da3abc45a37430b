// Attaching to a live Redisson RRateLimiter: decoding its keys exactly (records packed by Lua as
// Redisson packs them), refusing garbage with the key named, reading ratelab's own token bucket
// (same layout), and proving the watcher only reads (a read-only ACL user suffices; MONITOR sees
// nothing but the read allowlist). Also the `ratelab watch` command line.
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QtTest>

#include "input_error.h"
#include "limiters/limiter_state.h"
#include "limiters/permit_record.h"
#include "live/redisson_watcher.h"
#include "redis/redis_error.h"
#include "redisson/redisson_limiter_reader.h"
#include "support/redisson_writer.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kNow = 1'700'000'000'000;

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run runWatch(const QStringList& args,
             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("RATELAB_BIN"), QStringList{QStringLiteral("watch")} + args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromLocal8Bit(p.readAllStandardOutput()),
            QString::fromLocal8Bit(p.readAllStandardError())};
}

// "client:age:permits;..." -> grants at kNow - age.  "client=value;..." -> values.
void writeGrants(RedissonWriter& w, const QString& spec, int idBytes = 16) {
    for (const QString& g : spec.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QStringList f = g.split(QLatin1Char(':'));
        w.grant(kNow - f[1].toLongLong(), f[2].toLongLong(), f[0], idBytes);
    }
}

QMap<QString, qint64> pairs(const QString& spec) {
    QMap<QString, qint64> out;
    for (const QString& p : spec.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QStringList f = p.split(QLatin1Char('='));
        out[f[0]] = f[1].toLongLong();
    }
    return out;
}

// A Redis ACL user that may only run read commands (and AUTH), deleted with this object.
class ReadOnlyUser {
public:
    ReadOnlyUser() : admin_(connectFixture()) {
        user_ = uniqueName(QStringLiteral("ratelab-watcher")).toStdString();
        password_ = "pw-" + uniqueName(QStringLiteral("secret")).toStdString();
        RedisReply r = admin_->command({"ACL", "SETUSER", user_, "reset", "on", ">" + password_,
                                        "~*", "&*", "-@all", "+@read", "+auth"});
        expectStatusOk(r.get(), "ACL SETUSER");
    }
    ~ReadOnlyUser() { admin_->command({"ACL", "DELUSER", user_}); }
    RedisUrl url() const {
        RedisUrl u = fixtureUrl();
        u.user = QString::fromStdString(user_);
        u.password = QString::fromStdString(password_);
        return u;
    }
    const std::string& password() const { return password_; }

private:
    std::unique_ptr<RedisConnection> admin_;
    std::string user_;
    std::string password_;
};

// Writes `count` grant records into `permitsKey`, 20,000 per Lua call (each call well within
// the connection's command timeout): record i at t0 + i / perMs (integer division) holding
// 1 + i % mod permits, its 16-byte id `prefix` (4 bytes) + i.
void writeManyGrants(RedissonWriter& w, const std::string& permitsKey, int count, qint64 t0,
                     int perMs, int mod, const char* prefix) {
    static const char kScript[] = R"lua(
local from, to = tonumber(ARGV[1]), tonumber(ARGV[2])
local t0, div, mod = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
for i = from, to - 1 do
    local id = ARGV[6] .. string.format('%012d', i)
    redis.call('zadd', KEYS[1], t0 + math.floor(i / div), struct.pack('Bc0I', 16, id, 1 + i % mod))
end
return to - from
)lua";
    constexpr int kChunk = 20000;
    for (int from = 0; from < count; from += kChunk) {
        const int to = std::min(count, from + kChunk);
        w.raw({"EVAL", kScript, "1", permitsKey, std::to_string(from), std::to_string(to),
               std::to_string(t0), std::to_string(perMs), std::to_string(mod), prefix},
              permitsKey);
    }
}

// A grant as the test wrote it.
struct ModelGrant {
    qint64 timeMs;
    qint64 permits;
};

// The arguments of every command MONITOR showed between now and `marker` that mention `needle`.
QList<QStringList> monitoredCommands(RedisConnection& monitor, const std::string& marker,
                                     const QByteArray& needle) {
    static const QRegularExpression kArg(QStringLiteral(R"re("((?:[^"\\]|\\.)*)")re"));
    QList<QStringList> out;
    for (;;) {
        const std::string line = replyString(monitor.readReply().get(), "MONITOR line");
        if (line.find(marker) != std::string::npos) {
            return out;
        }
        if (QByteArray::fromStdString(line).indexOf(needle) < 0) {
            continue;
        }
        QStringList args;
        const QString text = QString::fromStdString(line.substr(line.find("] \"") + 2));
        for (auto it = kArg.globalMatch(text); it.hasNext();) {
            args << it.next().captured(1);
        }
        args[0] = args[0].toUpper();
        out << args;
    }
}

// How many records a ZRANGE / ZRANGEBYSCORE can return at most; -1 when unbounded.
qint64 recordsBound(const QStringList& args) {
    if (args.at(0) == QLatin1String("ZRANGE") && args.size() >= 4) {
        const qint64 start = args.at(2).toLongLong();
        const qint64 stop = args.at(3).toLongLong();
        if ((start < 0) == (stop < 0)) {
            return std::max<qint64>(0, stop - start + 1);
        }
        return -1;  // "0 -1" and the like: the whole zset
    }
    if (args.at(0) == QLatin1String("ZRANGEBYSCORE")) {
        qsizetype limit = -1;
        for (qsizetype i = 0; i < args.size(); ++i) {
            if (args.at(i).compare(QLatin1String("LIMIT"), Qt::CaseInsensitive) == 0) {
                limit = i;
            }
        }
        if (limit < 0 || limit + 2 >= args.size()) {
            return -1;
        }
        return args.at(limit + 2).toLongLong();
    }
    return 0;
}

}  // namespace

class TestRedissonReader : public QObject {
    Q_OBJECT

private slots:
    void recordCodec() {
        const QByteArray id = QByteArray::fromHex("00112233445566778899aabbccddeeff");
        const QByteArray bytes = encodePermitRecord(id, 258);
        QCOMPARE(bytes.size(), 21);
        QCOMPARE(quint8(bytes[0]), quint8(16));
        QCOMPARE(bytes.mid(17).toHex(), QByteArray("02010000"));  // little-endian 258
        const auto back = decodePermitRecord(bytes.constData(), size_t(bytes.size()));
        QVERIFY(back.has_value());
        QCOMPARE(back->id, id);
        QCOMPARE(back->permits, 258u);
        QVERIFY(!decodePermitRecord(bytes.constData(), size_t(bytes.size() - 1)));
        QVERIFY(!decodePermitRecord(bytes.constData(), 0));
    }

    // Lua's struct.pack, as Redisson calls it, gives exactly the bytes the decoder expects.
    void luaPacksAsDecoded() {
        auto c = connectFixture();
        RedisReply r = c->command({"EVAL",
                                   "return struct.pack('Bc0I', string.len(ARGV[1]), "
                                   "ARGV[1], ARGV[2])",
                                   "0", "abcdefghijklmnop", "70000"});
        const std::string bytes = replyString(r.get(), "EVAL");
        QCOMPARE(bytes.size(), size_t(21));
        const auto rec = decodePermitRecord(bytes.data(), bytes.size());
        QVERIFY(rec.has_value());
        QCOMPARE(rec->id, QByteArray("abcdefghijklmnop"));
        QCOMPARE(rec->permits, 70000u);
    }

    void keyNames() {
        QCOMPARE(redissonSuffixName("api", "value"), std::string("{api}:value"));
        QCOMPARE(redissonSuffixName("{app}.api", "permits:c1"),
                 std::string("{app}.api:permits:c1"));
        const RedissonLimiterReader reader(QStringLiteral("a*b"));
        QCOMPARE(reader.configKey(), std::string("a*b"));
        QCOMPARE(reader.valueKey(QStringLiteral("id-1")), std::string("{a*b}:value:id-1"));
        QCOMPARE(reader.permitsKey(), std::string("{a*b}:permits"));
        QCOMPARE(reader.scanPattern(), std::string("{a\\*b}:*"));
        QVERIFY_THROWS_EXCEPTION(InputError, RedissonLimiterReader{QString()});
        QVERIFY_THROWS_EXCEPTION(InputError, RedissonLimiterReader{QStringLiteral("a\nb")});
    }

    void decode_data() {
        QTest::addColumn<bool>("perClient");
        QTest::addColumn<bool>("braces");  // a name that holds its own hash tag
        QTest::addColumn<int>("idBytes");
        QTest::addColumn<QString>("grants");       // client:age_ms:permits;...
        QTest::addColumn<QString>("values");       // client=value;...
        QTest::addColumn<QString>("available");    // client=available;...
        QTest::addColumn<QString>("inWindow");     // client=grants in window;...
        QTest::addColumn<QString>("nextRelease");  // client=ms after now (-1: none);...
        // rate 10 per 1000 ms throughout.
        QTest::newRow("overall, untouched")
            << false << false << 16 << u""_s << u""_s << u"=10"_s << u"=0"_s << u"=-1"_s;
        QTest::newRow("overall, grants in window") << false << false << 16 << u":100:2;:50:1"_s
                                                   << u"=7"_s << u"=7"_s << u"=2"_s << u"=900"_s;
        QTest::newRow("overall, one released") << false << false << 16 << u":1500:2;:300:3"_s
                                               << u"=5"_s << u"=7"_s << u"=1"_s << u"=700"_s;
        QTest::newRow("overall, exactly interval old is released")
            << false << false << 16 << u":1000:1"_s << u"=9"_s << u"=10"_s << u"=0"_s << u"=-1"_s;
        QTest::newRow("overall, one ms younger is held")
            << false << false << 16 << u":999:1"_s << u"=9"_s << u"=9"_s << u"=1"_s << u"=1"_s;
        QTest::newRow("overall, drifted value repaired")
            << false << false << 16 << u":1200:3;:100:2"_s << u"=9"_s << u"=8"_s << u"=1"_s
            << u"=900"_s;
        QTest::newRow("overall, value absent: Redisson restarts at rate")
            << false << false << 16 << u":100:4"_s << u""_s << u"=10"_s << u"=1"_s << u"=900"_s;
        QTest::newRow("overall, 8-byte ids (older Redisson)")
            << false << false << 8 << u":10:3;:20:3"_s << u"=4"_s << u"=4"_s << u"=2"_s
            << u"=980"_s;
        QTest::newRow("overall, name with its own hash tag")
            << false << true << 16 << u":200:6"_s << u"=4"_s << u"=4"_s << u"=1"_s << u"=800"_s;
        QTest::newRow("per client")
            << true << false << 16
            << u"0d5e7c1a-11aa-4b2b-9c3c-1234567890ab:100:2;0d5e7c1a-11aa-4b2b-9c3c-1234567890ab:"
               u"1100:5;other:400:10"_s
            << u"0d5e7c1a-11aa-4b2b-9c3c-1234567890ab=3;other=0"_s
            << u"0d5e7c1a-11aa-4b2b-9c3c-1234567890ab=8;other=0"_s
            << u"0d5e7c1a-11aa-4b2b-9c3c-1234567890ab=1;other=1"_s
            << u"0d5e7c1a-11aa-4b2b-9c3c-1234567890ab=900;other=600"_s;
        QTest::newRow("per client, braces") << true << true << 16 << u"c1:10:1"_s << u"c1=9"_s
                                            << u"c1=9"_s << u"c1=1"_s << u"c1=990"_s;
    }
    void decode() {
        QFETCH(bool, perClient);
        QFETCH(bool, braces);
        QFETCH(int, idBytes);
        QFETCH(QString, grants);
        QFETCH(QString, values);
        QFETCH(QString, available);
        QFETCH(QString, inWindow);
        QFETCH(QString, nextRelease);
        const QString name = braces
                                 ? QStringLiteral("{%1}.api").arg(uniqueName(QStringLiteral("rr")))
                                 : uniqueName(QStringLiteral("rr"));
        RedissonWriter w(name);
        w.setRate(10, 1000, perClient);
        writeGrants(w, grants, idBytes);
        const QMap<QString, qint64> vals = pairs(values);
        for (auto it = vals.cbegin(); it != vals.cend(); ++it) {
            w.setValue(it.value(), it.key());
        }

        const RedissonSnapshot s = RedissonLimiterReader(name).read(w.connection(), kNow);
        QCOMPARE(s.rate, 10);
        QCOMPARE(s.intervalMs, 1000);
        QCOMPARE(s.perClient, perClient);
        QCOMPARE(s.keepAliveTimeMs, 0);
        const QMap<QString, qint64> avail = pairs(available);
        const QMap<QString, qint64> window = pairs(inWindow);
        const QMap<QString, qint64> next = pairs(nextRelease);
        QCOMPARE(s.scopes.size(), avail.size());
        QCOMPARE(s.totalScopes, avail.size());
        for (const RedissonScope& scope : s.scopes) {
            QVERIFY2(avail.contains(scope.clientId), qPrintable(scope.clientId));
            QCOMPARE(scope.available, avail[scope.clientId]);
            QCOMPARE(scope.grantsInWindow, window[scope.clientId]);
            QCOMPARE(scope.nextReleaseMs,
                     next[scope.clientId] < 0 ? -1 : kNow + next[scope.clientId]);
            QCOMPARE(scope.hasValue, vals.contains(scope.clientId));
            QCOMPARE(scope.valueKey, QString::fromStdString(w.valueKey(scope.clientId)));
            qint64 held = 0;
            for (const RedissonGrant& g : scope.grants) {
                QCOMPARE(g.idHex.size(), idBytes * 2);
                QCOMPARE(g.inWindow, g.timeMs > kNow - 1000);
                held += g.inWindow ? g.permits : 0;
            }
            QCOMPARE(scope.permitsInWindow, held);
            QCOMPARE(scope.availableFromGrants, 10 - held);
        }
    }

    // The reader summarises any number of grants with bounded reads (counts, the oldest and
    // newest records, at most its bound of records per read; reading them all, `watch` on a
    // limiter with 3 million grants took 630 MB and 6 s a poll) and agrees with an exact model
    // computed here from every record written.
    void manyGrantsBoundedReads_data() {
        QTest::addColumn<int>("inWindow");
        QTest::addColumn<int>("expired");
        QTest::addColumn<qint64>("drift");  // added to the consistent bucket value
        QTest::addColumn<bool>("exact");    // every figure known exactly (all records read)
        QTest::newRow("200,000 grants in the window, 50 expired") << 200000 << 50 << 0LL << false;
        QTest::newRow("200,000 expired, 10 in the window (an idle limiter)")
            << 10 << 200000 << 0LL << false;
        QTest::newRow("1,500 grants: every record read") << 1400 << 100 << 0LL << true;
        QTest::newRow("200,000 in the window, drifted value") << 200000 << 50 << 1000LL << false;
    }
    void manyGrantsBoundedReads() {
        QFETCH(int, inWindow);
        QFETCH(int, expired);
        QFETCH(qint64, drift);
        QFETCH(bool, exact);
        constexpr qint64 kRate = 1'000'000;
        constexpr qint64 kInterval = 60'000;
        constexpr int kBound = 2000;  // the reader's default: records per read
        RedissonWriter w(uniqueName(QStringLiteral("rr-many")));
        w.setRate(kRate, kInterval, false);
        // Expired records from kNow - 200 s, in-window ones from kNow - 50 s; 5 per ms.
        const qint64 expiredT0 = kNow - 200'000;
        const qint64 windowT0 = kNow - 50'000;
        writeManyGrants(w, w.permitsKey(), expired, expiredT0, 5, 2, "ex__");
        writeManyGrants(w, w.permitsKey(), inWindow, windowT0, 5, 3, "in__");

        // The exact model: every record, oldest first.
        QVector<ModelGrant> all;
        for (int i = 0; i < expired; ++i) {
            all.push_back({expiredT0 + i / 5, 1 + i % 2});
        }
        for (int i = 0; i < inWindow; ++i) {
            all.push_back({windowT0 + i / 5, 1 + i % 3});
        }
        const qint64 cutoff = kNow - kInterval;
        qint64 windowPermits = 0;
        qint64 expiredPermits = 0;
        qint64 oldestInWindow = -1;
        for (const ModelGrant& g : all) {
            if (g.timeMs > cutoff) {
                windowPermits += g.permits;
                oldestInWindow = oldestInWindow < 0 ? g.timeMs : oldestInWindow;
            } else {
                expiredPermits += g.permits;
            }
        }
        const qint64 stored = kRate - windowPermits - expiredPermits + drift;
        w.setValue(stored);
        // Redisson's next tryAcquire: released permits come back, a value above rate is
        // repaired to rate minus the permits still held.
        const qint64 available =
            stored + expiredPermits > kRate ? kRate - windowPermits : stored + expiredPermits;

        RedisConnection monitor(fixtureUrl());
        expectStatusOk(monitor.command({"MONITOR"}).get(), "MONITOR");
        const RedissonSnapshot s = RedissonLimiterReader(w.name()).read(w.connection(), kNow);
        const std::string marker = "end-of-read-" + w.name().toStdString();
        connectFixture()->command({"ECHO", marker});

        QCOMPARE(s.scopes.size(), 1);
        const RedissonScope& scope = s.scopes.front();
        QCOMPARE(scope.storedGrants, inWindow + expired);
        QCOMPARE(scope.grantsInWindow, inWindow);
        QCOMPARE(scope.expiredGrants, expired);
        QCOMPARE(scope.nextReleaseMs, oldestInWindow + kInterval);
        QCOMPARE(scope.lastGrantMs, all.last().timeMs);
        QCOMPARE(scope.storedValue, stored);
        // Sums past the bound are derived from the value (exact while the state is
        // consistent) and marked estimated; a drifted value leaves them estimates.
        QCOMPARE(scope.estimated, !exact);
        QCOMPARE(
            scope.unreadGrants,
            exact ? 0 : qint64(std::max(0, inWindow - kBound) + std::max(0, expired - kBound)));
        if (drift == 0) {
            QCOMPARE(scope.available, available);
            QCOMPARE(scope.permitsInWindow, windowPermits);
            QCOMPARE(scope.expiredPermits, expiredPermits);
            QCOMPARE(scope.availableFromGrants, kRate - windowPermits);
        } else {
            QVERIFY(scope.permitsInWindow >= inWindow);  // at least one permit per record
        }
        // The newest records for the chart, at most the bound.
        const qsizetype shown = std::min<qsizetype>(kBound, all.size());
        QCOMPARE(scope.grants.size(), shown);
        for (qsizetype i = 0; i < shown; ++i) {
            const ModelGrant& m = all.at(all.size() - shown + i);
            QCOMPARE(scope.grants.at(i).timeMs, m.timeMs);
            QCOMPARE(scope.grants.at(i).permits, m.permits);
            QCOMPARE(scope.grants.at(i).inWindow, m.timeMs > cutoff);
        }

        // What the reader sent: no read of the whole zset, every range read bounded.
        const QList<QStringList> sent =
            monitoredCommands(monitor, marker, QByteArray::fromStdString(w.permitsKey()));
        QVERIFY(!sent.isEmpty());
        for (const QStringList& args : sent) {
            const qint64 bound = recordsBound(args);
            QVERIFY2(bound >= 0 && bound <= kBound, qPrintable(args.join(QLatin1Char(' '))));
        }
    }

    // A Redisson client acquiring (its algorithm, its records): the watcher agrees with the
    // grants at every step and with the value the script left.
    void followsRedissonAcquires() {
        RedissonWriter w(uniqueName(QStringLiteral("rr-acq")));
        w.setRate(5, 1000, false);
        const RedissonLimiterReader reader(w.name());
        const qint64 times[] = {0, 100, 200, 300, 400, 900, 1050, 1150, 1160, 2100};
        const qint64 permits[] = {1, 2, 1, 1, 1, 1, 2, 1, 3, 4};
        // 1050: only the grant of 0 is back (1 < 2); 1150: 100's two are back; 2100: 200's
        // and 300's are back (value 4), 1150's is still held.
        const bool expected[] = {true, true, true, true, false, false, false, true, false, true};
        for (int i = 0; i < 10; ++i) {
            const qint64 t = kNow + times[i];
            QCOMPARE(w.acquire(permits[i], t), expected[i]);
            const RedissonSnapshot s = reader.read(w.connection(), t);
            const RedissonScope& scope = s.scopes[0];
            QCOMPARE(scope.available, scope.availableFromGrants);
            QCOMPARE(scope.available, scope.storedValue);  // the script just settled it
        }
        const RedissonSnapshot s = reader.read(w.connection(), kNow + 2100);
        QCOMPARE(s.scopes[0].available, 0);
        QCOMPARE(s.scopes[0].grantsInWindow, 2);  // 1150 (1 permit) and 2100 (4)
        QCOMPARE(s.scopes[0].permitsInWindow, 5);
        QCOMPARE(s.scopes[0].nextReleaseMs, kNow + 2150);
    }

    void garbage_data() {
        QTest::addColumn<QString>("setup");  // commands "|"-separated args; %N name, %V value
        QTest::addColumn<QString>("key");    // placeholder of the key the error must name
        QTest::addColumn<QString>("words");  // must be in the message too
        const QString config = QStringLiteral("HSET|%N|rate|10|interval|1000|type|0;");
        QTest::newRow("missing") << u""_s << u"%N"_s << u"no Redisson rate limiter named"_s;
        QTest::newRow("config is a string") << u"SET|%N|x"_s << u"%N"_s << u"is a string"_s;
        QTest::newRow("non-numeric rate")
            << u"HSET|%N|rate|ten|interval|1000|type|0"_s << u"%N"_s << u"\"rate\" is \"ten\""_s;
        QTest::newRow("fractional interval")
            << u"HSET|%N|rate|10|interval|1.5|type|0"_s << u"%N"_s << u"\"interval\""_s;
        QTest::newRow("zero rate")
            << u"HSET|%N|rate|0|interval|1000|type|0"_s << u"%N"_s << u"rate"_s;
        QTest::newRow("no interval")
            << u"HSET|%N|rate|10|type|0"_s << u"%N"_s << u"no field \"interval\""_s;
        QTest::newRow("unknown type")
            << u"HSET|%N|rate|10|interval|1000|type|2"_s << u"%N"_s << u"PER_CLIENT"_s;
        QTest::newRow("bad keepAliveTime")
            << u"HSET|%N|rate|10|interval|1000|type|0|keepAliveTime|-5"_s << u"%N"_s
            << u"keepAliveTime"_s;
        QTest::newRow("value is a list")
            << config + QString::fromLatin1("RPUSH|%V|1") << u"%V"_s << u"is a list"_s;
        QTest::newRow("value not a number")
            << config + QString::fromLatin1("SET|%V|lots") << u"%V"_s << u"not an integer"_s;
        QTest::newRow("permits is a hash")
            << config + QString::fromLatin1("HSET|%P|a|b") << u"%P"_s << u"is a hash"_s;
        QTest::newRow("short record")
            << config + QString::fromLatin1("ZADD|%P|5|\x10short") << u"%P"_s << u"record #1"_s;
        QTest::newRow("empty record")
            << config + QString::fromLatin1("ZADD|%P|5|") << u"%P"_s << u"record #1"_s;
        QTest::newRow("id longer than record") << config + QString::fromLatin1(
                                                               "ZADD|%P|5|\x02"
                                                               "ab")
                                               << u"%P"_s << u"record #1"_s;
        QTest::newRow("per-client value is a set")
            << u"HSET|%N|rate|10|interval|1000|type|1;SADD|%C|x"_s << u"%C"_s << u"is a set"_s;
    }
    void garbage() {
        QFETCH(QString, setup);
        QFETCH(QString, key);
        QFETCH(QString, words);
        const QString name = uniqueName(QStringLiteral("rr-bad"));
        RedissonWriter w(name);
        auto expand = [&](QString s) {
            return s.replace(QStringLiteral("%N"), name)
                .replace(QStringLiteral("%V"), QString::fromStdString(w.valueKey()))
                .replace(QStringLiteral("%P"), QString::fromStdString(w.permitsKey()))
                .replace(QStringLiteral("%C"),
                         QString::fromStdString(w.valueKey(QStringLiteral("client-1"))));
        };
        for (const QString& command : setup.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            RedisArgs args;
            for (const QString& a : command.split(QLatin1Char('|'))) {
                args.push_back(expand(a).toStdString());
            }
            w.raw(args, args[1]);
        }
        try {
            RedissonLimiterReader(name).read(w.connection(), kNow);
            QFAIL("no error");
        } catch (const RedisError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(QLatin1Char('"') + expand(key) + QLatin1Char('"')),
                     qPrintable(message));
            QVERIFY2(message.contains(words), qPrintable(message));
            QCOMPARE(e.kind(), RedisError::Kind::Reply);
        }
        // The connection stays usable after an error (every pipelined reply was read).
        QCOMPARE(replyString(w.connection().command({"PING"}).get(), "PING"), std::string("PONG"));
    }

    // ratelab's token bucket writes Redisson's layout: the watcher reads its decisions back.
    void ratelabTokenBucket_data() {
        QTest::addColumn<int>("scope");
        QTest::newRow("global") << int(Scope::Global);
        QTest::newRow("per_client") << int(Scope::PerClient);
    }
    void ratelabTokenBucket() {
        QFETCH(int, scope);
        LimiterSpec s;
        s.type = LimiterType::TokenBucket;
        s.name = uniqueName(QStringLiteral("rr-tb"));
        s.scope = Scope(scope);
        s.rate = 10;
        s.intervalMs = 1000;
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        QMap<QString, qint64> remaining;
        const QString clients[] = {QStringLiteral("a"), QStringLiteral("b")};
        for (int i = 0; i < 12; ++i) {
            const QString client = clients[i % 2];
            const Decision d = test::decide(limiter.router(), *limiter,
                                            Request{kNow + i * 100, client, 1 + i % 3});
            remaining[s.scope == Scope::PerClient ? client : QString()] = d.remaining;
        }
        const qint64 now = kNow + 1100;  // the last decision's time
        const RedissonSnapshot snap = RedissonLimiterReader(s.name).read(c, now);
        QCOMPARE(snap.perClient, s.scope == Scope::PerClient);
        QCOMPARE(snap.rate, 10);
        QCOMPARE(snap.intervalMs, 1000);
        QCOMPARE(snap.scopes.size(), remaining.size());
        const LimiterState state = readLimiterState(c, *limiter, now);
        for (const RedissonScope& sc : snap.scopes) {
            QCOMPARE(sc.storedValue, remaining[sc.clientId]);
            QCOMPARE(sc.available, remaining[sc.clientId]);
            QCOMPARE(sc.availableFromGrants, remaining[sc.clientId]);
            bool matched = false;
            for (const auto& t : state.tokensAvailable) {
                if (t.first == sc.clientId) {
                    QCOMPARE(t.second, sc.availableFromGrants);
                    matched = true;
                }
            }
            QVERIFY(matched);
        }
    }

    // A read-only ACL user is enough for the watcher, its thread and the command line.
    void readOnlyAclUser() {
        RedissonWriter w(uniqueName(QStringLiteral("rr-acl")));
        w.setRate(10, 3600000, true);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        w.grant(now - 10, 3, QStringLiteral("c1"));
        w.setValue(7, QStringLiteral("c1"));
        w.grant(now - 10, 1, QStringLiteral("c2"));
        w.setValue(9, QStringLiteral("c2"));
        ReadOnlyUser user;
        {
            RedisConnection ro(user.url());
            // The user really cannot write.
            RedisReply denied = ro.command({"SET", w.valueKey(QStringLiteral("c1")), "10"});
            QCOMPARE(denied->type, REDIS_REPLY_ERROR);
            QVERIFY2(QByteArray(denied->str).startsWith("NOPERM"), denied->str);
            const RedissonSnapshot s = RedissonLimiterReader(w.name()).read(ro, now);
            QCOMPARE(s.scopes.size(), 2);
            QCOMPARE(s.scopes[0].available, 7);
            QCOMPARE(s.scopes[1].available, 9);
        }
        {
            RedissonWatcher watcher(user.url(), w.name(), 20);
            QTRY_VERIFY(watcher.status().goodPolls >= 3);
            QCOMPARE(watcher.status().error, QString());
            QCOMPARE(watcher.status().snapshot->scopes[0].available, 7);
        }
        RedisUrl url = user.url();
        const QString withPassword =
            QStringLiteral("unix://%1:%2@%3").arg(url.user, url.password, url.socketPath);
        const Run run = runWatch({u"--redis"_s, withPassword, u"--redisson"_s, w.name(),
                                  u"--count"_s, u"2"_s, u"--interval-ms"_s, u"20"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("client=c1 available=7/10")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("client=c2 available=9/10")), qPrintable(run.out));
        QVERIFY(!run.out.contains(url.password));
        QVERIFY(!run.err.contains(url.password));
    }

    // MONITOR sees only the read allowlist from the watcher (library, thread and binary).
    void monitorSeesOnlyReads() {
        RedissonWriter w(uniqueName(QStringLiteral("rr-mon")));
        w.setRate(10, 3600000, true);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        w.grant(now - 10, 2, QStringLiteral("c1"));
        w.setValue(8, QStringLiteral("c1"));
        RedisConnection monitor(fixtureUrl());
        expectStatusOk(monitor.command({"MONITOR"}).get(), "MONITOR");

        {
            auto c = connectFixture();
            const RedissonLimiterReader reader(w.name());
            for (int i = 0; i < 3; ++i) {
                QCOMPARE(reader.read(*c, now).scopes[0].available, 8);
            }
            RedissonWatcher watcher(fixtureUrl(), w.name(), 20);
            QTRY_VERIFY(watcher.status().goodPolls >= 3);
        }
        const Run run = runWatch(
            {u"--redisson"_s, w.name(), u"--count"_s, u"3"_s, u"--interval-ms"_s, u"20"_s});
        QCOMPARE(run.exitCode, 0);
        const std::string marker = "end-of-watch-" + w.name().toStdString();
        connectFixture()->command({"ECHO", marker});

        const QStringList allowed = RedissonLimiterReader::readCommands();
        QMap<QString, int> seen;
        const QByteArray name = w.name().toUtf8();
        for (;;) {
            const std::string line = replyString(monitor.readReply().get(), "MONITOR line");
            if (line.find(marker) != std::string::npos) {
                break;
            }
            // 1700000000.123456 [0 unix:/path] "CMD" "arg" ...
            if (QByteArray::fromStdString(line).indexOf(name) < 0) {
                continue;  // another client's command
            }
            const size_t open = line.find("] \"");
            QVERIFY2(open != std::string::npos, line.c_str());
            const size_t from = open + 3;
            const QString command =
                QString::fromStdString(line.substr(from, line.find('"', from) - from)).toUpper();
            QVERIFY2(allowed.contains(command), line.c_str());
            ++seen[command];
        }
        // The check could fail: every command of the allowlist was seen, many times.
        for (const QString& command : allowed) {
            QVERIFY2(seen.value(command) >= 9, qPrintable(command));
        }
    }

    void commandLine() {
        RedissonWriter w(uniqueName(QStringLiteral("rr-cli")));
        w.setRate(10, 3600000, false);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        w.grant(now - 20, 2);
        w.grant(now - 10, 1);
        w.setValue(7);
        const Run ok = runWatch({u"--redis"_s, qEnvironmentVariable("REDIS_URL"), u"--redisson"_s,
                                 w.name(), u"--count"_s, u"3"_s, u"--interval-ms"_s, u"10"_s});
        QCOMPARE(ok.exitCode, 0);
        const QStringList lines = ok.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[0].startsWith(QStringLiteral("watching Redisson limiter \"") + w.name()));
        QCOMPARE(
            lines[1],
            QStringLiteral("config rate=10 interval_ms=3600000 type=OVERALL keepAliveTime_ms=0"));
        for (int i = 2; i < 5; ++i) {
            QVERIFY2(lines[i].contains(QStringLiteral(
                         " available=7/10 window_grants=2 window_permits=3 value=7 last_grant=")),
                     qPrintable(lines[i]));
        }

        // A missing limiter is bad input (exit 2): the name given does not exist.
        const Run missing =
            runWatch({u"--redisson"_s, w.name() + u"-nope"_s, u"--count"_s, u"1"_s});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("no Redisson rate limiter named")),
                 qPrintable(missing.err));

        const Run badUrl =
            runWatch({u"--redis"_s, u"redis://x:6379?db=1"_s, u"--redisson"_s, w.name()});
        QCOMPARE(badUrl.exitCode, 2);
        QVERIFY(badUrl.err.contains(QStringLiteral("--redis")));

        const Run badCount = runWatch({u"--redisson"_s, w.name(), u"--count"_s, u"0"_s});
        QCOMPARE(badCount.exitCode, 2);
        QVERIFY(badCount.err.contains(QStringLiteral("--count")));

        const Run noName = runWatch({u"--count"_s, u"1"_s});
        QCOMPARE(noName.exitCode, 2);
        QVERIFY(noName.err.contains(QStringLiteral("--redisson")));

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));
        const Run noUrl = runWatch({u"--redisson"_s, w.name(), u"--count"_s, u"1"_s}, env);
        QCOMPARE(noUrl.exitCode, 2);
        QVERIFY(noUrl.err.contains(QStringLiteral("needs the URL")));

        const Run unreachable = runWatch({u"--redis"_s, u"unix:///nonexistent/ratelab.sock"_s,
                                          u"--redisson"_s, w.name(), u"--count"_s, u"1"_s});
        QCOMPARE(unreachable.exitCode, 3);

        w.raw({"SET", w.valueKey(), "not-a-number"}, w.valueKey());
        const Run corrupt = runWatch({u"--redisson"_s, w.name(), u"--count"_s, u"1"_s});
        QCOMPARE(corrupt.exitCode, 3);
        QVERIFY2(corrupt.err.contains(QString::fromStdString("\"" + w.valueKey() + "\"")),
                 qPrintable(corrupt.err));
    }
};

QTEST_GUILESS_MAIN(TestRedissonReader)
#include "tst_redisson_reader.moc"
