#include "hunt/scratch_names.h"

#include <QRandomGenerator>
#include <chrono>

#include "redis/redis_error.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"
#include "redis/redis_scan.h"

namespace ratelab {
namespace {

constexpr std::chrono::seconds kCleanupAfterInterrupt{2};

}  // namespace

ScratchNames::ScratchNames(quint64 random) {
    const quint64 bits = random != 0 ? random : QRandomGenerator::system()->generate64();
    base_ = QStringLiteral("hunt-%1").arg(bits, 16, 16, QLatin1Char('0'));
    baseBytes_ = base_.toStdString();
}

QString ScratchNames::next() {
    return base_ + QLatin1Char('-') + QString::number(next_++);
}

bool ScratchNames::owns(const std::string& key) const {
    std::size_t at = !key.empty() && key[0] == '{' ? 1 : 0;
    if (key.compare(at, baseBytes_.size(), baseBytes_) != 0) {
        return false;
    }
    at += baseBytes_.size();
    if (at >= key.size() || key[at] != '-') {
        return false;
    }
    ++at;
    qint64 n = 0;
    const std::size_t digits = at;
    while (at < key.size() && key[at] >= '0' && key[at] <= '9' && at - digits < 18) {
        n = n * 10 + (key[at] - '0');
        ++at;
    }
    if (at == digits || n >= next_) {
        return false;
    }
    // The name ends there: the key is the name itself, or goes on after its hash tag's end, a
    // gateway's "@g<g>" or a script's ":".
    return at == key.size() || key[at] == '}' || key[at] == '@' || key[at] == ':';
}

long long ScratchNames::deleteKeys(RedisRouter& router) const {
    if (next_ == 0) {
        return 0;
    }
    // An interrupted hunt still deletes its keys: SCAN goes on after the interrupt (which ends
    // scanEach) for at most kCleanupAfterInterrupt; past that the keys expire on their own.
    const auto giveUpAt = std::chrono::steady_clock::now() + kCleanupAfterInterrupt;
    long long deleted = 0;
    const std::string pattern = '*' + escapeGlob(baseBytes_) + "-*";
    for (RedisConnection* node : router.masterConnections()) {
        std::string cursor = "0";
        do {
            if (RedisConnection::interrupted() && std::chrono::steady_clock::now() > giveUpAt) {
                throw RedisError(RedisError::Kind::Timeout,
                                 "hunt: deleting its scratch keys: interrupted", "interrupted");
            }
            RedisReply reply = node->command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
            throwIfError(reply.get(), "hunt: SCAN");
            if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
                reply->element[1]->type != REDIS_REPLY_ARRAY) {
                throw RedisError(RedisError::Kind::Reply, "hunt: SCAN: unexpected reply");
            }
            cursor = replyString(reply->element[0], "SCAN cursor");
            std::vector<std::string> keys;
            const redisReply* found = reply->element[1];
            for (std::size_t i = 0; i < found->elements; ++i) {
                std::string key = replyString(found->element[i], "SCAN key");
                if (owns(key)) {
                    keys.push_back(std::move(key));
                }
            }
            // One UNLINK per key (a cluster node holds many slots), pipelined.
            for (const std::string& key : keys) {
                node->append({"UNLINK", key});
            }
            node->flush();
            for (std::size_t i = 0; i < keys.size(); ++i) {
                deleted += replyInteger(node->readReply().get(), "UNLINK");
            }
        } while (cursor != "0");
    }
    return deleted;
}

}  // namespace ratelab
