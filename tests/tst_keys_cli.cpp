// `ratelab keys NAME [--delete]`: the keys a limiter leaves without a TTL (its config) can be
// listed and deleted by name, and nothing else is touched.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "redis/cluster_slot.h"
#include "redis/redis_reply.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestKeysCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        writeTestFile(path, content);
        return path;
    }

    using Result = CliResult;
    static Result run(const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
        return runRatelab(args, env);
    }

    static long long exists(const std::string& key) {
        auto router = routeFixture();
        return replyInteger(router->command(keyHashSlot(key), {"EXISTS", key}).get(), "EXISTS");
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Per-client token buckets of `type`: replaying two clients leaves the config hash NAME and
    // the state under {NAME}; keys lists them, --delete removes exactly them.
    void listsAndDeletes_data() {
        QTest::addColumn<QString>("type");
        QTest::newRow("token bucket (config hash NAME)") << "token_bucket";
        QTest::newRow("gcra") << "gcra";
    }
    void listsAndDeletes() {
        QFETCH(QString, type);
        const QString name = uniqueName(QStringLiteral("keys"));
        const QByteArray spec =
            type == QLatin1String("gcra")
                ? QStringLiteral(R"({"type": "gcra", "name": "%1", "scope": "per_client",
                                    "rate": 2, "period_ms": 1000, "burst": 1})")
                      .arg(name)
                      .toUtf8()
                : QStringLiteral(R"({"type": "token_bucket", "name": "%1", "scope": "per_client",
                                    "rate": 2, "interval_ms": 1000})")
                      .arg(name)
                      .toUtf8();
        const Result replay =
            run({QStringLiteral("replay"), QStringLiteral("--limiter"),
                 write(name + QStringLiteral(".json"), spec), QStringLiteral("--trace"),
                 write(QStringLiteral("trace.csv"), "0,a,1\n5,b,1\n")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        // A neighbour whose name starts the same, and a plain key named like the limiter's
        // hash tag without it: neither belongs to the limiter.
        const std::string other = "{" + name.toStdString() + "x}:value";
        auto router = routeFixture();
        router->command(keyHashSlot(other), {"SET", other, "1"});

        const Result listed = run({QStringLiteral("keys"), name});
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        const QList<QByteArray> lines = listed.out.trimmed().split('\n');
        QVERIFY2(lines.size() >= 3, listed.out);  // at least two keys and the count
        QVERIFY2(lines.last().endsWith(QStringLiteral(" keys of \"%1\"").arg(name).toUtf8()),
                 listed.out);
        QVERIFY2(!listed.out.contains(QByteArray::fromStdString(other)), listed.out);
        const bool tokenBucket = type == QLatin1String("token_bucket");
        QCOMPARE(lines.contains(name.toUtf8()), tokenBucket);
        QStringList keys;
        for (const QByteArray& line : lines.mid(0, lines.size() - 1)) {
            keys << QString::fromUtf8(line);
            QCOMPARE(exists(line.toStdString()), 1LL);
        }

        const Result deleted = run({QStringLiteral("keys"), name, QStringLiteral("--delete")});
        QVERIFY2(deleted.exitCode == 0, deleted.err.constData());
        QVERIFY2(deleted.out.contains(QStringLiteral("deleted %1 of %1 keys of \"%2\"")
                                          .arg(keys.size())
                                          .arg(name)
                                          .toUtf8()),
                 deleted.out);
        for (const QString& key : keys) {
            QCOMPARE(exists(key.toStdString()), 0LL);
        }
        QCOMPARE(exists(other), 1LL);
        router->command(keyHashSlot(other), {"DEL", other});

        const Result none = run({QStringLiteral("keys"), name});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QStringLiteral("0 keys of \"%1\"\n").arg(name).toUtf8());
    }

    // A plain string named NAME is not the token bucket's config: it is never listed.
    void leavesAStringNamedLikeTheLimiter() {
        const std::string name = uniqueName(QStringLiteral("keys-str")).toStdString();
        auto router = routeFixture();
        router->command(keyHashSlot(name), {"SET", name, "mine"});
        const Result r =
            run({QStringLiteral("keys"), QString::fromStdString(name), QStringLiteral("--delete")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("deleted 0 of 0 keys"), r.out);
        QCOMPARE(exists(name), 1LL);
        router->command(keyHashSlot(name), {"DEL", name});
    }

    void badName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("hash tag") << "{a}"
                                  << "must not contain '{' or '}'";
        QTest::newRow("escape") << "a\x1b[2J"
                                << "control characters, got U+001B";
    }
    void badName() {
        QFETCH(QString, name);
        QFETCH(QString, message);
        const Result r = run({QStringLiteral("keys"), name});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestKeysCli)
#include "tst_keys_cli.moc"
