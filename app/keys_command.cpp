#include "keys_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "command_line.h"
#include "input_error.h"
#include "interrupt.h"
#include "json_input.h"
#include "limiters/token_bucket_limiter.h"
#include "redis/cluster_slot.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"
#include "redis/redis_scan.h"
#include "redis/redis_target.h"

namespace ratelab::cli {
namespace {

constexpr std::size_t kDeleteBatch = 500;

// A limiter's name as specs accept it: keys are built from it.
QString checkedName(const QString& name) {
    const QString where = QStringLiteral("NAME");
    if (name.isEmpty()) {
        throw InputError(where, QStringLiteral("must not be empty"));
    }
    if (name.contains(u'{') || name.contains(u'}')) {
        throw InputError(where, QStringLiteral("must not contain '{' or '}'"));
    }
    json_input::refuseBadNameCharacters(name, where);
    return name;
}

}  // namespace

int keysCommand(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("name"), QStringLiteral("The limiter's name."));
    parser.addOptions({
        {QStringLiteral("delete"), QStringLiteral("Delete the keys listed (and nothing else).")},
        {QStringLiteral("redis"), QStringLiteral("Redis URL."), QStringLiteral("URL")},
    });
    parser.addOptions(tlsOptions());
    if (!parseArguments(parser, args, {}, 1)) {
        return kBadInput;
    }
    return runGuarded([&] {
        const std::string name = checkedName(parser.positionalArguments().at(0)).toStdString();
        const RedisTarget redis = resolveRedisTarget(parser);
        RedisRouter router(redis.url());
        const std::string tag = "{" + name + "}";
        const int slot = keyHashSlot(tag);
        std::vector<std::string> keys;
        // Redisson's hash NAME hashes to the slot of "{NAME}" as well: one node.
        if (keyHoldsLayout(router, slot, name, TokenBucketLimiter::configLayout())) {
            keys.push_back(name);
        }
        scanEach(
            router.connectionForSlot(slot), escapeGlob(tag) + ":*",
            [&](std::vector<std::string>& batch) {
                keys.insert(keys.end(), batch.begin(), batch.end());
            },
            "SCAN");
        const bool remove = parser.isSet(QStringLiteral("delete"));
        long long deleted = 0;
        for (std::size_t i = 0; remove && i < keys.size(); i += kDeleteBatch) {
            // Between two batches: deleting a keyspace of millions stops within a second.
            if (interrupted()) {
                printError(QStringLiteral("interrupted by %1: deleted %2 of %3 keys of %4")
                               .arg(interruptName())
                               .arg(deleted)
                               .arg(keys.size())
                               .arg(json_input::quoted(QString::fromStdString(name))));
                return interruptExitCode();
            }
            RedisArgs del{"DEL"};
            for (std::size_t j = i; j < std::min(keys.size(), i + kDeleteBatch); ++j) {
                del.push_back(keys[j]);
            }
            deleted += replyInteger(router.command(slot, del).get(), "DEL");
        }
        for (const std::string& key : keys) {
            std::printf("%s\n", key.c_str());
        }
        if (remove) {
            std::printf("deleted %lld of %zu keys of %s\n", deleted, keys.size(),
                        qPrintable(json_input::quoted(QString::fromStdString(name))));
        } else {
            std::printf("%zu keys of %s\n", keys.size(),
                        qPrintable(json_input::quoted(QString::fromStdString(name))));
        }
        std::fflush(stdout);
        return int(kDone);
    });
}

}  // namespace ratelab::cli
