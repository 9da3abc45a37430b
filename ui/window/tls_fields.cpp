#include "window/tls_fields.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include "style/inline_error.h"

namespace ratelab {
namespace {

// Empty when `path` names a readable file; else why not.
QString unreadable(const QString& path, const QString& role) {
    QFile file(path);
    if (!QFileInfo(path).isFile()) {
        return QObject::tr("%1 %2: no such file").arg(role, path);
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return QObject::tr("%1 %2: %3").arg(role, path, file.errorString());
    }
    return QString();
}

// A field's value, else its environment variable.
QString orEnvironment(const QString& value, const char* variable) {
    return value.isEmpty() ? qEnvironmentVariable(variable) : value;
}

}  // namespace

TlsFields::TlsFields(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    button_ = new QPushButton(tr("TLS…"), this);
    button_->setObjectName(QStringLiteral("redisTls"));
    layout->addWidget(button_);
    connect(button_, &QPushButton::clicked, this, &TlsFields::edit);
    showSummary();
}

void TlsFields::setFiles(const RedisUrl::TlsFiles& files) {
    files_ = files;
    showSummary();
}

void TlsFields::showSummary() {
    const bool any = !files_.caCert.isEmpty() || !files_.cert.isEmpty() || !files_.key.isEmpty();
    button_->setText(any ? tr("TLS ✓") : tr("TLS…"));
    button_->setToolTip(
        tr("TLS files for rediss:// and rediss-cluster:// URLs\nCA: %1\nclient certificate: %2\n"
           "client key: %3")
            .arg(files_.caCert.isEmpty() ? tr("(REDIS_TLS_CA_CERT or the system's CAs)")
                                         : files_.caCert,
                 files_.cert.isEmpty() ? tr("(none)") : files_.cert,
                 files_.key.isEmpty() ? tr("(none)") : files_.key));
}

void TlsFields::edit() {
    TlsDialog dialog(files_, this);
    if (dialog.exec() == QDialog::Accepted) {
        setFiles(dialog.files());
    }
}

QString TlsFields::applyTo(RedisUrl& url) const {
    if (!url.tls) {
        if (!files_.caCert.isEmpty() || !files_.cert.isEmpty() || !files_.key.isEmpty()) {
            return tr(
                "TLS files need a rediss:// or rediss-cluster:// URL (or clear them under "
                "TLS…)");
        }
        return QString();
    }
    RedisUrl::TlsFiles files;
    files.caCert = orEnvironment(files_.caCert, "REDIS_TLS_CA_CERT");
    files.cert = orEnvironment(files_.cert, "REDIS_TLS_CERT");
    files.key = orEnvironment(files_.key, "REDIS_TLS_KEY");
    const std::pair<QString, QString> checks[] = {{files.caCert, tr("TLS CA certificate")},
                                                  {files.cert, tr("TLS client certificate")},
                                                  {files.key, tr("TLS client key")}};
    for (const auto& [path, role] : checks) {
        if (!path.isEmpty()) {
            const QString problem = unreadable(path, role);
            if (!problem.isEmpty()) {
                return problem;
            }
        }
    }
    if (files.cert.isEmpty() != files.key.isEmpty()) {
        return tr("a TLS client certificate needs its key, and a key its certificate");
    }
    url.tlsFiles = files;
    return QString();
}

TlsDialog::TlsDialog(const RedisUrl::TlsFiles& files, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("TLS for rediss://"));
    auto* grid = new QGridLayout(this);
    ca_ = addFileRow(tr("CA certificate"), QStringLiteral("tlsCaCert"), files.caCert,
                     tr("REDIS_TLS_CA_CERT, else the system's trusted CAs"));
    cert_ = addFileRow(tr("Client certificate"), QStringLiteral("tlsCert"), files.cert,
                       tr("mutual TLS only (REDIS_TLS_CERT)"));
    key_ = addFileRow(tr("Client key"), QStringLiteral("tlsKey"), files.key,
                      tr("unencrypted PEM (REDIS_TLS_KEY)"));
    error_ = new InlineError(this);
    error_->setObjectName(QStringLiteral("tlsError"));
    grid->addWidget(error_, 3, 0, 1, 3);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &TlsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &TlsDialog::reject);
    grid->addWidget(buttons, 4, 0, 1, 3);
}

QLineEdit* TlsDialog::addFileRow(const QString& label, const QString& objectName,
                                 const QString& value, const QString& placeholder) {
    auto* grid = static_cast<QGridLayout*>(layout());
    const int row = grid->rowCount() == 1 && grid->count() == 0 ? 0 : grid->rowCount();
    auto* edit = new QLineEdit(value, this);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setMinimumWidth(360);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this, edit, label] {
        const QString path = QFileDialog::getOpenFileName(
            this, label, edit->text(), tr("PEM files (*.pem *.crt *.key *.cert);;All files (*)"));
        if (!path.isEmpty()) {
            edit->setText(path);
        }
    });
    grid->addWidget(new QLabel(label, this), row, 0);
    grid->addWidget(edit, row, 1);
    grid->addWidget(browse, row, 2);
    return edit;
}

RedisUrl::TlsFiles TlsDialog::files() const {
    return RedisUrl::TlsFiles{ca_->text().trimmed(), cert_->text().trimmed(),
                              key_->text().trimmed()};
}

void TlsDialog::accept() {
    const RedisUrl::TlsFiles f = files();
    QStringList problems;
    const std::pair<QString, QString> checks[] = {{f.caCert, tr("CA certificate")},
                                                  {f.cert, tr("Client certificate")},
                                                  {f.key, tr("Client key")}};
    for (const auto& [path, role] : checks) {
        if (!path.isEmpty()) {
            const QString problem = unreadable(path, role);
            if (!problem.isEmpty()) {
                problems << problem;
            }
        }
    }
    if (f.cert.isEmpty() != f.key.isEmpty()) {
        problems << tr("a client certificate needs its key, and a key its certificate");
    }
    if (!problems.isEmpty()) {
        error_->showMessage(problems.join(QLatin1Char('\n')));
        return;
    }
    QDialog::accept();
}

}  // namespace ratelab
