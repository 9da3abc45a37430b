#include "run/throughput_bench.h"

#include <QDateTime>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

#include "redis/redis_error.h"

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

// A RedisError met after the batch went out: a broken connection leaves the outcome unknown.
ErrorCause causeAfterSending(const RedisError& e) {
    return e.kind() == RedisError::Kind::Connect || !e.connectionBroken()
               ? errorCauseOf(e)
               : ErrorCause::UnknownOutcome;
}

// One pipeline's worth of prepared decisions, formatted as RESP, one buffer per node.
struct Batch {
    std::vector<ScriptCall> calls;
    std::vector<const Limiter*> limiters;
    std::vector<int> node;         // node index of each call
    std::vector<RespWriter> resp;  // by node index
    std::vector<size_t> commands;  // by node index
    std::vector<int> slot;         // by node index: a slot it serves (to find its connection)
    int depth = 0;
};

void tally(Counts& counts, const Limiter& limiter, const ScriptCall& call, const redisReply* reply,
           int node) {
    try {
        (limiter.parseReply(reply, call).allowed ? counts.accepted : counts.rejected)++;
        if (size_t(node) >= counts.perNode.size()) {
            counts.perNode.resize(size_t(node) + 1, 0);
        }
        counts.perNode[size_t(node)]++;
    } catch (const RedisError&) {
        counts.error(reply->type == REDIS_REPLY_ERROR
                         ? errorCauseOfReply(std::string_view(reply->str, reply->len))
                         : ErrorCause::BadReply);
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
    auto prepare = [&](Batch& batch) {
        batch.calls.clear();
        batch.limiters.clear();
        batch.node.clear();
        for (RespWriter& w : batch.resp) {
            w.clear();
        }
        std::fill(batch.commands.begin(), batch.commands.end(), 0);
        batch.depth = static_cast<int>(std::min<qint64>(pipeline, requests - prepared));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < batch.depth; ++i) {
            const qint64 k = offset + prepared + i;
            const Limiter& limiter = *limiters[size_t(k) % limiterCount];
            const QString& client = names[int((k / qint64(limiterCount)) % clients)];
            const int node = router.nodeIndexForSlot(limiter.slot());
            if (size_t(node) >= batch.resp.size()) {
                batch.resp.resize(size_t(node) + 1);
                batch.commands.resize(size_t(node) + 1, 0);
                batch.slot.resize(size_t(node) + 1, 0);
            }
            batch.calls.push_back(limiter.prepare(Request{now, client, 1}));
            batch.limiters.push_back(&limiter);
            batch.node.push_back(node);
            limiter.script().formatEvalsha(batch.resp[size_t(node)], batch.calls.back().keys,
                                           batch.calls.back().args);
            batch.commands[size_t(node)]++;
            batch.slot[size_t(node)] = limiter.slot();
        }
        prepared += batch.depth;
    };

    Batch first;
    Batch second;
    Batch* current = &first;
    Batch* next = &second;
    prepare(*current);
    std::vector<int> retry;
    std::vector<RedisConnection*> connectionOf;
    std::vector<ErrorCause> failedNode;
    while (current->depth > 0) {
        if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
            counts.stopped = true;
            break;
        }
        // One deadline for the whole batch, however many nodes and replies.
        router.setDeadline(std::chrono::steady_clock::now() + options.connect.commandTimeout);
        // One pipeline per node, all sent before any reply is read.
        connectionOf.assign(current->resp.size(), nullptr);
        failedNode.assign(current->resp.size(), ErrorCause::Other);
        for (size_t node = 0; node < current->resp.size(); ++node) {
            if (current->commands[node] == 0) {
                continue;
            }
            try {
                RedisConnection& connection = router.connectionForSlot(current->slot[node]);
                connection.appendFormatted(current->resp[node].bytes(), current->commands[node]);
                connection.flush();
                connectionOf[node] = &connection;
            } catch (const RedisError& e) {
                // This node's share of the batch fails; the other nodes go on.
                failedNode[node] = causeAfterSending(e);
            }
        }
        // Build the next batch while Redis works on this one; at most `pipeline` stay in flight.
        prepare(*next);
        retry.clear();
        for (int i = 0; i < current->depth; ++i) {
            const size_t node = size_t(current->node[size_t(i)]);
            RedisConnection* connection = connectionOf[node];
            if (connection == nullptr) {
                counts.error(failedNode[node]);
                continue;
            }
            try {
                RedisReply reply = connection->readReply();
                if (RedisRouter::needsRetry(reply.get())) {
                    retry.push_back(i);  // re-sent once this pipeline is drained
                    continue;
                }
                tally(counts, *current->limiters[size_t(i)], current->calls[size_t(i)], reply.get(),
                      current->node[size_t(i)]);
            } catch (const RedisError& e) {
                counts.error(causeAfterSending(e));
            }
        }
        for (int i : retry) {
            const ScriptCall& call = current->calls[size_t(i)];
            const Limiter& limiter = *current->limiters[size_t(i)];
            try {
                RedisReply reply =
                    router.runScript(limiter.slot(), limiter.script(), call.keys, call.args);
                tally(counts, limiter, call, reply.get(), router.nodeIndexForSlot(limiter.slot()));
            } catch (const RedisError& e) {
                counts.error(causeAfterSending(e));
            }
        }
        router.clearDeadline();
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
