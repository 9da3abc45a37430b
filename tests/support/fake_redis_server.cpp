#include "support/fake_redis_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QtGlobal>
#include <algorithm>
#include <cctype>

namespace ratelab::test {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kTrickleEvery{200};

struct Client {
    int fd = -1;
    std::string in;
    bool stalled = false;
    Clock::time_point stalledAt{};
    Clock::time_point nextByte{};
};

// One RESP array of bulk strings from the front of `buffer`; false while incomplete.
bool takeCommand(std::string& buffer, FakeRedisServer::Command& command) {
    command.clear();
    if (buffer.empty() || buffer[0] != '*') {
        return false;
    }
    size_t pos = buffer.find("\r\n");
    if (pos == std::string::npos) {
        return false;
    }
    const long count = std::stol(buffer.substr(1, pos - 1));
    pos += 2;
    for (long i = 0; i < count; ++i) {
        const size_t end = buffer.find("\r\n", pos);
        if (end == std::string::npos || buffer[pos] != '$') {
            return false;
        }
        const size_t len = std::stoul(buffer.substr(pos + 1, end - pos - 1));
        if (buffer.size() < end + 2 + len + 2) {
            return false;
        }
        command.push_back(buffer.substr(end + 2, len));
        pos = end + 2 + len + 2;
    }
    buffer.erase(0, pos);
    return true;
}

void sendAll(int fd, const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) {
            return;
        }
        sent += size_t(n);
    }
}

}  // namespace

std::optional<std::string> FakeRedisServer::stallScripts(const Command& command) {
    std::string name = command.empty() ? std::string() : command[0];
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    if (name == "PING") {
        return std::string("+PONG\r\n");
    }
    if (name == "SCAN") {
        return std::string("*2\r\n$1\r\n0\r\n*0\r\n");
    }
    if (name == "UNLINK" || name == "DEL" || name == "EXISTS") {
        return std::string(":0\r\n");
    }
    if (name == "TYPE") {  // an empty server: no key is there (reset asks before deleting)
        return std::string("+none\r\n");
    }
    if (name == "SCRIPT") {  // SCRIPT LOAD: a digest (which one does not matter here)
        return "$40\r\n" + std::string(40, '0') + "\r\n";
    }
    if (name == "EVALSHA" || name == "EVAL") {
        return std::nullopt;
    }
    return std::string("-ERR unknown command\r\n");
}

FakeRedisServer::FakeRedisServer(Answer answer, std::chrono::milliseconds trickleFor)
    : answer_(std::move(answer)), trickleFor_(trickleFor) {
    listenFd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        ::listen(listenFd_, 64) != 0) {
        qFatal("FakeRedisServer: cannot listen on 127.0.0.1");
    }
    socklen_t len = sizeof(addr);
    ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    if (::pipe(wakeFds_) != 0) {
        qFatal("FakeRedisServer: pipe failed");
    }
    thread_ = std::thread([this] { loop(); });
}

FakeRedisServer::~FakeRedisServer() {
    const char byte = 0;
    (void)!::write(wakeFds_[1], &byte, 1);
    thread_.join();
    ::close(listenFd_);
    ::close(wakeFds_[0]);
    ::close(wakeFds_[1]);
}

void FakeRedisServer::loop() {
    std::vector<Client> clients;
    for (;;) {
        std::vector<pollfd> fds{{wakeFds_[0], POLLIN, 0}, {listenFd_, POLLIN, 0}};
        for (const Client& c : clients) {
            fds.push_back({c.fd, POLLIN, 0});
        }
        ::poll(fds.data(), fds.size(), int(kTrickleEvery.count() / 4));
        if (fds[0].revents != 0) {
            break;
        }
        if (fds[1].revents & POLLIN) {
            const int fd = ::accept(listenFd_, nullptr, nullptr);
            if (fd >= 0) {
                clients.push_back(Client{fd, {}, false, {}, {}});
                accepted_++;
            }
        }
        const Clock::time_point now = Clock::now();
        for (size_t i = 0; i < clients.size(); ++i) {
            Client& c = clients[i];
            bool closed = false;
            const size_t index = i + 2;
            if (index < fds.size() && fds[index].fd == c.fd && fds[index].revents != 0) {
                char buffer[4096];
                const ssize_t n = ::recv(c.fd, buffer, sizeof(buffer), MSG_DONTWAIT);
                if (n <= 0) {
                    closed = true;
                } else if (!c.stalled) {
                    c.in.append(buffer, size_t(n));
                    Command command;
                    while (!c.stalled && takeCommand(c.in, command)) {
                        if (const std::optional<std::string> reply = answer_(command)) {
                            sendAll(c.fd, *reply);
                        } else {
                            c.stalled = true;
                            c.stalledAt = now;
                            c.nextByte = now + kTrickleEvery;
                            stalled_++;
                            sendAll(c.fd, "$1000000\r\n");
                        }
                    }
                }
            }
            if (!closed && c.stalled && now >= c.nextByte) {
                if (now - c.stalledAt >= trickleFor_) {
                    closed = true;
                } else {
                    sendAll(c.fd, "x");
                    c.nextByte = now + kTrickleEvery;
                }
            }
            if (closed) {
                ::close(c.fd);
                clients.erase(clients.begin() + long(i));
                fds.erase(fds.begin() + long(index));
                --i;
            }
        }
    }
    for (const Client& c : clients) {
        ::close(c.fd);
    }
}

}  // namespace ratelab::test
