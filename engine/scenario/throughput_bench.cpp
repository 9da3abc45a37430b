#include "scenario/throughput_bench.h"

#include <QDateTime>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "redis/redis_error.h"

namespace ratelab {
namespace {

struct Counts {
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
};

// One pipeline's worth of prepared decisions, formatted as RESP.
struct Batch {
    std::vector<ScriptCall> calls;
    RespWriter resp;
    int depth = 0;
};

Counts benchOneConnection(const Limiter& limiter, RedisConnection& connection, qint64 requests,
                          int pipeline, int clients, int offset) {
    Counts counts;
    QStringList names;
    for (int c = 0; c < clients; ++c) {
        names.push_back(QStringLiteral("c%1").arg(c));
    }
    qint64 prepared = 0;
    auto prepare = [&](Batch& batch) {
        batch.calls.clear();
        batch.resp.clear();
        batch.depth = static_cast<int>(std::min<qint64>(pipeline, requests - prepared));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < batch.depth; ++i) {
            const QString& client = names[int((offset + prepared + i) % clients)];
            batch.calls.push_back(limiter.prepare(Request{now, client, 1}));
            limiter.script().formatEvalsha(batch.resp, batch.calls.back().keys,
                                           batch.calls.back().args);
        }
        prepared += batch.depth;
    };

    Batch first;
    Batch second;
    Batch* current = &first;
    Batch* next = &second;
    prepare(*current);
    std::vector<int> noScript;
    while (current->depth > 0) {
        connection.appendFormatted(current->resp.bytes(), size_t(current->depth));
        connection.flush();
        // Build the next batch while Redis works on this one; at most `pipeline` stay in flight.
        prepare(*next);
        noScript.clear();
        for (int i = 0; i < current->depth; ++i) {
            RedisReply reply = connection.readReply();
            if (LuaScript::isNoScript(reply.get())) {
                noScript.push_back(i);  // re-sent with EVAL once this pipeline is drained
                continue;
            }
            try {
                (limiter.parseReply(reply.get()).allowed ? counts.accepted : counts.rejected)++;
            } catch (const RedisError&) {
                counts.errors++;
            }
        }
        for (int i : noScript) {
            const ScriptCall& call = current->calls[size_t(i)];
            RedisReply reply =
                connection.command(limiter.script().evalCommand(call.keys, call.args));
            try {
                (limiter.parseReply(reply.get()).allowed ? counts.accepted : counts.rejected)++;
            } catch (const RedisError&) {
                counts.errors++;
            }
        }
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

BenchResult runThroughputBench(const Limiter& limiter, const RedisUrl& url,
                               const BenchOptions& options) {
    std::vector<std::unique_ptr<RedisConnection>> connections;
    for (int i = 0; i < options.connections; ++i) {
        connections.push_back(std::make_unique<RedisConnection>(url));
    }
    // Load the script up front so the timed part runs EVALSHA only.
    throwIfError(connections.front()->command({"SCRIPT", "LOAD", limiter.script().source()}).get(),
                 "SCRIPT LOAD");

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
                counts[size_t(i)] = benchOneConnection(limiter, *connections[size_t(i)], share,
                                                       options.pipeline, options.clients, i * 7919);
            } catch (const RedisError&) {
                counts[size_t(i)].errors += share;  // the connection failed: count its share
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
    for (const Counts& c : counts) {
        result.accepted += c.accepted;
        result.rejected += c.rejected;
        result.errors += c.errors;
    }
    result.decisions = result.accepted + result.rejected;
    result.seconds = std::chrono::duration<double>(end - start).count();
    return result;
}

QString redisBenchmarkCommand(const Limiter& limiter, const RedisUrl& url,
                              const BenchOptions& options, qint64 nowMs) {
    const ScriptCall call = limiter.prepare(Request{nowMs, QStringLiteral("c0"), 1});
    QStringList parts{QStringLiteral("redis-benchmark")};
    if (url.transport == RedisUrl::Transport::Unix) {
        parts << QStringLiteral("-s") << url.socketPath;
    } else {
        parts << QStringLiteral("-h") << url.host << QStringLiteral("-p")
              << QString::number(url.port);
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
