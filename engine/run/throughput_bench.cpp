#include "run/throughput_bench.h"

#include <QDateTime>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

#include "redis/redis_error.h"
#include "traffic/decision_path.h"
#include "traffic/redis_error_cause.h"

namespace ratelab {
namespace {

struct Counts {
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    qint64 causes[kErrorCauses] = {};
    std::vector<qint64> perNode;  // decisions by node index of this thread's router
    bool stopped = false;

    void error(ErrorCause cause, qint64 n = 1) {
        errors += n;
        causes[int(cause)] += n;
    }
};

// Counts a decided batch's results.
void tally(Counts& counts, const DecisionPath& batch) {
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const DecisionPath::Result& result = batch.result(i);
        if (!result.decided) {
            counts.error(result.cause);
            continue;
        }
        (result.decision.allowed ? counts.accepted : counts.rejected)++;
        if (std::size_t(result.node) >= counts.perNode.size()) {
            counts.perNode.resize(std::size_t(result.node) + 1, 0);
        }
        counts.perNode[std::size_t(result.node)]++;
    }
}

Counts benchOneConnection(const std::vector<const Limiter*>& limiters, RedisRouter& router,
                          qint64 requests, const BenchOptions& options, int offset) {
    const int pipeline = options.pipeline;
    const int clients = options.clients;
    Counts counts;
    QStringList names;
    for (int c = 0; c < clients; ++c) {
        names.push_back(QStringLiteral("c%1").arg(c));
    }
    const size_t limiterCount = limiters.size();
    qint64 prepared = 0;
    auto prepare = [&](DecisionPath& batch) {
        batch.clear();
        const int depth = static_cast<int>(std::min<qint64>(pipeline, requests - prepared));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < depth; ++i) {
            const qint64 k = offset + prepared + i;
            const QString& client = names[int((k / qint64(limiterCount)) % clients)];
            batch.add(router, int(size_t(k) % limiterCount), 0, Request{now, client, 1}, 0);
        }
        prepared += depth;
    };

    // The decision path of a run, with one plain gateway.
    const DecisionPath::Limiters byIndex = [&limiters](int l) -> const Limiter& {
        return *limiters[size_t(l)];
    };
    DecisionPath first(byIndex, nullptr);
    DecisionPath second(byIndex, nullptr);
    DecisionPath* current = &first;
    DecisionPath* next = &second;
    prepare(*current);
    while (current->size() > 0) {
        if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
            counts.stopped = true;
            break;
        }
        // Build the next batch while Redis works on this one; at most `pipeline` stay in flight.
        current->run(router, options.connect.commandTimeout, {}, 0, [&] { prepare(*next); });
        tally(counts, *current);
        std::swap(current, next);
    }
    return counts;
}

QString shellQuote(const std::string& arg) {
    QString text = QString::fromUtf8(arg.data(), int(arg.size()));
    bool plain = !text.isEmpty();
    for (QChar c : text) {
        if (!(c.isLetterOrNumber() || QStringLiteral("-_.:/{}=+,").contains(c))) {
            plain = false;
        }
    }
    if (plain) {
        return text;
    }
    return QLatin1Char('\'') + text.replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
           QLatin1Char('\'');
}

}  // namespace

BenchResult runThroughputBench(const std::vector<const Limiter*>& limiters, const RedisUrl& url,
                               const BenchOptions& options) {
    std::vector<std::unique_ptr<RedisRouter>> routers;
    for (int i = 0; i < options.connections; ++i) {
        routers.push_back(std::make_unique<RedisRouter>(url, options.connect));
    }
    // Load the script on every master up front so the timed part runs EVALSHA only.
    for (RedisConnection* node : routers.front()->masterConnections()) {
        for (const Limiter* limiter : limiters) {
            throwIfError(node->command({"SCRIPT", "LOAD", limiter->script().source()}).get(),
                         "SCRIPT LOAD");
        }
    }

    std::vector<Counts> counts(size_t(options.connections));
    std::vector<std::thread> threads;
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    for (int i = 0; i < options.connections; ++i) {
        const qint64 share = options.requests / options.connections +
                             (i < options.requests % options.connections ? 1 : 0);
        threads.emplace_back([&, i, share] {
            ready++;
            while (!go.load()) {
                std::this_thread::yield();
            }
            try {
                counts[size_t(i)] =
                    benchOneConnection(limiters, *routers[size_t(i)], share, options, i * 7919);
            } catch (const RedisError& e) {
                // The router failed: its share (what it had not yet decided) fails.
                Counts& c = counts[size_t(i)];
                c.error(errorCauseOf(e), share - c.accepted - c.rejected - c.errors);
            }
        });
    }
    while (ready.load() < options.connections) {
        std::this_thread::yield();
    }
    const auto start = std::chrono::steady_clock::now();
    go = true;
    for (std::thread& t : threads) {
        t.join();
    }
    const auto end = std::chrono::steady_clock::now();

    BenchResult result;
    for (size_t r = 0; r < counts.size(); ++r) {
        const Counts& c = counts[r];
        result.accepted += c.accepted;
        result.rejected += c.rejected;
        result.errors += c.errors;
        result.stopped = result.stopped || c.stopped;
        for (int k = 0; k < kErrorCauses; ++k) {
            result.errorCauses[k] += c.causes[k];
        }
        // Routers number their nodes in the order they met them: match by name.
        for (size_t n = 0; n < c.perNode.size(); ++n) {
            const QString name = routers[r]->nodeName(int(n));
            auto it =
                std::find_if(result.nodes.begin(), result.nodes.end(),
                             [&](const BenchResult::Node& node) { return node.name == name; });
            if (it == result.nodes.end()) {
                result.nodes.push_back(BenchResult::Node{name, 0});
                it = result.nodes.end() - 1;
            }
            it->decisions += c.perNode[n];
        }
    }
    result.nodes.erase(std::remove_if(result.nodes.begin(), result.nodes.end(),
                                      [](const BenchResult::Node& n) { return n.decisions == 0; }),
                       result.nodes.end());
    std::sort(
        result.nodes.begin(), result.nodes.end(),
        [](const BenchResult::Node& a, const BenchResult::Node& b) { return a.name < b.name; });
    result.decisions = result.accepted + result.rejected;
    result.seconds = std::chrono::duration<double>(end - start).count();
    return result;
}

BenchResult runThroughputBench(const Limiter& limiter, const RedisUrl& url,
                               const BenchOptions& options) {
    return runThroughputBench(std::vector<const Limiter*>{&limiter}, url, options);
}

QString redisBenchmarkCommand(const Limiter& limiter, const RedisUrl& url,
                              const BenchOptions& options, qint64 nowMs) {
    const ScriptCall call = limiter.prepare(Request{nowMs, QStringLiteral("c0"), 1});
    QStringList parts{QStringLiteral("redis-benchmark")};
    if (url.transport == RedisUrl::Transport::Unix) {
        parts << QStringLiteral("-s") << url.socketPath;
    } else if (url.isCluster()) {
        // redis-benchmark reads the slot map itself; every key of one call shares a slot.
        parts << QStringLiteral("--cluster") << QStringLiteral("-h") << url.host
              << QStringLiteral("-p") << QString::number(url.port);
    } else {
        parts << QStringLiteral("-h") << url.host << QStringLiteral("-p")
              << QString::number(url.port);
    }
    if (url.tls) {  // redis-benchmark's own TLS options (Debian's is built with TLS)
        parts << QStringLiteral("--tls");
        const std::pair<const char*, QString> files[] = {{"--cacert", url.tlsFiles.caCert},
                                                         {"--cert", url.tlsFiles.cert},
                                                         {"--key", url.tlsFiles.key}};
        for (const auto& [option, path] : files) {
            if (!path.isEmpty()) {
                parts << QString::fromLatin1(option) << shellQuote(path.toStdString());
            }
        }
    }
    if (url.db != 0) {
        parts << QStringLiteral("--dbnum") << QString::number(url.db);
    }
    if (!url.user.isEmpty()) {
        parts << QStringLiteral("--user") << url.user;
    }
    parts << QStringLiteral("-c") << QString::number(options.connections) << QStringLiteral("-P")
          << QString::number(options.pipeline) << QStringLiteral("-n")
          << QString::number(options.requests) << QStringLiteral("-q") << QStringLiteral("EVALSHA")
          << QString::fromStdString(limiter.script().sha1()) << QString::number(call.keys.size());
    for (const std::string& key : call.keys) {
        parts << shellQuote(key);
    }
    for (const std::string& arg : call.args) {
        // A binary record id cannot travel in argv (it may hold NUL): same length, printable.
        const bool printable = std::all_of(arg.begin(), arg.end(), [](char c) {
            return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
        });
        parts << shellQuote(printable ? arg : std::string(arg.size(), 'r'));
    }
    return parts.join(QLatin1Char(' '));
}

}  // namespace ratelab
