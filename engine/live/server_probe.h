#pragma once

#include <QObject>
#include <QString>

#include "live/worker_thread.h"
#include "url/redis_url.h"

namespace ratelab {

class ServerProbeWorker;

// One answer of the server probe.
struct ServerStatus {
    bool ok = false;
    bool answersConnect = false;  // the answer to connectTo (false: to a later check)
    bool managed = false;         // the managed local server
    RedisUrl url;                 // where it answered (the managed server: its socket)
    QString version;              // redis_version of INFO server; through sentinels followed
                                  // by ", primary host:port via sentinel"
    int clusterMasters = 0;       // Redis Cluster: the masters serving the slots; else 0
    double latencyMs = 0;         // one PING round trip
    QString error;                // why not ok (never holds a password)
};

// The window's Redis, probed in the background: PING latency, server version, how many masters
// a cluster has. With `managed` it starts (and owns, until it is destroyed) ratelab's own local
// redis-server on a private unix socket. Answers come as the queued signal probed(); an answer
// of an older connectTo than the latest is dropped, so a slow probe never overwrites a newer one.
class ServerProbe : public QObject {
    Q_OBJECT

public:
    explicit ServerProbe(QObject* parent = nullptr);
    ~ServerProbe() override;  // stops the managed server (waits for it)

    // A new target: connects (starting the managed server if needed) and probes it once.
    void connectTo(bool managed, const RedisUrl& url);
    // Probes the current target again (a health check); nothing before a successful connect.
    // The managed server is restarted if it died (the answer then has a new url).
    void check();

signals:
    void probed(const ratelab::ServerStatus& status);

private:
    void probe(bool answersConnect);

    bool managed_ = false;
    RedisUrl url_;            // the target as last answered
    bool connected_ = false;  // the last connectTo succeeded
    quint64 generation_ = 0;  // counts connectTo calls; older answers are dropped
    WorkerThread<ServerProbeWorker> thread_;
};

}  // namespace ratelab
