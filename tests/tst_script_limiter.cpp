// A script limiter on Redis (docs/scenarios.md, "Script limiters"): its decisions are exactly
// the script's called directly with the same keys and arguments, its reply read through the
// mapping (each reply that fits none named), an error reply an error with its cause, a script
// that does not compile refused with Redis's line, and its reset deleting only the keys of its
// own patterns.
#include <QtTest>

#include "input_error.h"
#include "limiters/script_limiter.h"
#include "redis/cluster_slot.h"
#include "redis/lua_script.h"
#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "run/replay.h"
#include "support/limiter_spec_documents.h"
#include "support/test_files.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A per-client script limiter named `name` over `source` (inline), its keys and arguments and
// reply mapping as JSON members.
LimiterSpec scriptLimiter(const QString& name, const QByteArray& source,
                          const QByteArray& members) {
    const QJsonObject object =
        QJsonDocument::fromJson(R"({"type": "script", "scope": "per_client", )" + members + "}")
            .object();
    QJsonObject with = object;
    with.insert(QStringLiteral("name"), name);
    with.insert(QStringLiteral("script"),
                QJsonObject{{QStringLiteral("inline"), QString::fromUtf8(source)}});
    return parseLimiterSpec(with);
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", qPrintable(path));
    }
    return file.readAll();
}

// Deletes a test's keys by name (no pattern: nothing else is touched).
void deleteKeys(RedisRouter& router, const std::vector<std::string>& keys) {
    for (const std::string& key : keys) {
        router.command(keyHashSlot(key), {"DEL", key});
    }
}

}  // namespace

class TestScriptLimiter : public QObject {
    Q_OBJECT

private slots:
    // ratelab replay decides each row exactly as the script called directly (EVAL through
    // hiredis, keys and arguments written here by hand) with the same keys and arguments.
    void decidesAsTheScriptCalledDirectly_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QByteArray>("args");
        QTest::newRow("the sliding log done right")
            << "sliding_log.lua" << QByteArray(R"(["{now_ms}", "{permits}", "{request_id}", "5",
                                                   "1000"])");
        QTest::newRow("the sliding log keyed by time")
            << "sliding_log_by_time.lua" << QByteArray(R"(["{now_ms}", "5", "1000"])");
    }
    void decidesAsTheScriptCalledDirectly() {
        QFETCH(QString, script);
        QFETCH(QByteArray, args);
        const QString name = uniqueName(QStringLiteral("direct"));
        const QByteArray source = readFile(exampleScriptPath(script));
        const LimiterSpec spec =
            scriptLimiter(name, source,
                          R"("keys": ["{{{name}}}:log:{client}"], "args": )" + args +
                              R"(, "reply": {"allowed": "1", "index": 0, "remaining": 1,
                                             "retry_after_ms": 2})");
        ScopedLimiter limiter(spec);
        TraceShape shape;
        shape.seed = 42;
        shape.count = 400;
        shape.clients = 3;
        shape.meanGapMs = 60;
        Trace trace;
        for (const Request& r : generateTrace(shape)) {
            trace.append(TraceRow{r.nowMs, r.client, 1, 0});
        }
        QVector<Decision> replayed;
        replayTrace(limiter.router(), *limiter, trace,
                    [&](const TraceRow&, const Decision& d) { replayed.push_back(d); });
        QCOMPARE(replayed.size(), trace.size());

        // The same rows, the script called directly on a fresh log.
        limiter->reset(limiter.router());
        const LuaScript direct{std::string(source.constData(), size_t(source.size()))};
        int granted = 0;
        for (qsizetype i = 0; i < trace.size(); ++i) {
            const TraceRow row = trace[i];
            const std::string key = "{" + name.toStdString() + "}:log:" + row.client.toStdString();
            const std::string now = std::to_string(row.tMs);
            const RedisArgs argv = script == QLatin1String("sliding_log.lua")
                                       ? RedisArgs{now, "1", std::to_string(i), "5", "1000"}
                                       : RedisArgs{now, "5", "1000"};
            const RedisReply reply =
                limiter.router().runScript(keyHashSlot(key), direct, {key}, argv);
            QVERIFY2(reply->type == REDIS_REPLY_ARRAY && reply->elements == 3,
                     qPrintable(QStringLiteral("row %1").arg(i)));
            const Decision& d = replayed[i];
            const QString where =
                QStringLiteral("row %1 (t %2, %3)").arg(i).arg(row.tMs).arg(row.client);
            QVERIFY2(d.allowed == (reply->element[0]->integer == 1), qPrintable(where));
            QVERIFY2(d.remaining == reply->element[1]->integer, qPrintable(where));
            QVERIFY2(d.retryAfterMs == (d.allowed ? 0 : reply->element[2]->integer),
                     qPrintable(where));
            granted += d.allowed ? 1 : 0;
        }
        QVERIFY(granted > 0 && granted < trace.size());  // both outcomes were compared
    }

    void replyMapping_data() {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("client");  // ARGV[1]: which branch the script takes
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<qint64>("retry");
        QTest::addColumn<qint64>("remaining");
        const QByteArray redisson = "if ARGV[1] == 'in' then return false end return 250";
        QTest::newRow("nil grants (Redisson)")
            << redisson << QByteArray(R"({"allowed": "nil", "retry_after_ms": "reply"})") << "in"
            << true << 0LL << -1LL;
        QTest::newRow("its integer refusal is the wait")
            << redisson << QByteArray(R"({"allowed": "nil", "retry_after_ms": "reply"})") << "out"
            << false << 250LL << -1LL;
        const QByteArray status =
            "if ARGV[1] == 'in' then return redis.status_reply('OK') end return false";
        QTest::newRow("the status OK grants")
            << status << QByteArray(R"({"allowed": "ok"})") << "in" << true << 0LL << -1LL;
        QTest::newRow("nil refuses, no wait given")
            << status << QByteArray(R"({"allowed": "ok"})") << "out" << false << -1LL << -1LL;
        const QByteArray zero = "if ARGV[1] == 'in' then return 0 end return 300";
        QTest::newRow("0 grants") << zero
                                  << QByteArray(R"({"allowed": "0", "retry_after_ms": "reply"})")
                                  << "in" << true << 0LL << -1LL;
        QTest::newRow("another integer refuses")
            << zero << QByteArray(R"({"allowed": "0", "retry_after_ms": "reply"})") << "out"
            << false << 300LL << -1LL;
        const QByteArray array = "if ARGV[1] == 'in' then return {1, 5, 0} end return {0, 0, 120}";
        const QByteArray mapped =
            R"({"allowed": "1", "index": 0, "remaining": 1, "retry_after_ms": 2})";
        QTest::newRow("an array: granted") << array << mapped << "in" << true << 0LL << 5LL;
        QTest::newRow("an array: refused") << array << mapped << "out" << false << 120LL << 0LL;
        QTest::newRow("integers as strings")
            << QByteArray("return {'1', '7', '0'}") << mapped << "in" << true << 0LL << 7LL;
        QTest::newRow("anything but nil grants")
            << QByteArray("return 'yes'") << QByteArray(R"({"allowed": "not_nil"})") << "in" << true
            << 0LL << -1LL;
    }
    void replyMapping() {
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, reply);
        QFETCH(QString, client);
        QFETCH(bool, allowed);
        QFETCH(qint64, retry);
        QFETCH(qint64, remaining);
        ScopedLimiter limiter(scriptLimiter(uniqueName(QStringLiteral("reply")), source,
                                            R"("keys": ["{{{name}}}"], "args": ["{client}"],
                                               "reply": )" +
                                                reply));
        const Decision d = decide(limiter.router(), *limiter, Request{1000, client, 1});
        QCOMPARE(d.allowed, allowed);
        QCOMPARE(d.retryAfterMs, retry);
        QCOMPARE(d.remaining, remaining);
    }

    // A reply that fits the mapping nowhere, or an error reply: an error with its cause and
    // what came, never a decision.
    void repliesThatAreNoDecision_data() {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("message");
        const QByteArray mapped = R"({"allowed": "1", "index": 0, "remaining": 1})";
        QTest::newRow("a string where an integer is read")
            << QByteArray("return {1, 'x'}") << mapped
            << "element 1 of a 2-element array is a string \"x\", where reply.remaining expects "
               "an integer";
        QTest::newRow("an element past the end")
            << QByteArray("return {1}") << mapped
            << "the reply is a 1-element array, which has no element 1 (reply.remaining)";
        QTest::newRow("no array where an index is read")
            << QByteArray("return 1") << mapped
            << "the reply is the integer 1, where reply.index 0 expects an array";
        QTest::newRow("an array where 1 or 0 is read")
            << QByteArray("return {{1}}") << mapped
            << "element 0 of a 1-element array is an array of 1 elements";
        QTest::newRow("an error reply") << QByteArray("return redis.error_reply('boom')")
                                        << QByteArray(R"({"allowed": "1"})") << "boom";
        QTest::newRow("a runtime error names the script's line")
            << QByteArray("local a = 1\nreturn nosuch.field") << QByteArray(R"({"allowed": "1"})")
            << "user_script:2:";
    }
    void repliesThatAreNoDecision() {
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, reply);
        QFETCH(QString, message);
        ScopedLimiter limiter(scriptLimiter(uniqueName(QStringLiteral("bad")), source,
                                            R"("keys": ["{{{name}}}"], "reply": )" + reply));
        try {
            decide(limiter.router(), *limiter, Request{1000, QStringLiteral("c"), 1});
            QFAIL("decided");
        } catch (const RedisError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("script '")),
                     e.what());  // names the limiter
        }
    }

    void scriptThatDoesNotCompileIsBadInput() {
        ScopedLimiter limiter(scriptLimiter(uniqueName(QStringLiteral("syntax")),
                                            "local a = 1\nlocal b = 2\nlocal c = = 3\n",
                                            R"("keys": ["k"], "reply": {"allowed": "1"})"));
        try {
            limiter->loadScripts(limiter.router());
            QFAIL("loaded");
        } catch (const InputError& e) {
            QVERIFY2(e.problem().contains(QStringLiteral("user_script:3:")),
                     qPrintable(e.message()));
            QVERIFY2(e.problem().contains(QStringLiteral("could not load the script")),
                     qPrintable(e.message()));
        }
    }

    // Only keys matching the limiter's own patterns go: look-alike keys survive.
    void resetDeletesOnlyItsOwnKeys_data() {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("keyTemplate");
        QTest::addColumn<QStringList>("deleted");  // {n} stands for the limiter's name
        QTest::addColumn<QStringList>("survives");
        QTest::newRow("per client")
            << "per_client"
            << "{{{name}}}:log:{client}" << strings({"{{n}}:log:alice", "{{n}}:log:bob"})
            << strings({"{{n}}:logx:alice", "{{n}}x:log:alice", "{{n}}:lo:alice"});
        QTest::newRow("global: only the literal global")
            << "global"
            << "{{{name}}}:log:{client}" << strings({"{{n}}:log:global"})
            << strings({"{{n}}:log:alice", "{{n}}:log:globalx"});
        QTest::newRow("glob characters in the template are literal")
            << "per_client"
            << "{{{name}}}:[ab]*?:{client}" << strings({"{{n}}:[ab]*?:alice"})
            << strings({"{{n}}:a:alice", "{{n}}:b-x:alice", "{{n}}:[ab]xy:alice"});
    }
    void resetDeletesOnlyItsOwnKeys() {
        QFETCH(QString, scope);
        QFETCH(QString, keyTemplate);
        QFETCH(QStringList, deleted);
        QFETCH(QStringList, survives);
        const QString name = uniqueName(QStringLiteral("reset"));
        LimiterSpec spec =
            scriptLimiter(name, "return 1",
                          QStringLiteral(R"("keys": ["%1"], "reply": {"allowed": "1"},
                              "reference": {"type": "gcra", "rate": 1, "period_ms": 1000,
                                            "burst": 1})")
                              .arg(keyTemplate)
                              .toUtf8());
        spec.scope = scope == QLatin1String("global") ? Scope::Global : Scope::PerClient;
        spec = parseLimiterSpec(limiterSpecToJson(spec));
        ScopedLimiter limiter(spec);
        const auto expand = [&](const QStringList& keys) {
            std::vector<std::string> out;
            for (QString k : keys) {
                out.push_back(
                    k.replace(QStringLiteral("{{n}}"), QLatin1Char('{') + name + QLatin1Char('}'))
                        .toStdString());
            }
            return out;
        };
        // The reference's key goes with it too.
        const std::string referenceKey = "{" + name.toStdString() + ":reference}:tat:global";
        const std::vector<std::string> all = [&] {
            std::vector<std::string> out = expand(deleted);
            out.push_back(referenceKey);
            return out;
        }();
        const std::vector<std::string> kept = expand(survives);
        RedisRouter& router = limiter.router();
        for (const std::vector<std::string>* keys : {&all, &std::as_const(kept)}) {
            for (const std::string& key : *keys) {
                router.command(keyHashSlot(key), {"SET", key, "1"});
            }
        }
        limiter->reset(router);
        for (const std::string& key : all) {
            QVERIFY2(router.command(keyHashSlot(key), {"EXISTS", key})->integer == 0, key.c_str());
        }
        for (const std::string& key : kept) {
            QVERIFY2(router.command(keyHashSlot(key), {"EXISTS", key})->integer == 1, key.c_str());
        }
        deleteKeys(router, kept);
    }

    // Each call goes to the slot of its own first key (the user's hash tag, not the name's).
    void callsGoToTheirKeysSlot() {
        const LimiterSpec spec = scriptLimiter(
            uniqueName(QStringLiteral("slot")), "return redis.call('INCR', KEYS[1])",
            R"("keys": ["{{{client}}}:{name}:hits"], "reply": {"allowed": "not_nil"})");
        ScopedLimiter limiter(spec);
        for (const QString& client : {QStringLiteral("alice"), QStringLiteral("bob")}) {
            const ScriptCall call = limiter->prepare(Request{1, client, 1});
            QCOMPARE(call.slot, keyHashSlot("{" + client.toStdString() + "}:x"));
            QVERIFY(decide(limiter.router(), *limiter, Request{1, client, 1}).allowed);
        }
    }
};

QTEST_GUILESS_MAIN(TestScriptLimiter)
#include "tst_script_limiter.moc"
