#pragma once

#include <QWidget>

#include "live/server_probe.h"
#include "url/redis_url.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;

namespace ratelab {

class InlineError;
class TlsFields;

// Where the window's Redis is: the managed local redis-server (the default, started by ratelab
// on a private unix socket, shown in the status and, as a redis-cli command, in the choice's
// tooltip; stopped on exit; choosing it again connects to it at once) or a URL with an optional
// password field. A URL that cannot be parsed is said on a line of its own under the fields, the
// status below it. Connecting, the local server and the periodic health check (PING latency, server
// version) are engine/live's ServerProbe, on a thread of its own; the bar keeps the health timer
// and shows what the probe reports.
class ConnectionBar : public QWidget {
    Q_OBJECT

public:
    explicit ConnectionBar(QWidget* parent = nullptr);
    ~ConnectionBar() override;

    bool useManagedServer() const;
    QString urlText() const;  // as typed (may hold a password: never log it)
    void setUrlText(const QString& text);
    void setUseManagedServer(bool managed);
    QString password() const;
    void setPassword(const QString& password);
    bool savePassword() const;
    void setSavePassword(bool save);
    const RedisUrl& currentUrl() const { return url_; }
    bool connected() const { return connected_; }
    QString statusText() const;  // never contains a password
    TlsFields* tlsFields() const { return tls_; }
    // The typed URL's error (RedisUrl's parser message), shown under the field; empty if none.
    QString urlError() const;

public slots:
    void connectToRedis();

signals:
    void targetReady(const ratelab::RedisUrl& url);  // connected and answering
    void targetLost(const QString& message);

protected:
    void changeEvent(QEvent* event) override;

private:
    void setStatus(const QString& text, bool ok);
    void showProbe(const ServerStatus& status);

    QComboBox* mode_ = nullptr;
    QLineEdit* urlEdit_ = nullptr;
    QLineEdit* password_ = nullptr;
    QCheckBox* savePassword_ = nullptr;
    TlsFields* tls_ = nullptr;  // CA / client certificate / key for rediss:// URLs
    QPushButton* connect_ = nullptr;
    InlineError* urlError_ = nullptr;
    QLabel* status_ = nullptr;  // its text in the error colour while the status is an error
    QTimer* health_ = nullptr;
    ServerProbe probe_;  // owns the managed local server
    RedisUrl url_;
    bool connected_ = false;
};

}  // namespace ratelab
