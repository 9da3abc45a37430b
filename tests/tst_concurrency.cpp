// 8 threads, each with its own connection (router), hammer one limiter of each type in real
// time. Runs against the single-server fixture and, as tst_concurrency_cluster, the cluster.
// Afterwards no window of the recorded grants holds more than the limit.
#include <QDateTime>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <map>

#include "limiters/fixed_window_limiter.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

struct Grant {
    qint64 t;
    qint64 permits;
    QString client;
};

constexpr int kThreads = 8;
// Each worker sends for this long (so every window is crossed several times), bounded in count.
constexpr qint64 kRunMs = 700;
constexpr int kMaxRequestsPerThread = 20000;

std::vector<Grant> hammer(const Limiter& limiter, int clients) {
    std::vector<std::vector<Grant>> perThread(kThreads);
    std::atomic<int> failures{0};
    std::vector<std::unique_ptr<QThread>> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back(QThread::create([&, i] {
            try {
                auto router = routeFixture();
                const qint64 end = QDateTime::currentMSecsSinceEpoch() + kRunMs;
                for (int n = 0;
                     n < kMaxRequestsPerThread && QDateTime::currentMSecsSinceEpoch() < end; ++n) {
                    const Request r{QDateTime::currentMSecsSinceEpoch(),
                                    QStringLiteral("c%1").arg((i + n) % clients), 1 + n % 2};
                    const Decision d = test::decide(*router, limiter, r);
                    if (d.allowed) {
                        perThread[i].push_back({d.atMs, r.permits, r.client});
                    }
                }
            } catch (const std::exception& e) {
                qWarning("worker %d: %s", i, e.what());
                failures++;
            }
        }));
        threads.back()->start();
    }
    for (auto& t : threads) {
        t->wait();
    }
    if (failures > 0) {
        qFatal("%d workers failed", failures.load());
    }
    std::vector<Grant> all;
    for (auto& v : perThread) {
        all.insert(all.end(), v.begin(), v.end());
    }
    std::sort(all.begin(), all.end(), [](const Grant& a, const Grant& b) { return a.t < b.t; });
    return all;
}

// Largest sum of permits of one client's grants inside any (t - window, t].
qint64 busiestWindow(const std::vector<Grant>& grants, qint64 windowMs) {
    std::map<QString, std::vector<const Grant*>> byClient;
    for (const Grant& g : grants) {
        byClient[g.client].push_back(&g);
    }
    qint64 worst = 0;
    for (auto& [client, list] : byClient) {
        qint64 sum = 0;
        size_t first = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            sum += list[i]->permits;
            while (list[first]->t <= list[i]->t - windowMs) {
                sum -= list[first]->permits;
                ++first;
            }
            worst = std::max(worst, sum);
        }
    }
    return worst;
}

}  // namespace

class TestConcurrency : public QObject {
    Q_OBJECT

private slots:
    void tokenBucket_data() {
        QTest::addColumn<int>("scope");
        QTest::newRow("global") << int(Scope::Global);
        QTest::newRow("per_client") << int(Scope::PerClient);
    }
    void tokenBucket() {
        QFETCH(int, scope);
        LimiterSpec s;
        s.type = LimiterType::TokenBucket;
        s.name = uniqueName(QStringLiteral("cc-tb"));
        s.scope = Scope(scope);
        s.rate = 20;
        s.intervalMs = 50;
        ScopedLimiter limiter(s);
        const int clients = scope == int(Scope::PerClient) ? 3 : 1;
        std::vector<Grant> grants = hammer(*limiter, clients);
        if (scope == int(Scope::Global)) {
            for (Grant& g : grants) {
                g.client.clear();
            }
        }
        QVERIFY2(grants.size() > size_t(s.rate), "too few grants to prove anything");
        const qint64 worst = busiestWindow(grants, s.intervalMs);
        QVERIFY2(worst <= s.rate, qPrintable(QStringLiteral("a window held %1").arg(worst)));
    }

    void slidingWindow() {
        LimiterSpec s;
        s.type = LimiterType::SlidingWindow;
        s.name = uniqueName(QStringLiteral("cc-sw"));
        s.scope = Scope::Global;
        s.rules = {{6, 20}, {25, 200}};
        ScopedLimiter limiter(s);
        std::vector<Grant> grants = hammer(*limiter, 1);
        QVERIFY2(grants.size() > 25, "too few grants to prove anything");
        for (const SlidingRule& rule : s.rules) {
            const qint64 worst = busiestWindow(grants, rule.windowMs);
            QVERIFY2(
                worst <= rule.limit,
                qPrintable(QStringLiteral("a %1 ms window held %2").arg(rule.windowMs).arg(worst)));
        }
    }

    void fixedWindow() {
        LimiterSpec s;
        s.type = LimiterType::FixedWindow;
        s.name = uniqueName(QStringLiteral("cc-fw"));
        s.scope = Scope::PerClient;
        s.rate = 25;
        s.interval = 100;
        s.unit = CalendarUnit::Milliseconds;
        s.timezone = "UTC";
        ScopedLimiter limiter(s);
        const std::vector<Grant> grants = hammer(*limiter, 2);
        QVERIFY2(grants.size() > size_t(s.rate), "too few grants to prove anything");
        const CalendarWindows windows(s.interval, s.unit, zoneForId(s.timezone));
        std::map<std::pair<qint64, QString>, qint64> perWindow;
        for (const Grant& g : grants) {
            perWindow[{windows.windowAt(g.t).startMs, g.client}] += g.permits;
        }
        for (const auto& [window, sum] : perWindow) {
            QVERIFY2(sum <= s.rate, qPrintable(QStringLiteral("window %1 of %2 held %3")
                                                   .arg(window.first)
                                                   .arg(window.second)
                                                   .arg(sum)));
        }
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
