#include "window/connection_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <memory>

#include "input_error.h"
#include "redis/local_redis_server.h"
#include "redis/redis_connection.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"

namespace ratelab {

// Owns the managed local redis-server and probes servers; lives on the bar's own thread.
class ServerHost : public QObject {
public:
    struct Probe {
        bool ok = false;
        RedisUrl url;
        QString version;
        double latencyMs = 0;
        QString error;
    };

    Probe probe(bool managed, RedisUrl url) {
        Probe result;
        try {
            if (managed) {
                if (!local_ || !local_->running()) {
                    local_ = std::make_unique<LocalRedisServer>();
                    local_->start();
                }
                url = local_->url();
            } else {
                local_.reset();
            }
            result.url = url;
            if (!connection_ || connection_->broken() || !(connection_->url() == url)) {
                connection_ = std::make_unique<RedisConnection>(url);
            }
            QElapsedTimer timer;
            timer.start();
            expectPong(connection_->command({"PING"}).get());
            result.latencyMs = double(timer.nsecsElapsed()) / 1e6;
            const std::string info =
                replyString(connection_->command({"INFO", "server"}).get(), "INFO");
            const size_t at = info.find("redis_version:");
            if (at != std::string::npos) {
                result.version =
                    QString::fromStdString(info.substr(at + 14, info.find('\r', at) - at - 14));
            }
            if (url.isCluster()) {
                // The seed answered; the slot map says how many masters serve the slots. The
                // router (and its connections) is kept from one probe to the next.
                if (!router_ || !(router_->url() == url)) {
                    router_ = std::make_unique<RedisRouter>(url);
                } else {
                    router_->refreshSlotMap();
                }
                result.version += QStringLiteral(", cluster of %1 masters")
                                      .arg(router_->masterConnections().size());
            } else {
                router_.reset();
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
    static void expectPong(const redisReply* reply) {
        if (replyString(reply, "PING") != "PONG") {
            throw RedisError(RedisError::Kind::Reply, "PING: unexpected answer");
        }
    }

    std::unique_ptr<LocalRedisServer> local_;
    std::unique_ptr<RedisConnection> connection_;
    std::unique_ptr<RedisRouter> router_;  // a cluster's masters, counted at each probe
};

ConnectionBar::ConnectionBar(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(new QLabel(tr("Redis:"), this));
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("redisMode"));
    mode_->addItems({tr("Managed local server"), tr("URL")});
    layout->addWidget(mode_);
    urlEdit_ = new QLineEdit(this);
    urlEdit_->setObjectName(QStringLiteral("redisUrl"));
    urlEdit_->setPlaceholderText(QStringLiteral("redis://host:6379/0 or unix:///path/redis.sock"));
    layout->addWidget(urlEdit_, 2);
    password_ = new QLineEdit(this);
    password_->setObjectName(QStringLiteral("redisPassword"));
    password_->setEchoMode(QLineEdit::Password);
    password_->setPlaceholderText(tr("password (optional)"));
    layout->addWidget(password_, 1);
    savePassword_ = new QCheckBox(tr("Save password (plain text)"), this);
    savePassword_->setObjectName(QStringLiteral("savePassword"));
    layout->addWidget(savePassword_);
    connect_ = new QPushButton(tr("Connect"), this);
    connect_->setObjectName(QStringLiteral("redisConnect"));
    layout->addWidget(connect_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("redisStatus"));
    status_->setMinimumWidth(260);
    layout->addWidget(status_, 2);

    auto updateEnabled = [this] {
        const bool url = !useManagedServer();
        urlEdit_->setEnabled(url);
        password_->setEnabled(url);
        savePassword_->setEnabled(url);
    };
    connect(mode_, &QComboBox::currentIndexChanged, this, updateEnabled);
    updateEnabled();
    connect(connect_, &QPushButton::clicked, this, &ConnectionBar::connectToRedis);
    connect(urlEdit_, &QLineEdit::returnPressed, this, &ConnectionBar::connectToRedis);

    host_ = new ServerHost;  // owned by the thread: deleteLater when it finishes
    host_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, host_, &QObject::deleteLater);
    thread_.setObjectName(QStringLiteral("ratelab-connection"));
    thread_.start();

    health_ = new QTimer(this);
    health_->setInterval(2000);
    connect(health_, &QTimer::timeout, this, &ConnectionBar::check);
}

ConnectionBar::~ConnectionBar() {
    QMetaObject::invokeMethod(
        host_, [h = host_] { h->shutdown(); }, Qt::BlockingQueuedConnection);
    thread_.quit();
    thread_.wait();
}

bool ConnectionBar::useManagedServer() const {
    return mode_->currentIndex() == 0;
}
QString ConnectionBar::urlText() const {
    return urlEdit_->text();
}
void ConnectionBar::setUrlText(const QString& text) {
    urlEdit_->setText(text);
}
void ConnectionBar::setUseManagedServer(bool managed) {
    mode_->setCurrentIndex(managed ? 0 : 1);
}
QString ConnectionBar::password() const {
    return password_->text();
}
void ConnectionBar::setPassword(const QString& password) {
    password_->setText(password);
}
bool ConnectionBar::savePassword() const {
    return savePassword_->isChecked();
}
void ConnectionBar::setSavePassword(bool save) {
    savePassword_->setChecked(save);
}
QString ConnectionBar::statusText() const {
    return status_->text();
}

void ConnectionBar::setStatus(const QString& text, bool ok) {
    status_->setText(text);
    status_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d62728;"));
}

void ConnectionBar::connectToRedis() {
    RedisUrl url;
    const bool managed = useManagedServer();
    if (!managed) {
        try {
            url = RedisUrl::parse(urlEdit_->text().trimmed());
        } catch (const InputError& e) {
            setStatus(e.message(), false);  // the parser never quotes a password
            return;
        }
        if (!password_->text().isEmpty()) {
            url.password = password_->text();
        } else if (url.password.isEmpty()) {
            url.password = qEnvironmentVariable("REDISCLI_AUTH");
        }
    }
    const quint64 generation = ++generation_;
    connected_ = false;
    setStatus(managed ? tr("starting the managed local redis-server…") : tr("connecting…"), true);
    QMetaObject::invokeMethod(host_, [this, h = host_, managed, url, generation] {
        const ServerHost::Probe p = h->probe(managed, url);
        QMetaObject::invokeMethod(this, [this, p, managed, generation] {
            if (generation != generation_) {
                return;  // a newer connect is under way
            }
            if (!p.ok) {
                setStatus(tr("not connected: %1").arg(p.error), false);
                emit targetLost(p.error);
                return;
            }
            url_ = p.url;
            connected_ = true;
            setStatus(
                tr("connected · %1 · redis %2 · %3 ms")
                    .arg(managed ? tr("managed local server") : url_.toDisplayString(), p.version)
                    .arg(p.latencyMs, 0, 'f', 2),
                true);
            health_->start();
            emit targetReady(url_);
        });
    });
}

void ConnectionBar::check() {
    if (!connected_) {
        return;
    }
    const bool managed = useManagedServer();
    const RedisUrl url = url_;
    const quint64 generation = generation_;
    QMetaObject::invokeMethod(host_, [this, h = host_, managed, url, generation] {
        const ServerHost::Probe p = h->probe(managed, url);
        QMetaObject::invokeMethod(this, [this, p, managed, generation] {
            if (generation != generation_) {
                return;
            }
            if (!p.ok) {
                setStatus(tr("connection lost: %1 (retrying)").arg(p.error), false);
                return;
            }
            if (!(p.url == url_)) {  // the managed server was restarted on a new socket
                url_ = p.url;
                emit targetReady(url_);
            }
            setStatus(
                tr("connected · %1 · redis %2 · %3 ms")
                    .arg(managed ? tr("managed local server") : url_.toDisplayString(), p.version)
                    .arg(p.latencyMs, 0, 'f', 2),
                true);
        });
    });
}

}  // namespace ratelab
