// A key ratelab did not create is never changed or deleted: `SET NAME foreign` and then a token
// bucket named NAME (whose config hash has that exact name). The commands that reset or write a
// limiter's keys under its own name refuse with exit 2, naming the key and its type, and print
// nothing else; the window's Start and Step show it inline. The commands that decide under
// scratch names (sweep, explain) leave it alone and work. Failed before: run, replay and bench
// deleted the string, and the run turned the name into its config hash.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "redis/cluster_slot.h"
#include "redis/redis_reply.h"
#include "run/run_controller.h"
#include "scenario/scenario.h"
#include "support/cli_process.h"
#include "support/test_files.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

class TestForeignKeys : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString name_;
    std::unique_ptr<RedisRouter> router_;

    std::string key() const { return name_.toStdString(); }
    RedisReply command(const RedisArgs& args) const {
        return router_->command(keyHashSlot(key()), args);
    }
    // The key as it is now: its type and (for a string) its value.
    QString keyNow() const {
        const std::string type = replyString(command({"TYPE", key()}).get(), "TYPE");
        if (type != "string") {
            return QString::fromStdString(type);
        }
        return QStringLiteral("string ") +
               QString::fromStdString(replyString(command({"GET", key()}).get(), "GET"));
    }
    QString write(const QString& file, const QString& content) {
        return writeTestFileIn(dir_.path(), file, content.toUtf8());
    }
    QString spec() const {
        return QStringLiteral(R"({"type": "token_bucket", "name": "%1", "scope": "per_client",
                                  "rate": 5, "interval_ms": 1000})")
            .arg(name_);
    }
    Scenario scenario() const {
        Scenario s;
        s.name = QStringLiteral("foreign");
        LimiterSpec bucket;
        bucket.type = LimiterType::TokenBucket;
        bucket.name = name_;
        bucket.scope = Scope::PerClient;
        bucket.rate = 5;
        bucket.intervalMs = 1000;
        s.limiters = {bucket};
        s.traffic.shape.type = ShapeSpec::Type::Constant;
        s.traffic.shape.rate = 20;
        s.traffic.durationS = 2;
        s.traffic.clients = 2;
        s.traffic.clock.isVirtual = true;
        s.traffic.clock.speed = 0;
        s.traffic.clock.startMs = 1'704'067'200'000;
        return s;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        router_ = routeFixture();
    }

    void init() {
        name_ = uniqueName(QStringLiteral("h17s"));
        throwIfError(command({"SET", key(), "foreign"}).get(), "SET");
    }

    void cleanup() {
        command({"DEL", key()});
        // Nothing of the limiter's own was left either.
        QCOMPARE(keyCount(router_->connectionForSlot(keyHashSlot(key())), scenario().limiters[0]),
                 0LL);
    }

    void commandsRefuse_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("run") << "run";
        QTest::newRow("replay") << "replay";
        QTest::newRow("bench") << "bench";
    }
    void commandsRefuse() {
        QFETCH(QString, command);
        const QString specFile = write(QStringLiteral("spec.json"), spec());
        const QString scenarioFile =
            write(QStringLiteral("scenario.json"),
                  QStringLiteral(R"({"name": "foreign", "limiters": [%1], "traffic": {"shape":
                {"type": "constant", "rate": 20}, "duration_s": 2, "clients": 2, "clock":
                {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}}})")
                      .arg(spec()));
        const QString trace = write(QStringLiteral("trace.csv"),
                                    QStringLiteral("t_ms,client,permits\n0,a,1\n5,b,1\n"));
        const QString url = fixtureUrl().toDisplayString();
        QStringList args;
        if (command == QLatin1String("run")) {
            args = {command, scenarioFile, QStringLiteral("--out"),
                    dir_.filePath(QStringLiteral("out"))};
        } else if (command == QLatin1String("replay")) {
            args = {command, QStringLiteral("--limiter"), specFile, QStringLiteral("--trace"),
                    trace};
        } else {
            args = {command, QStringLiteral("--limiter"), specFile, QStringLiteral("--requests"),
                    QStringLiteral("100")};
        }
        const CliResult r = runRatelab(args << QStringLiteral("--redis") << url);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("key \"%1\": a string that ratelab did not create")
                                    .arg(name_)
                                    .toUtf8()),
                 r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QCOMPARE(keyNow(), QStringLiteral("string foreign"));
    }

    // sweep and explain decide under scratch names: the user's key is none of theirs.
    void scratchCommandsLeaveIt_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("sweep") << "sweep";
        QTest::newRow("explain") << "explain";
    }
    void scratchCommandsLeaveIt() {
        QFETCH(QString, command);
        const QString scenarioFile =
            write(QStringLiteral("sweep.json"),
                  QStringLiteral(R"({"name": "foreign", "limiters": [%1], "traffic": {"shape":
                {"type": "constant", "rate": 20}, "duration_s": 2, "clients": 2, "clock":
                {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0}},
                "sweep": {"vary": {"%2.rate": [1, 2]}, "maximize": "accepted"}})")
                      .arg(spec(), name_));
        QStringList args{command, scenarioFile};
        if (command == QLatin1String("sweep")) {
            args << QStringLiteral("--out") << dir_.filePath(QStringLiteral("sweep"));
        } else {
            args << QStringLiteral("--limiter") << name_ << QStringLiteral("--request")
                 << QStringLiteral("3");
        }
        const CliResult r =
            runRatelab(args << QStringLiteral("--redis") << fixtureUrl().toDisplayString());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(keyNow(), QStringLiteral("string foreign"));
    }

    // The window: Start and Step show the refusal in the banner and leave the key.
    void windowShowsIt_data() {
        QTest::addColumn<bool>("step");
        QTest::newRow("Start") << false;
        QTest::newRow("Step") << true;
    }
    void windowShowsIt() {
        QFETCH(bool, step);
        QStandardPaths::setTestModeEnabled(true);
        MainWindow window;
        window.show();
        connectToFixture(window);
        window.setScenario(scenario());
        QSignalSpy failed(window.controller(), &RunController::failed);
        (step ? window.stepAction() : window.startAction())->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY2(window.bannerText().contains(
                     QStringLiteral("key \"%1\": a string that ratelab did not create").arg(name_)),
                 qPrintable(window.bannerText()));
        QCOMPARE(keyNow(), QStringLiteral("string foreign"));
        window.setWindowModified(false);
    }
};

QTEST_MAIN(TestForeignKeys)
#include "tst_foreign_keys.moc"
