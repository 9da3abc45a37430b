#include "window/connection_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "input_error.h"
#include "style/inline_error.h"
#include "window/tls_fields.h"

namespace ratelab {

ConnectionBar::ConnectionBar(QWidget* parent) : QWidget(parent) {
    // Two lines: the fields, then what they led to (the URL's error under the field, the
    // connection status across the whole width so it reads whole at 1024 px).
    auto* lines = new QVBoxLayout(this);
    lines->setContentsMargins(6, 4, 6, 2);
    lines->setSpacing(2);
    auto* layout = new QHBoxLayout;
    layout->setContentsMargins(0, 0, 0, 0);
    lines->addLayout(layout);
    layout->addWidget(new QLabel(tr("Redis:"), this));
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("redisMode"));
    mode_->addItems({tr("Managed local server"), tr("URL")});
    layout->addWidget(mode_);
    urlEdit_ = new QLineEdit(this);
    urlEdit_->setObjectName(QStringLiteral("redisUrl"));
    urlEdit_->setPlaceholderText(
        QStringLiteral("redis://host:6379/0, rediss://host:6380 or unix:///path/redis.sock"));
    layout->addWidget(urlEdit_, 2);
    password_ = new QLineEdit(this);
    password_->setObjectName(QStringLiteral("redisPassword"));
    password_->setEchoMode(QLineEdit::Password);
    password_->setPlaceholderText(tr("password (optional)"));
    layout->addWidget(password_, 1);
    savePassword_ = new QCheckBox(tr("Save password (plain text)"), this);
    savePassword_->setObjectName(QStringLiteral("savePassword"));
    layout->addWidget(savePassword_);
    tls_ = new TlsFields(this);
    layout->addWidget(tls_);
    connect_ = new QPushButton(tr("Connect"), this);
    connect_->setObjectName(QStringLiteral("redisConnect"));
    layout->addWidget(connect_);
    // The URL's error on a line of its own (it read as part of the status beside it), then the
    // status.
    urlError_ = new InlineError(this);
    urlError_->setObjectName(QStringLiteral("redisUrlError"));
    urlError_->setWordWrap(false);
    lines->addWidget(urlError_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("redisStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lines->addWidget(status_);

    auto updateEnabled = [this] {
        const bool url = !useManagedServer();
        urlEdit_->setEnabled(url);
        password_->setEnabled(url);
        savePassword_->setEnabled(url);
        tls_->setEnabled(url);
    };
    connect(mode_, &QComboBox::currentIndexChanged, this, updateEnabled);
    updateEnabled();
    connect(connect_, &QPushButton::clicked, this, &ConnectionBar::connectToRedis);
    connect(urlEdit_, &QLineEdit::returnPressed, this, &ConnectionBar::connectToRedis);
    connect(urlEdit_, &QLineEdit::textEdited, urlError_, &QLabel::hide);
    connect(mode_, &QComboBox::currentIndexChanged, urlError_, &QLabel::hide);
    // Back to the managed server: connect to it again at once, which replaces the URL's error
    // status (a URL waits for Connect, it may not be typed yet).
    connect(mode_, &QComboBox::activated, this, [this] {
        if (useManagedServer())
            connectToRedis();
    });

    connect(&probe_, &ServerProbe::probed, this, &ConnectionBar::showProbe);
    health_ = new QTimer(this);
    health_->setInterval(2000);
    connect(health_, &QTimer::timeout, &probe_, &ServerProbe::check);
}

ConnectionBar::~ConnectionBar() = default;

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
QString ConnectionBar::urlError() const {
    return urlError_->isHidden() ? QString() : urlError_->text();
}

void ConnectionBar::setStatus(const QString& text, bool ok) {
    status_->setText(text);
    status_->setToolTip(text);  // should the window be narrower still
    InlineError::markInvalid(status_, !ok);
}

void ConnectionBar::changeEvent(QEvent* event) {
    // A new theme: an error status takes the error colour that reads on it.
    if (event->type() == QEvent::PaletteChange && status_->property("invalid").toBool())
        InlineError::markInvalid(status_, true, palette());
    QWidget::changeEvent(event);
}

void ConnectionBar::connectToRedis() {
    RedisUrl url;
    const bool managed = useManagedServer();
    if (!managed) {
        // Checked before anything else: a URL that cannot be used leaves the working
        // connection (and the managed server) as it is and says what is wrong under the field.
        try {
            url = RedisUrl::parse(urlEdit_->text().trimmed());
        } catch (const InputError& e) {
            urlError_->showMessage(e.message());  // the parser never quotes a password
            urlError_->setToolTip(e.message());
            return;
        }
        if (!password_->text().isEmpty()) {
            url.password = password_->text();
        } else if (url.password.isEmpty()) {
            url.password = qEnvironmentVariable("REDISCLI_AUTH");
        }
        if (const QString problem = tls_->applyTo(url); !problem.isEmpty()) {
            setStatus(problem, false);
            return;
        }
    }
    urlError_->hide();
    connected_ = false;
    setStatus(managed ? tr("starting the managed local redis-server…") : tr("connecting…"), true);
    probe_.connectTo(managed, url);
}

void ConnectionBar::showProbe(const ServerStatus& status) {
    if (!status.ok) {
        if (status.answersConnect) {
            setStatus(tr("not connected: %1").arg(status.error), false);
            emit targetLost(status.error);
        } else {
            setStatus(tr("connection lost: %1 (retrying)").arg(status.error), false);
        }
        return;
    }
    const bool moved = !(status.url == url_);  // a managed server restarted on a new socket
    url_ = status.url;
    QString version = status.version;
    if (status.clusterMasters > 0) {
        version += tr(", cluster of %1 masters").arg(status.clusterMasters);
    }
    // The managed server by its socket, so that redis-cli can look at what the run wrote.
    const bool socket = status.managed && !url_.socketPath.isEmpty();
    const QString where = !status.managed ? url_.toDisplayString()
                          : socket        ? tr("managed local server at %1").arg(url_.socketPath)
                                          : tr("managed local server");
    setStatus(tr("connected · %1 · redis %2 · %3 ms")
                  .arg(where, version)
                  .arg(status.latencyMs, 0, 'f', 2),
              true);
    if (status.managed) {
        mode_->setItemData(0,
                           socket ? tr("ratelab's own redis-server on a private unix socket; look "
                                       "at its keys with: redis-cli -s %1")
                                        .arg(url_.socketPath)
                                  : tr("ratelab's own redis-server on a private unix socket"),
                           Qt::ToolTipRole);
        mode_->setToolTip(mode_->itemData(0, Qt::ToolTipRole).toString());
    }
    if (status.answersConnect) {
        connected_ = true;
        health_->start();
        emit targetReady(url_);
    } else if (moved) {
        emit targetReady(url_);
    }
}

}  // namespace ratelab
