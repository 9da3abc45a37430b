#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "redis/lua_script.h"
#include "redis/redis_connection.h"

namespace ratelab {

// Sends each command to the Redis node that serves its hash slot.
//  - One server (redis://, unix://): one connection serves every slot.
//  - A Redis Cluster (redis-cluster://): one connection per master, picked from the slot map
//    read with CLUSTER SLOTS. MOVED updates the map and retries; ASK retries on the named node
//    after ASKING; TRYAGAIN (the keys of a slot being migrated are split) retries after a
//    short pause. Redirections are bounded (kMaxAttempts); past that the command fails.
// Every limiter's keys share one hash tag, so each decision is one script on one node.
//
// Connections are made lazily and re-made after a failure with backoff: while a node is
// backing off, commands for it fail at once (RedisError) instead of waiting on a timeout.
// Not thread-safe: one router per thread, like RedisConnection.
class RedisRouter {
public:
    static constexpr int kMaxAttempts = 16;

    // Connects (a cluster: reads the slot map from the first seed that answers). Throws
    // RedisError(Kind::Connect) when no server can be reached.
    explicit RedisRouter(RedisUrl url, ConnectOptions options = {});
    ~RedisRouter();
    RedisRouter(const RedisRouter&) = delete;
    RedisRouter& operator=(const RedisRouter&) = delete;

    const RedisUrl& url() const { return url_; }
    const ConnectOptions& options() const { return options_; }
    // Interactive use (one step at a time): try to reconnect on every command instead of
    // failing fast while a node backs off.
    void setReconnectBackoff(bool enabled) { backoffEnabled_ = enabled; }
    bool isCluster() const { return url_.isCluster(); }

    // The connection of the node serving `slot`, connected and authenticated. Throws
    // RedisError when the node cannot be reached (or is backing off after a failure).
    RedisConnection& connectionForSlot(int slot);
    RedisConnection& connectionForKey(const std::string& key);

    // One command on the node serving `slot`, redirections followed. Error replies other than
    // redirections are returned; I/O failures throw RedisError.
    RedisReply command(int slot, const RedisArgs& args);
    // A script on the node serving `slot`: EVALSHA, EVAL on NOSCRIPT, redirections followed.
    RedisReply runScript(int slot, const LuaScript& script, const RedisArgs& keys,
                         const RedisArgs& args);
    // True for replies that runScript would retry: NOSCRIPT, MOVED, ASK and TRYAGAIN. A
    // pipeline that reads one hands that command to runScript once the pipeline is drained.
    static bool needsRetry(const redisReply* reply);

    // Nodes: index, and "host:port" (or the URL shown safely for a single server).
    int nodeCount() const { return static_cast<int>(nodes_.size()); }
    int nodeIndexForSlot(int slot);
    QString nodeName(int index) const;
    // The URL of the node serving `slot` (a single server: the router's own URL), for a
    // connection of its own to that node.
    RedisUrl nodeUrlForSlot(int slot);
    // Connections to every master (a single server: its one connection); for commands that
    // concern a whole node (INFO, SCAN, DBSIZE). Throws RedisError when a node is unreachable.
    std::vector<RedisConnection*> masterConnections();

    // Redirections this router has followed (for tests and the bench's report).
    struct Redirects {
        long long moved = 0;
        long long ask = 0;
        long long tryAgain = 0;
    };
    const Redirects& redirects() const { return redirects_; }

    // Reads the slot map again now (a cluster; a single server: no-op). Throws RedisError
    // when no node answers.
    void refreshSlotMap();

    // One deadline for everything until clearDeadline() (a decision batch): every node's
    // connection, connections made meanwhile, and redirections followed (see
    // RedisConnection::setDeadline).
    void setDeadline(std::chrono::steady_clock::time_point deadline);
    void clearDeadline();

private:
    struct Node {
        QString host;
        int port = 0;
        std::unique_ptr<RedisConnection> connection;
        std::chrono::steady_clock::time_point nextAttempt{};
        std::chrono::milliseconds backoff{0};
        std::string lastCause;  // why the last connect failed (repeated while backing off)
    };
    using Send = std::function<RedisReply(RedisConnection&, bool asking)>;

    RedisReply withRedirects(int slot, const Send& send);
    RedisConnection& connect(Node& node);
    int nodeAt(const QString& host, int port);
    void refreshIfStale();
    bool readSlotMap(RedisConnection& connection, const QString& askedHost);

    RedisUrl url_;
    ConnectOptions options_;
    std::vector<Node> nodes_;
    std::vector<std::int16_t> slotOwner_;  // cluster: node index per slot, -1 not served
    bool mapStale_ = false;
    bool backoffEnabled_ = true;
    Redirects redirects_;
    std::chrono::steady_clock::time_point lastRefresh_{};
    bool hasDeadline_ = false;
    std::chrono::steady_clock::time_point deadline_{};
};

}  // namespace ratelab
