#pragma once

#include <QString>
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ratelab::test {

// A TCP server on 127.0.0.1 (its own thread, one poll loop) that speaks just enough RESP to
// stand in for a Redis that misbehaves. Each command it reads is handed to `answer`, which
// returns the reply's bytes, or nullopt to stall: from then on that connection gets
// "$1000000\r\n" and then one byte every 200 ms (a reply that never completes), until
// `trickleFor` has passed, when the connection is closed.
class FakeRedisServer {
public:
    using Command = std::vector<std::string>;
    using Answer = std::function<std::optional<std::string>(const Command&)>;

    explicit FakeRedisServer(Answer answer,
                             std::chrono::milliseconds trickleFor = std::chrono::seconds(20));
    ~FakeRedisServer();
    FakeRedisServer(const FakeRedisServer&) = delete;
    FakeRedisServer& operator=(const FakeRedisServer&) = delete;

    int port() const { return port_; }
    QString url() const { return QStringLiteral("redis://127.0.0.1:%1").arg(port_); }
    int accepted() const { return accepted_.load(); }
    int stalled() const { return stalled_.load(); }

    // Every command stalls.
    static std::optional<std::string> stallEverything(const Command&) { return std::nullopt; }
    // Enough for a limiter's reset (TYPE, SCAN, UNLINK, DEL), SCRIPT LOAD and PING; scripts stall.
    static std::optional<std::string> stallScripts(const Command& command);

private:
    void loop();

    Answer answer_;
    std::chrono::milliseconds trickleFor_;
    int listenFd_ = -1;
    int wakeFds_[2] = {-1, -1};
    int port_ = 0;
    std::atomic<int> accepted_{0};
    std::atomic<int> stalled_{0};
    std::thread thread_;
};

}  // namespace ratelab::test
