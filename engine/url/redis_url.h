#pragma once

#include <QString>
#include <QVector>

namespace ratelab {

// Where and how to reach a Redis server.
//   redis://[[user]:password@]host[:port][/db]     (port 6379, db 0 by default)
//   unix:///path/to/socket[?db=N]                   (also unix://[[user]:password@]/path)
//   redis-cluster://[[user]:password@]host:port[,host:port...][/0]
//                                                   (seed nodes of a Redis Cluster; db 0 only)
//   rediss://... and rediss-cluster://...           (the same over TLS: tls is set)
//   redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/MASTER_NAME[?db=N]
//                                                   (a primary found through its sentinels;
//                                                   see url/sentinel_url.h; no TLS)
// Other schemes are refused with InputError.
// User and password are percent-decoded. Passwords never appear in toDisplayString(). User info
// without ':' ("redis://SECRET@host") is refused: some clients take it as a password.
struct RedisUrl {
    enum class Transport { Tcp, Unix, Cluster, Sentinel };

    // The files a TLS session uses (paths as given). An empty CA means the system's trust store;
    // cert and key (both or neither) are the client's certificate for mutual TLS.
    struct TlsFiles {
        QString caCert;
        QString cert;
        QString key;
        bool operator==(const TlsFiles& o) const {
            return caCert == o.caCert && cert == o.cert && key == o.key;
        }
    };

    struct HostPort {
        QString host;
        int port = 6379;
        bool operator==(const HostPort& o) const { return host == o.host && port == o.port; }
    };

    Transport transport = Transport::Tcp;
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379;
    QString socketPath;
    int db = 0;
    QString user;      // empty: the default user (AUTH password)
    QString password;  // empty: no AUTH
    // Cluster: the seed nodes the slot map is first read from (host and port hold the first).
    // Sentinel: the sentinels asked for the primary (host and port hold the first).
    QVector<HostPort> seeds;
    // Sentinel: the name the sentinels monitor the primary under, and the sentinels' own AUTH
    // (user and password above are the primary's).
    QString masterName;
    QString sentinelUser;
    QString sentinelPassword;
    // TLS (rediss://, rediss-cluster://): every node is reached through a TLS session whose
    // server certificate is verified against tlsFiles.caCert and the host name.
    bool tls = false;
    TlsFiles tlsFiles;

    bool isCluster() const { return transport == Transport::Cluster; }
    bool isSentinel() const { return transport == Transport::Sentinel; }
    // A redis:// (rediss:// with TLS) URL for one node of a cluster with this URL's user,
    // password and TLS files.
    RedisUrl nodeUrl(const QString& nodeHost, int nodePort) const;

    // Throws InputError naming the part of the URL that is wrong (the password is never quoted).
    static RedisUrl parse(const QString& text);

    // The URL with the password replaced by "***": safe to print, log and save.
    QString toDisplayString() const;

    bool operator==(const RedisUrl& other) const;
};

}  // namespace ratelab
