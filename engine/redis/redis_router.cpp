#include "redis/redis_router.h"

#include <algorithm>
#include <thread>

#include "redis/cluster_slot.h"
#include "redis/redis_error.h"

namespace ratelab {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kMinBackoff{50};
constexpr std::chrono::milliseconds kMaxBackoff{2000};
// A stale slot map is read again at most this often (MOVED storms during a reshard).
constexpr std::chrono::milliseconds kRefreshInterval{100};
// TRYAGAIN: the slot's keys are being moved; a MIGRATE batch takes milliseconds.
constexpr std::chrono::milliseconds kTryAgainPause{10};

bool errorStartsWith(const redisReply* reply, std::string_view prefix) {
    return reply != nullptr && reply->type == REDIS_REPLY_ERROR &&
           std::string_view(reply->str, reply->len).substr(0, prefix.size()) == prefix;
}

}  // namespace

RedisRouter::RedisRouter(RedisUrl url, ConnectOptions options)
    : url_(std::move(url)), options_(options) {
    if (!isCluster()) {
        nodes_.push_back(Node{url_.host, url_.port, nullptr, {}, {}, {}});
        connect(nodes_.front());
        return;
    }
    slotOwner_.assign(kClusterSlots, -1);
    for (const RedisUrl::HostPort& seed : url_.seeds) {
        nodeAt(seed.host, seed.port);
    }
    refreshSlotMap();
}

RedisRouter::~RedisRouter() = default;

RedisConnection& RedisRouter::connect(Node& node) {
    if (node.connection && !node.connection->broken()) {
        return *node.connection;
    }
    const Clock::time_point now = Clock::now();
    if (backoffEnabled_ && now < node.nextAttempt) {
        throw RedisError(RedisError::Kind::Connect,
                         "cannot reach " + nodeName(int(&node - nodes_.data())).toStdString() +
                             " (retrying with backoff)",
                         node.lastCause);
    }
    try {
        if (node.connection) {
            node.connection->reconnect();
        } else {
            // The deadline of a batch under way bounds the connect too.
            ConnectOptions options = options_;
            if (hasDeadline_) {
                options.connectTimeout = std::min(
                    options.connectTimeout,
                    std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now));
            }
            node.connection = std::make_unique<RedisConnection>(
                isCluster() ? url_.nodeUrl(node.host, node.port) : url_, options);
            if (hasDeadline_) {
                node.connection->setDeadline(deadline_);
            }
        }
        node.backoff = std::chrono::milliseconds(0);
        return *node.connection;
    } catch (const RedisError& e) {
        node.backoff = std::clamp(node.backoff * 2, kMinBackoff, kMaxBackoff);
        node.nextAttempt = Clock::now() + node.backoff;
        node.lastCause = e.cause();
        mapStale_ = isCluster();  // a master that went away may have handed its slots over
        throw;
    }
}

int RedisRouter::nodeAt(const QString& host, int port) {
    for (size_t i = 0; i < nodes_.size(); ++i) {
        if (nodes_[i].port == port && nodes_[i].host == host) {
            return int(i);
        }
    }
    nodes_.push_back(Node{host, port, nullptr, {}, {}, {}});
    return int(nodes_.size() - 1);
}

QString RedisRouter::nodeName(int index) const {
    if (!isCluster()) {
        return url_.toDisplayString();
    }
    const Node& node = nodes_[size_t(index)];
    return (node.host.contains(u':') ? QLatin1Char('[') + node.host + QLatin1Char(']')
                                     : node.host) +
           QLatin1Char(':') + QString::number(node.port);
}

RedisUrl RedisRouter::nodeUrlForSlot(int slot) {
    if (!isCluster()) {
        return url_;
    }
    const Node& node = nodes_[size_t(nodeIndexForSlot(slot))];
    return url_.nodeUrl(node.host, node.port);
}

bool RedisRouter::readSlotMap(RedisConnection& connection, const QString& askedHost) {
    RedisReply reply = connection.command({"CLUSTER", "SLOTS"});
    throwIfError(reply.get(), "CLUSTER SLOTS");
    if (reply->type != REDIS_REPLY_ARRAY) {
        throw RedisError(
            RedisError::Kind::Reply,
            "CLUSTER SLOTS: unexpected reply (" + std::string(replyTypeName(reply->type)) + ")");
    }
    // Checked completely before anything is changed: Redis on the other end is not trusted.
    struct Range {
        int first, last;
        QString host;
        int port;
    };
    std::vector<Range> ranges;
    for (size_t i = 0; i < reply->elements; ++i) {
        const redisReply* r = reply->element[i];
        const bool shaped = r->type == REDIS_REPLY_ARRAY && r->elements >= 3 &&
                            r->element[0]->type == REDIS_REPLY_INTEGER &&
                            r->element[1]->type == REDIS_REPLY_INTEGER &&
                            r->element[2]->type == REDIS_REPLY_ARRAY &&
                            r->element[2]->elements >= 2 &&
                            r->element[2]->element[0]->type == REDIS_REPLY_STRING &&
                            r->element[2]->element[1]->type == REDIS_REPLY_INTEGER;
        if (!shaped) {
            throw RedisError(RedisError::Kind::Reply,
                             "CLUSTER SLOTS: unexpected reply (entry " + std::to_string(i) + ")");
        }
        const long long first = r->element[0]->integer;
        const long long last = r->element[1]->integer;
        const long long port = r->element[2]->element[1]->integer;
        if (first < 0 || last < first || last >= kClusterSlots || port < 1 || port > 65535) {
            throw RedisError(RedisError::Kind::Reply,
                             "CLUSTER SLOTS: slot range or port out of "
                             "range (entry " +
                                 std::to_string(i) + ")");
        }
        const redisReply* ip = r->element[2]->element[0];
        // An empty address means "the node you asked" (Redis 7 may also send "?" for unknown).
        QString host = QString::fromUtf8(ip->str, int(ip->len));
        if (host.isEmpty() || host == QLatin1String("?")) {
            host = askedHost;
        }
        ranges.push_back(Range{int(first), int(last), host, int(port)});
    }
    if (ranges.empty()) {
        return false;  // a node that is not (yet) part of a cluster with slots
    }
    std::fill(slotOwner_.begin(), slotOwner_.end(), std::int16_t(-1));
    for (const Range& range : ranges) {
        const auto owner = static_cast<std::int16_t>(nodeAt(range.host, range.port));
        std::fill(slotOwner_.begin() + range.first, slotOwner_.begin() + range.last + 1, owner);
    }
    return true;
}

void RedisRouter::refreshSlotMap() {
    if (!isCluster()) {
        return;
    }
    lastRefresh_ = Clock::now();
    std::string lastError = "no node to ask";
    // Nodes already connected first, then the others (seeds and known masters).
    std::vector<size_t> order(nodes_.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_partition(order.begin(), order.end(), [&](size_t i) {
        return nodes_[i].connection && !nodes_[i].connection->broken();
    });
    for (size_t i : order) {
        try {
            const QString host = nodes_[i].host;
            if (readSlotMap(connect(nodes_[i]), host)) {
                mapStale_ = false;
                return;
            }
            lastError = nodeName(int(i)).toStdString() + " serves no slots";
        } catch (const RedisError& e) {
            lastError = e.what();
        }
    }
    throw RedisError(
        RedisError::Kind::Connect,
        "cannot read the slot map of " + url_.toDisplayString().toStdString() + ": " + lastError);
}

void RedisRouter::refreshIfStale() {
    if (mapStale_ && Clock::now() - lastRefresh_ >= kRefreshInterval) {
        try {
            refreshSlotMap();
        } catch (const RedisError&) {
            // Keep routing with the map we have; the node's own errors will tell.
        }
    }
}

int RedisRouter::nodeIndexForSlot(int slot) {
    if (!isCluster()) {
        return 0;
    }
    refreshIfStale();
    const int owner = slotOwner_[size_t(slot)];
    if (owner < 0) {
        mapStale_ = true;
        throw RedisError(RedisError::Kind::Connect, "slot " + std::to_string(slot) +
                                                        " is not served by any node of " +
                                                        url_.toDisplayString().toStdString());
    }
    return owner;
}

void RedisRouter::setDeadline(Clock::time_point deadline) {
    hasDeadline_ = true;
    deadline_ = deadline;
    for (Node& node : nodes_) {
        if (node.connection) {
            node.connection->setDeadline(deadline);
        }
    }
}

void RedisRouter::clearDeadline() {
    hasDeadline_ = false;
    for (Node& node : nodes_) {
        if (node.connection) {
            node.connection->clearDeadline();
        }
    }
}

RedisConnection& RedisRouter::connectionForSlot(int slot) {
    return connect(nodes_[size_t(nodeIndexForSlot(slot))]);
}

RedisConnection& RedisRouter::connectionForKey(const std::string& key) {
    return connectionForSlot(keyHashSlot(key));
}

std::vector<RedisConnection*> RedisRouter::masterConnections() {
    std::vector<RedisConnection*> out;
    if (!isCluster()) {
        out.push_back(&connect(nodes_.front()));
        return out;
    }
    refreshIfStale();
    std::vector<char> owns(nodes_.size(), 0);
    for (std::int16_t owner : slotOwner_) {
        if (owner >= 0) {
            owns[size_t(owner)] = 1;
        }
    }
    for (size_t i = 0; i < nodes_.size(); ++i) {
        if (owns[i]) {
            out.push_back(&connect(nodes_[i]));
        }
    }
    return out;
}

bool RedisRouter::needsRetry(const redisReply* reply) {
    return LuaScript::isNoScript(reply) || errorStartsWith(reply, "MOVED ") ||
           errorStartsWith(reply, "ASK ") || errorStartsWith(reply, "TRYAGAIN");
}

RedisReply RedisRouter::withRedirects(int slot, const Send& send) {
    int askNode = -1;
    std::string last;
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
        const bool asking = askNode >= 0;
        RedisConnection& connection =
            asking ? connect(nodes_[size_t(askNode)]) : connectionForSlot(slot);
        RedisReply reply = send(connection, asking);
        askNode = -1;
        if (!isCluster() || reply->type != REDIS_REPLY_ERROR) {
            return reply;
        }
        const std::string_view text(reply->str, reply->len);
        if (const auto redirect = parseClusterRedirect(text)) {
            const int target = nodeAt(QString::fromStdString(redirect->host), redirect->port);
            if (redirect->kind == ClusterRedirect::Kind::Moved) {
                redirects_.moved++;
                slotOwner_[size_t(redirect->slot)] = static_cast<std::int16_t>(target);
                mapStale_ = true;  // other slots have probably moved with it
            } else {
                redirects_.ask++;
                askNode = target;
            }
        } else if (errorStartsWith(reply.get(), "TRYAGAIN")) {
            redirects_.tryAgain++;
            std::this_thread::sleep_for(kTryAgainPause * (1 + attempt / 4));
        } else {
            return reply;  // CLUSTERDOWN and any other error: the caller's to handle
        }
        last = std::string(text);
    }
    throw RedisError(RedisError::Kind::Reply,
                     "slot " + std::to_string(slot) + ": still redirected after " +
                         std::to_string(kMaxAttempts) + " attempts (last: " + last + ")",
                     "redirected too often");
}

RedisReply RedisRouter::command(int slot, const RedisArgs& args) {
    return withRedirects(slot, [&](RedisConnection& connection, bool asking) {
        if (!asking) {
            return connection.command(args);
        }
        connection.append({"ASKING"});
        connection.append(args);
        connection.readReply();  // +OK
        return connection.readReply();
    });
}

RedisReply RedisRouter::runScript(int slot, const LuaScript& script, const RedisArgs& keys,
                                  const RedisArgs& args) {
    return withRedirects(slot, [&](RedisConnection& connection, bool asking) {
        if (asking) {
            connection.append({"ASKING"});
        }
        script.appendEvalsha(connection, keys, args);
        if (asking) {
            connection.readReply();
        }
        RedisReply reply = connection.readReply();
        if (LuaScript::isNoScript(reply.get())) {
            // EVAL both runs the script and caches it, so later EVALSHAs hit again.
            if (asking) {
                connection.append({"ASKING"});
            }
            connection.append(script.evalCommand(keys, args));
            if (asking) {
                connection.readReply();
            }
            reply = connection.readReply();
        }
        return reply;
    });
}

}  // namespace ratelab
