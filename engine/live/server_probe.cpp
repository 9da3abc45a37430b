#include "live/server_probe.h"

#include <QElapsedTimer>
#include <memory>

#include "redis/local_redis_server.h"
#include "redis/redis_connection.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"

namespace ratelab {

// Lives on the probe's thread: owns the managed local server, the probing connection and a
// cluster's router (kept from one probe to the next).
class ServerProbeWorker : public QObject {
public:
    ServerStatus probe(bool managed, RedisUrl url) {
        ServerStatus result;
        result.managed = managed;
        try {
            if (managed) {
                if (!local_ || !local_->running()) {
                    local_ = std::make_unique<LocalRedisServer>();
                    local_->start();
                }
                url = local_->url();
            }
            result.url = url;
            if (!connection_ || connection_->broken() || !(connection_->url() == url)) {
                connection_ = std::make_unique<RedisConnection>(url);
            }
            QElapsedTimer timer;
            timer.start();
            if (replyString(connection_->command({"PING"}).get(), "PING") != "PONG") {
                throw RedisError(RedisError::Kind::Reply, "PING: unexpected answer");
            }
            result.latencyMs = double(timer.nsecsElapsed()) / 1e6;
            result.version =
                serverVersion(replyString(connection_->command({"INFO", "server"}).get(), "INFO"));
            if (url.isSentinel()) {
                result.version +=
                    QStringLiteral(", primary %1 via sentinel").arg(connection_->serverAddress());
            }
            if (url.isCluster()) {
                // The seed answered; the slot map says how many masters serve the slots.
                if (!router_ || !(router_->url() == url)) {
                    router_ = std::make_unique<RedisRouter>(url);
                } else {
                    router_->refreshSlotMap();
                }
                result.clusterMasters = int(router_->masterConnections().size());
            } else {
                router_.reset();
            }
            if (!managed) {
                // Only now that the URL answered: a URL that fails keeps the managed server
                // (and its keys) for a switch back.
                local_.reset();
            }
            result.ok = true;
        } catch (const std::exception& e) {
            connection_.reset();
            router_.reset();
            result.error = QString::fromStdString(e.what());
        }
        return result;
    }

    void shutdown() {
        router_.reset();
        connection_.reset();
        local_.reset();  // stops the managed server and removes its folder
    }

private:
    static QString serverVersion(const std::string& info) {
        const size_t at = info.find("redis_version:");
        if (at == std::string::npos) {
            return QString();
        }
        return QString::fromStdString(info.substr(at + 14, info.find('\r', at) - at - 14));
    }

    std::unique_ptr<LocalRedisServer> local_;
    std::unique_ptr<RedisConnection> connection_;
    std::unique_ptr<RedisRouter> router_;
};

ServerProbe::ServerProbe(QObject* parent)
    : QObject(parent), thread_(QStringLiteral("ratelab-probe")) {}

ServerProbe::~ServerProbe() {
    thread_.postAndWait([](ServerProbeWorker& w) { w.shutdown(); });
}

void ServerProbe::connectTo(bool managed, const RedisUrl& url) {
    ++generation_;
    managed_ = managed;
    url_ = url;
    connected_ = false;
    probe(true);
}

void ServerProbe::check() {
    if (connected_) {
        probe(false);
    }
}

void ServerProbe::probe(bool answersConnect) {
    const quint64 generation = generation_;
    thread_.post(
        [this, managed = managed_, url = url_, generation, answersConnect](ServerProbeWorker& w) {
            ServerStatus status = w.probe(managed, url);
            status.answersConnect = answersConnect;
            QMetaObject::invokeMethod(this, [this, status, generation] {
                if (generation != generation_) {
                    return;  // a newer connectTo is under way
                }
                if (status.ok) {
                    url_ = status.url;
                    connected_ = connected_ || status.answersConnect;
                }
                emit probed(status);
            });
        });
}

}  // namespace ratelab
