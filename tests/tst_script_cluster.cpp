// Script limiters on a Redis Cluster (the cluster fixture): each call goes to the slot of its own
// keys, keys that spread over every master are all reset, and a call whose keys are in more than
// one slot is a failed decision with its cause, CROSSSLOT.
#include <QtTest>

#include "limiters/script_limiter.h"
#include "redis/cluster_slot.h"
#include "redis/redis_error.h"
#include "stats/error_cause.h"
#include "support/test_redis.h"
#include "traffic/decision_path.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec scriptOver(const QString& name, const QByteArray& keys) {
    QJsonObject object = QJsonDocument::fromJson(R"({"type": "script", "scope": "per_client",
            "script": {"inline": "for i, k in ipairs(KEYS) do redis.call('INCR', k) end return 1"},
            "reply": {"allowed": "1"}, "keys": )" +
                                                 keys + "}")
                             .object();
    object.insert(QStringLiteral("name"), name);
    return parseLimiterSpec(object);
}

}  // namespace

class TestScriptCluster : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(fixtureUrl().isCluster(), "needs the cluster fixture"); }

    // Clients' keys in their own hash tags: the calls reach every master, and the reset finds
    // every key on each.
    void keysSpreadOverTheMasters() {
        const QString name = uniqueName(QStringLiteral("spread"));
        ScopedLimiter limiter(
            scriptOver(name, R"(["{{{client}}}:{name}:a", "{{{client}}}:{name}:b"])"));
        RedisRouter& router = limiter.router();
        std::vector<int> nodes;
        for (int c = 0; c < 30; ++c) {
            const Request request{1, QStringLiteral("client-%1").arg(c), 1};
            QVERIFY(decide(router, *limiter, request).allowed);
            const int node = router.nodeIndexForSlot(limiter->prepare(request).slot);
            if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) {
                nodes.push_back(node);
            }
        }
        QCOMPARE(int(nodes.size()), router.nodeCount());  // 30 clients reach all 3 masters
        QCOMPARE(limiter->reset(router), 60);
        const std::string key = "{client-0}:" + name.toStdString() + ":a";
        QCOMPARE(router.command(keyHashSlot(key), {"EXISTS", key})->integer, 0);
    }

    void keysInTwoSlotsAreCrossslot() {
        const QString name = uniqueName(QStringLiteral("cross"));
        ScopedLimiter limiter(scriptOver(name, R"(["{{{client}}}:{name}", "{{{name}}}:total"])"));
        DecisionPath path([&](int) -> const Limiter& { return *limiter; }, nullptr);
        path.add(limiter.router(), 0, 0, Request{1, QStringLiteral("alice"), 1}, 0);
        path.run(limiter.router(), std::chrono::milliseconds(2000), {}, 0);
        const DecisionPath::Result& result = path.result(0);
        QVERIFY(!result.decided);
        QCOMPARE(errorCauseName(result.cause), QStringLiteral("CROSSSLOT"));
        try {
            std::rethrow_exception(result.failure);
        } catch (const RedisError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("CROSSSLOT")),
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestScriptCluster)
#include "tst_script_cluster.moc"
