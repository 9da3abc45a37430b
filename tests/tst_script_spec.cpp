// Script limiter specs (docs/scenarios.md, "Script limiters"): the source from a file relative
// to the spec or inline, templates and their placeholders, the reply mapping, the reference,
// state and reset; each bad field refused with its JSON path; round trips; the numeric
// parameters sweeps and counterfactuals use. No Redis.
#include <QDir>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include "input_error.h"
#include "limiters/algorithm.h"
#include "limiters/limiter.h"
#include "limiters/script_limiter.h"
#include "limiters/script_spec.h"
#include "scenario/scenario.h"
#include "support/limiter_spec_documents.h"
#include "support/test_files.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A spec of the correct sliding log, inline, with `extra` fields added (JSON members, no
// leading comma).
QByteArray scriptSpec(const QByteArray& extra = QByteArray(),
                      const QByteArray& keys = R"(["{{{name}}}:{client}"])") {
    QByteArray json = R"({"type": "script", "name": "mine", "scope": "per_client",
        "script": {"inline": "return {1, 9, 0}"}, "keys": )" +
                      keys + R"(,
        "args": ["{now_ms}", "{permits}", "{request_id}", "10", "1000"],
        "reply": {"allowed": "1", "index": 0, "retry_after_ms": 2, "remaining": 1})";
    if (!extra.isEmpty()) {
        json += ", " + extra;
    }
    return json + "}";
}

// Fills a template for client "alice" at now 1700000000123 ms, 2 permits, id 7.
std::string filled(const ScriptTemplate& t, const QString& name = QStringLiteral("mine")) {
    LimiterSpec spec = parseLimiterSpecJson(scriptSpec());
    spec.name = name;
    auto changed = std::make_shared<ScriptSpec>(*spec.script);
    changed->declaredName = name;
    changed->keys = {t};
    changed->args.clear();
    spec.script = changed;
    const ScriptLimiter limiter(spec, {});
    Request request{1700000000123, QStringLiteral("alice"), 2};
    request.id = 7;
    return limiter.prepare(request).keys.front();
}

}  // namespace

class TestScriptSpec : public QObject {
    Q_OBJECT

private slots:
    void designExample() {
        // DESIGN.md's example with its hash tag written as braces of the template: {{mine}}.
        const LimiterSpec spec = parseLimiterSpecJson(R"({"type": "script", "name": "mine",
            "scope": "per_client", "script": {"inline": "return 1"},
            "keys": ["{{mine}}:{client}"],
            "args": ["{now_ms}", "{permits}", "{request_id}", "10", "1000"],
            "reply": {"allowed": "1", "index": 0, "retry_after_ms": 1, "remaining": 2},
            "reference": {"type": "sliding_window", "rules": [{"limit": 10, "window_ms": 1000}]},
            "state": {"key": "{{mine}}:{client}", "read": "zcount_window", "window_ms": 1000}})");
        QCOMPARE(spec.type, LimiterType::Script);
        QVERIFY(spec.script);
        const ScriptSpec& s = *spec.script;
        QCOMPARE(s.keys.size(), size_t(1));
        QCOMPARE(s.args.size(), size_t(5));
        QCOMPARE(s.reply.allowed, ReplyMapping::Allowed::One);
        QCOMPARE(s.reply.index, 0);
        QCOMPARE(s.reply.retryAfterMs.from, ReplyMapping::Field::From::Index);
        QCOMPARE(s.reply.retryAfterMs.index, 1);
        QCOMPARE(s.reply.remaining.index, 2);
        QVERIFY(s.reference);
        QCOMPARE(s.reference->type, LimiterType::SlidingWindow);
        QCOMPARE(s.state.read, ScriptStateRead::Read::ZcountWindow);
        QCOMPARE(s.state.windowMs, 1000);
        // The reference decides under a name of its own, with the script limiter's scope; it
        // sets the capacity and windows the engine cannot know from the script.
        const std::optional<LimiterSpec> reference = referenceSpecOf(spec);
        QVERIFY(reference);
        QCOMPARE(reference->name, QStringLiteral("mine:reference"));
        QCOMPARE(reference->scope, Scope::PerClient);
        QCOMPARE(spec.capacity(), 10);
        QCOMPARE(algorithmOf(spec).windowsMs(spec), std::vector<qint64>{1000});
        QCOMPARE(parseLimiterSpec(limiterSpecToJson(spec)), spec);
    }

    // The editor's new limiter of each type, even before it has a name. Failed before: the
    // default's reference was parsed under the limiter's empty name ("$.reference.name: must
    // not be empty").
    void defaultsWithoutAName() {
        const LimiterSpec spec = algorithmOf(LimiterType::Script).defaults(QString());
        QVERIFY(spec.script && spec.script->reference);
        QCOMPARE(spec.capacity(), 10);
    }

    void sourceFromFileRelativeToSpec() {
        QTemporaryDir dir;
        writeTestFile(dir.filePath(QStringLiteral("lua/limit.lua")), "return 1\n");
        writeTestFile(dir.filePath(QStringLiteral("specs/mine.json")), R"({"type": "script",
            "name": "mine", "script": "../lua/limit.lua", "keys": ["{{mine}}"],
            "reply": {"allowed": "1"}})");
        const LimiterSpec spec =
            loadLimiterSpecFile(dir.filePath(QStringLiteral("specs/mine.json")));
        QCOMPARE(spec.script->source, std::string("return 1\n"));
        QCOMPARE(spec.script->file, QStringLiteral("../lua/limit.lua"));
        // Written as it was given; inline for a self-contained copy (summary.json).
        QCOMPARE(limiterSpecToJson(spec).value(QLatin1String("script")).toString(),
                 QStringLiteral("../lua/limit.lua"));
        const QJsonObject inlined = limiterSpecToJson(spec, SpecFiles::Inline);
        QCOMPARE(inlined.value(QLatin1String("script")).toObject().value(QLatin1String("inline")),
                 QJsonValue(QStringLiteral("return 1\n")));
        QCOMPARE(parseLimiterSpec(inlined), spec);  // the same Lua: the same limiter
        // A scenario reads it relative to the scenario's folder.
        writeTestFile(dir.filePath(QStringLiteral("scenario.json")), R"({"limiters": [
            {"type": "script", "name": "mine", "script": "lua/limit.lua", "keys": ["{{mine}}"],
             "reply": {"allowed": "1"}}],
            "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 1}})");
        const Scenario scenario = loadScenarioFile(dir.filePath(QStringLiteral("scenario.json")));
        QCOMPARE(scenario.limiters[0].script->source, std::string("return 1\n"));
    }

    void placeholders_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("name and client") << "{name}:{client}"
                                         << "mine:alice";
        QTest::newRow("literal braces: a hash tag") << "{{{name}}}:{client}"
                                                    << "{mine}:alice";
        QTest::newRow("now in ms, us, s") << "{now_ms} {now_us} {now_s}"
                                          << "1700000000123 1700000000123000 1700000000.123";
        QTest::newRow("permits and request id") << "p{permits}#{request_id}"
                                                << "p2#7";
        QTest::newRow("no placeholder") << "plain:key"
                                        << "plain:key";
    }
    void placeholders() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const ScriptTemplate t = ScriptTemplate::parse(text, QStringLiteral("$.keys[0]"));
        QCOMPARE(QString::fromStdString(filled(t)), expected);
    }

    void uuidIsVersion4() {
        const std::string uuid =
            filled(ScriptTemplate::parse(QStringLiteral("{uuid}"), QStringLiteral("$")));
        QCOMPARE(uuid.size(), size_t(36));
        QCOMPARE(uuid[14], '4');
        QVERIFY(QByteArray("89ab").contains(uuid[19]));
        QVERIFY(uuid !=
                filled(ScriptTemplate::parse(QStringLiteral("{uuid}"), QStringLiteral("$"))));
    }

    void globalScopeFillsGlobal() {
        LimiterSpec spec = parseLimiterSpecJson(scriptSpec());
        spec.scope = Scope::Global;
        const ScriptLimiter limiter(spec, {});
        QCOMPARE(limiter.prepare(Request{1, QStringLiteral("alice"), 1}).keys.front(),
                 std::string("{mine}:global"));
    }

    void renamedCopyPrefixesItsKeys() {
        // An explanation's scratch copy, a sweep's combination, a local gateway: never the
        // keys of the limiter it was made from, whatever the templates name.
        LimiterSpec spec = parseLimiterSpecJson(scriptSpec({}, R"(["{{mine}}:{client}"])"));
        const ScriptLimiter original(spec, {});
        spec.name = QStringLiteral("mine@g1");
        const ScriptLimiter copy(spec, {});
        const Request request{1, QStringLiteral("alice"), 1};
        QCOMPARE(original.prepare(request).keys.front(), std::string("{mine}:alice"));
        QCOMPARE(copy.prepare(request).keys.front(), std::string("mine@g1:{mine}:alice"));
        QCOMPARE(copy.keyPatterns(), std::vector<std::string>{"mine@g1:{mine}:*"});
        // The hash tag stays the key's own: the same slot as the original's key.
        QCOMPARE(copy.prepare(request).slot, original.prepare(request).slot);
    }

    void resetPatterns_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("patterns");
        QTest::newRow("per client: {client} as *")
            << scriptSpec({}, R"(["{{mine}}:log:{client}", "{{mine}}:cfg"])")
            << strings({"{mine}:log:*", "{mine}:cfg"});
        QTest::newRow("global: the literal global")
            << scriptSpec(R"("scope": "global")", R"(["{{mine}}:log:{client}"])")
                   .replace(R"("scope": "per_client",)", "")
            << strings({"{mine}:log:global"});
        QTest::newRow("glob characters of the rest escaped")
            << scriptSpec({}, R"(["rl:[a]*?:{client}"])") << strings({"rl:\\[a\\]\\*\\?:*"});
        QTest::newRow("the name's glob characters escaped")
            << scriptSpec({}, R"(["{name}:{client}"])").replace("\"mine\"", "\"m*ne\"")
            << strings({"m\\*ne:*"});
        QTest::newRow("an explicit reset is a glob as written")
            << scriptSpec(R"("reset": ["{{{name}}}:w:*", "other:{client}"])",
                          R"(["{{{name}}}:w:{now_ms}:{client}"])")
            << strings({"{mine}:w:*", "other:*"});
    }
    void resetPatterns() {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, patterns);
        const ScriptLimiter limiter(parseLimiterSpecJson(json), {});
        QStringList got;
        for (const std::string& p : limiter.keyPatterns()) {
            got << QString::fromStdString(p);
        }
        QCOMPARE(got, patterns);
    }

    void refused_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown placeholder")
            << scriptSpec({}, R"(["{mine}:{client}"])") << "$.keys[0]"
            << "unknown placeholder {mine}";
        QTest::newRow("unknown placeholder in an argument")
            << scriptSpec().replace("\"10\"", "\"{limit}\"") << "$.args[3]"
            << "unknown placeholder {limit}";
        QTest::newRow("a lone closing brace") << scriptSpec({}, "[\"a}b\"]") << "$.keys[0]"
                                              << "a lone '}'";
        QTest::newRow("an unclosed brace") << scriptSpec({}, "[\"{client\"]") << "$.keys[0]"
                                           << "is not closed";
        QTest::newRow("no keys") << scriptSpec({}, "[]") << "$.keys"
                                 << "must hold 1 to 16 templates, got 0";
        QTest::newRow("seventeen keys")
            << scriptSpec(
                   {}, R"(["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"])")
            << "$.keys"
            << "must hold 1 to 16 templates, got 17";
        QTest::newRow("an empty key") << scriptSpec({}, R"([""])") << "$.keys[0]"
                                      << "must not be empty";
        QTest::newRow("a number as an argument")
            << scriptSpec().replace("\"10\"", "10") << "$.args[3]"
            << "must be a template string";
        QTest::newRow("a key that varies per request, without reset")
            << scriptSpec({}, R"(["{{mine}}:{now_ms}"])") << "$.keys[0]"
            << "give \"reset\"";
        QTest::newRow("a reset pattern that varies per request")
            << scriptSpec(R"("reset": ["{{mine}}:{uuid}"])") << "$.reset[0]"
            << "names only {name} and {client}";
        QTest::newRow("no script") << QByteArray(R"({"type": "script", "name": "m",
            "keys": ["k"], "reply": {"allowed": "1"}})")
                                   << "$.script"
                                   << "missing";
        QTest::newRow("a missing file")
            << scriptSpec().replace(R"({"inline": "return {1, 9, 0}"})", R"("no-such-script.lua")")
            << "$.script"
            << "no-such-script.lua";
        QTest::newRow("an empty inline source")
            << scriptSpec().replace(R"("return {1, 9, 0}")", R"("")") << "$.script.inline"
            << "must not be empty";
        QTest::newRow("no reply") << QByteArray(R"({"type": "script", "name": "m",
            "script": {"inline": "return 1"}, "keys": ["k"]})")
                                  << "$.reply"
                                  << "missing";
        QTest::newRow("an unknown allowed value")
            << scriptSpec().replace(R"("allowed": "1")", R"("allowed": "yes")") << "$.reply.allowed"
            << "unknown value \"yes\"";
        QTest::newRow("an element index without reply.index")
            << scriptSpec().replace(R"("index": 0, )", "") << "$.reply.retry_after_ms"
            << "needs reply.index";
        QTest::newRow("\"reply\" with an array")
            << scriptSpec().replace(R"("retry_after_ms": 2)", R"("retry_after_ms": "reply")")
            << "$.reply.retry_after_ms"
            << "which is an array when reply.index is given";
        QTest::newRow("a negative index")
            << scriptSpec().replace(R"("index": 0)", R"("index": -1)") << "$.reply.index"
            << "must be an integer from 0 to 63";
        QTest::newRow("a reference with a name")
            << scriptSpec(R"("reference": {"type": "gcra", "name": "x", "rate": 1,
                                           "period_ms": 1000, "burst": 1})")
            << "$.reference.name"
            << "the reference takes the script limiter's name";
        QTest::newRow("a reference with a scope")
            << scriptSpec(R"("reference": {"type": "gcra", "scope": "global", "rate": 1,
                                           "period_ms": 1000, "burst": 1})")
            << "$.reference.scope"
            << "the reference takes the script limiter's scope";
        QTest::newRow("a reference's bad field")
            << scriptSpec(R"("reference": {"type": "gcra", "rate": 0, "period_ms": 1000,
                                           "burst": 1})")
            << "$.reference.rate"
            << "must be an integer from 1";
        QTest::newRow("a script as reference")
            << scriptSpec(R"("reference": {"type": "script"})") << "$.reference.type"
            << "a reference is a built-in limiter";
        QTest::newRow("a reference through a gateway")
            << scriptSpec(R"("reference": {"type": "gcra", "rate": 1, "period_ms": 1000,
                                           "burst": 1, "gateway": {"mode": "local"}})")
            << "$.reference.gateway"
            << "decides in Redis beside the script";
        QTest::newRow("a state read without a window")
            << scriptSpec(R"("state": {"key": "{{mine}}:{client}", "read": "zcount_window"})")
            << "$.state.window_ms"
            << "missing";
        QTest::newRow("a state key that varies")
            << scriptSpec(R"("state": {"key": "{now_ms}", "read": "zcard"})") << "$.state.key"
            << "names only {name} and {client}";
        QTest::newRow("a field for another read")
            << scriptSpec(R"("state": {"key": "k", "read": "zcard", "field": "f"})")
            << "$.state.field"
            << "only \"read\": \"hash_field\" takes a field";
        QTest::newRow("an unknown clock") << scriptSpec(R"("clock": "wall")") << "$.clock"
                                          << "unknown clock \"wall\"";
        QTest::newRow("time: redis") << scriptSpec(R"("time": "redis")") << "$.time"
                                     << "declares \"clock\": \"redis\"";
        QTest::newRow("an unknown field") << scriptSpec(R"("rate": 5)") << "$.rate"
                                          << "unknown field";
        QTest::newRow("a batched gateway")
            << scriptSpec(R"("gateway": {"mode": "batched", "sync_ms": 100})") << "$.gateway.mode"
            << "batched";
    }
    void refused() {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        QFETCH(QString, message);
        try {
            parseLimiterSpecJson(json);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.where() == where, qPrintable(e.message()));
            QVERIFY2(e.problem().contains(message), qPrintable(e.message()));
        }
    }

    void scenarioRefusesTheReferencesName() {
        const QByteArray json = R"({"limiters": [)" + scriptSpec(R"("reference": {"type": "gcra",
            "rate": 1, "period_ms": 1000, "burst": 1})") +
                                R"(,
            {"type": "gcra", "name": "mine:reference", "rate": 1, "period_ms": 1000,
             "burst": 1}],
            "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 1}})";
        try {
            parseScenarioJson(json, QString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.where(), QStringLiteral("$.limiters[1].name"));
            QVERIFY2(
                e.problem().contains(QStringLiteral("the reference of script limiter \"mine\"")),
                qPrintable(e.message()));
        }
    }

    void redisClockRunsOnTheRealClockOnly_data() {
        QTest::addColumn<QByteArray>("traffic");
        QTest::addColumn<QByteArray>("sweep");
        QTest::addColumn<QString>("where");
        QTest::newRow("virtual clock")
            << QByteArray(
                   R"("clock": {"type": "virtual", "start": "2024-01-01T00:00:00Z", "speed": 0})")
            << QByteArray() << "$.traffic.clock";
        QTest::newRow("sweep")
            << QByteArray(R"("clock": "real")")
            << QByteArray(
                   R"(, "sweep": {"vary": {"mine.args[3]": [5, 10]}, "minimize": "rejected"})")
            << "$.sweep";
        QTest::newRow("real clock") << QByteArray(R"("clock": "real")") << QByteArray() << "";
    }
    void redisClockRunsOnTheRealClockOnly() {
        QFETCH(QByteArray, traffic);
        QFETCH(QByteArray, sweep);
        QFETCH(QString, where);
        const QByteArray json = R"({"limiters": [)" + scriptSpec(R"("clock": "redis")") +
                                R"(], "traffic": {"shape": {"type": "constant", "rate": 10},
                                "duration_s": 1, )" +
                                traffic + "}" + sweep + "}";
        try {
            parseScenarioJson(json, QString());
            QVERIFY2(where.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.where(), where);
            QVERIFY2(e.problem().contains(QStringLiteral("Redis's own clock")),
                     qPrintable(e.message()));
        }
    }

    void numericParams() {
        const LimiterSpec spec = parseLimiterSpecJson(scriptSpec(R"("reference": {"type":
            "sliding_window", "rules": [{"limit": 10, "window_ms": 1000}]})"));
        const Algorithm& algorithm = algorithmOf(spec);
        QStringList paths;
        for (const NumericParam& p : algorithm.numericParams(spec)) {
            paths << p.path + (p.counterfactual ? QString() : QStringLiteral(" (sweep only)"));
        }
        QCOMPARE(paths, (strings({"args[3]", "args[4]", "reference.rules[0].limit (sweep only)",
                                  "reference.rules[0].window_ms (sweep only)"})));
        LimiterSpec changed = spec;
        QVERIFY(algorithm.setNumericParam(changed, QStringLiteral("args[3]"), 20));
        QVERIFY(algorithm.setNumericParam(changed, QStringLiteral("reference.rules[0].limit"), 7));
        QCOMPARE(changed.script->args[3].text(), QStringLiteral("20"));
        QCOMPARE(changed.script->reference->rules[0].limit, 7);
        QCOMPARE(spec.script->args[3].text(), QStringLiteral("10"));  // the original unchanged
        QVERIFY(!algorithm.setNumericParam(changed, QStringLiteral("args[0]"), 1));  // {now_ms}
        QVERIFY(!algorithm.setNumericParam(changed, QStringLiteral("args[9]"), 1));
        QVERIFY(changed != spec);
        QCOMPARE(parseLimiterSpec(limiterSpecToJson(changed)), changed);
    }
};

QTEST_APPLESS_MAIN(TestScriptSpec)
#include "tst_script_spec.moc"
