#pragma once

#include <QDialog>
#include <QWidget>

#include "url/redis_url.h"

class QLabel;
class QLineEdit;
class QPushButton;

namespace ratelab {

class InlineError;

// The TLS files of a rediss:// connection in the connection bar: a "TLS…" button that opens
// TlsDialog, the CA certificate, client certificate and key fields. An empty field falls back
// to REDIS_TLS_CA_CERT / REDIS_TLS_CERT / REDIS_TLS_KEY, as on the command line; an empty CA
// means the system's trusted CAs.
class TlsFields : public QWidget {
    Q_OBJECT

public:
    explicit TlsFields(QWidget* parent = nullptr);

    const RedisUrl::TlsFiles& files() const { return files_; }
    void setFiles(const RedisUrl::TlsFiles& files);

    // Puts the files into `url` (a rediss:// URL). Returns an error to show inline instead when
    // files are given for a URL without TLS or a file cannot be read; empty when fine.
    QString applyTo(RedisUrl& url) const;

private:
    void edit();
    void showSummary();

    QPushButton* button_ = nullptr;
    RedisUrl::TlsFiles files_;
};

// Edits the three files, each with a Browse… button; OK checks that each given file can be
// read and shows what is wrong under the fields otherwise.
class TlsDialog : public QDialog {
    Q_OBJECT

public:
    TlsDialog(const RedisUrl::TlsFiles& files, QWidget* parent = nullptr);
    RedisUrl::TlsFiles files() const;
    void accept() override;

private:
    QLineEdit* addFileRow(const QString& label, const QString& objectName, const QString& value,
                          const QString& placeholder);

    QLineEdit* ca_ = nullptr;
    QLineEdit* cert_ = nullptr;
    QLineEdit* key_ = nullptr;
    InlineError* error_ = nullptr;
};

}  // namespace ratelab
